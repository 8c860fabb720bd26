import { Pesakit } from '../../client.js';
import type { ReferenceStore, TransactionRecord } from '../../references/index.js';
import { createSandbox } from '../../sandbox/index.js';

export type DemoOutput = (line: string) => void;

const accounts = {
  collection: { email: 'collect@demo.pesakit.tz', password: 'demo-collect-pass' },
  airtime: { email: 'airtime@demo.pesakit.tz', password: 'demo-airtime-pass' },
  disbursement: { email: 'payouts@demo.pesakit.tz', password: 'demo-payouts-pass' },
};

/** Every product's flow once (initiate, settle, pull) against an in-memory sandbox, with the given store. */
export async function runDemo(
  store: ReferenceStore,
  print: DemoOutput,
): Promise<TransactionRecord[]> {
  const sandbox = await createSandbox({
    autoSettle: false,
    seed: {
      accounts: [
        { product: 'collection', ...accounts.collection },
        { product: 'airtime', ...accounts.airtime, status: 'active', balance: 0 },
        { product: 'disbursement', ...accounts.disbursement, status: 'active', balance: 250_000 },
      ],
    },
  });
  const url = await sandbox.listen({ port: 0 });
  print(`sandbox   listening on ${url} (in memory)`);
  const control = (path: string, body: unknown) =>
    fetch(`${url}/api/sandbox/_control/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => response.json());

  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl: url,
    credentials: accounts,
    store,
  });
  const made: string[] = [];
  try {
    const payment = await pesakit.collection.initiateMno({
      amount: 15_000,
      msisdn: '255754123456',
    });
    made.push(payment.merchantReference);
    print(
      `collection initiated ${payment.merchantReference}: controlNumber ${payment.controlNumber}, ` +
        `reference ${payment.reference}, ${payment.record.status}`,
    );
    await control('collection/settle', { ref_id: payment.controlNumber, outcome: 'success' });
    const pulled = await pesakit.collection.status(payment.controlNumber);
    print(`collection pulled status: ${pulled.data.status}; store says ${pulled.record?.status}`);

    const recharge = await pesakit.airtime.recharge({ amount: 20_000 });
    made.push(recharge.merchantReference);
    await pesakit.airtime.confirmRecharge({ controlNumber: recharge.controlNumber, status: true });
    print(`airtime   wallet recharged by controlNumber ${recharge.controlNumber}`);
    const sale = await pesakit.airtime.purchase({ msisdn: '255684123456', amount: 5_000 });
    made.push(sale.merchantReference);
    print(`airtime   sold 5,000 TZS to 255684123456: ${sale.status} (${sale.message})`);
    const refused = await pesakit.airtime.purchase({ msisdn: '255684000999', amount: 1_000 });
    made.push(refused.merchantReference);
    print(`airtime   vendor refused 255684000999: ${refused.status}, wallet untouched`);
    const { user } = await pesakit.airtime.user();
    print(`airtime   wallet balance ${user.wallet.balance} TZS`);

    const payout = await pesakit.disbursement.pay({
      msisdn: '255713123456',
      amount: 40_000,
      name: 'Neema',
    });
    made.push(payout.merchantReference);
    print(
      `payout    sent 40,000 TZS: refid ${payout.record.refid}, txnid ${payout.record.txnid}, ${payout.record.status}`,
    );
    const { wallet } = await pesakit.disbursement.user();
    print(`payout    wallet balance ${wallet.balance} TZS (amount plus charge debited)`);

    const records: TransactionRecord[] = [];
    for (const reference of made) {
      const record = await store.records.get(reference);
      if (record) records.push(record);
    }
    print('store     every transaction, found again by each of its references:');
    for (const record of records) {
      const references = [
        record.controlNumber,
        record.paymentReference,
        record.externalReference,
        record.txnid,
        record.refid,
      ].filter((value): value is string => value !== null);
      const found = await Promise.all(
        references.map((reference) => store.records.find({ value: reference })),
      );
      const allFound = found.every(
        (match) => match?.merchantReference === record.merchantReference,
      );
      print(
        `  ${record.merchantReference}  ${record.flow.padEnd(16)} ${String(record.amount).padStart(7)} TZS  ` +
          `${record.status.padEnd(7)}  ${references.join(', ')}${allFound ? '' : '  (lookup mismatch!)'}`,
      );
    }
    return records;
  } finally {
    await sandbox.close();
  }
}
