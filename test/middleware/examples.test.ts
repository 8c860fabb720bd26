import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { accounts, startHarness } from '../helpers/sandbox-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Starts an example as a user would (`tsx server.ts`) on a free port; resolves with its URL. */
async function startExample(name: string, sandboxUrl: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', `examples/${name}/server.ts`], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      DATABASE_FILE: ':memory:',
      PESAKIT_BASE_URL: sandboxUrl,
      PESAKIT_EMAIL: accounts.collection.email,
      PESAKIT_PASSWORD: accounts.collection.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const match = /shop listening on (\S+)/.exec(line);
    if (match?.[1]) return { child, url: match[1] };
  }
  throw new Error(`${name} exited before it was ready:\n${stderr}`);
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** Reads the order until it leaves `awaiting_payment` (the sandbox settles it by itself). */
async function settledOrder(url: string, id: number) {
  for (;;) {
    const order = (await (await fetch(`${url}/orders/${id}`)).json()) as { status: string };
    if (order.status !== 'awaiting_payment') return order;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(['express-merchant', 'fastify-merchant'])('examples/%s', (name) => {
  it('takes a phone payment from order to paid against the sandbox', async () => {
    const harness = await startHarness({ autoSettle: { delayMs: 50 } });
    const shop = await startExample(name, harness.url);
    try {
      const created = await fetch(`${shop.url}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 15_000, msisdn: '255754123456' }),
      });
      expect(created.status).toBe(201);
      const order = (await created.json()) as { id: number; status: string };
      expect(order.status).toBe('awaiting_payment');
      // The sandbox settles, POSTs the callback to <shop>/pesakit/callback, the receiver
      // verifies it by pulling the status, and only then does onPaid mark the order.
      expect(await settledOrder(shop.url, order.id)).toMatchObject({ status: 'paid' });
      const { deliveries } = (await harness.control('deliveries')) as {
        deliveries: Array<{ outcome: string }>;
      };
      expect(deliveries.some((d) => d.outcome === 'delivered')).toBe(true);
    } finally {
      await stop(shop.child);
      await harness.close();
    }
  }, 40_000);
});
