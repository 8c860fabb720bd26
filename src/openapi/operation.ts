import type { Endpoint, EndpointId } from '../core/endpoints.js';
import { airtimeBulkBatchIdSchema } from '../schemas/airtime-bulk.js';
import { errorResponses } from './error-responses.js';
import { pathParametersOf } from './path-template.js';
import type { SchemaComponents } from './schema-components.js';
import { authNotes, securityByAuth } from './security.js';
import type { OpenApiOperation, OpenApiRequestBody, OpenApiResponse } from './types.js';

/** Registration creates an account: the sandbox answers 201 there, 200 everywhere else. */
const createdBy: ReadonlySet<string> = new Set<EndpointId>([
  'airtimeRegister',
  'disbursementRegister',
]);

/** Successes a client could mistake for something else. */
const successNotes: Readonly<Partial<Record<EndpointId, string>>> = {
  airtimePurchase:
    'A vendor failure is also a 200, with `status: "failed"`: the outcome is known and final, ' +
    'and the wallet is untouched.',
  engineCallback: 'A repeated paymentReference changes nothing and answers `duplicate: true`.',
};

const moneyNote =
  'Moves money. The platform has no idempotency key, so a retry after an unknown outcome could ' +
  'move it twice: the SDK never retries this call and reports an AmbiguousOutcomeError instead.';

const pascalCase = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

export function buildOperation(
  endpoint: Endpoint,
  template: string,
  components: SchemaComponents,
): OpenApiOperation {
  const description = [authNotes[endpoint.auth], endpoint.retry === 'money' ? moneyNote : '']
    .filter(Boolean)
    .join(' ');
  const parameters = pathParametersOf(template, components);
  const security = securityByAuth[endpoint.auth];
  const status = createdBy.has(endpoint.id) ? '201' : '200';
  const requestBody = jsonBodyOf(endpoint, components) ?? uploadBodyOf(endpoint.id, components);
  const success: OpenApiResponse = {
    description: [
      status === '201' ? 'Created.' : 'Success.',
      successNotes[endpoint.id as EndpointId],
    ]
      .filter(Boolean)
      .join(' '),
    content: {
      'application/json': {
        schema: components.ref(endpoint.response, 'output', `${pascalCase(endpoint.id)}Response`),
      },
    },
  };
  return {
    operationId: endpoint.id,
    tags: [endpoint.product],
    summary: endpoint.summary,
    ...(description !== '' ? { description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    security,
    ...(requestBody !== undefined ? { requestBody } : {}),
    responses: { [status]: success, ...errorResponses(endpoint, components) },
  };
}

function jsonBodyOf(
  endpoint: Endpoint,
  components: SchemaComponents,
): OpenApiRequestBody | undefined {
  if (endpoint.request === undefined) return undefined;
  return {
    // A body whose every field is optional may be left out: the sandbox reads none as {}.
    required: !endpoint.request.safeParse({}).success,
    content: {
      'application/json': {
        schema: components.ref(endpoint.request, 'input', `${pascalCase(endpoint.id)}Request`),
      },
    },
  };
}

/** The `multipart/form-data` body of a file-upload route (docs/api-contract.md § Bulk airtime). */
function uploadBodyOf(
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
                'file name. The part must be a file (a `filename` in its Content-Disposition): a part ' +
                'without one reads as a text field and is refused (422).',
            },
            batch_id: {
              ...components.ref(airtimeBulkBatchIdSchema, 'input', 'AirtimeBulkBatchId'),
              description:
                "Names the batch; each row's `merchant_reference` is `airtime:<batch_id>:<row>`. " +
                'Generated when left out.',
            },
          },
        },
      },
    },
  };
}
