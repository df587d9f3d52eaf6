/**
 * SHA-256 (FIPS 180-4) for small inputs, reading from and writing into caller buffers: no
 * allocation, no call into C++. For the IAVL tree's node hashes (inputs of 40–120 bytes, tens of
 * thousands per block) a node:crypto `hash()` call costs more in call overhead and result-Buffer
 * allocation alone; for long inputs node:crypto (OpenSSL, SHA extensions) is far faster, so
 * `sha256` in hash.ts uses this only up to `SMALL_INPUT_MAX` bytes. Two implementations with the
 * same digests: a WebAssembly module generated below (used wherever WebAssembly is available —
 * always in Node) and plain JS (the fallback; `TOKEND_SHA256_JS=1` forces it, for comparisons).
 * test/node/util/sha256.test.ts checks both at every length from 0 to 300 and more.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
  0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
  0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * Inputs up to this length (two compressions) go through `sha256Into` in hash.ts' `sha256`;
 * longer ones through node:crypto. Measured here: 32 bytes 0.6 µs vs 1.0–1.3 µs for `hash()`,
 * 75 bytes 0.8 vs 0.9–1.1 µs, about even at three blocks, node:crypto ahead from there.
 */
export const SMALL_INPUT_MAX = 119;

/** Message schedule and chaining state (single-threaded, never re-entered). */
const W = new Int32Array(64);
const S = new Int32Array(8);
/** The final one or two blocks (the input's tail, 0x80, zeros, bit length). */
const TAIL = new Uint8Array(128);

function compress(bytes: Uint8Array, offset: number): void {
  const w = W;
  for (let i = 0, o = offset; i < 16; i++, o += 4) w[i] = (bytes[o]! << 24) | (bytes[o + 1]! << 16) | (bytes[o + 2]! << 8) | bytes[o + 3]!;
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (s1 + w[i - 7]! + s0 + w[i - 16]!) | 0;
  }
  const s = S;
  let a = s[0]!;
  let b = s[1]!;
  let c = s[2]!;
  let d = s[3]!;
  let e = s[4]!;
  let f = s[5]!;
  let g = s[6]!;
  let h = s[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  s[0] = (s[0]! + a) | 0;
  s[1] = (s[1]! + b) | 0;
  s[2] = (s[2]! + c) | 0;
  s[3] = (s[3]! + d) | 0;
  s[4] = (s[4]! + e) | 0;
  s[5] = (s[5]! + f) | 0;
  s[6] = (s[6]! + g) | 0;
  s[7] = (s[7]! + h) | 0;
}

/**
 * SHA-256 of `data[start, start + length)` written to `out[outOffset, outOffset + 32)`. `out` may
 * be `data` (the digest is written after the input has been read). Any length works; it is meant
 * for small ones (see `SMALL_INPUT_MAX`).
 */
/** The plain-JS implementation (the fallback where WebAssembly is unavailable; tests). */
export function jsSha256Into(data: Uint8Array, start: number, length: number, out: Uint8Array, outOffset: number): void {
  const s = S;
  s[0] = 0x6a09e667;
  s[1] = 0xbb67ae85 | 0;
  s[2] = 0x3c6ef372;
  s[3] = 0xa54ff53a | 0;
  s[4] = 0x510e527f;
  s[5] = 0x9b05688c | 0;
  s[6] = 0x1f83d9ab;
  s[7] = 0x5be0cd19;
  const end = start + length;
  let o = start;
  while (end - o >= 64) {
    compress(data, o);
    o += 64;
  }
  const rest = end - o;
  const tail = TAIL;
  for (let i = 0; i < rest; i++) tail[i] = data[o + i]!;
  tail[rest] = 0x80;
  const blockEnd = rest < 56 ? 64 : 128;
  for (let i = rest + 1; i < blockEnd - 8; i++) tail[i] = 0;
  // Bit length, big-endian u64 (exact below 2^53 bits).
  const high = Math.floor(length / 0x2000_0000);
  const low = (length * 8) >>> 0;
  tail[blockEnd - 8] = high >>> 24;
  tail[blockEnd - 7] = high >>> 16;
  tail[blockEnd - 6] = high >>> 8;
  tail[blockEnd - 5] = high;
  tail[blockEnd - 4] = low >>> 24;
  tail[blockEnd - 3] = low >>> 16;
  tail[blockEnd - 2] = low >>> 8;
  tail[blockEnd - 1] = low;
  compress(tail, 0);
  if (blockEnd === 128) compress(tail, 64);
  for (let i = 0, p = outOffset; i < 8; i++, p += 4) {
    const v = s[i]!;
    out[p] = v >>> 24;
    out[p + 1] = v >>> 16;
    out[p + 2] = v >>> 8;
    out[p + 3] = v;
  }
}

