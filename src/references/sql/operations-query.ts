import {
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type Selectable,
  type SelectQueryBuilder,
  sql,
} from 'kysely';
import type { ParsedListOpen } from '../checked-parts.js';
import {
  type FinalTallies,
  hourMs,
  medianSampleSize,
  type ReportWindow,
} from '../operations-report.js';
import {
  fromInstant,
  type SqlDialectName,
  type StoreDatabase,
  type TransactionsTable,
  toInstant,
  transactionsTable,
} from './table.js';

// The operations page's reads over a large store. Each is answered from an index
// (`pesakit_transactions_final_idx`, `_listing_idx`, `_operator_idx` in the initial schema)
// and reads a bounded number of rows, so a refresh costs about the same on a store of a
// hundred records as on one of a hundred thousand.

const finalStatuses = ['success', 'failed'] as const;

/** The chart's hours as a table (`finalTalliesOf`): instants as the dialect stores them. */
type ChartHours = { chart_hours: { slot: number; from_at: string; to_at: string } };
type CountScope = ExpressionBuilder<StoreDatabase & ChartHours, 'chart_hours'>;

/** An instant as a bound parameter PostgreSQL can compare with timestamptz inside VALUES. */
function instantParameter(dialect: SqlDialectName, at: Date): RawBuilder<unknown> {
  const value = toInstant(dialect, at);
  return dialect === 'postgres' ? sql`cast(${value} as timestamptz)` : sql`${value}`;
}

/**
 * The report's figures counted in the database: finals per chart hour, each provider's finals
 * and successes over the last 24 hours, and each provider's latest durations for its median.
 */
export async function finalTalliesOf(
  db: Kysely<StoreDatabase>,
  dialect: SqlDialectName,
  window: ReportWindow,
): Promise<FinalTallies> {
  const { until, chartFrom, hours } = window;
  const end = until.getTime() + 1;
  // The chart's hours as a table of ranges.
  const slots = Array.from({ length: hours }, (_, slot) => {
    const from = chartFrom + slot * hourMs;
    const to = Math.min(from + hourMs, end);
    return sql`(${slot}, ${instantParameter(dialect, new Date(from))}, ${instantParameter(dialect, new Date(to))})`;
  });
  // A count per hour and status, each an index range: no finals are sorted or grouped, which
  // on a busy week is the difference between milliseconds and most of a second.
  const countIn = (status: (typeof finalStatuses)[number]) => (eb: CountScope) =>
    eb
      .selectFrom('pesakit_transactions as t')
      .select((inner) => inner.fn.countAll<number | string>().as('count'))
      .where('t.status', '=', status)
      .whereRef('t.final_at', '>=', 'chart_hours.from_at')
      .whereRef('t.final_at', '<', 'chart_hours.to_at')
      .as(status);
  const hourlyCounts = db
    .with(
      'chart_hours(slot, from_at, to_at)',
      () => sql<ChartHours['chart_hours']>`(values ${sql.join(slots)})`,
    )
    .selectFrom('chart_hours')
    .select(['chart_hours.slot', countIn('success'), countIn('failed')])
    .execute();
  const [hourly, providers] = await Promise.all([
    hourlyCounts,
    providerTallies(db, dialect, window),
  ]);
  return {
    hourly: hourly.flatMap((row) =>
      finalStatuses.map((status) => ({
        slot: Number(row.slot),
        status,
        count: Number(row[status] ?? 0),
      })),
    ),
    providers,
  };
}

