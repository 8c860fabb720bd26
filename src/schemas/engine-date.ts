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
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo! - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s
  );
}

/** Formats an instant as an engine date in East Africa Time (UTC+3, no daylight saving). */
export function toEngineDate(instant: Date): string {
  const eat = new Date(instant.getTime() + 3 * 60 * 60 * 1000);
  return eat.toISOString().slice(0, 19).replace('T', ' ');
}

/** Reads an engine date (East Africa Time) back into an instant. */
export function fromEngineDate(value: string): Date {
  return new Date(`${value.replace(' ', 'T')}+03:00`);
}
