/** Output lines go to cron mail and logs: each MSISDN keeps only its last three digits (`255******456`). */
const msisdn = /(?<!\d)255\d{6}(\d{3})(?!\d)/g;

export function withoutPhoneNumbers(text: string): string {
  return text.replace(msisdn, '255******$1');
}

/** One MSISDN as published on a diagnostics channel: every digit but the last three hidden. */
export function maskedMsisdn(value: string): string {
  return '*'.repeat(Math.max(0, value.length - 3)) + value.slice(-3);
}
