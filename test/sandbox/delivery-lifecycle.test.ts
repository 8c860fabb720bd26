import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CallbackDispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import { FaultBoard } from '../../src/sandbox/delivery/faults.js';
import { CallbackReceiver } from './delivery-receiver.js';

const payload = { status: true, controlNumber: '991234567890' };

let receiver: CallbackReceiver;
let url: string;
let dispatcher: CallbackDispatcher | undefined;

function dispatcherWith(options: { schedule?: number[] }) {
  dispatcher = new CallbackDispatcher({
    schedule: options.schedule ?? [5],
    faults: new FaultBoard(),
  });
  return dispatcher;
}

const settled = (kind = 'collection.settled') => ({ url, payload, key: '991234567890', kind });

beforeEach(async () => {
  receiver = new CallbackReceiver();
  url = await receiver.listen();
  dispatcher = undefined;
});

afterEach(async () => {
  await dispatcher?.close();
  await receiver.close();
});

describe('close() and reset()', () => {
  it('close() cancels a pending retry: nothing more reaches the merchant', async () => {
    receiver.respond = () => 500;
    // The retry delay is the window in which the test must see 'retrying' and close: wide
    // enough that a loaded machine (CI runs the suite twice) cannot let the retry run first.
    const closing = dispatcherWith({ schedule: [400] });
    closing.enqueue(settled('closing'));
    await expect
      .poll(() => closing.log().map((record) => record.outcome), { interval: 5 })
      .toEqual(['retrying']);
    await closing.close();
    await expect(closing.idle()).resolves.toBeUndefined();
    closing.enqueue(settled('after-close'));

    // A witness on the same schedule, enqueued later: once its retry arrives, the closed
    // dispatcher's retry (due earlier) would have arrived too, had it not been cancelled.
    const witness = new CallbackDispatcher({ schedule: [400], faults: new FaultBoard() });
    receiver.respond = (index) => (index < 2 ? 500 : 200);
    witness.enqueue(settled('witness'));
    await witness.idle();
    await witness.close();

    const closedId = receiver.received[0]?.headers['x-pesakit-delivery-id'];
    const fromClosed = receiver.received.filter(
      (callback) => callback.headers['x-pesakit-delivery-id'] === closedId,
    );
    expect(fromClosed).toHaveLength(1);
    expect(receiver.received).toHaveLength(3);
  });

  it('close() logs an attempt it interrupts as cancelled', async () => {
    receiver.respond = () => 'never';
    const dispatcher = dispatcherWith({});
    dispatcher.enqueue(settled());
    await receiver.waitFor(1);
    await dispatcher.close();
    await expect
      .poll(() => dispatcher.log().map((record) => record.outcome))
      .toEqual(['cancelled']);
  });

  it('reset() clears the log and cancels what is pending, and the dispatcher keeps working', async () => {
    receiver.respond = (index) => (index === 0 ? 500 : 200);
    const dispatcher = dispatcherWith({ schedule: [60_000] });
    dispatcher.enqueue(settled());
    await receiver.waitFor(1);
    await expect.poll(() => dispatcher.log().length).toBe(1);
    dispatcher.reset();
    expect(dispatcher.log()).toEqual([]);
    await dispatcher.idle();

    dispatcher.enqueue(settled());
    await dispatcher.idle();
    expect(dispatcher.log()).toEqual([expect.objectContaining({ outcome: 'delivered' })]);
  });

  it('keeps at most logLimit records, dropping the oldest', async () => {
    const limited = new CallbackDispatcher({ faults: new FaultBoard(), logLimit: 2 });
    dispatcher = limited;
    for (const kind of ['first', 'second', 'third']) limited.enqueue(settled(kind));
    await limited.idle();
    expect(receiver.received).toHaveLength(3);
    expect(limited.log()).toHaveLength(2);
  });
});
