/**
 * Small memos for decoding stored values. Stores hand back the same Uint8Array for a value that
 * has not changed within a branch, but not across branches or versions, so params and similar
 * rarely-changing records are memoised by content as well.
 */
import { bytesEqual } from './keys.js';

/** Decodes `bytes` once per content (last value) and once per object (weak). Results are shared: treat them as immutable. */
export class DecodeMemo<T> {
  private readonly byObject = new WeakMap<Uint8Array, T>();
  private lastBytes: Uint8Array | undefined;
  private lastValue: T | undefined;

  constructor(private readonly decode: (bytes: Uint8Array) => T) {}

  get(bytes: Uint8Array): T {
    const hit = this.byObject.get(bytes);
    if (hit !== undefined) return hit;
    if (this.lastBytes !== undefined && bytesEqual(this.lastBytes, bytes)) {
      this.byObject.set(bytes, this.lastValue as T);
      return this.lastValue as T;
    }
    const value = this.decode(bytes);
    this.byObject.set(bytes, value);
    this.lastBytes = bytes;
    this.lastValue = value;
    return value;
  }
}
