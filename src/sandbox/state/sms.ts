import type { Product } from '../../core/endpoints.js';

/** A text message the sandbox would have sent; nothing leaves the machine. */
export interface SmsMessage {
  readonly to: string;
  readonly text: string;
  readonly product: Product;
  readonly reference?: string;
  readonly at: string;
}

/** Messages the outbox keeps; older ones go first. */
export const SMS_KEPT = 1000;

/** The SMS outbox: airtime confirmations and failure notices, payout notices to recipients. */
export class SmsOutbox {
  readonly #messages: SmsMessage[] = [];

  constructor(private readonly now: () => string) {}

  send(message: Omit<SmsMessage, 'at'>): void {
    // Built field by field rather than spread: one object of a fixed shape per payout.
    const { to, text, product, reference } = message;
    this.#messages.push(
      reference === undefined
        ? { to, text, product, at: this.now() }
        : { to, text, product, reference, at: this.now() },
    );
    // Trimmed in batches: dropping the oldest one by one moved the whole list on every send
    // once it was full (every payout sends one). list() shows only the latest SMS_KEPT.
    if (this.#messages.length >= 2 * SMS_KEPT) this.#messages.splice(0, SMS_KEPT);
  }

  list(): readonly SmsMessage[] {
    return this.#messages.length > SMS_KEPT ? this.#messages.slice(-SMS_KEPT) : this.#messages;
  }

  clear(): void {
    this.#messages.length = 0;
  }
}
