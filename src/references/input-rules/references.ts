import { z } from 'zod';
import { StoreInputError } from '../../errors/store-input-error.js';
import type { ReferenceField, References } from '../record.js';
import { parse, referenceSchema } from './common.js';

export const referencesSchema = z.strictObject(
  {
    controlNumber: referenceSchema.optional(),
    paymentReference: referenceSchema.optional(),
    externalReference: referenceSchema.optional(),
    txnid: referenceSchema.optional(),
    refid: referenceSchema.optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `has unknown reference kinds (${issue.keys.join(', ')}); the kinds are controlNumber, paymentReference, externalReference, txnid and refid`
        : 'must be an object of references',
  },
);

export function parseReferences(input: References): References {
  const parsed = parse('attachReferences', 'refs', referencesSchema, input ?? {});
  const refs: References = {};
  for (const [field, value] of Object.entries(parsed)) {
    if (value !== undefined) refs[field as keyof References] = value;
  }
  return refs;
}

const findFields: ReadonlySet<string> = new Set([
  'merchantReference',
  ...Object.keys(referencesSchema.shape),
]);

/** A misspelt field would find nothing, silently: refused. Any value is a fair question. */
export function parseFindBy(by: { field?: ReferenceField; value: string }): {
  field?: ReferenceField;
  value: string;
} {
  if (typeof by !== 'object' || by === null) {
    throw new StoreInputError('records.find', { by: ['by must be an object { field?, value }.'] });
  }
  if (by.field === undefined) return { value: by.value };
  if (typeof by.field !== 'string' || !findFields.has(by.field)) {
    throw new StoreInputError('records.find', {
      'by.field': [`by.field must be one of ${[...findFields].join(', ')}, or left out for any.`],
    });
  }
  return { field: by.field, value: by.value };
}
