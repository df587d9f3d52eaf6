/**
 * The execution context handed to keepers, Msg handlers, query handlers and block hooks (the
 * SDK's sdk.Context): which state branch to read and write, the gas meter charging store access,
 * the event manager, the block header and the execution mode.
 *
 * Stores come from `ctx.kv(name)`: the branch's store for module `name`, wrapped in the SDK's
 * gas-charging KV store when the context is metered (tx execution). Block hooks, genesis and
 * queries are unmetered.
 */
import type { CommitInfo, ConsensusParams, Misbehavior } from '../../abci/types.js';
import { GasKVStore, InfiniteGasMeter, type GasMeter, type KVStore, type MultiStore } from '../../store/index.js';
import type { StoreKey } from '../../store/storeKey.js';
import { EventManager } from './events.js';
import { ReadCacheKVStore } from './readCache.js';

/**
 * check / recheck: CheckTx (mempool); simulate: /cosmos.tx.v1beta1.Service/Simulate;
 * finalize: txs of a block (and gentxs); block: begin/end-block hooks and genesis; query: reads.
 */
export type ExecMode = 'check' | 'recheck' | 'simulate' | 'finalize' | 'block' | 'query';

export interface BlockHeader {
  height: number;
  time: Date;
  chainId: string;
  proposerAddress: Uint8Array;
  hash: Uint8Array;
  nextValidatorsHash: Uint8Array;
  /** The app hash of the last committed block (FinalizeBlock's header.AppHash in the SDK). */
  appHash?: Uint8Array;
}

/**
 * What consensus decided about the previous block, as FinalizeBlock hands it over (the SDK's
 * CometInfo): the last commit's votes (who signed, with what power) and the misbehaviour
 * (duplicate votes, light-client attacks) to punish. Distribution, slashing and evidence read it.
 */
export interface CometInfo {
  lastCommit: CommitInfo;
  misbehavior: Misbehavior[];
}

export const EMPTY_COMET_INFO: CometInfo = { lastCommit: { round: 0, votes: [] }, misbehavior: [] };

export function emptyHeader(chainId: string, height = 0, time: Date = new Date(0)): BlockHeader {
  return { height, time, chainId, proposerAddress: new Uint8Array(0), hash: new Uint8Array(0), nextValidatorsHash: new Uint8Array(0) };
}

export interface ContextInit {
  mode: ExecMode;
  multiStore: MultiStore;
  header: BlockHeader;
  consensusParams?: ConsensusParams;
  /** The block's last-commit votes and misbehaviour (FinalizeBlock); empty elsewhere. */
  cometInfo?: CometInfo;
  gasMeter?: GasMeter;
  events?: EventManager;
  /** Charge the gas meter for store access (true for txs). */
  metered?: boolean;
  /**
   * Cache reads per store (ReadCacheKVStore). Only for branches that this context (and contexts
   * derived from it with `with`) is the sole writer of: the per-tx ante and message branches.
   */
  readCache?: boolean;
  /**
   * Gas the block's txs have used so far, capped at the block's max gas (the SDK's
   * ctx.BlockGasMeter().GasConsumedToLimit()); set in EndBlock contexts, 0 elsewhere.
   */
  blockGasUsed?: bigint;
}

interface SharedStores {
  /** Read caches by store name (shared while the multi-store is the same). */
  caches: Map<string, KVStore>;
  /** Final (gas-wrapped) stores by name (shared while multi-store and meter are the same). */
  stores: Map<string, KVStore>;
}

export class Context {
  readonly mode: ExecMode;
  readonly multiStore: MultiStore;
  readonly header: BlockHeader;
  readonly consensusParams: ConsensusParams | undefined;
  readonly cometInfo: CometInfo;
  readonly gasMeter: GasMeter;
  readonly events: EventManager;
  readonly metered: boolean;
  readonly readCache: boolean;
  readonly blockGasUsed: bigint;
  private readonly shared: SharedStores;

  constructor(init: ContextInit, shared?: Partial<SharedStores>) {
    this.mode = init.mode;
    this.multiStore = init.multiStore;
    this.header = init.header;
    this.consensusParams = init.consensusParams;
    this.cometInfo = init.cometInfo ?? EMPTY_COMET_INFO;
    this.gasMeter = init.gasMeter ?? new InfiniteGasMeter();
    this.events = init.events ?? new EventManager();
    this.metered = init.metered ?? false;
    this.readCache = init.readCache ?? false;
    this.blockGasUsed = init.blockGasUsed ?? 0n;
    this.shared = { caches: shared?.caches ?? new Map(), stores: shared?.stores ?? new Map() };
  }

  /** The store behind `key` in this context's branch (gas-charged when metered). */
  kv(key: StoreKey | string): KVStore {
    const name = typeof key === 'string' ? key : key.name;
    let store = this.shared.stores.get(name);
    if (store === undefined) {
      let base = this.shared.caches.get(name);
      if (base === undefined) {
        base = this.readCache ? new ReadCacheKVStore(this.multiStore.getStore(name)) : this.multiStore.getStore(name);
        this.shared.caches.set(name, base);
      }
      store = this.metered ? new GasKVStore(base, this.gasMeter) : base;
      this.shared.stores.set(name, store);
    }
    return store;
  }

  /**
   * A context that differs in some fields. Store wrappers (and read caches) carry over while
   * the multi-store (and, for gas wrappers, the meter) stays the same.
   */
  with(changes: Partial<Omit<ContextInit, 'mode' | 'header'>> & { mode?: ExecMode; header?: BlockHeader }): Context {
    const multiStore = changes.multiStore ?? this.multiStore;
    const gasMeter = changes.gasMeter ?? this.gasMeter;
    const metered = changes.metered ?? this.metered;
    const readCache = changes.readCache ?? this.readCache;
    const sameStore = multiStore === this.multiStore && readCache === this.readCache;
    const sameWrappers = sameStore && gasMeter === this.gasMeter && metered === this.metered;
    return new Context(
      {
        mode: changes.mode ?? this.mode,
        multiStore,
        header: changes.header ?? this.header,
        consensusParams: changes.consensusParams ?? this.consensusParams,
        cometInfo: changes.cometInfo ?? this.cometInfo,
        gasMeter,
        events: changes.events ?? this.events,
        metered,
        readCache,
        blockGasUsed: changes.blockGasUsed ?? this.blockGasUsed,
      },
      { caches: sameStore ? this.shared.caches : undefined, stores: sameWrappers ? this.shared.stores : undefined },
    );
  }

  get blockHeight(): number {
    return this.header.height;
  }

  get blockTime(): Date {
    return this.header.time;
  }

  get chainId(): string {
    return this.header.chainId;
  }

  /** CheckTx or ReCheckTx (min gas prices apply). */
  get isCheckTx(): boolean {
    return this.mode === 'check' || this.mode === 'recheck';
  }

  get isReCheckTx(): boolean {
    return this.mode === 'recheck';
  }

  get isSimulate(): boolean {
    return this.mode === 'simulate';
  }
}
