import type { Endpoint } from '../../core/endpoints.js';
import { airtimeBulkResponseSchema } from '../../schemas/airtime-bulk.js';

/**
 * The platform's bulk import route. Production lists `customer/bulkpayment` ("session auth,
 * Excel-based"); the sandbox serves it under the airtime prefix with the airtime bearer token
 * (docs/api-contract.md § Bulk airtime). It takes `multipart/form-data`, so it lives outside
 * the JSON endpoint table and goes through `Transport.upload`. It moves money: never retried.
 */
export const airtimeBulkPaymentEndpoint = {
  id: 'airtimeBulkPayment',
  product: 'airtime',
  method: 'POST',
  sandboxPath: '/customer/bulkpayment',
  productionPath: '/customer/bulkpayment',
  auth: 'bearer',
  retry: 'money',
  request: undefined,
  response: airtimeBulkResponseSchema,
  summary: 'Sends airtime to every row of an uploaded .xlsx/.csv file.',
} as const satisfies Endpoint;
