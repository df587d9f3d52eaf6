/**
 * PriorityGate (util/slices.ts): while a holder's work is pending the lower-priority side waits at
 * `passage()`; when the hold ends the holder's own continuation runs first, and a holder that
 * takes the gate again at once keeps it.
 */
import { describe, expect, it } from '@jest/globals';
import { PriorityGate, yieldToEventLoop } from '../../src/util/slices.js';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (err: Error) => void } {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await yieldToEventLoop();
}

describe('PriorityGate', () => {
  it('lets the waiting side through at once while nobody holds it', async () => {
    const gate = new PriorityGate();
    expect(gate.closed).toBe(false);
    await expect(gate.passage()).resolves.toBeUndefined();
  });

  it('holds the waiting side while the work is pending, and lets it go after the holder has gone on', async () => {
    const gate = new PriorityGate();
    const work = deferred();
    const order: string[] = [];
    let closedForHolder: boolean | undefined;
    const holder = gate.during(work.promise).then(() => {
      // The hold is over, but the waiters go on only in the next macrotask: still closed to a newcomer.
      closedForHolder = gate.closed;
      order.push('holder');
    });
    expect(gate.closed).toBe(true);
    const waiter = gate.passage().then(() => order.push('waiter'));
    await turns(5);
    expect(order).toEqual([]);
    work.resolve();
    await Promise.all([holder, waiter]);
    expect(order).toEqual(['holder', 'waiter']);
    expect(closedForHolder).toBe(true);
    expect(gate.closed).toBe(false);
  });

  it('keeps the gate for a holder that takes it again in its continuation', async () => {
    const gate = new PriorityGate();
    const first = deferred();
    const second = deferred();
    const order: string[] = [];
    const holder = gate.during(first.promise).then(async () => {
      order.push('first done');
      await gate.during(second.promise);
      order.push('second done');
    });
    const waiter = gate.passage().then(() => order.push('waiter'));
    first.resolve();
    await turns(5);
    expect(order).toEqual(['first done']);
    expect(gate.closed).toBe(true);
    second.resolve();
    await Promise.all([holder, waiter]);
    expect(order).toEqual(['first done', 'second done', 'waiter']);
  });

  it('opens again when the work fails, and the failure reaches the holder', async () => {
    const gate = new PriorityGate();
    const work = deferred();
    const held = gate.during(work.promise);
    const waiter = gate.passage();
    work.reject(new Error('disk gone'));
    await expect(held).rejects.toThrow('disk gone');
    await expect(waiter).resolves.toBeUndefined();
    expect(gate.closed).toBe(false);
  });

  it('stays closed until the last of several holds ends', async () => {
    const gate = new PriorityGate();
    const a = deferred();
    const b = deferred();
    const heldA = gate.during(a.promise);
    const heldB = gate.during(b.promise);
    let through = false;
    const waiter = gate.passage().then(() => (through = true));
    a.resolve();
    await heldA;
    await turns(3);
    expect(through).toBe(false);
    b.resolve();
    await Promise.all([heldB, waiter]);
    expect(through).toBe(true);
  });
});
