import { describe, expect, it } from 'vitest';
import { airtimePurchaseRequestSchema } from '../../src/schemas/airtime.js';
import { bulkRowFieldErrors, validateAirtimeBulkRows } from '../../src/spreadsheets/index.js';

describe('validateAirtimeBulkRows', () => {
  it('passes rows that a purchase would accept, with their row numbers', () => {
    const { rows, problems } = validateAirtimeBulkRows([
      { row: 1, line: 2, msisdn: '255754000001', amount: 1000, reference: ' staff-1 ' },
      { row: 2, line: 3, msisdn: 255684000002, amount: '2500.50' },
    ]);
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { row: 1, msisdn: '255754000001', amount: 1000, reference: 'staff-1' },
      { row: 2, msisdn: '255684000002', amount: 2500.5 },
    ]);
  });

  it('reports every bad row at once, each naming its row, line and field', () => {
    const { rows, problems } = validateAirtimeBulkRows([
      { row: 1, line: 2, msisdn: '255754000001', amount: 100 },
      { row: 2, line: 3, msisdn: '12345', amount: 100 },
      { row: 3, line: 4, msisdn: '255754000003', amount: -5 },
      { row: 4, line: 6, msisdn: '', amount: '' },
      { row: 5, line: 7, msisdn: '255754000005', amount: 10.555 },
    ]);
    expect(rows.map((row) => row.row)).toEqual([1]);
    expect(problems).toEqual([
      {
        row: 2,
        line: 3,
        field: 'msisdn',
        message: 'Row 2 (line 3): The msisdn must be 255 followed by nine digits.',
      },
      {
        row: 3,
        line: 4,
        field: 'amount',
        message: 'Row 3 (line 4): The amount must be greater than 0.',
      },
      {
        row: 4,
        line: 6,
        field: 'msisdn',
        message: 'Row 4 (line 6): The msisdn field is required.',
      },
      {
        row: 4,
        line: 6,
        field: 'amount',
        message: 'Row 4 (line 6): The amount field is required.',
      },
      {
        row: 5,
        line: 7,
        field: 'amount',
        message: 'Row 5 (line 7): The amount may have at most two decimal places.',
      },
    ]);
  });

  it('agrees with the purchase schema on what an msisdn and an amount may be', () => {
    const samples: Array<[unknown, unknown]> = [
      ['255754000001', 1],
      ['255104000001', 1], // no operator has prefix 10
      ['255754000001', 0],
      ['255754000001', 1_000_000_001],
      ['+255754000001', 1],
    ];
    for (const [msisdn, amount] of samples) {
      const purchase = airtimePurchaseRequestSchema.safeParse({ msisdn, amount }).success;
      const { problems } = validateAirtimeBulkRows([{ row: 1, msisdn, amount }]);
      expect(problems.length === 0, `${String(msisdn)} / ${String(amount)}`).toBe(purchase);
    }
  });

  it('refuses an amount with a thousands separator, saying why', () => {
    const { problems } = validateAirtimeBulkRows([
      { row: 1, line: 2, msisdn: '255754000001', amount: '1,000' },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.field).toBe('amount');
    expect(problems[0]?.message).toMatch(
      /^Row 1 \(line 2\): The amount "1,000" has a thousands separator.*money is not guessed/,
    );
  });

  it('refuses text that is not an amount', () => {
    const { problems } = validateAirtimeBulkRows([
      { row: 1, msisdn: '255754000001', amount: 'TZS 500' },
    ]);
    expect(problems[0]?.message).toMatch(/^Row 1: The amount "TZS 500" is not a number/);
  });

  it('says how to write a local number', () => {
    const { problems } = validateAirtimeBulkRows([{ row: 1, msisdn: '0754 000 001', amount: 100 }]);
    expect(problems[0]?.message).toBe(
      'Row 1: The msisdn must be 255 followed by nine digits (write 255754000001 for 0754 000 001, as normalizeMsisdn does).',
    );
  });

  it('refuses a reference used by two rows, naming the first', () => {
    const { rows, problems } = validateAirtimeBulkRows([
      { row: 1, msisdn: '255754000001', amount: 100, reference: 'pay-1' },
      { row: 2, msisdn: '255754000002', amount: 100, reference: 'pay-1' },
    ]);
    expect(rows.map((row) => row.row)).toEqual([1]);
    expect(problems).toEqual([
      {
        row: 2,
        field: 'reference',
        message:
          'Row 2: The reference "pay-1" is already used by row 1; each row\'s reference must be unique.',
      },
    ]);
  });

  it('turns problems into the platform 422 field map keyed rows.<row>.<field>', () => {
    const { problems } = validateAirtimeBulkRows([{ row: 3, line: 4, msisdn: '1', amount: 0 }]);
    expect(bulkRowFieldErrors(problems)).toEqual({
      'rows.3.msisdn': ['Row 3 (line 4): The msisdn must be 255 followed by nine digits.'],
      'rows.3.amount': ['Row 3 (line 4): The amount must be greater than 0.'],
    });
  });
});
