import { z } from 'zod';

const pattern = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** The engine's zone-less `YYYY-MM-DD HH:MM:SS` in East Africa Time; impossible dates refused. */
export const engineDateSchema = z
  .string({ error: 'The date must be a string.' })
  .refine(isEngineDate, { error: 'The date must be a real date written YYYY-MM-DD HH:MM:SS.' });

function isEngineDate(value: string): boolean {
  const match = pattern.exec(value);
  if (!match) return false;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, ...number[]];
  // An impossible date (31 February, 24:00) rolls over and no longer reads as written.
  return toIso(new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!))) === value;
}

const toIso = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/** Formats an instant as an engine date in East Africa Time (UTC+3, no daylight saving). */
export function toEngineDate(instant: Date): string {
  return toIso(new Date(instant.getTime() + 3 * 60 * 60 * 1000));
}

/** Reads an engine date (East Africa Time) back into an instant. */
export function fromEngineDate(value: string): Date {
  return new Date(`${value.replace(' ', 'T')}+03:00`);
}