// ------------------------------------------------------------------ WebAssembly

/**
 * The same SHA-256 as WebAssembly, generated below at load (no binary blob, no build step): one
 * exported function `h(length)` that pads the message at `INPUT` in its memory, runs the
 * compression over its blocks (64 rounds fully unrolled, the working variables and the 16-word
 * message schedule in locals, native 32-bit rotates) and writes the digest at `DIGEST`. It
 * compresses a block in about half the time of the plain-JS `compress` here; the message is
 * copied in and the digest out by `sha256Into`, or written in place through `sha256Input()`.
 */
/** Two 32-byte hashes staged (word-aligned) for `i`, the inner-node entry. */
const STAGE = 256;
const DIGEST = 512;
const INPUT = 1024;
/** Longest message `h` takes (its memory is one 64 KiB page; the padding needs up to 72 bytes more). */
const WASM_INPUT_MAX = 32 * 1024;

const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  for (;;) {
    const b = v & 0x7f;
    v >>>= 7;
    if (v === 0) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

function sleb(value: number): number[] {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

/** The module's bytes (WebAssembly 1.0 plus bulk memory's memory.fill). */
function sha256Module(): Uint8Array {
  const c: number[] = [];
  const get = (l: number): void => void c.push(0x20, ...uleb(l));
  const set = (l: number): void => void c.push(0x21, ...uleb(l));
  const tee = (l: number): void => void c.push(0x22, ...uleb(l));
  const k = (v: number): void => void c.push(0x41, ...sleb(v));
  const op = (code: number): void => void c.push(code);
  const [ADD, SUB, AND, OR, XOR, SHL, SHR_U, ROTL, ROTR] = [0x6a, 0x6b, 0x71, 0x72, 0x73, 0x74, 0x76, 0x77, 0x78];
  // Locals: 0 the length (parameter), 1 block pointer, 2 blocks left, 3–10 the chaining state,
  // 11–18 the working variables, 19–34 the message schedule (a ring of 16), 35 scratch, 36 T1.
  const LEN = 0;
  const PTR = 1;
  const N = 2;
  const H = (i: number): number => 3 + i;
  const VARS = 11;
  const W = (i: number): number => 19 + (i & 15);
  const TMP = 35;
  const T1 = 36;
  /** Byte-swaps the i32 on the stack (the message and digest are big-endian, memory little). */
  const bswap = (): void => {
    tee(TMP);
    k(8);
    op(ROTL);
    k(0x00ff00ff);
    op(AND);
    get(TMP);
    k(8);
    op(ROTR);
    k(0xff00ff00);
    op(AND);
    op(OR);
  };
  const sigma = (x: number, r1: number, r2: number, r3: number, shift: boolean): void => {
    get(x);
    k(r1);
    op(ROTR);
    get(x);
    k(r2);
    op(ROTR);
    op(XOR);
    get(x);
    k(r3);
    op(shift ? SHR_U : ROTR);
    op(XOR);
  };

  // Padding: 0x80, zeros, the bit length as a big-endian u64, to a whole number of blocks.
  get(LEN);
  k(72);
  op(ADD);
  k(6);
  op(SHR_U);
  set(N);
  get(LEN);
  k(0x80);
  c.push(0x3a, 0, ...uleb(INPUT)); // i32.store8 offset=INPUT
  get(LEN);
  k(INPUT + 1);
  op(ADD);
  k(0);
  get(N);
  k(6);
  op(SHL);
  get(LEN);
  op(SUB);
  k(9);
  op(SUB);
  c.push(0xfc, 0x0b, 0x00); // memory.fill
  get(N);
  k(6);
  op(SHL);
  get(LEN);
  k(29);
  op(SHR_U);
  bswap();
  c.push(0x36, 2, ...uleb(INPUT - 8)); // i32.store offset=INPUT-8
  get(N);
  k(6);
  op(SHL);
  get(LEN);
  k(3);
  op(SHL);
  bswap();
  c.push(0x36, 2, ...uleb(INPUT - 4));
  k(INPUT);
  set(PTR);
  for (let i = 0; i < 8; i++) {
    k(IV[i]!);
    set(H(i));
  }

  c.push(0x03, 0x40); // loop over the blocks
  for (let i = 0; i < 8; i++) {
    get(H(i));
    set(VARS + i);
  }
  let names = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => VARS + i);
  for (let i = 0; i < 64; i++) {
    const [a, b, cc, d, e, f, g, h] = names as [number, number, number, number, number, number, number, number];
    if (i < 16) {
      get(PTR);
      c.push(0x28, 2, ...uleb(4 * i)); // i32.load offset=4i
      bswap();
      set(W(i));
    } else {
      sigma(W(i - 2), 17, 19, 10, true);
      get(W(i - 7));
      op(ADD);
      sigma(W(i - 15), 7, 18, 3, true);
      op(ADD);
      get(W(i));
      op(ADD);
      set(W(i));
    }
    // T1 = h + Σ1(e) + Ch(e, f, g) + K[i] + W[i]; Ch = g ^ (e & (f ^ g))
    get(h);
    sigma(e, 6, 11, 25, false);
    op(ADD);
    get(g);
    get(e);
    get(f);
    get(g);
    op(XOR);
    op(AND);
    op(XOR);
    op(ADD);
    k(K[i]!);
    op(ADD);
    get(W(i));
    op(ADD);
    set(T1);
    get(d);
    get(T1);
    op(ADD);
    set(d);
    // new a (in h's local) = T1 + Σ0(a) + Maj(a, b, c); Maj = (a & b) | (c & (a | b))
    get(T1);
    sigma(a, 2, 13, 22, false);
    op(ADD);
    get(a);
    get(b);
    op(AND);
    get(cc);
    get(a);
    get(b);
    op(OR);
    op(AND);
    op(OR);
    op(ADD);
    set(h);
    names = [h, a, b, cc, d, e, f, g];
  }
  // After 64 renamings the names are back in their first order.
  for (let i = 0; i < 8; i++) {
    get(H(i));
    get(names[i]!);
    op(ADD);
    set(H(i));
  }
  get(PTR);
  k(64);
  op(ADD);
  set(PTR);
  get(N);
  k(1);
  op(SUB);
  tee(N);
  c.push(0x0d, 0); // br_if to the loop while blocks are left
  c.push(0x0b); // end loop
  for (let i = 0; i < 8; i++) {
    k(DIGEST + 4 * i);
    get(H(i));
    bswap();
    c.push(0x36, 2, 0);
  }
  c.push(0x0b); // end function

  const body = [1, ...uleb(36), 0x7f, ...c]; // one run of 36 i32 locals

  // `i(p)`: the message is input[0, p) ‖ 0x20 ‖ STAGE[0, 32) ‖ 0x20 ‖ STAGE[32, 64); hash it.
  const i: number[] = [];
  const copyStaged = (at: number, from: number): void =>
    void i.push(0x20, 0, 0x41, ...sleb(INPUT + at), ADD, 0x41, ...sleb(from), 0x41, ...sleb(32), 0xfc, 0x0a, 0, 0); // memory.copy
  i.push(0x20, 0, 0x41, ...sleb(32), 0x3a, 0, ...uleb(INPUT)); // input[p] = 0x20
  copyStaged(1, STAGE);
  i.push(0x20, 0, 0x41, ...sleb(32), 0x3a, 0, ...uleb(INPUT + 33)); // input[p + 33] = 0x20
  copyStaged(34, STAGE + 32);
  i.push(0x20, 0, 0x41, ...sleb(66), ADD, 0x10, 0, 0x0b); // h(p + 66)
  const innerBody = [0, ...i];
  const section = (id: number, bytes: number[]): number[] => [id, ...uleb(bytes.length), ...bytes];
  const name = (s: string): number[] => [s.length, ...Array.from(s, (ch) => ch.charCodeAt(0))];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, 0x7f, 0]), // type: (i32) -> ()
    ...section(3, [2, 0, 0]), // two functions of type 0
    ...section(5, [1, 0, 1]), // memory: min 1 page
    ...section(7, [3, ...name('m'), 2, 0, ...name('h'), 0, 0, ...name('i'), 0, 1]), // exports: memory, functions
    ...section(10, [2, ...uleb(body.length), ...body, ...uleb(innerBody.length), ...innerBody]),
  ]);
}

