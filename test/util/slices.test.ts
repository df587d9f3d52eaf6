/**
 * Sliced tasks share an event-loop turn (issue 15): two long tasks resumed in the same check phase
 * hand the loop back after about one slice between them, not one slice each.
 */
import { describe, expect, it } from '@jest/globals';
import { runSliced } from '../../src/util/slices.js';

const STEP_MS = 0.2;

function* spinSteps(count: number, log: number[], turnOf: () => number): Generator<void, number, void> {
  for (let i = 0; i < count; i++) {
    const until = performance.now() + STEP_MS;
    while (performance.now() < until);
    log.push(turnOf());
    yield;
  }
  return count;
}

describe('TimeSlicer', () => {
  it('two tasks in one turn share its 4 ms, and both finish', async () => {
    let turn = 0;
    let ticking = true;
    const tick = (): void => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const a: number[] = [];
    const b: number[] = [];
    const [doneA, doneB] = await Promise.all([runSliced(spinSteps(400, a, () => turn), 4), runSliced(spinSteps(400, b, () => turn), 4)]);
    ticking = false;
    expect(doneA).toBe(400);
    expect(doneB).toBe(400);
    const perTurn = new Map<number, number>();
    for (const t of [...a, ...b]) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
    // One task's slice alone is ~20 steps; unshared, two tasks would run ~40 in a turn.
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(30);
    // Both made progress in the turns they shared.
    const turnsA = new Set(a);
    expect(b.some((t) => turnsA.has(t))).toBe(true);
  });

  it('a slice of 0 never pauses', async () => {
    const log: number[] = [];
    let turn = 0;
    setImmediate(() => turn++);
    await runSliced(spinSteps(50, log, () => turn), 0);
    expect(new Set(log).size).toBe(1);
  });
});
