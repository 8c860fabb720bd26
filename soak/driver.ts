// The driver: pays the seeded mix through the SDK (on the run's store), as a shop's checkout
// would. Under chaos most calls answer; some are ambiguous (the money may have moved: only the
// reconciler decides), some refused. It also pays a hosted checkout as its customer would, pays
// some bank collections at the bank, and now and then forges a callback.
import { isAmbiguousOutcomeError, isPesakitError, type Pesakit } from 'pesakit';
import { type ForgeryKind, forge, type StartedCollection, sendForgery } from './forgery.js';
import type { SoakOptions } from './options.js';
import { type PlannedPayment, planPayment } from './plan.js';
import type { SandboxProcess } from './sandbox-process.js';
import { seeded } from './seeded.js';

export interface DriveContext {
  options: SoakOptions;
  pesakit: Pesakit;
  sandbox: SandboxProcess;
  /** Each merchant's callback URL. */
  callbackUrls: readonly string[];
  singles: number;
  /** Called as each payment starts (the process faults follow progress). */
  onStart(n: number): void;
  /** Side work started at a payment: the bulk files. */
  at: ReadonlyMap<number, ReadonlyArray<() => Promise<void>>>;
}

export interface DriveResult {
  /** Calls by how they ended: `answered`, `ambiguous`, or the error's name. */
  outcomes: Record<string, number>;
  kinds: Record<string, number>;
  forgeries: Record<ForgeryKind, number>;
}

const forgeryRate = 0.04;

export async function drive(context: DriveContext): Promise<DriveResult> {
  const { options, singles } = context;
  const result: DriveResult = {
    outcomes: {},
    kinds: {},
    forgeries: { unknown_reference: 0, false_claim: 0, borrowed_pesakit_ref: 0 },
  };
  const started: StartedCollection[] = [];
  const later: Array<Promise<unknown>> = [];
  const forgeries = seeded(options.seed, 'forgeries');
  const startedAt = Date.now();
  const spacingMs = options.minutes === null ? 0 : (options.minutes * 60_000) / singles;
  let next = 0;
  const worker = async () => {
    while (next < singles) {
      const n = next;
      next += 1;
      const wait = startedAt + n * spacingMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      context.onStart(n);
      for (const side of context.at.get(n) ?? []) later.push(side());
      const payment = planPayment(options.seed, n);
      count(result.kinds, payment.kind);
      count(result.outcomes, await pay(context, payment, started, later));
      if (forgeries.chance(forgeryRate)) {
        const kind = forgeries.pick<ForgeryKind>([
          'unknown_reference',
          'false_claim',
          'borrowed_pesakit_ref',
        ]);
        result.forgeries[kind] += 1;
        const url = forgeries.pick(context.callbackUrls);
        later.push(sendForgery(forge(kind, url, started, forgeries)));
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  await Promise.all(later);
  return result;
}

function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

async function pay(
  context: DriveContext,
  payment: PlannedPayment,
  started: StartedCollection[],
  later: Array<Promise<unknown>>,
): Promise<string> {
  const { pesakit, sandbox } = context;
  const { amount, msisdn, merchantReference } = payment;
  const callback_url = context.callbackUrls[payment.merchant]!;
  const options = { merchantReference };
  const settlesAs =
    payment.outcome === 'succeeds' ? 'success' : payment.outcome === 'fails' ? 'failed' : 'never';
  try {
    switch (payment.kind) {
      case 'push': {
        const answer = await pesakit.collection.initiateMno(
          { amount, msisdn, callback_url },
          options,
        );
        started.push({ ...answer, merchantReference, amount, settlesAs });
        break;
      }
      case 'checkout': {
        const answer = await pesakit.collection.createCheckout({ amount, callback_url }, options);
        started.push({ ...answer, merchantReference, amount, settlesAs });
        // The customer on the hosted page pays by phone, unless this one walks away.
        if (payment.outcome !== 'never_settles') {
          later.push(payOnCheckoutPage(sandbox.url, answer.payment_token, msisdn));
        }
        break;
      }
      case 'bank': {
        const answer = await pesakit.collection.initiateBank({ amount, callback_url }, options);
        started.push({ ...answer, merchantReference, amount, settlesAs });
        // The customer pays at the bank (or the bank says no), a moment later.
        if (payment.outcome !== 'never_settles') {
          const outcome = payment.outcome === 'succeeds' ? 'success' : 'failed';
          later.push(
            new Promise((resolve) => setTimeout(resolve, 1000)).then(() =>
              sandbox
                .control('collection/settle', { ref_id: answer.controlNumber, outcome })
                .catch(() => {}),
            ),
          );
        }
        break;
      }
      case 'payout':
        await pesakit.disbursement.pay({ amount, msisdn, name: `Payee ${payment.n}` }, options);
        break;
      case 'airtime':
        await pesakit.airtime.purchase({ amount, msisdn }, options);
        break;
    }
    return 'answered';
  } catch (error) {
    if (isAmbiguousOutcomeError(error)) return 'ambiguous';
    if (isPesakitError(error)) return error.name;
    return `unexpected ${(error as Error).name}: ${(error as Error).message}`;
  }
}

/** What the hosted page does when the customer enters a phone number. */
async function payOnCheckoutPage(sandboxUrl: string, token: string, msisdn: string): Promise<void> {
  await fetch(`${sandboxUrl}/api/sandbox/mno/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, msisdn }),
  })
    .then((response) => response.arrayBuffer())
    .catch(() => {});
}
