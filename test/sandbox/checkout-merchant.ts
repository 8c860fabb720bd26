import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An order the merchant opened a hosted checkout for. */
export interface Order {
  id: string;
  amount: number;
  controlNumber: string;
  externalReference: string;
}

/** What the merchant's server decided when the customer's browser came back. */
export interface ReturnVerdict {
  query: URLSearchParams;
  paid: boolean;
  reason: string;
}

/**
 * A merchant's web server on loopback, port 0, at `/shop/return` — the checkout's
 * `callback_url`. The sandbox POSTs its settlement callback there; the customer's browser
 * comes back there with GET. On the GET the merchant does what spec rule 10 asks: it does not
 * trust the query string, it pulls `transaction/status` with its own bearer token and checks
 * the amount and the external_reference against its order before calling the order paid.
 */
export class CheckoutMerchant {
  readonly callbacks: unknown[] = [];
  readonly verdicts: ReturnVerdict[] = [];
  readonly orders = new Map<string, Order>();
  url = '';
  readonly #server: Server;

  constructor(
    private readonly sandboxUrl: string,
    private readonly bearerToken: string,
  ) {
    this.#server = createServer((request, response) => {
      void this.#handle(request).then(
        ({ status, html }) => response.writeHead(status, { 'content-type': 'text/html' }).end(html),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
    });
  }

  async listen(): Promise<void> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/shop/return`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }

  async #handle(request: IncomingMessage): Promise<{ status: number; html: string }> {
    const url = new URL(request.url ?? '/', this.url);
    // Browsers also ask for /favicon.ico; only the return path is the merchant's business.
    if (url.pathname !== '/shop/return') return { status: 404, html: 'Not found' };
    if (request.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      this.callbacks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      return { status: 200, html: 'ok' };
    }
    const verdict = await this.#verify(url.searchParams);
    this.verdicts.push(verdict);
    return {
      status: 200,
      html: `<h1 data-testid="verdict">${verdict.paid ? 'Paid' : 'Not paid'}</h1>`,
    };
  }

  async #verify(query: URLSearchParams): Promise<ReturnVerdict> {
    const order = this.orders.get(query.get('order') ?? '');
    if (!order) return { query, paid: false, reason: 'unknown order' };
    if (query.get('external_reference') !== order.externalReference) {
      return { query, paid: false, reason: 'external_reference does not match the order' };
    }
    const response = await fetch(`${this.sandboxUrl}/api/sandbox/transaction/status`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.bearerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ref_id: order.controlNumber }),
    });
    const { data } = (await response.json()) as {
      data: { amount: number; status: string; external_reference: string | null };
    };
    if (data.external_reference !== order.externalReference) {
      return { query, paid: false, reason: 'the platform has another external_reference' };
    }
    if (data.amount !== order.amount) return { query, paid: false, reason: 'amount differs' };
    if (data.status !== 'success') return { query, paid: false, reason: `status ${data.status}` };
    return { query, paid: true, reason: 'verified' };
  }
}
