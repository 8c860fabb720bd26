import { z } from 'zod';
import { withoutControlCharacters } from './control-characters.js';

// Each product has its own accounts, sharing these shapes (ours: the spec does not show them).
export const emailSchema = z
  .string({ error: 'The email must be a string.' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'The email must be a valid email address.' }));

export const passwordSchema = z
  .string({ error: 'The password must be a string.' })
  .min(8, { error: 'The password must be at least 8 characters.' })
  .max(128, { error: 'The password may not be greater than 128 characters.' });

export const loginRequestSchema = z.object({
  email: emailSchema,
  // Login accepts any non-empty password: the length rule is for choosing one, not for checking.
  password: z
    .string({ error: 'The password must be a string.' })
    .min(1, { error: 'The password field is required.' }),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const registerRequestSchema = z.object({
  // The payout's name too: what the payee's statement and the payout history show, so no tab.
  name: z
    .string({ error: 'The name must be a string.' })
    .check(
      withoutControlCharacters(
        (found) => `The name may not contain control characters (found ${found}).`,
      ),
    )
    .trim()
    .min(1, { error: 'The name field is required.' })
    .max(255, { error: 'The name may not be greater than 255 characters.' }),
  email: emailSchema,
  phone: z
    .string({ error: 'The phone must be a string.' })
    .regex(/^255\d{9}$/, { error: 'The phone must be 255 followed by nine digits.' }),
  password: passwordSchema,
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** The wallet: the spec shows only `balance`; `currency` is ours and always `TZS`. */
export const walletSchema = z.looseObject({
  balance: z.number(),
  currency: z.literal('TZS').optional(),
});
export type Wallet = z.infer<typeof walletSchema>;

export const messageResponseSchema = z.looseObject({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
