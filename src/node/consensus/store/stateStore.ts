/**
 * The consensus state store (state/store.go): the latest chain state, validator sets and
 * consensus params per height, and the app's FinalizeBlock response per height.
 *
 * Validator sets are stored at the heights where they change and at checkpoints every 100,000
 * heights; other heights point at the last stored one and the proposer priorities are advanced
 * on load, as CometBFT does.
 */
import type { AbciEvent, ConsensusParams, ResponseFinalizeBlock } from '../../abci/types.js';
import type { BatchOp, Database } from '../../store/db/database.js';
import { Bucket, bucketKey } from '../../store/db/buckets.js';
import { ConsensusError } from '../errors.js';
import { DEFAULT_RECENT_RESPONSES } from '../options.js';
import { EMPTY_BYTES, uint64BE } from '../types/bytes.js';
import type { ValidatorSet } from '../types/validator.js';
import {
  deserializeChainState,
  deserializeValidatorSet,
  serializeChainState,
  serializeValidatorSet,
  type ChainState,
  type StoredChainState,
  type StoredValidatorSet,
} from '../state/chainState.js';
import { decodeTagged, encodeTagged } from './codec.js';
import { decodeEvents, decodeResponse, encodeEvents, encodeResponse, RESULTS_FORMAT } from './resultsCodec.js';

const VALSET_CHECKPOINT_INTERVAL = 100000;
const STATE_KEY = bucketKey(Bucket.consensusChainState, EMPTY_BYTES);

interface ValidatorsInfo {
  lastHeightChanged: number;
  validatorSet?: StoredValidatorSet;
}

interface ParamsInfo {
  lastHeightChanged: number;
  params?: ConsensusParams;
}

/** What the RPC layer reads. */
export interface StateStoreReader {
  /** The latest committed chain state (undefined before genesis is stored). */
  load(): ChainState | undefined;
  /**
   * `load()?.lastBlockHeight` without decoding the whole state when the stored record has not
   * changed since the last call (readers asking per request, e.g. eth_sendRawTransaction).
   */
  lastBlockHeight?(): number | undefined;
  /** Validators that decide block `height` (undefined when unknown or pruned). */
  loadValidators(height: number): ValidatorSet | undefined;
  loadConsensusParams(height: number): ConsensusParams | undefined;
  loadFinalizeBlockResponse(height: number): ResponseFinalizeBlock | undefined;
  loadFinalizeBlockEvents(height: number): AbciEvent[] | undefined;
}

/** A block-events record: the binary format, or tagged JSON as written before it. */
function decodeEventsRecord(raw: Uint8Array, what: string): AbciEvent[] {
  return raw[0] === RESULTS_FORMAT ? decodeEvents(raw, what) : decodeTagged<AbciEvent[]>(raw, what);
}

function key(bucket: Bucket, height: number): Uint8Array {
  return bucketKey(bucket, uint64BE(height));
}

export class StateStore implements StateStoreReader {
  /** The state record lastBlockHeight last decoded, and its height. */
  private heightOf: { raw: Uint8Array; height: number } | undefined;

  /**
   * `recentResponses`: decoded FinalizeBlock responses kept in memory, the most recently stored
   * or read heights (app.toml [cache] recent-block-results; 0 keeps none).
   */
  constructor(
    private readonly db: Database,
    private readonly recentResponseLimit = DEFAULT_RECENT_RESPONSES,
  ) {}

  load(): ChainState | undefined {
    const raw = this.db.getSync(STATE_KEY);
    return raw ? deserializeChainState(decodeTagged<StoredChainState>(raw, 'chain state')) : undefined;
  }

  lastBlockHeight(): number | undefined {
    const raw = this.db.getSync(STATE_KEY);
    if (raw === undefined) return undefined;
    // Whoever writes the record (saveOps' batch, bootstrap, rollback), equal bytes are the same state.
    if (this.heightOf !== undefined && Buffer.compare(this.heightOf.raw, raw) === 0) return this.heightOf.height;
    const height = decodeTagged<StoredChainState>(raw, 'chain state').lastBlockHeight;
    this.heightOf = { raw: new Uint8Array(raw), height }; // a copy (a Buffer's slice would be a view)
    return height;
  }

  private validatorsInfoOps(height: number, lastHeightChanged: number, set: ValidatorSet): BatchOp {
    if (lastHeightChanged > height) throw new ConsensusError('STORE', 'lastHeightChanged cannot be greater than ValidatorsInfo height');
    const info: ValidatorsInfo = { lastHeightChanged };
    // Store the full set at change heights and checkpoints; otherwise a pointer.
    if (height === lastHeightChanged || height % VALSET_CHECKPOINT_INTERVAL === 0) info.validatorSet = serializeValidatorSet(set);
    return { type: 'put', key: key(Bucket.consensusValidators, height), value: encodeTagged(info) };
  }

