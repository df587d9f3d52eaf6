/**
 * The schema builder: every collection of a module store is declared through one builder bound to
 * the store's `StoreKey`, which refuses a declaration whose name or prefix clashes with another —
 * the same name, the same prefix, or a prefix that is a prefix of another's (their keys would
 * interleave and one collection's iteration would see the other's entries).
 */
import type { KVStore } from '../store/interface.js';
import type { StoreKey } from '../store/storeKey.js';
import { toHex } from '../store/bytes.js';
import { CollectionError } from './errors.js';

/** What collections need from a context: the store behind a key (`Context` provides it). */
export interface StoreProvider {
  kv(key: StoreKey): KVStore;
}

/** A collection prefix: one byte (0–255), a string (its UTF-8 bytes) or raw bytes. */
export type PrefixInput = number | string | Uint8Array;

export interface CollectionInfo {
  readonly name: string;
  readonly prefix: Uint8Array;
  /** "item", "map", "keyset", "sequence", "index". */
  readonly kind: string;
  readonly keyType?: string;
  readonly valueType?: string;
}

/** The finished schema of one store. */
export interface Schema {
  readonly storeKey: StoreKey;
  readonly collections: readonly CollectionInfo[];
}

/** Collection names as the SDK allows them (they name collections in genesis and logs). */
const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;

export function prefixBytes(prefix: PrefixInput): Uint8Array {
  if (typeof prefix === 'number') {
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > 255) throw new CollectionError('SCHEMA', `a numeric collection prefix is one byte (0–255), got ${prefix}`);
    return Uint8Array.of(prefix);
  }
  const bytes = typeof prefix === 'string' ? new TextEncoder().encode(prefix) : prefix.slice();
  if (bytes.length === 0) throw new CollectionError('SCHEMA', 'a collection prefix cannot be empty');
  return bytes;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

export class SchemaBuilder {
  private readonly declared: CollectionInfo[] = [];
  private built: Schema | undefined;

  constructor(readonly storeKey: StoreKey) {}

  /**
   * Records a collection; throws `CollectionError(SCHEMA)` on a clash or after `build()`.
   * Collections call this from their constructors.
   */
  register(info: CollectionInfo): void {
    const where = `store "${this.storeKey.name}"`;
    if (this.built !== undefined) throw new CollectionError('SCHEMA', `collection "${info.name}": the schema of ${where} is already built`);
    if (!NAME_PATTERN.test(info.name)) throw new CollectionError('SCHEMA', `invalid collection name "${info.name}" in ${where}: letters, digits and _ only, starting with a letter`);
    for (const other of this.declared) {
      if (other.name === info.name) throw new CollectionError('SCHEMA', `collection name "${info.name}" is declared twice in ${where}`);
      const same = other.prefix.length === info.prefix.length && startsWith(info.prefix, other.prefix);
      if (same) {
        throw new CollectionError('SCHEMA', `collections "${other.name}" and "${info.name}" in ${where} have the same prefix 0x${toHex(info.prefix)}`);
      }
      if (startsWith(info.prefix, other.prefix) || startsWith(other.prefix, info.prefix)) {
        throw new CollectionError(
          'SCHEMA',
          `collection "${info.name}" (prefix 0x${toHex(info.prefix)}) overlaps "${other.name}" (prefix 0x${toHex(other.prefix)}) in ${where}: one prefix starts the other`,
        );
      }
    }
    this.declared.push(info);
  }

  /** Seals the builder; the result lists the collections in declaration order. */
  build(): Schema {
    this.built ??= { storeKey: this.storeKey, collections: Object.freeze([...this.declared]) };
    return this.built;
  }
}