interface WasmSha256 {
  memory: Uint8Array;
  hash: (length: number) => void;
  inner: (prefixLength: number) => void;
}

/** The slice of the WebAssembly JS API used here (the project's TypeScript libs do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: { m: { buffer: ArrayBuffer }; h: (length: number) => void; i: (prefixLength: number) => void } };
}

function instantiate(): WasmSha256 | undefined {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (api === undefined || process.env['TOKEND_SHA256_JS'] === '1') return undefined;
  try {
    const { exports } = new api.Instance(new api.Module(sha256Module()));
    return { memory: new Uint8Array(exports.m.buffer), hash: exports.h, inner: exports.i };
  } catch {
    return undefined;
  }
}

const wasm = instantiate();
const wasmMemory = wasm?.memory ?? new Uint8Array(0);
const wasmHash = wasm?.hash ?? ((): void => undefined);
const wasmInner = wasm?.inner ?? ((): void => undefined);
const wasmWords = new Int32Array(wasmMemory.buffer, 0, wasmMemory.length >>> 2);
const useWasm = wasm !== undefined;

/** Which implementation hashes small inputs in this process (benchmarks, docs). */
export const SHA256_IMPLEMENTATION: 'wasm' | 'js' = useWasm ? 'wasm' : 'js';

/** Where `sha256Input()` callers write their message (a view of the module's memory, or a plain buffer). */
const INPUT_VIEW = useWasm ? wasmMemory.subarray(INPUT, INPUT + WASM_INPUT_MAX) : new Uint8Array(WASM_INPUT_MAX);

