import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import * as lib from './bench/lib/common.mjs';
import { PostgresReferenceStore } from './src/postgres.js';

const directory = mkdtempSync(join(tmpdir(), 'prof-'));
const postgres = lib.startPostgres(directory);
const providers = ['vodacom', 'airtel', 'tigo', 'halotel'];
try {
  const url = postgres.url;
  const t = await PostgresReferenceStore.open(url, { schema: 'bench' });
  await t.createIntent({ merchantReference: 'template', product: 'collection', flow: 'mno', amount: 5000, msisdn: '255754123456' });
  await t.close();
  const age = "((g * 7919) % 86000000 + 60000) * interval '1 millisecond'";
  const final = `case when g % 10 = 0 then null else now() - ${age} + (5000 + (g % 600) * 1000) * interval '1 millisecond' end`;
  await lib.copyPostgresRow(url, 'bench', 99_999, {
    merchant_reference: "'BENCH-' || g",
    provider: `(array['${providers.join("','")}'])[1 + g % 4]`,
    status: "case when g % 10 = 0 then 'pending' when g % 10 = 1 then 'failed' else 'success' end",
    created_at: `now() - ${age}`, updated_at: `now() - ${age}`, final_at: final,
    last_payload: `'{"status":"success","amount":5000,"reference":"ENG-' || g || '"}'`,
  });
  if (process.env.VAC) { const v = new pg.Client({ connectionString: url }); await v.connect(); await v.query('vacuum analyze bench.pesakit_transactions'); await v.end(); }
  const store = await PostgresReferenceStore.open(url, { schema: 'bench' });
  const time = async (name: string, f: () => Promise<unknown>) => {
    const xs: number[] = [];
    for (let i = 0; i < 15; i++) { const s = performance.now(); await f(); xs.push(performance.now() - s); }
    console.log(name, lib.median(xs).toFixed(1), 'ms');
  };
  await time('summarize', () => store.summarize());
  await time('operationsReport', () => store.operationsReport({}));
  await time('listEffects dead', () => store.listEffects('dead', { limit: 20 }));
  await time('inbox dead', () => store.inbox.list({ status: 'dead', limit: 20 }));
  await time('all', () => Promise.all([store.summarize(), store.operationsReport({}), store.listEffects('dead', { limit: 20 }), store.inbox.list({ status: 'dead', limit: 20 })]));
  const c = new pg.Client({ connectionString: url }); await c.connect();
  await c.query('set search_path to bench');
  for (const q of [
    "explain analyze select product, status, count(*) from pesakit_transactions group by product, status",
    "explain analyze select status, product, count(*) from pesakit_transactions group by status, product order by status, product",
    "set enable_seqscan = off",
    "explain analyze select status, product, count(*) from pesakit_transactions group by status, product",
    "set enable_seqscan = on",
    "explain analyze select min(created_at) from pesakit_transactions where status in ('initiating','pending','unknown')",
  ]) { const r = await c.query(q); if (r.rows) console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n')); }
  await c.end();
  await store.close();
} finally { postgres.stop(); }
