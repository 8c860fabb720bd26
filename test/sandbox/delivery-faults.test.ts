import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CallbackDispatcher } from '../../src/sandbox/delivery/dispatcher.js';
import { FaultBoard, faultSettingsSchema } from '../../src/sandbox/delivery/faults.js';
import { CallbackReceiver } from './delivery-receiver.js';

let receiver: CallbackReceiver;
let url: string;
let board: FaultBoard;
let dispatcher: CallbackDispatcher;

const delivery = (key: string) => ({ url, payload: { controlNumber: key }, key, kind: 'test' });
const keysReceived = () =>
  receiver.received.map((callback) => (callback.body as { controlNumber: string }).controlNumber);

beforeEach(async () => {
  receiver = new CallbackReceiver();
  url = await receiver.listen();
  board = new FaultBoard();
  dispatcher = new CallbackDispatcher({ schedule: [5], faults: board, reorderWindowMs: 40 });
});

afterEach(async () => {
  await dispatcher.close();
  await receiver.close();
});

describe('fault: drop the next N deliveries', () => {
  it('logs the next N as dropped without sending them, then delivers again', async () => {
    board.patch({ callbacks: { drop: 2 } });
    for (const key of ['A', 'B', 'C']) dispatcher.enqueue(delivery(key));
    await dispatcher.idle();

    expect(keysReceived()).toEqual(['C']);
    expect(
      dispatcher.log().map(({ key, outcome, attempt }) => ({ key, outcome, attempt })),
    ).toEqual([
      { key: 'A', outcome: 'dropped', attempt: 0 },
      { key: 'B', outcome: 'dropped', attempt: 0 },
      { key: 'C', outcome: 'delivered', attempt: 1 },
    ]);
  });

  it('counts N again from each new setting', async () => {
    board.patch({ callbacks: { drop: 1 } });
    dispatcher.enqueue(delivery('A'));
    dispatcher.enqueue(delivery('B'));
    board.patch({ callbacks: { drop: 1 } });
    dispatcher.enqueue(delivery('C'));
    dispatcher.enqueue(delivery('D'));
    await dispatcher.idle();
    expect(keysReceived().sort()).toEqual(['B', 'D']);
  });
});

describe('fault: drop counts down and is never re-armed by a patch that does not name it', () => {
  it('a later {delayMs: 0} patch leaves the used-up drop at 0; settings show what remains', async () => {
    board.patch({ callbacks: { drop: 2 } });
    dispatcher.enqueue(delivery('A'));
    expect(board.settings.callbacks?.drop).toBe(1);
    board.patch({ callbacks: { delayMs: 0 } });
    expect(board.settings.callbacks).toEqual({ drop: 1, delayMs: 0 });
    dispatcher.enqueue(delivery('B'));
    board.patch({ callbacks: { delayMs: 0 } });
    board.patch({ latencyMs: 0 });
    dispatcher.enqueue(delivery('C'));
    await dispatcher.idle();
    expect(keysReceived()).toEqual(['C']);
    expect(board.settings.callbacks?.drop).toBe(0);
  });

  it('reset restores the start-up drop count', () => {
    const startup = new FaultBoard({ callbacks: { drop: 1 } });
    expect(startup.takeDrop()).toBe(true);
    expect(startup.takeDrop()).toBe(false);
    startup.reset();
    expect(startup.settings).toEqual({ callbacks: { drop: 1 } });
  });
});

describe('fault: duplicate each delivery N times', () => {
  it('sends N independent copies of the same body', async () => {
    board.patch({ callbacks: { duplicate: 3 } });
    dispatcher.enqueue(delivery('A'));
    await dispatcher.idle();

    expect(keysReceived()).toEqual(['A', 'A', 'A']);
    const ids = receiver.received.map((callback) => callback.headers['x-pesakit-delivery-id']);
    expect(new Set(ids).size).toBe(3);
    expect(dispatcher.log().map((record) => record.outcome)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ]);
  });

  it('retries each copy on its own', async () => {
    board.patch({ callbacks: { duplicate: 2 } });
    receiver.respond = (index) => (index === 0 ? 500 : 200);
    dispatcher.enqueue(delivery('A'));
    await dispatcher.idle();
    expect(receiver.received).toHaveLength(3);
    expect(dispatcher.log().filter((record) => record.outcome === 'delivered')).toHaveLength(2);
  });
});

