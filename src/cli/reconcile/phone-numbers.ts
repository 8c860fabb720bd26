/**
 * Output lines of `pesakit reconcile` never carry phone numbers (docs/reconciler.md): they go to
 * cron mail and log pipelines. The free text a line prints — a review verdict's message, a
 * failure reason, an error's message — may name the MSISDN, written for a person reading the
 * record itself. Here each Tanzanian MSISDN (`255` + nine digits) keeps its last three digits
 * (enough to tell customers apart in a list) and loses the rest: `255******456`.
 */
const msisdn = /(?<!\d)255\d{6}(\d{3})(?!\d)/g;

export function withoutPhoneNumbers(text: string): string {
  return text.replace(msisdn, '255******$1');
}
