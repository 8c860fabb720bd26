import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { type RunningSandbox, startSandbox } from './support.js';

let browser: Browser;
let s: RunningSandbox;
let attacker: Server;
let attackerPort: number;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  s = await startSandbox();
  await s.account('disbursement', 'witness@duka.tz', 700);
  // Any web page the developer happens to open: it serves a blank page and nothing else.
  attacker = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end('<!doctype html><title>cat pictures</title><form id="f" method="POST"></form>');
  });
  attacker.listen(0, '127.0.0.1');
  await once(attacker, 'listening');
  attackerPort = (attacker.address() as AddressInfo).port;
});

afterEach(async () => {
  await s.close();
  attacker.close();
});

const intact = () => s.sandbox.inspect.wallet('disbursement', 'witness@duka.tz')?.balance === 700;

describe('CSRF in a real browser: a foreign web page cannot drive the control API', () => {
  it.each([
    ['a cross-site page (localhost)', () => `http://localhost:${attackerPort}/`],
    ['a same-site page on another port (127.0.0.1)', () => `http://127.0.0.1:${attackerPort}/`],
  ])(
    '%s: no-cors fetches, a JSON fetch and a form POST all leave the sandbox alone',
    async (_name, pageUrl) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await page.goto(pageUrl());
        const target = `${s.url}/api/sandbox/_control/reset`;
        await page.evaluate(async (url) => {
          const attempts = [
            fetch(url, { method: 'POST', mode: 'no-cors' }),
            fetch(url, {
              method: 'POST',
              mode: 'no-cors',
              body: '{}',
              headers: { 'content-type': 'text/plain' },
            }),
            fetch(url, {
              method: 'POST',
              body: '{}',
              headers: { 'content-type': 'application/json' },
            }),
          ];
          await Promise.allSettled(attempts);
        }, target);
        // A classic form post navigates the page to the sandbox's answer.
        await Promise.all([
          page.waitForURL(target),
          page.evaluate((url) => {
            const form = document.getElementById('f') as HTMLFormElement;
            form.action = url;
            form.submit();
          }, target),
        ]);
        const shown = await page.textContent('body');
        expect(shown).toMatch(/other web pages|Content-Type: application\/json/);
        expect(intact()).toBe(true);
      } finally {
        await context.close();
      }
    },
  );
});