describe('fault: delay each delivery', () => {
  it('holds the first attempt for delayMs', async () => {
    board.patch({ callbacks: { delayMs: 150 } });
    const enqueuedAt = performance.now();
    dispatcher.enqueue(delivery('A'));
    expect(dispatcher.log()).toEqual([]);
    const [callback] = await receiver.waitFor(1);
    // Node may fire a timer up to a millisecond early; anything near 150 ms proves the hold.
    expect((callback?.at ?? 0) - enqueuedAt).toBeGreaterThanOrEqual(145);
    await dispatcher.idle();
  });
});

describe('fault: reorder deliveries', () => {
  it('holds a batch and releases it newest-first, as the receiver observes', async () => {
    board.patch({ callbacks: { reorder: true } });
    for (const key of ['A', 'B', 'C']) dispatcher.enqueue(delivery(key));
    expect(receiver.received).toHaveLength(0);
    await dispatcher.idle();
    expect(keysReceived()).toEqual(['C', 'B', 'A']);
  });

  it('uses delayMs as the hold window when both are set', async () => {
    board.patch({ callbacks: { reorder: true, delayMs: 120 } });
    const enqueuedAt = performance.now();
    dispatcher.enqueue(delivery('A'));
    dispatcher.enqueue(delivery('B'));
    const [first] = await receiver.waitFor(1);
    expect((first?.at ?? 0) - enqueuedAt).toBeGreaterThanOrEqual(115);
    await dispatcher.idle();
    expect(keysReceived()).toEqual(['B', 'A']);
  });
});

describe('faultSettingsSchema', () => {
  it('accepts every fault within its bounds', () => {
    const settings = {
      callbacks: { drop: 3, duplicate: 10, delayMs: 60_000, reorder: true },
      latencyMs: 250,
    };
    expect(faultSettingsSchema.parse(settings)).toEqual(settings);
    expect(faultSettingsSchema.parse({})).toEqual({});
  });

  it.each([
    [
      { callbacks: { delayMs: 60_001 } },
      'callbacks.delayMs',
      'The callbacks.delayMs may not be greater than 60000.',
    ],
    [
      { callbacks: { duplicate: 0 } },
      'callbacks.duplicate',
      'The callbacks.duplicate must be at least 1.',
    ],
    [
      { callbacks: { duplicate: 11 } },
      'callbacks.duplicate',
      'The callbacks.duplicate may not be greater than 10.',
    ],
    [{ callbacks: { drop: -1 } }, 'callbacks.drop', 'The callbacks.drop must be at least 0.'],
    [{ callbacks: { drop: 1.5 } }, 'callbacks.drop', 'The callbacks.drop must be an integer.'],
    [
      { callbacks: { reorder: 'yes' } },
      'callbacks.reorder',
      'The callbacks.reorder must be true or false.',
    ],
    [{ latencyMs: 30_001 }, 'latencyMs', 'The latencyMs may not be greater than 30000.'],
    [{ latencyMs: '5' }, 'latencyMs', 'The latencyMs must be a number.'],
  ])('rejects %j with a message naming %s', (input, path, message) => {
    const result = faultSettingsSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: path.split('.'), message }),
    ]);
  });

  it('rejects unknown fields rather than ignoring a typo', () => {
    expect(faultSettingsSchema.safeParse({ callbacks: { dorp: 1 } }).success).toBe(false);
    expect(faultSettingsSchema.safeParse({ latency: 5 }).success).toBe(false);
  });
});

describe('FaultBoard.patch', () => {
  it('changes only the fields the patch names, without mutating what it returned before', () => {
    const faults = new FaultBoard({ callbacks: { drop: 1, delayMs: 50 }, latencyMs: 10 });
    const before = faults.settings;
    const merged = faults.patch({ callbacks: { delayMs: 0, reorder: true } });
    expect(merged).toEqual({ callbacks: { drop: 1, delayMs: 0, reorder: true }, latencyMs: 10 });
    expect(before).toEqual({ callbacks: { drop: 1, delayMs: 50 }, latencyMs: 10 });
    expect(faults.patch({ latencyMs: 0 })).toEqual({ ...merged, latencyMs: 0 });
  });
});
