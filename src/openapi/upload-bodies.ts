import { airtimeBulkBatchIdSchema } from '../schemas/airtime-bulk.js';
import type { SchemaComponents } from './schema-components.js';
import type { OpenApiRequestBody } from './types.js';

/** The `multipart/form-data` body of a file-upload route (docs/api-contract.md § Bulk airtime). */
export function uploadBodyOf(
  endpointId: string,
  components: SchemaComponents,
): OpenApiRequestBody | undefined {
  if (endpointId !== 'airtimeBulkPayment') return undefined;
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          properties: {
            file: {
              type: 'string',
              contentMediaType: 'application/octet-stream',
              description:
                'The rows: an .xlsx workbook (first sheet) or a UTF-8 CSV, at most 5 MiB and ' +
                '5 000 rows; a header row `msisdn`, `amount`, optional `reference` (any case, any ' +
                'order, other columns ignored). The format is read from the content, then the ' +
                'file name.',
            },
            batch_id: {
              ...components.ref(airtimeBulkBatchIdSchema, 'input', 'AirtimeBulkBatchId'),
              description:
                'Names the batch; row merchant references are `<batch_id>:<row>`. Generated when left out.',
            },
          },
        },
      },
    },
  };
}
