import type { Endpoint } from '../../core/endpoints.js';
import { airtimeBulkResponseSchema } from '../../schemas/airtime-bulk.js';

/**
 * The bulk import route (`customer/bulkpayment`, airtime bearer token): multipart, so it goes
 * through `Transport.upload` outside the JSON table. It moves money: never retried.
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
