import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
) => Promise<Buffer>;

const keyLength = 32;

/** scrypt (node defaults) with a random salt, stored as `scrypt$<salt>$<hash>` in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, keyLength);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

// An unknown email costs as much as a wrong password, so timing reveals no accounts.
const decoy = hashPassword('pesakit-sandbox-decoy-password');

/** Checks a password against a stored hash in constant time; `undefined` runs the decoy. */
export async function verifyPassword(
  password: string,
  stored: string | undefined,
): Promise<boolean> {
  const [scheme, saltText, hashText] = (stored ?? (await decoy)).split('$');
  if (scheme !== 'scrypt' || saltText === undefined || hashText === undefined) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(saltText, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected) && stored !== undefined;
}
