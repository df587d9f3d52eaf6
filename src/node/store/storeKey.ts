/**
 * Typed store keys: a module declares its stores as `StoreKey` objects and reaches them only
 * through `ctx.kv(key)`. Holding the object is the capability to open the store; names alone
 * (strings) are for the multi-store's registration, logs and proofs, not for module code.
 */
export class StoreKey {
  private constructor(
    /** The store's name in the multi-store (as upstream: "acc", "bank", "staking", …). */
    readonly name: string,
    /** Transient stores are emptied at every commit and are not part of the app hash. */
    readonly transient: boolean,
  ) {}

  /** A persistent (committed) store. */
  static persistent(name: string): StoreKey {
    return new StoreKey(name, false);
  }

  /** A transient store (cleared at commit, never hashed). */
  static transient(name: string): StoreKey {
    return new StoreKey(name, true);
  }

  toString(): string {
    return this.name;
  }
}
