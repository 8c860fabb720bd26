import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runNode } from '../helpers/run-node.js';

// Following examples/express-merchant/README.md: with the
// port already taken (a second copy of the shop, another app on 3000), the Express example
// printed `shop listening on http://127.0.0.1:0`, started its receiver and kept running, serving
// nothing: Express 5 hands the listen error to the callback, which ignored it. A newcomer then
// sends the platform a callback URL on port 0. The shop must stop and say why.

describe.each(['express-merchant', 'fastify-merchant'])(
  'examples/%s on a port already in use',
  (name) => {
    it('exits non-zero naming EADDRINUSE, never claiming to listen', async () => {
      const blocker = createServer();
      blocker.listen(0, '127.0.0.1');
      await once(blocker, 'listening');
      const address = blocker.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      let claimed = false;
      try {
        const run = await runNode(['--import', 'tsx', `examples/${name}/server.ts`], {
          env: {
            ...process.env,
            PORT: String(port),
            DATABASE_FILE: ':memory:',
            // Nothing is called before the shop listens: no sandbox is needed.
            PESAKIT_BASE_URL: 'http://127.0.0.1:9',
          },
          onStdoutLine: (line, child) => {
            if (/shop listening/.test(line)) {
              claimed = true;
              child.kill('SIGKILL');
            }
          },
        });
        expect(claimed, run.stdout).toBe(false);
        expect(run.code).not.toBe(0);
        expect(run.stderr).toMatch(/EADDRINUSE/);
      } finally {
        blocker.close();
      }
    }, 60_000);
  },
);