/**
 * SHA-256 of `data[start, start + length)` written to `out[outOffset, outOffset + 32)`. `out` may
 * be `data` (the digest is written after the input has been read). Any length works; it is meant
 * for small ones (see `SMALL_INPUT_MAX`).
 */
export function sha256Into(data: Uint8Array, start: number, length: number, out: Uint8Array, outOffset: number): void {
  if (!useWasm || length > WASM_INPUT_MAX) {
    jsSha256Into(data, start, length, out, outOffset);
    return;
  }
  const m = wasmMemory;
  for (let i = 0, o = INPUT; i < length; i++, o++) m[o] = data[start + i]!;
  wasmHash(length);
  for (let i = 0, p = DIGEST; i < 32; i++, p++) out[outOffset + i] = m[p]!;
}

/**
 * A buffer to build a message in without copying it once more: write it at the start of this
 * view, then `sha256OfInput(length, …)`. Single-threaded and never re-entered: anything that
 * hashes in between (any `sha256Into`) overwrites it.
 */
export function sha256Input(): Uint8Array {
  return INPUT_VIEW;
}

/** SHA-256 of `sha256Input()[0, length)` (length ≤ 32 KiB) into `out[outOffset, outOffset + 32)`. */
export function sha256OfInput(length: number, out: Uint8Array, outOffset: number): void {
  if (!useWasm) {
    jsSha256Into(INPUT_VIEW, 0, length, out, outOffset);
    return;
  }
  wasmHash(length);
  const m = wasmMemory;
  for (let i = 0, p = DIGEST; i < 32; i++, p++) out[outOffset + i] = m[p]!;
}

/**
 * The IAVL inner-node hash shape: SHA-256 of `sha256Input()[0, prefixLength)` ‖ 0x20 ‖ the 32
 * bytes at `words[aWord, aWord + 8)` ‖ 0x20 ‖ those at `words[bWord, bWord + 8)`, written to
 * `words[outWord, outWord + 8)` (`words`: an Int32Array over a caller's byte arena, so the hashes
 * move as eight words each, not 32 bytes; the bytes are the same in any byte order). The input
 * buffer's bytes from `prefixLength` on are overwritten.
 */
export function sha256OfPrefixAndTwoHashes(prefixLength: number, words: Int32Array, aWord: number, bWord: number, outWord: number): void {
  if (!useWasm) {
    const bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
    const input = INPUT_VIEW;
    let o = prefixLength;
    input[o++] = 32;
    input.set(bytes.subarray(aWord * 4, aWord * 4 + 32), o);
    o += 32;
    input[o++] = 32;
    input.set(bytes.subarray(bWord * 4, bWord * 4 + 32), o);
    jsSha256Into(input, 0, o + 32, bytes, outWord * 4);
    return;
  }
  const w = wasmWords;
  for (let i = 0, s = STAGE >>> 2; i < 8; i++, s++) {
    w[s] = words[aWord + i]!;
    w[s + 8] = words[bWord + i]!;
  }
  wasmInner(prefixLength);
  for (let i = 0, d = DIGEST >>> 2; i < 8; i++, d++) words[outWord + i] = w[d]!;
}
