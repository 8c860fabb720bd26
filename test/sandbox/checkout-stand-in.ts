import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CheckoutView, renderCheckoutPage } from '../../src/sandbox/checkout/page.js';

/** One JSON call the page made. */
export interface PageCall {
  method: string;
  path: string;
  body: unknown;
}

type Outcome = 'pending' | 'success' | 'failed';
type Reply = { status: number; body: unknown };

/**
 * A stand-in for the sandbox's four checkout routes, so the page's script can be tested on
 * its own: it serves the page at `/checkout/tok_test`, answers `mno/`, `portal-session`, the
 * card step and the status poll, and plays the merchant at `/merchant/return`. The checkout
 * stays pending until a test calls {@link settle} (or pays by card, which settles at once).
 */
export class CheckoutStandIn {
  readonly token = 'tok_test';
  readonly calls: PageCall[] = [];
  readonly returns: URL[] = [];
  /** Overrides for the rendered page (hostile descriptions, odd callback URLs). */
  view: Partial<CheckoutView> = {};
  /** Replaces the answer of `POST mno/` (e.g. a 422) when set. */
  mnoReply: Reply | undefined;
  /** Replaces the answer of `POST portal-session` when set. */
  sessionReply: Reply | undefined;
  origin = '';
  #outcome: Outcome = 'pending';
  readonly #server: Server = createServer((request, response) => {
    void this.#route(request, response);
  });

  async listen(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.origin = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  get pageUrl(): string {
    return `${this.origin}/checkout/${this.token}`;
  }

  settle(outcome: Outcome): void {
    this.#outcome = outcome;
  }

  callsTo(path: string): PageCall[] {
    return this.calls.filter((call) => call.path === path);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }

  async #route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    const api = '/api/sandbox';
    const body = await readJson(request);
    if (url.pathname.startsWith(api)) {
      this.calls.push({ method: request.method ?? '', path: url.pathname.slice(api.length), body });
    }
    const json = (reply: Reply): void => {
      response
        .writeHead(reply.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(reply.body));
    };

    switch (`${request.method} ${url.pathname}`) {
      case `GET /checkout/${this.token}`:
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(
          renderCheckoutPage({
            token: this.token,
            amount: 12_500,
            externalReference: 'EXT-20250301-0001',
            description: 'Order #42: two bags of rice',
            callbackUrl: `${this.origin}/merchant/return?order=42`,
            apiBase: `${this.origin}${api}`,
            ...this.view,
          }),
        );
        return;
      case `POST ${api}/mno/`:
        return json(
          this.mnoReply ?? { status: 200, body: { message: 'Sent.', status: 'pending' } },
        );
      case `POST ${api}/portal-session`:
        return json(this.sessionReply ?? { status: 200, body: { session_id: 'sess_1' } });
      case `POST ${api}/checkout/${this.token}/card`: {
        const card = (body as { card_number?: string }).card_number ?? '';
        this.#outcome = card.endsWith('0002') ? 'failed' : 'success';
        return json({ status: 200, body: { message: 'Card processed.', status: this.#outcome } });
      }
      case `GET ${api}/checkout/${this.token}/status`:
        return json({ status: 200, body: { status: this.#outcome, external_reference: 'EXT' } });
      case 'GET /merchant/return':
        this.returns.push(url);
        response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Thank you</h1>');
        return;
      default:
        return json({ status: 404, body: { message: 'Not found.' } });
    }
  }
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? null : (JSON.parse(text) as unknown);
}
