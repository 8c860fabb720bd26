import type { Product } from '../../schemas/product.js';

/** A text message the sandbox would have sent; nothing leaves the machine. */
export interface SmsMessage {
  readonly to: string;
  readonly text: string;
  readonly product: Product;
  readonly reference?: string;
  readonly at: string;
}

export const SMS_KEPT = 1000;

export class SmsOutbox {
  readonly #messages: SmsMessage[] = [];

  constructor(private readonly now: () => string) {}
  send(message: Omit<SmsMessage, 'at'>): void {
    this.#messages.push({ ...message, at: this.now() });
    if (this.#messages.length > SMS_KEPT) this.#messages.shift();
  }

  list(): readonly SmsMessage[] {
    return this.#messages;
  }
}
