import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryReferenceStore } from '../../src/references/index.js';
import {
  type BulkValidationError,
  isBulkValidationError,
} from '../../src/resources/bulk/bulk-validation-error.js';
import { validateAirtimeBulkRows } from '../../src/spreadsheets/index.js';
import { failure } from '../helpers/failure.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { fundAirtime, fundPayouts, payoutsByMsisdn, purchasesByMsisdn } from './bulk-files.js';

// A row's name and reference are text a merchant supplies: a control character (C0, DEL, C1) in
// either refuses the file whole, naming the row, the field, the character and where it is —
// before anything is stored or sent. A tab too: a reference must hold its row alone and goes on
// in the platform's upload file, and a name is what the payee sees.

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(() => harness.close());

describe('bulk airtime rows: a reference with a control character is a problem of its row', () => {
  it('names the row, line, field and character; the other rows pass', () => {
    const { rows, problems } = validateAirtimeBulkRows([
      { row: 1, line: 2, msisdn: '255754000001', amount: 1000, reference: 'staff\u00001' },
      { row: 2, line: 3, msisdn: '255754000002', amount: 1000, reference: 'staff\t2' },
      { row: 3, line: 4, msisdn: '255754000003', amount: 1000, reference: 'staff\u00853' },
      { row: 4, line: 5, msisdn: '255754000004', amount: 1000, reference: 'Zawadi-José-4' },
    ]);
    expect(rows).toEqual([
      { row: 4, msisdn: '255754000004', amount: 1000, reference: 'Zawadi-José-4' },
    ]);
    expect(problems).toEqual([
      {
        row: 1,
        line: 2,
        field: 'reference',
        message:
          'Row 1 (line 2): The reference may not contain control characters (found U+0000 at position 6).',
      },
      {
        row: 2,
        line: 3,
        field: 'reference',
        message:
          'Row 2 (line 3): The reference may not contain control characters (found U+0009 at position 6).',
      },
      {
        row: 3,
        line: 4,
        field: 'reference',
        message:
          'Row 3 (line 4): The reference may not contain control characters (found U+0085 at position 6).',
      },
    ]);
  });

  it('the sandbox refuses such a CSV upload whole (422 under rows.<row>.reference); nothing is spent', async () => {
    await fundAirtime(harness, 10_000);
    const csv = [
      'msisdn,amount,reference',
      '255754000001,1000,"staff\t1"',
      '255754000002,1000,staff\u00852',
      '255754000003,1000,Neema Kiwelu',
      '',
    ].join('\r\n');
    const login = await fetch(`${harness.url}/api/sandbox/airtime/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(accounts.airtime),
    });
    const { token } = (await login.json()) as { token: string };
    const form = new FormData();
    form.set('file', new Blob([csv]), 'rows.csv');
    const answer = await fetch(`${harness.url}/api/sandbox/airtime/customer/bulkpayment`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { errors: Record<string, string[]> };
    expect(body.errors).toEqual({
      'rows.1.reference': [
        'Row 1 (line 2): The reference may not contain control characters (found U+0009 at position 6).',
      ],
      'rows.2.reference': [
        'Row 2 (line 3): The reference may not contain control characters (found U+0085 at position 6).',
      ],
    });
    expect((await purchasesByMsisdn(harness)).size).toBe(0);
  });
});

describe('payout rows: a name or reference with a control character refuses the batch before anything is sent', () => {
  it('a BulkValidationError naming each row and field; no record stored, nobody paid', async () => {
    await fundPayouts(harness, 100_000);
    const store = new MemoryReferenceStore();
    const rows = [
      { msisdn: '255754000001', amount: 1000, name: 'Asha\u0000Juma', reference: 'a' },
      { msisdn: '255754000002', amount: 1000, name: 'Baraka Mushi', reference: 'b\u001b[2J' },
      { msisdn: '255754000003', amount: 1000, name: 'Zawadi\tMwakyusa', reference: 'c' },
      { msisdn: '255754000004', amount: 1000, name: 'José', reference: 'd' },
    ];
    const error = await failure(
      harness.client({ store }).disbursement.bulkPay(rows, { batchId: 'ctl' }),
    );
    expect(isBulkValidationError(error)).toBe(true);
    expect(
      (error as BulkValidationError).problems.map(({ row, field, message }) => [
        row,
        field,
        message,
      ]),
    ).toEqual([
      [
        1,
        'name',
        'Row 1: The name may not contain control characters (found U+0000 at position 5).',
      ],
      [
        2,
        'reference',
        'Row 2: The reference may not contain control characters (found U+001B at position 2).',
      ],
      [
        3,
        'name',
        'Row 3: The name may not contain control characters (found U+0009 at position 7).',
      ],
    ]);
    for (const row of [1, 2, 3, 4])
      expect(await store.records.get(`payout:ctl:${row}`)).toBeUndefined();
    expect((await payoutsByMsisdn(harness)).size).toBe(0);
  });
});