  private paramsInfoOp(height: number, lastHeightChanged: number, params: ConsensusParams): BatchOp {
    const info: ParamsInfo = { lastHeightChanged };
    if (height === lastHeightChanged) info.params = params;
    return { type: 'put', key: key(Bucket.consensusParams, height), value: encodeTagged(info) };
  }

  /** The batch operations that persist `state` (Store.Save). */
  saveOps(state: ChainState): BatchOp[] {
    const ops: BatchOp[] = [];
    let next = state.lastBlockHeight + 1;
    if (next === 1) {
      next = state.initialHeight;
      // Validator changes are delayed one block, so the first block's set is stored explicitly.
      ops.push(this.validatorsInfoOps(next, next, state.validators));
    }
    ops.push(this.validatorsInfoOps(next + 1, state.lastHeightValidatorsChanged, state.nextValidators));
    ops.push(this.paramsInfoOp(next, state.lastHeightConsensusParamsChanged, state.consensusParams));
    ops.push({ type: 'put', key: STATE_KEY, value: encodeTagged(serializeChainState(state)) });
    return ops;
  }

  /**
   * Store a state that did not come from executing blocks (state sync, bootstrap-state): the
   * validator sets of the last, current and next heights and the params, then the state itself.
   */
  async bootstrap(state: ChainState): Promise<void> {
    let height = state.lastBlockHeight + 1;
    if (height === 1) height = state.initialHeight;
    const ops: BatchOp[] = [];
    if (height > 1 && !state.lastValidators.isEmpty()) ops.push(this.validatorsInfoOps(height - 1, height - 1, state.lastValidators));
    ops.push(this.validatorsInfoOps(height, height, state.validators));
    ops.push(this.validatorsInfoOps(height + 1, height + 1, state.nextValidators));
    ops.push(this.paramsInfoOp(height, height, state.consensusParams));
    ops.push({ type: 'put', key: STATE_KEY, value: encodeTagged(serializeChainState({ ...state, lastHeightConsensusParamsChanged: height })) });
    await this.db.batch(ops, { sync: true });
  }

  async save(state: ChainState): Promise<void> {
    await this.db.batch(this.saveOps(state), { sync: true });
  }

  /**
   * Stores `height`'s FinalizeBlock response as two records written together: its block-level
   * events (BeginBlock/EndBlock events) and the rest. The events are stored once, in their own
   * record, so a reader that wants only them (eth_getLogs' block bloom) reads a small record
   * without decoding the tx results; `loadFinalizeBlockResponse` puts the two back together.
   */
  async saveFinalizeBlockResponse(height: number, response: ResponseFinalizeBlock): Promise<void> {
    // Kept before the write: a reader asking while the synced write is under way (the records can
    // be readable before it returns) gets this object rather than decoding the records again.
    // Nothing is lost by answering early: a block whose results are not yet on disk is executed
    // again at start-up, with the same results.
    this.recentResponses.delete(height);
    this.remember(height, response, true);
    await this.db.batch(
      [
        { type: 'put', key: key(Bucket.consensusFinalizeBlockResponse, height), value: encodeResponse(response) },
        { type: 'put', key: key(Bucket.consensusFinalizeBlockEvents, height), value: encodeEvents(response.events) },
      ],
      { sync: true },
    );
  }

  /**
   * The block-level events of `height`'s FinalizeBlock response, read from their own record
   * without decoding its tx results. Undefined when the height has no such record: not stored,
   * pruned, or stored before the record existed (its events are inside the stored response —
   * `loadFinalizeBlockResponse(height).events`). Every height that has the record was executed by
   * a build whose evm module emits the `block_bloom` event for every block with logs.
   */
  loadFinalizeBlockEvents(height: number): AbciEvent[] | undefined {
    const cached = this.recentResponses.get(height);
    if (cached !== undefined) return cached.eventsApart ? cached.response.events : undefined;
    const raw = this.db.getSync(key(Bucket.consensusFinalizeBlockEvents, height));
    return raw === undefined ? undefined : decodeEventsRecord(raw, `finalize block events ${height}`);
  }

