/** Callback bodies as the platform sends them (docs/api-contract.md § Merchant callback). */
export function engineCallback(overrides: {
  paymentReference: string;
  amount: number;
  status?: boolean;
  transactionID?: string;
}) {
  return {
    message: overrides.status === false ? 'Payment failed' : 'Payment successful',
    code: overrides.status === false ? '400' : '200',
    status: overrides.status ?? true,
    description: 'Settled',
    data: {
      providerType: 'MNO',
      providerName: 'Vodacom',
      amount: overrides.amount,
      paymentReference: overrides.paymentReference,
      payerMobile: '255754123456',
      transactionDate: '2024-06-01 12:30:00',
      transactionID: overrides.transactionID ?? 'MP240601.1230.A1',
      transactionChannel: 'USSD',
    },
  };
}

export function merchantCallback(overrides: {
  paymentReference: string;
  controlNumber: string;
  amount: number;
  status?: boolean;
  external_reference?: string | null;
  transactionID?: string;
}) {
  return {
    ...engineCallback(overrides),
    controlNumber: overrides.controlNumber,
    external_reference: overrides.external_reference ?? null,
  };
}
