/**
 * geth 1.10's named tracers that are not callTracer / prestateTracer, written here as JavaScript
 * for the JS tracer engine (same names and result shapes; own code):
 *
 *   opcountTracer   the number of opcodes executed
 *   unigramTracer   opcode name → count
 *   bigramTracer    "A-B" → count, pairs of consecutive opcodes within one call depth
 *   trigramTracer   "A-B-C" → count, the window cleared whenever the depth changes
 *   4byteTracer     "0x<selector>-<calldata length − 4>" → count, for the top call and every
 *                   CALL / CALLCODE / DELEGATECALL / STATICCALL to a non-precompile with ≥ 4
 *                   bytes of input
 *   noopTracer      {}
 */
export const NAMED_JS_TRACERS: Readonly<Record<string, string>> = {
  opcountTracer: `{
    n: 0,
    step: function () { this.n += 1; },
    fault: function () {},
    result: function () { return this.n; }
  }`,
  unigramTracer: `{
    counts: {},
    step: function (log) { var name = log.op.toString(); this.counts[name] = (this.counts[name] || 0) + 1; },
    fault: function () {},
    result: function () { return this.counts; }
  }`,
  bigramTracer: `{
    counts: {}, previous: '', depth: 0,
    step: function (log) {
      var name = log.op.toString(), depth = log.getDepth();
      if (depth === this.depth) { var pair = this.previous + '-' + name; this.counts[pair] = (this.counts[pair] || 0) + 1; }
      this.previous = name;
      this.depth = depth;
    },
    fault: function () {},
    result: function () { return this.counts; }
  }`,
  trigramTracer: `{
    counts: {}, window: ['', ''], depth: 0,
    step: function (log) {
      var depth = log.getDepth();
      if (depth !== this.depth) { this.window = ['', '']; this.depth = depth; return; }
      var name = log.op.toString(), triple = this.window[0] + '-' + this.window[1] + '-' + name;
      this.counts[triple] = (this.counts[triple] || 0) + 1;
      this.window = [this.window[1], name];
    },
    fault: function () {},
    result: function () { return this.counts; }
  }`,
  '4byteTracer': `{
    ids: {},
    count: function (input) {
      if (input.length < 4) return;
      var id = toHex(slice(input, 0, 4)) + '-' + (input.length - 4);
      this.ids[id] = (this.ids[id] || 0) + 1;
    },
    enter: function (frame) {
      var type = frame.getType();
      if (type !== 'CALL' && type !== 'CALLCODE' && type !== 'DELEGATECALL' && type !== 'STATICCALL') return;
      if (isPrecompiled(frame.getTo())) return;
      this.count(frame.getInput());
    },
    exit: function () {},
    fault: function () {},
    result: function (ctx) { this.count(ctx.input); return this.ids; }
  }`,
  noopTracer: `{ fault: function () {}, result: function () { return {}; } }`,
};
