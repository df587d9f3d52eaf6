import { createHash, randomBytes } from 'node:crypto';
import { sha256 } from '../../../src/util/hash.js';
import { SHA256_IMPLEMENTATION, SMALL_INPUT_MAX, jsSha256Into, sha256Input, sha256Into, sha256OfInput, sha256OfPrefixAndTwoHashes } from '../../../src/util/sha256.js';

function reference(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

describe('sha256 (WebAssembly or plain JS for small inputs, node:crypto above)', () => {
  it('matches node:crypto for every length from 0 to 300 bytes', () => {
    for (let length = 0; length <= 300; length++) {
      const data = randomBytes(length);
      expect(Buffer.from(sha256(data)).equals(reference(data))).toBe(true);
    }
  });

  it('matches at the block and padding edges and around the small-input cut-off', () => {
    for (const length of [55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, SMALL_INPUT_MAX - 1, SMALL_INPUT_MAX, SMALL_INPUT_MAX + 1, 1000, 4096, 100_000]) {
      for (const fill of [0x00, 0xff]) {
        const data = new Uint8Array(length).fill(fill);
        expect(Buffer.from(sha256(data)).toString('hex')).toBe(reference(data).toString('hex'));
        const out = new Uint8Array(40);
        sha256Into(data, 0, length, out, 8);
        expect(Buffer.from(out.subarray(8)).equals(reference(data))).toBe(true);
      }
    }
  });

  it('gives the published digests of the empty string and "abc"', () => {
    expect(Buffer.from(sha256(new Uint8Array(0))).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(Buffer.from(sha256(new TextEncoder().encode('abc'))).toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes a range of a buffer into another buffer, or in place over its own input', () => {
    const data = randomBytes(200);
    const out = new Uint8Array(64).fill(7);
    sha256Into(data, 13, 75, out, 16);
    expect(Buffer.from(out.subarray(16, 48)).equals(reference(data.subarray(13, 88)))).toBe(true);
    expect([...out.subarray(0, 16), ...out.subarray(48)].every((b) => b === 7)).toBe(true);
    const same = Uint8Array.from(data);
    sha256Into(same, 0, 100, same, 0);
    expect(Buffer.from(same.subarray(0, 32)).equals(reference(data.subarray(0, 100)))).toBe(true);
    expect(Buffer.from(same.subarray(32, 200)).equals(data.subarray(32, 200))).toBe(true);
  });

  it('returns a fresh 32-byte array each call', () => {
    const a = sha256(Uint8Array.of(1));
    const b = sha256(Uint8Array.of(1));
    expect(a).not.toBe(b);
    expect(a.length).toBe(32);
    expect(a.buffer.byteLength).toBe(32);
  });

  it('runs the WebAssembly implementation in Node', () => {
    expect(SHA256_IMPLEMENTATION).toBe('wasm');
  });

  it('gives the same digests from the plain-JS fallback and from a message built in the input buffer', () => {
    for (let length = 0; length <= 300; length++) {
      const data = randomBytes(length);
      const expected = reference(data);
      const out = new Uint8Array(40);
      jsSha256Into(data, 0, length, out, 3);
      expect(Buffer.from(out.subarray(3, 35)).equals(expected)).toBe(true);
      const input = sha256Input();
      input.set(data);
      sha256OfInput(length, out, 5);
      expect(Buffer.from(out.subarray(5, 37)).equals(expected)).toBe(true);
    }
    // The longest message the input buffer takes, and one longer through sha256Into.
    for (const length of [sha256Input().length, sha256Input().length + 1]) {
      const data = randomBytes(length);
      const out = new Uint8Array(32);
      sha256Into(data, 0, length, out, 0);
      expect(Buffer.from(out).equals(reference(data))).toBe(true);
      if (length <= sha256Input().length) {
        sha256Input().set(data);
        sha256OfInput(length, out, 0);
        expect(Buffer.from(out).equals(reference(data))).toBe(true);
      }
    }
  });

  it('hashes the IAVL inner-node shape (prefix ‖ 0x20 ‖ hash ‖ 0x20 ‖ hash) from a word arena', () => {
    const arena = new Uint8Array(32 * 8);
    const words = new Int32Array(arena.buffer);
    for (let prefixLength = 0; prefixLength <= 40; prefixLength++) {
      arena.set(randomBytes(arena.length));
      const prefix = randomBytes(prefixLength);
      sha256Input().set(prefix);
      const [a, b, out] = [prefixLength % 8, (prefixLength + 3) % 8, 7];
      const message = Buffer.concat([prefix, Buffer.of(32), arena.subarray(a * 32, a * 32 + 32), Buffer.of(32), arena.subarray(b * 32, b * 32 + 32)]);
      sha256OfPrefixAndTwoHashes(prefixLength, words, a * 8, b * 8, out * 8);
      expect(Buffer.from(arena.subarray(out * 32, out * 32 + 32)).equals(reference(message))).toBe(true);
    }
  });
});
