import cliProgress from 'cli-progress';
import Table from 'cli-table3';
import { withoutPhoneNumbers } from '../internal/phone-numbers.js';
import { UsageError } from './reconcile/usage-error.js';

export interface ReporterStreams {
  out: NodeJS.WritableStream & { isTTY?: boolean };
  err: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Outside text with terminal control characters escaped, so it cannot drive the reader's terminal. */
export function printable(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters escaped
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** An error's message, never its stack or payload (which could hold request bodies). */
export function errorMessage(error: unknown): string {
  // A usage error's message is already the whole sentence a person needs; its class name is noise.
  if (error instanceof UsageError) return printable(withoutPhoneNumbers(error.message));
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return printable(withoutPhoneNumbers(text));
}

export function writeJsonLine(
  out: NodeJS.WritableStream,
  event: string,
  fields: Record<string, unknown>,
): void {
  out.write(`${JSON.stringify({ event, at: new Date().toISOString(), ...fields })}\n`);
}

/** cli-table3's box-drawing default, in ASCII: reads the same in a terminal, a mail, a log. */
const asciiBorders = {
  top: '-',
  'top-mid': '+',
  'top-left': '+',
  'top-right': '+',
  bottom: '-',
  'bottom-mid': '+',
  'bottom-left': '+',
  'bottom-right': '+',
  left: '|',
  'left-mid': '+',
  mid: '-',
  'mid-mid': '+',
  right: '|',
  'right-mid': '+',
  middle: '|',
};

export function asciiTable(
  head: string[],
  rows: Array<Array<string | number>>,
  options: { colWidths?: Array<number | null>; wordWrap?: boolean } = {},
): string {
  const table = new Table({
    head,
    style: { head: [], border: [] },
    chars: asciiBorders,
    ...options,
  });
  table.push(...rows);
  return table.toString();
}

export class LiveBar {
  readonly #err: NodeJS.WritableStream;
  readonly #bar: cliProgress.SingleBar;
  #started = false;

  constructor(err: NodeJS.WritableStream, format: string) {
    this.#err = err;
    this.#bar = new cliProgress.SingleBar(
      { stream: err, format, hideCursor: true, clearOnComplete: true, fps: 10 },
      cliProgress.Presets.shades_classic,
    );
  }

  update(value: number, total: number, payload: object): void {
    if (!this.#started) {
      this.#bar.start(total, value, payload);
      this.#started = true;
      return;
    }
    this.#bar.setTotal(total);
    this.#bar.update(value, payload);
  }

  get total(): number {
    return this.#bar.getTotal();
  }

  /** Writes a line above the bar (cli-progress redraws it on the next tick). */
  log(text: string): void {
    if (this.#started) this.#err.write('\r\u001b[K');
    this.#err.write(`${printable(text)}\n`);
  }

  stop(): void {
    if (this.#started) this.#bar.stop();
  }
}