  /**
   * The stored FinalizeBlock response of `height`, its block-level events from their record (a
   * response stored before that record existed still holds its own). The last few are kept
   * decoded (decoding a big block's results takes tens of milliseconds, and block_results,
   * receipts and the indexer all ask for recent heights): the object is shared, callers must not
   * change it.
   */
  loadFinalizeBlockResponse(height: number): ResponseFinalizeBlock | undefined {
    const cached = this.recentResponses.get(height);
    if (cached !== undefined) return cached.response;
    const raw = this.db.getSync(key(Bucket.consensusFinalizeBlockResponse, height));
    if (raw === undefined) return undefined;
    const what = `finalize block response ${height}`;
    const response = raw[0] === RESULTS_FORMAT ? decodeResponse(raw, what) : decodeTagged<ResponseFinalizeBlock>(raw, what);
    const events = this.db.getSync(key(Bucket.consensusFinalizeBlockEvents, height));
    if (events !== undefined) response.events = decodeEventsRecord(events, `finalize block events ${height}`);
    this.remember(height, response, events !== undefined);
    return response;
  }

  private readonly recentResponses = new Map<number, { response: ResponseFinalizeBlock; eventsApart: boolean }>();

  private remember(height: number, response: ResponseFinalizeBlock, eventsApart: boolean): void {
    if (this.recentResponseLimit <= 0) return;
    this.recentResponses.set(height, { response, eventsApart });
    if (this.recentResponses.size > this.recentResponseLimit) this.recentResponses.delete(this.recentResponses.keys().next().value!);
  }

  /** How many decoded FinalizeBlock responses are kept now (at most the limit). */
  get recentResponseCount(): number {
    return this.recentResponses.size;
  }

  private loadValidatorsInfo(height: number): ValidatorsInfo | undefined {
    const raw = this.db.getSync(key(Bucket.consensusValidators, height));
    return raw ? decodeTagged<ValidatorsInfo>(raw, `validators info ${height}`) : undefined;
  }

  loadValidators(height: number): ValidatorSet | undefined {
    const info = this.loadValidatorsInfo(height);
    if (!info) return undefined;
    if (info.validatorSet) return deserializeValidatorSet(info.validatorSet);
    const checkpoint = height - (height % VALSET_CHECKPOINT_INTERVAL);
    const storedHeight = Math.max(checkpoint, info.lastHeightChanged);
    const stored = this.loadValidatorsInfo(storedHeight);
    if (!stored?.validatorSet) return undefined;
    const set = deserializeValidatorSet(stored.validatorSet);
    if (height > storedHeight) set.incrementProposerPriority(height - storedHeight);
    return set;
  }

  loadConsensusParams(height: number): ConsensusParams | undefined {
    const raw = this.db.getSync(key(Bucket.consensusParams, height));
    if (!raw) return undefined;
    const info = decodeTagged<ParamsInfo>(raw, `consensus params ${height}`);
    if (info.params) return info.params;
    const changed = this.db.getSync(key(Bucket.consensusParams, info.lastHeightChanged));
    return changed ? decodeTagged<ParamsInfo>(changed, `consensus params ${info.lastHeightChanged}`).params : undefined;
  }

  /**
   * Delete validator infos, params infos and FinalizeBlock responses below `retainHeight`, keeping
   * the entries that later heights point at.
   */
  async prune(fromHeight: number, retainHeight: number): Promise<void> {
    for (const height of [...this.recentResponses.keys()]) if (height < retainHeight) this.recentResponses.delete(height);
    const keepValidators = new Set<number>();
    const keepParams = new Set<number>();
    const latestVals = this.loadValidatorsInfo(retainHeight);
    if (latestVals && !latestVals.validatorSet) {
      keepValidators.add(Math.max(retainHeight - (retainHeight % VALSET_CHECKPOINT_INTERVAL), latestVals.lastHeightChanged));
    }
    const latestParams = this.db.getSync(key(Bucket.consensusParams, retainHeight));
    if (latestParams) {
      const info = decodeTagged<ParamsInfo>(latestParams, 'consensus params');
      if (!info.params) keepParams.add(info.lastHeightChanged);
    }
    const ops: BatchOp[] = [];
    for (let h = fromHeight; h < retainHeight; h++) {
      if (!keepValidators.has(h)) ops.push({ type: 'del', key: key(Bucket.consensusValidators, h) });
      if (!keepParams.has(h)) ops.push({ type: 'del', key: key(Bucket.consensusParams, h) });
      ops.push({ type: 'del', key: key(Bucket.consensusFinalizeBlockResponse, h) });
      ops.push({ type: 'del', key: key(Bucket.consensusFinalizeBlockEvents, h) });
      if (ops.length >= 3000) await this.db.batch(ops.splice(0));
    }
    await this.db.batch(ops);
  }
}
