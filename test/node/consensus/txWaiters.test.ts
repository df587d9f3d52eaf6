import { jest } from '@jest/globals';
import { TxWaiters, type EventDataTx } from '../../../src/node/consensus/events.js';

const makeError = (reason: 'timeout' | 'cancelled', hash: string): Error => new Error(`${reason} ${hash}`);
const data = { height: 5, index: 0 } as unknown as EventDataTx;

describe('TxWaiters', () => {
  test('deliver resolves every waiter of that hash (hex case and 0x ignored) and forgets them', async () => {
    const waiters = new TxWaiters(makeError);
    const a = waiters.wait('0xabcd', 1000);
    const b = waiters.wait('ABCD', 1000);
    const other = waiters.wait('EEEE', 1000);
    waiters.deliver('ABCD', data);
    await expect(a.promise).resolves.toBe(data);
    await expect(b.promise).resolves.toBe(data);
    expect(waiters.size).toBe(1);
    other.cancel();
    expect(waiters.size).toBe(0);
  });

  test('a timeout rejects with the owner error naming the hash', async () => {
    const waiters = new TxWaiters(makeError);
    await expect(waiters.wait('ab', 10).promise).rejects.toThrow('timeout AB');
    expect(waiters.size).toBe(0);
  });

  test('cancel rejects, and a dropped promise raises no unhandled rejection', async () => {
    const waiters = new TxWaiters(makeError);
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const waited = waiters.wait('cd', 1000);
      waited.cancel();
      await expect(waited.promise).rejects.toThrow('cancelled CD');
      waiters.wait('ef', 1000).cancel();
      // Unhandled rejections are reported after the microtask queue drains: let a macrotask pass.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