/** Each operator's finals and successes over the last 24 hours, and its latest durations. */
async function providerTallies(
  db: Kysely<StoreDatabase>,
  dialect: SqlDialectName,
  { until, dayAgo }: ReportWindow,
): Promise<FinalTallies['providers']> {
  const day = [toInstant(dialect, new Date(dayAgo)), toInstant(dialect, until)] as const;
  // The operators, one index lookup each (a loose index scan: the next name after the last),
  // rather than a pass over every record; records without one are looked up as NULL.
  const named = await db
    .withRecursive('operators(provider)', (start) =>
      start
        .selectFrom(transactionsTable)
        .select((eb) => eb.fn.min('provider').as('provider'))
        .unionAll((next) =>
          next
            .selectFrom('operators')
            .select((eb) =>
              eb
                .selectFrom(transactionsTable)
                .select((inner) => inner.fn.min('provider').as('provider'))
                .whereRef(`${transactionsTable}.provider`, '>', 'operators.provider')
                .as('provider'),
            )
            .where('operators.provider', 'is not', null),
        ),
    )
    .selectFrom('operators')
    .select('provider')
    .where('provider', 'is not', null)
    .execute();
  const operators = [...named, { provider: null }];
  // Each operator's two reads side by side: over PostgreSQL they are round trips.
  return (
    await Promise.all(
      operators.map(async ({ provider }) => {
        const inWindow = db
          .selectFrom(transactionsTable)
          .where('provider', provider === null ? 'is' : '=', provider)
          .where('final_at', '>', day[0])
          .where('final_at', '<=', day[1]);
        const [counted, latest] = await Promise.all([
          inWindow
            .select((eb) => [
              eb.fn.countAll<number | string>().as('finals'),
              eb.fn
                .sum<number | string | null>(
                  eb.case().when('status', '=', 'success').then(1).else(0).end(),
                )
                .as('successes'),
            ])
            .executeTakeFirstOrThrow(),
          inWindow
            .select(['created_at', 'final_at'])
            .orderBy('final_at', 'desc')
            .limit(medianSampleSize)
            .execute(),
        ]);
        return {
          provider,
          finals: Number(counted.finals),
          successes: Number(counted.successes ?? 0),
          latestMsToFinal: latest.map(
            (row) =>
              fromInstant(row.final_at as Date | string).getTime() -
              fromInstant(row.created_at).getTime(),
          ),
        };
      }),
    )
  ).filter((health) => health.finals > 0);
}

/** What `records.list` keeps, in either order: its statuses, product and last check. */
export function listed<O>(
  qb: SelectQueryBuilder<StoreDatabase, typeof transactionsTable, O>,
  dialect: SqlDialectName,
  { statuses, product, checkedBefore }: ParsedListOpen,
): SelectQueryBuilder<StoreDatabase, typeof transactionsTable, O> {
  return qb
    .where('status', 'in', [...statuses])
    .$if(product !== undefined, (q) => q.where('product', '=', product as string))
    .$if(checkedBefore !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('last_checked_at', 'is', null),
          eb('last_checked_at', '<', toInstant(dialect, checkedBefore as Date)),
        ]),
      ),
    );
}

/**
 * `records.list({ oldestFirst })`, a page after `filter.after`: the page's keys are read from the
 * listing index alone (a sort of keys, however many records match), then only the page's rows.
 */
export async function recordsByCreation(
  db: Kysely<StoreDatabase>,
  dialect: SqlDialectName,
  filter: ParsedListOpen,
): Promise<Selectable<TransactionsTable>[]> {
  const { limit, after } = filter;
  const keys = await db
    .selectFrom(transactionsTable)
    .select('merchant_reference')
    .$call((qb) => listed(qb, dialect, filter))
    .$if(after !== undefined, (qb) => {
      const { createdAt, merchantReference } = after as NonNullable<typeof after>;
      const at = toInstant(dialect, createdAt);
      return qb.where((eb) =>
        eb.or([
          eb('created_at', '>', at),
          eb.and([eb('created_at', '=', at), eb('merchant_reference', '>', merchantReference)]),
        ]),
      );
    })
    .orderBy('created_at', 'asc')
    .orderBy('merchant_reference', 'asc')
    .limit(limit)
    .execute();
  if (keys.length === 0) return [];
  const references = keys.map((key) => key.merchant_reference);
  const rows = await db
    .selectFrom(transactionsTable)
    .selectAll()
    .where('merchant_reference', 'in', references)
    .execute();
  const byReference = new Map(rows.map((row) => [row.merchant_reference, row]));
  return references.flatMap((reference) => byReference.get(reference) ?? []);
}
