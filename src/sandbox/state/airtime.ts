import type { airtimePaymentSchema, rechargeResponseSchema } from '../../schemas/airtime.js';
import type { WireRecord } from './wire-record.js';

/** The wire payment, plus its owner; `airtimePaymentView` shows the wire fields only. */
export type AirtimePaymentRecord = WireRecord<typeof airtimePaymentSchema> & {
  readonly accountId: number;
  updated_at: string;
};

export type RechargeRecord = Omit<WireRecord<typeof rechargeResponseSchema>, 'message'> & {
  readonly accountId: number;
  readonly msisdn: string | null;
  readonly created_at: string;
  updated_at: string;
};

export class AirtimeBook {
  readonly payments: AirtimePaymentRecord[] = [];
  readonly recharges = new Map<string, RechargeRecord>();
}

export function airtimePaymentView(record: AirtimePaymentRecord) {
  const { accountId, updated_at, ...view } = record;
  return view;
}
