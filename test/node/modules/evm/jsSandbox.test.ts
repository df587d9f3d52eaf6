/**
 * The JS tracer sandbox on its own: the instrumented source keeps its meaning for awkward shapes
 * (unbraced loop bodies ending where an arrow body ends, labels, getters, classes, generators),
 * refuses async code, and the tick stops loops that swallow errors; Go duration strings of ctx.time.
 */
import { Script, createContext } from 'node:vm';
import { instrument, openSandbox, TracerCompileError } from '../../../../src/node/modules/evm/jsSandbox.js';
import { goDurationString } from '../../../../src/node/modules/evm/jsTracer.js';

const evaluate = (source: string): unknown => {
  let ticks = 0;
  const context = createContext({ tick: () => void ticks++ });
  const value = new Script(instrument(source, 'tick')).runInContext(context) as () => unknown;
  return { result: value(), ticked: ticks > 0 };
};

describe('JS tracer sandbox', () => {
  test('instrumented code keeps its meaning', () => {
    const cases: [string, unknown][] = [
      ['function () { var f; for (var i = 0; i < 1; i++) f = () => i; return f(); }', 1],
      ['function () { var out = []; for (var i = 0; i < 2; i++) for (var j = 0; j < 2; j++) out.push(i + j); return out; }', [0, 1, 1, 2]],
      ['function () { var n = 0; outer: for (;;) { while (true) { n++; if (n > 2) break outer; continue outer; } } return n; }', 3],
      ['function () { var o = { get x() { return 5; } }; class A { m() { return o.x; } } return new A().m(); }', 5],
      ['function () { function* g() { yield 1; yield 2; } return [...g()]; }', [1, 2]],
      ['function () { var n = 0; do n++; while (n < 3); return n; }', 3],
      ['function () { var r; try { throw 1; } catch (e) { r = e; } finally { r++; } return r; }', 2],
      ['() => ({ a: [1, 2].map(x => x * 3) })', { a: [3, 6] }],
    ];
    for (const [source, expected] of cases) expect(evaluate(source)).toEqual({ result: expected, ticked: true });
  });

  test('async code, await and import() are refused; a syntax error says so', () => {
    expect(() => instrument('{ result: async function () {} }', 't')).toThrow(TracerCompileError);
    expect(() => instrument('{ result: () => import("fs") }', 't')).toThrow(TracerCompileError);
    expect(() => instrument('{ result: function ( }', 't')).toThrow(/SyntaxError/);
    expect(() => instrument('1; 2', 't')).toThrow(TracerCompileError);
  });

  test('a loop that swallows the timeout is still stopped', () => {
    const runner = openSandbox('{ fault: function () {}, result: function () { for (;;) { try { for (;;) {} } catch (e) {} } } }', () => 0, Date.now() + 50);
    expect(runner.result(JSON.stringify({ value: '0' }))).toBe('\u0000execution timeout');
  });

  test('ctx.time as Go prints a duration', () => {
    expect(goDurationString(0)).toBe('0s');
    expect(goDurationString(0.000_5)).toBe('500ns');
    expect(goDurationString(0.25)).toBe('250µs');
    expect(goDurationString(1.234_567)).toBe('1.234567ms');
    expect(goDurationString(2500)).toBe('2.5s');
    expect(goDurationString(90_000)).toBe('1m30s');
  });
});
