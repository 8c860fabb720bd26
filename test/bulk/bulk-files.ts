import ExcelJS from 'exceljs';
import type { Harness } from '../helpers/sandbox-harness.js';
import { accounts } from '../helpers/sandbox-harness.js';

export interface SheetRow {
  msisdn: string | number;
  amount: number | string;
  reference?: string;
}

/** A distinct payable Vodacom number per index, ending in 1 (never a failing `…999`). */
export function msisdnFor(index: number): string {
  return `25575${String(index).padStart(6, '0')}1`;
}

/** `count` rows of 1,000 TZS to distinct numbers; `failing` row numbers get a `…999` number. */
export function batchRows(
  count: number,
  failing: readonly number[] = [],
): Array<{ msisdn: string; amount: number; reference: string }> {
  return Array.from({ length: count }, (_, index) => {
    const row = index + 1;
    return {
      msisdn: failing.includes(row) ? `25576${String(row).padStart(4, '0')}999` : msisdnFor(row),
      amount: 1000,
      reference: `staff-${row}`,
    };
  });
}

/** A real .xlsx made with exceljs: a `msisdn, amount, reference` header, then the rows. */
export async function xlsxOf(rows: readonly SheetRow[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('airtime');
  sheet.addRow(['msisdn', 'amount', 'reference']);
  for (const row of rows) sheet.addRow([row.msisdn, row.amount, row.reference ?? null]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A CSV with CRLF line ends, as Excel saves it. */
export function csvOf(rows: readonly SheetRow[]): Buffer {
  const lines = ['msisdn,amount,reference'];
  for (const row of rows) lines.push(`${row.msisdn},${row.amount},${row.reference ?? ''}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/** Reads a results workbook back: one object per data row, keyed by the header. */
export async function readXlsx(bytes: Buffer): Promise<Record<string, unknown>[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Record<string, unknown>[] = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const values = (row.values as unknown[]).slice(1);
    rows.push(Object.fromEntries(header.map((name, index) => [name, values[index] ?? null])));
  });
  return rows;
}

/** Credits the airtime wallet through the control API. */
export async function fundAirtime(harness: Harness, amount: number): Promise<void> {
  await harness.control('wallets/credit', {
    product: 'airtime',
    email: accounts.airtime.email,
    amount,
  });
}

/**
 * Purchases the sandbox made, per MSISDN, from its control API (`_control/airtime/payments`:
 * every airtime payment it recorded, single purchases and bulk rows alike, each checked to be
 * for the amount the batch asked). The ground truth for "was anyone paid twice?".
 */
export async function purchasesByMsisdn(
  harness: Harness,
  amount = 1000,
): Promise<Map<string, number>> {
  const { payments } = (await harness.control('airtime/payments')) as {
    payments: Array<{ msisdn: string; amount: number }>;
  };
  const counts = new Map<string, number>();
  for (const payment of payments) {
    if (payment.amount !== amount) throw new Error(`unexpected amount: ${JSON.stringify(payment)}`);
    counts.set(payment.msisdn, (counts.get(payment.msisdn) ?? 0) + 1);
  }
  return counts;
}

/** The airtime wallet's balance, read through the SDK. */
export async function airtimeBalance(harness: Harness): Promise<number> {
  const { user } = await harness.client().airtime.user();
  return user.wallet.balance;
}

/** `count` payout rows of 1,000 TZS to distinct payable numbers, each with a name and reference. */
export function payoutRows(count: number, amount = 1000) {
  return Array.from({ length: count }, (_, index) => ({
    msisdn: msisdnFor(index + 1),
    amount,
    name: `Staff ${index + 1}`,
    reference: `salary-${index + 1}`,
  }));
}

/** A payout CSV: `msisdn,amount,name,reference`. */
export function payoutCsvOf(rows: ReadonlyArray<Record<string, string | number>>): Buffer {
  const lines = ['msisdn,amount,name,reference'];
  for (const row of rows)
    lines.push(`${row['msisdn']},${row['amount']},${row['name']},${row['reference'] ?? ''}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/** Credits the disbursement wallet through the control API. */
export async function fundPayouts(harness: Harness, amount: number): Promise<void> {
  await harness.control('wallets/credit', {
    product: 'disbursement',
    email: accounts.disbursement.email,
    amount,
  });
}

/** Payouts in the sandbox's history, per MSISDN: the ground truth for "was anyone paid twice?". */
export async function payoutsByMsisdn(harness: Harness): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for await (const payout of harness.client().disbursement.payments({ per_page: 100 })) {
    if (payout.status !== 'completed' || payout.msisdn === undefined) continue;
    counts.set(payout.msisdn, (counts.get(payout.msisdn) ?? 0) + 1);
  }
  return counts;
}

/** The disbursement wallet's balance, read through the SDK. */
export async function payoutBalance(harness: Harness): Promise<number> {
  return (await harness.client().disbursement.user()).wallet.balance;
}

/** What the bulk CLI reads to log in to `product` on the sandbox `harness`. */
export function cliEnv(harness: Harness, product: 'airtime' | 'disbursement') {
  const prefix = `PESAKIT_${product.toUpperCase()}`;
  return {
    [`${prefix}_EMAIL`]: accounts[product].email,
    [`${prefix}_PASSWORD`]: accounts[product].password,
    PESAKIT_BASE_URL: harness.url,
  };
}
