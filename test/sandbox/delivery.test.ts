import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CallbackDispatcher,
  DEFAULT_RETRY_SCHEDULE,
} from '../../src/sandbox/delivery/dispatcher.js';
import { FaultBoard, type FaultSettings } from '../../src/sandbox/delivery/faults.js';
import { CallbackReceiver, refusedUrl } from './delivery-receiver.js';

const payload = { status: true, controlNumber: '991234567890', data: { amount: 12_500 } };
const fixedClock = { now: () => new Date('2025-03-01T09:30:00.000Z') };

let receiver: CallbackReceiver;
let url: string;
let dispatcher: CallbackDispatcher;

function dispatcherWith(options: {
  schedule?: number[];
  timeoutMs?: number;
  faults?: FaultSettings;
}) {
  dispatcher = new CallbackDispatcher({
    schedule: options.schedule ?? [5, 10],
    faults: new FaultBoard(options.faults ?? {}),
    clock: fixedClock,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return dispatcher;
}

const settled = (kind = 'collection.settled') => ({ url, payload, key: '991234567890', kind });

beforeEach(async () => {
  receiver = new CallbackReceiver();
  url = await receiver.listen();
});

afterEach(async () => {
  await dispatcher?.close();
  await receiver.close();
});

describe('a callback answered 2xx is delivered', () => {
  it('POSTs the JSON payload once, with the delivery headers, and logs it as delivered', async () => {
    const dispatcher = dispatcherWith({});
    dispatcher.enqueue(settled());
    await dispatcher.idle();

    expect(receiver.received).toHaveLength(1);
    const [callback] = receiver.received;
    expect(callback?.body).toEqual(payload);
    expect(callback?.headers['content-type']).toBe('application/json');
    expect(callback?.headers['user-agent']).toBe('pesakit-sandbox');
    expect(callback?.headers['x-pesakit-attempt']).toBe('1');
    const id = callback?.headers['x-pesakit-delivery-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    expect(dispatcher.log()).toEqual([
      expect.objectContaining({
        id,
        key: '991234567890',
        kind: 'collection.settled',
        url,
        attempt: 1,
        status: 200,
        outcome: 'delivered',
        at: '2025-03-01T09:30:00.000Z',
        payload,
      }),
    ]);
    expect(dispatcher.log()[0]).not.toHaveProperty('error');
  });

  it('gives every delivery its own id', async () => {
    const dispatcher = dispatcherWith({});
    dispatcher.enqueue(settled());
    dispatcher.enqueue(settled());
    await dispatcher.idle();
    const ids = receiver.received.map((callback) => callback.headers['x-pesakit-delivery-id']);
    expect(new Set(ids).size).toBe(2);
  });
});

describe('a failed attempt is retried on the schedule', () => {
  it('retries a 500 and delivers on the next attempt, with the same delivery id', async () => {
    receiver.respond = (index) => (index === 0 ? 500 : 204);
    const dispatcher = dispatcherWith({ schedule: [5, 10] });
    dispatcher.enqueue(settled());
    await dispatcher.idle();

    const attempts = receiver.received.map((callback) => callback.headers['x-pesakit-attempt']);
    expect(attempts).toEqual(['1', '2']);
    const ids = receiver.received.map((callback) => callback.headers['x-pesakit-delivery-id']);
    expect(ids[0]).toBe(ids[1]);
    expect(
      dispatcher.log().map(({ attempt, outcome, status }) => ({ attempt, outcome, status })),
    ).toEqual([
      { attempt: 1, outcome: 'retrying', status: 500 },
      { attempt: 2, outcome: 'delivered', status: 204 },
    ]);
    expect(dispatcher.log()[0]).toMatchObject({
      nextAttemptInMs: 5,
      error: 'The merchant answered HTTP 500.',
    });
  });

  it('gives up after the last scheduled retry and marks the delivery failed', async () => {
    receiver.respond = () => 503;
    const dispatcher = dispatcherWith({ schedule: [5, 10] });
    dispatcher.enqueue(settled());
    await dispatcher.idle();

    expect(receiver.received).toHaveLength(3);
    expect(dispatcher.log().map((record) => record.outcome)).toEqual([
      'retrying',
      'retrying',
      'failed',
    ]);
    expect(dispatcher.log().map((record) => record.nextAttemptInMs)).toEqual([5, 10, undefined]);
  });

  it('treats a redirect as a failure instead of following it', async () => {
    receiver.respond = () => 302;
    const dispatcher = dispatcherWith({ schedule: [] });
    dispatcher.enqueue(settled());
    await dispatcher.idle();
    expect(receiver.received).toHaveLength(1);
    expect(dispatcher.log()).toEqual([expect.objectContaining({ status: 302, outcome: 'failed' })]);
  });

  it('retries when the connection is refused, and logs why', async () => {
    const dispatcher = dispatcherWith({ schedule: [5] });
    const refused = await refusedUrl();
    dispatcher.enqueue({ ...settled(), url: refused });
    await dispatcher.idle();

    const log = dispatcher.log();
    expect(log.map((record) => record.outcome)).toEqual(['retrying', 'failed']);
    expect(log[0]?.error).toMatch(/ECONNREFUSED/);
    expect(log[0]).not.toHaveProperty('status');
  });

  it('counts an attempt with no answer within timeoutMs as failed', async () => {
    receiver.respond = (index) => (index === 0 ? 'never' : 200);
    const dispatcher = dispatcherWith({ schedule: [5], timeoutMs: 100 });
    dispatcher.enqueue(settled());
    await dispatcher.idle();

    expect(dispatcher.log().map((record) => [record.outcome, record.error])).toEqual([
      ['retrying', 'No answer within 100 ms.'],
      ['delivered', undefined],
    ]);
  });

  it('uses a documented default schedule of four retries', () => {
    expect(DEFAULT_RETRY_SCHEDULE).toEqual([1000, 5000, 30_000, 120_000]);
  });
});

describe('idle() lets callers wait without sleeping', () => {
  it('resolves at once when nothing was enqueued', async () => {
    await expect(dispatcherWith({}).idle()).resolves.toBeUndefined();
  });

  it('stays pending while a delivery is in flight or waiting to retry', async () => {
    let idle = false;
    const seenWhileBusy: boolean[] = [];
    receiver.respond = (index) => {
      seenWhileBusy.push(idle);
      return index === 0 ? 500 : 200;
    };
    const dispatcher = dispatcherWith({ schedule: [20] });
    dispatcher.enqueue(settled());
    await dispatcher.idle().then(() => {
      idle = true;
    });
    expect(seenWhileBusy).toEqual([false, false]);
  });
});

describe('what is never sent', () => {
  it('refuses a URL that is not http or https, without sending anything', async () => {
    const dispatcher = dispatcherWith({});
    dispatcher.enqueue({ ...settled(), url: 'file:///etc/passwd' });
    dispatcher.enqueue({ ...settled(), url: 'not a url' });
    await dispatcher.idle();
    expect(receiver.received).toHaveLength(0);
    expect(dispatcher.log().map(({ attempt, outcome }) => ({ attempt, outcome }))).toEqual([
      { attempt: 0, outcome: 'failed' },
      { attempt: 0, outcome: 'failed' },
    ]);
  });

  it('logs a payload that is not JSON instead of throwing', async () => {
    const dispatcher = dispatcherWith({});
    expect(() => dispatcher.enqueue({ ...settled(), payload: { amount: 10n } })).not.toThrow();
    await dispatcher.idle();
    expect(dispatcher.log()).toEqual([
      expect.objectContaining({ outcome: 'failed', error: 'The payload is not serialisable.' }),
    ]);
  });

  it('survives a fetch that throws', async () => {
    const dispatcher = new CallbackDispatcher({
      schedule: [],
      faults: new FaultBoard(),
      fetch: () => {
        throw new Error('socket exploded');
      },
    });
    dispatcher.enqueue(settled());
    await dispatcher.idle();
    expect(dispatcher.log()).toEqual([
      expect.objectContaining({ outcome: 'failed', error: 'socket exploded' }),
    ]);
    await dispatcher.close();
  });
});
