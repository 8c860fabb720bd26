import type { AirtimePaymentStatus, RechargeStatus } from '../../schemas/airtime.js';
import type { Provider } from '../../schemas/provider.js';

export interface AirtimePaymentRecord {
  readonly id: number;
  readonly accountId: number;
  readonly reference: string;
  readonly msisdn: string;
  readonly amount: number;
  readonly provider: Provider;
  status: AirtimePaymentStatus;
  message: string;
  readonly created_at: string;
  updated_at: string;
}

export interface RechargeRecord {
  readonly controlNumber: string;
  readonly accountId: number;
  readonly amount: number;
  readonly msisdn: string | null;
  status: 'pending' | Exclude<RechargeStatus, 'pending'>;
  readonly created_at: string;
  updated_at: string;
}

export class AirtimeBook {
  readonly payments: AirtimePaymentRecord[] = [];
  readonly recharges = new Map<string, RechargeRecord>();
  clear(): void {
    this.payments.length = 0;
    this.recharges.clear();
  }
}

export function airtimePaymentView(record: AirtimePaymentRecord) {
  const { accountId, updated_at, ...view } = record;
  return view;
}
