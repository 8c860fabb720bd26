// A merchant's first day with the installed package: every public feature constructed and used
// once, against the sandbox started in-process. The modules come from the entry file (`main.cjs`
// by `require`, `main.mjs` by `import`), so this body is the same in both module systems and
// uses only what it is given and Node's built-ins. Each feature reports `ok` or `FAIL` through
// `m.report`; a failure of one does not stop the others.
//
// m: { pesakit, sandbox, dashboard, sqlite, postgres, testing, express, expressMiddleware, dir, xlsxFile, cliPath,
//      postgresUrl?, report(feature, ok, detail?) }
export async function firstDay(m) {
  const { join } = process.getBuiltinModule('node:path');
  const { execFile } = process.getBuiltinModule('node:child_process');
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const { Pesakit, PesakitError, isSpreadsheetError } = m.pesakit;
  const account = { email: 'shop@example.co.tz', password: 'sandbox-pass-1' };
  const credentials = { collection: account, airtime: account, disbursement: account };
  const sandbox = await m.sandbox.createSandbox({
    seed: {
      accounts: [
        { product: 'collection', ...account },
        { product: 'airtime', ...account, status: 'active', balance: 100_000 },
        { product: 'disbursement', ...account, status: 'active', balance: 100_000 },
      ],
    },
  });
  const baseUrl = await sandbox.listen({ port: 0 });
  const storeFile = join(m.dir, `pesakit-${Date.now()}.sqlite`);
  const store = await m.sqlite.SqliteReferenceStore.open(storeFile);
  const client = new Pesakit({ environment: 'sandbox', baseUrl, credentials, store });

  async function feature(name, run) {
    try {
      const detail = await within(30_000, run());
      m.report(name, detail === true, detail === true ? undefined : String(detail));
    } catch (error) {
      m.report(name, false, error?.stack ?? String(error));
    }
  }

  try {
    await feature('client calls against the sandbox, SQLite store', async () => {
      const sample = await client.collection.testProvider('vodacom');
      const payout = await client.disbursement.pay({
        msisdn: '255713123456',
        amount: 2000,
        name: 'Neema',
      });
      const stored = await store.records.get(payout.record.merchantReference);
      return (
        (sample.provider === 'vodacom' && stored?.status === 'success') ||
        `provider ${sample.provider}, stored ${stored?.status}`
      );
    });

    await feature('callback receiver mounted in Express', async () => {
      let paid;
      const onPaid = new Promise((resolve) => {
        paid = resolve;
      });
      const receiver = client.createCallbackReceiver({
        onPaid: async (record) => {
          if (record.merchantReference === 'order-callback') paid(record.merchantReference);
        },
      });
      receiver.start();
      const app = m.express();
      app.use('/pesakit', m.expressMiddleware.pesakitExpress(receiver));
      const server = await new Promise((resolve) => {
        const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
      });
      try {
        const callbackUrl = `http://127.0.0.1:${server.address().port}/pesakit/callback`;
        await client.collection.initiateMno(
          { amount: 15_000, msisdn: '255754123456', callback_url: callbackUrl },
          { merchantReference: 'order-callback' },
        );
        const settled = await within(20_000, onPaid);
        return settled === 'order-callback' || `onPaid ran for ${settled}`;
      } finally {
        await new Promise((resolve) => server.close(resolve));
        await receiver.close();
      }
    });

    await feature('reconciler pass', async () => {
      await client.collection.initiateMno(
        { amount: 9_000, msisdn: '255754123457' },
        { merchantReference: 'order-reconciled' },
      );
      // The sandbox settles a mobile collection by itself after 1.5 s.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await client.createReconciler().runOnce({ force: true });
      const record = await store.records.get('order-reconciled');
      return record?.status === 'success' || `record ${record?.status}`;
    });

    await feature('bulk airtime purchase from CSV', async () => {
      const csv = 'msisdn,amount,reference\n255754000001,1000,staff-1\n255754000002,1500,staff-2\n';
      const { totals } = await client.airtime.bulkPurchase(Buffer.from(csv), {
        batchId: 'first-day',
      });
      return totals.succeeded === 2 || `totals ${JSON.stringify(totals)}`;
    });

    await feature('.xlsx without exceljs: the SDK names the package to install', async () => {
      const error = await client.airtime.bulkPurchase(m.xlsxFile).then(
        () => undefined,
        (refused) => refused,
      );
      return (
        (isSpreadsheetError(error) &&
          error.code === 'xlsx_support_missing' &&
          error.message.includes('npm install exceljs')) ||
        `got ${error}`
      );
    });

    await feature('.xlsx without exceljs: the sandbox bulk route names it (422)', async () => {
      const login = await fetch(`${baseUrl}/api/sandbox/airtime/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(account),
      });
      const { token } = await login.json();
      const form = new FormData();
      form.append('file', new Blob([readFileSync(m.xlsxFile)]), 'staff.xlsx');
      const answer = await fetch(`${baseUrl}/api/sandbox/airtime/customer/bulkpayment`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      const body = await answer.json();
      return (
        (answer.status === 422 && body.code === 'xlsx_support_missing') ||
        `${answer.status} ${JSON.stringify(body)}`
      );
    });

    await feature('.xlsx without exceljs: the CLI names it (exit 5)', async () => {
      const args = [m.cliPath, 'airtime', 'bulk', m.xlsxFile, '-e', 'sandbox'];
      args.push('--base-url', baseUrl, '--store', join(m.dir, `cli-${Date.now()}.sqlite`));
      const env = {
        ...process.env,
        PESAKIT_AIRTIME_EMAIL: account.email,
        PESAKIT_AIRTIME_PASSWORD: account.password,
      };
      const { code, output } = await new Promise((resolve) => {
        execFile(process.execPath, args, { env }, (error, stdout, stderr) =>
          resolve({ code: error ? error.code : 0, output: stdout + stderr }),
        );
      });
      return (code === 5 && output.includes('npm install exceljs')) || `exit ${code}: ${output}`;
    });

    await feature('operations page: the JSON API with the bearer token', async () => {
      const token = 'first-day-token-0123';
      const memory = new m.pesakit.MemoryReferenceStore();
      const page = m.dashboard.createDashboard({ store: memory, token, port: 0 });
      try {
        const answer = await fetch(new URL('/api/summary', await page.listen()), {
          headers: { authorization: `Bearer ${token}` },
        });
        const summary = await answer.json();
        return (answer.status === 200 && summary.finals.length === 48) || `${answer.status}`;
      } finally {
        await page.close();
      }
    });

    await feature('pesakit/testing: verifyStore passes the memory store', async () => {
      let memory;
      const kit = await m.testing.verifyStore({
        persistent: false,
        open: async ({ fresh, now }) => {
          if (fresh || memory === undefined) memory = new m.pesakit.MemoryReferenceStore({ now });
          return memory;
        },
      });
      const all = kit.passed + kit.skipped.length === m.testing.storeCaseNames().length;
      return (
        (kit.failed.length === 0 && kit.skipped.length === 1 && all) ||
        `${kit.passed} passed, skipped ${JSON.stringify(kit.skipped)}, failed ${JSON.stringify(kit.failed)}`
      );
    });

    await feature('verifier: the store checked against the sandbox (pesakit/testing)', async () => {
      const report = await m.testing.verifyAgainstSandbox({ store, sandbox: baseUrl });
      const twice = report.checks.find((check) => check.id === 'never_twice');
      return (
        (report.checks.length === 8 && twice?.ok === true) ||
        m.testing.formatVerifyReport(report).join('\n')
      );
    });

    await feature('one copy of each class across entries', async () => {
      const error = await store.records.create({}).then(
        () => undefined,
        (refused) => refused,
      );
      return error instanceof PesakitError || `got ${error}`;
    });

    if (m.postgresUrl !== undefined) {
      await feature('PostgreSQL store', async () => {
        const pgStore = await m.postgres.PostgresReferenceStore.open(m.postgresUrl);
        try {
          const pgClient = new Pesakit({
            environment: 'sandbox',
            baseUrl,
            credentials,
            store: pgStore,
          });
          const sale = await pgClient.airtime.purchase({ msisdn: '255684123456', amount: 1000 });
          const stored = await pgStore.records.get(sale.merchantReference);
          return stored?.status === 'success' || `stored ${stored?.status}`;
        } finally {
          await pgStore.close();
        }
      });
    }
  } finally {
    await store.close();
    await sandbox.close();
  }
}

function within(ms, promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
