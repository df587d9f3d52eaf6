/** KeptAnswers: answers kept at one state height, dropped when it moves, at most `max`, the oldest first. */
import { describe, expect, it } from '@jest/globals';
import { KeptAnswers } from '../../../src/node/threads/keptAnswers.js';

describe('KeptAnswers', () => {
  it('keeps an answer read at the current height; drops everything once the height moves', () => {
    let height = 5;
    let changes = 0;
    const kept = new KeptAnswers<string>(10, () => height, () => changes++);
    kept.set('a', 'A', 5);
    expect(kept.get('a')).toBe('A');
    expect(kept.any()).toBe(true);
    // Read at a height that is no longer the state's: not kept.
    kept.set('b', 'B', 4);
    expect(kept.get('b')).toBeUndefined();
    height = 6;
    expect(kept.get('a')).toBeUndefined();
    expect(kept.size).toBe(0);
    expect(kept.any()).toBe(false);
    expect(changes).toBe(2); // one keep, one drop
    expect(kept.sync()).toBe(6);
  });

  it('holds at most max answers, the oldest going first; a key set again does not evict another', () => {
    const kept = new KeptAnswers<number>(2, () => 1);
    kept.set('a', 1, 1);
    kept.set('b', 2, 1);
    kept.set('b', 3, 1);
    expect([kept.get('a'), kept.get('b')]).toEqual([1, 3]);
    kept.set('c', 4, 1);
    expect([kept.get('a'), kept.get('b'), kept.get('c')]).toEqual([undefined, 3, 4]);
  });

  it('keeps nothing with max 0, or at a negative height', () => {
    const none = new KeptAnswers<string>(0, () => 1);
    none.set('a', 'A', 1);
    expect(none.get('a')).toBeUndefined();
    expect(none.any()).toBe(false);
    const noHeight = new KeptAnswers<string>(5, () => -1);
    noHeight.set('a', 'A', -1);
    expect(noHeight.get('a')).toBeUndefined();
  });
});
