/**
 * Block execution (state/execution.go, validation.go): build proposals with PrepareProposal,
 * validate blocks against the chain state, ask ProcessProposal, and apply decided blocks
 * (FinalizeBlock → save response → update state → Commit + mempool update → save state → prune →
 * events). The crash-safe order is CometBFT's: the block is saved before execution, the
 * FinalizeBlock response before Commit, and the state only after the app has committed.
 */
import type { Application, CommitInfo, ExecTxResult, Misbehavior, ResponseFinalizeBlock, ValidatorUpdate } from '../../abci/types.js';
import { ConsensusError } from '../errors.js';
import type { EventBus } from '../events.js';
import { nullLogger, type Logger } from '../../logger.js';
import type { Mempool } from '../mempool/mempool.js';
import type { BlockStore } from '../store/blockStore.js';
import type { StateStore } from '../store/stateStore.js';
import {
  BLOCK_PART_SIZE_BYTES,
  BlockIdFlag,
  MAX_HEADER_BYTES,
  MAX_OVERHEAD_FOR_BLOCK,
  blockIdsEqual,
  encodeBlock,
  hashBlock,
  hashCommit,
  hashEvidence,
  hashTxs,
  maxCommitBytes,
  protoSizeOfTx,
  validateBlockBasic,
  type Block,
  type BlockId,
  type Commit,
} from '../types/block.js';
import { bytesEqual, toHexUpper } from '../types/bytes.js';
import { pubKeyAddress, type PubKey } from '../types/keys.js';
import { PartSet } from '../types/partset.js';
import { copyConsensusParams, effectiveMaxBytes, hashConsensusParams, validateConsensusParams, assertVoteExtensionsDisabled } from '../types/params.js';
import { hashTxResults } from '../types/results.js';
import { compareTimestamps, timestampToDate, timestampsEqual, type Timestamp } from '../types/time.js';
import { newValidator, type Validator, type ValidatorSet } from '../types/validator.js';
import { copyChainState, type ChainState } from './chainState.js';
import type { EvidencePool } from '../evidence/pool.js';
import { decodeEvidence, toMisbehavior } from '../evidence/evidence.js';

/** Bytes available for txs in a block (types.MaxDataBytes with no evidence). */
export function maxDataBytes(maxBytes: number, evidenceBytes: number, validatorCount: number): number {
  const n = maxBytes - MAX_OVERHEAD_FOR_BLOCK - MAX_HEADER_BYTES - maxCommitBytes(validatorCount) - evidenceBytes;
  if (n < 0) {
    throw new ConsensusError('INVALID_PARAMS', `Negative MaxDataBytes. Block.MaxBytes=${maxBytes} is too small to accommodate header&lastCommit&evidence=${maxBytes - n}`);
  }
  return n;
}

/** Weighted median of the commit's timestamps (state.MedianTime): the BFT time of the next block. */
export function medianTime(commit: Commit, validators: ValidatorSet): Timestamp {
  const weighted: { time: Timestamp; weight: bigint }[] = [];
  let total = 0n;
  for (const sig of commit.signatures) {
    if (sig.blockIdFlag === BlockIdFlag.Absent) continue;
    const [, val] = validators.getByAddress(sig.validatorAddress);
    if (!val) throw new ConsensusError('INVALID_BLOCK', `commit validator not found in validator set: ${toHexUpper(sig.validatorAddress)}`);
    total += val.votingPower;
    weighted.push({ time: sig.timestamp, weight: val.votingPower });
  }
  weighted.sort((a, b) => compareTimestamps(a.time, b.time));
  let median = total / 2n;
  for (const w of weighted) {
    if (median <= w.weight) return w.time;
    median -= w.weight;
  }
  throw new ConsensusError('INVALID_BLOCK', 'cannot compute median time of an empty commit');
}

/** The ABCI view of a block's last commit (BuildLastCommitInfo). */
export function buildLastCommitInfo(block: Block, lastValidators: ValidatorSet | undefined, initialHeight: number): CommitInfo {
  if (block.header.height === initialHeight || !lastValidators) return { round: 0, votes: [] };
  const commit = block.lastCommit;
  if (commit.signatures.length !== lastValidators.size) {
    throw new ConsensusError(
      'INVALID_BLOCK',
      `commit size (${commit.signatures.length}) doesn't match validator set length (${lastValidators.size}) at height ${block.header.height}`,
    );
  }
  return {
    round: commit.round,
    votes: lastValidators.validators.map((v, i) => ({
      validatorAddress: v.address,
      power: v.votingPower,
      blockIdFlag: commit.signatures[i]!.blockIdFlag as 1 | 2 | 3,
    })),
  };
}

function validatorUpdatesToValidators(updates: readonly ValidatorUpdate[], pubKeyTypes: readonly string[]): Validator[] {
  return updates.map((u) => {
    if (u.power < 0n) throw new ConsensusError('INVALID_VALIDATOR_SET', `voting power can't be negative ${u.power}`);
    const pubKey: PubKey = { type: u.pubKeyType, bytes: u.pubKey };
    if (u.power === 0n) return { address: pubKeyAddress(pubKey), pubKey, votingPower: 0n, proposerPriority: 0n };
    if (!pubKeyTypes.includes(u.pubKeyType)) {
      throw new ConsensusError('INVALID_VALIDATOR_SET', `validator ${toHexUpper(pubKeyAddress(pubKey))} is using pubkey ${u.pubKeyType}, which is unsupported for consensus`);
    }
    return newValidator(pubKey, u.power);
  });
}

export interface ProposalBlock {
  block: Block;
  blockBytes: Uint8Array;
  parts: PartSet;
  blockId: BlockId;
}

/** Encode a block and cut its parts. */
export function makePartSet(block: Block): ProposalBlock {
  const blockBytes = encodeBlock(block);
  const parts = PartSet.fromData(blockBytes, BLOCK_PART_SIZE_BYTES);
  return { block, blockBytes, parts, blockId: { hash: hashBlock(block), partSetHeader: parts.header } };
}

export interface BlockExecutorDeps {
  app: Application;
  blockStore: BlockStore;
  stateStore: StateStore;
  mempool?: Mempool;
  eventBus?: EventBus;
  logger?: Logger;
  /** Without a pool, blocks carrying evidence are refused and proposals carry none. */
  evidencePool?: EvidencePool;
}

/** The ABCI misbehavior list of a block's evidence. */
function misbehaviorOf(block: Block): Misbehavior[] {
  return block.evidence.map((bytes) => toMisbehavior(decodeEvidence(bytes)));
}

export class BlockExecutor {
  private readonly logger: Logger;

  constructor(private readonly deps: BlockExecutorDeps) {
    this.logger = deps.logger ?? nullLogger;
  }

  /** Assemble a block from fields derived from `state` (state.MakeBlock). */
  makeBlock(height: number, state: ChainState, txs: Uint8Array[], lastCommit: Commit, proposerAddress: Uint8Array, evidence: Uint8Array[] = []): Block {
    const time = height === state.initialHeight ? state.lastBlockTime : medianTime(lastCommit, state.lastValidators);
    return {
      header: {
        version: { ...state.version.consensus },
        chainId: state.chainId,
        height,
        time,
        lastBlockId: state.lastBlockId,
        lastCommitHash: hashCommit(lastCommit),
        dataHash: hashTxs(txs),
        validatorsHash: state.validators.hash(),
        nextValidatorsHash: state.nextValidators.hash(),
        consensusHash: hashConsensusParams(state.consensusParams),
        appHash: state.appHash,
        lastResultsHash: state.lastResultsHash,
        evidenceHash: hashEvidence(evidence),
        proposerAddress,
      },
      data: { txs },
      evidence,
      lastCommit,
    };
  }

  /** Reap txs, let the app prepare them, and build the proposal block (CreateProposalBlock). */
  async createProposalBlock(height: number, state: ChainState, lastCommit: Commit, proposerAddress: Uint8Array): Promise<ProposalBlock> {
    const maxBytes = effectiveMaxBytes(state.consensusParams);
    const unlimited = state.consensusParams.block.maxBytes === -1n;
    const pending = this.deps.evidencePool?.pendingEvidence(state.consensusParams.evidence.maxBytes) ?? { evidence: [], bytes: 0 };
    const dataBytes = maxDataBytes(maxBytes, pending.bytes, state.validators.size);
    const reaped = this.deps.mempool?.reapMaxBytesMaxGas(unlimited ? -1 : dataBytes, state.consensusParams.block.maxGas) ?? [];
    const draft = this.makeBlock(height, state, reaped, lastCommit, proposerAddress, pending.evidence);
    const prepared = await this.deps.app.prepareProposal({
      maxTxBytes: dataBytes,
      txs: reaped,
      localLastCommit: buildLastCommitInfo(draft, state.lastValidators, state.initialHeight),
      misbehavior: misbehaviorOf(draft),
      height,
      time: timestampToDate(draft.header.time),
      nextValidatorsHash: draft.header.nextValidatorsHash,
      proposerAddress,
    });
    let size = 0;
    for (const tx of prepared.txs) {
      size += protoSizeOfTx(tx);
      if (size > dataBytes) throw new ConsensusError('APP', `transaction data size exceeds maximum ${dataBytes}`);
    }
    return makePartSet(this.makeBlock(height, state, prepared.txs, lastCommit, proposerAddress, pending.evidence));
  }

  /** Blocks already validated against a given state object (prevote, precommit and commit all validate the same block). */
  private readonly validated = new WeakMap<Block, ChainState>();

  /** Check a block against the state (validateBlock); throws INVALID_BLOCK with CometBFT's wording. */
  validateBlock(state: ChainState, block: Block): void {
    if (this.validated.get(block) === state) return;
    this.validateBlockUncached(state, block);
    this.validated.set(block, state);
  }

  private validateBlockUncached(state: ChainState, block: Block): void {
    validateBlockBasic(block);
    const h = block.header;
    const fail = (msg: string): never => {
      throw new ConsensusError('INVALID_BLOCK', msg);
    };
    if (h.version.app !== state.version.consensus.app || h.version.block !== state.version.consensus.block) {
      fail(`wrong Block.Header.Version. Expected ${state.version.consensus.block}/${state.version.consensus.app}, got ${h.version.block}/${h.version.app}`);
    }
    if (h.chainId !== state.chainId) fail(`wrong Block.Header.ChainID. Expected ${state.chainId}, got ${h.chainId}`);
    if (state.lastBlockHeight === 0 && h.height !== state.initialHeight) fail(`wrong Block.Header.Height. Expected ${state.initialHeight} for initial block, got ${h.height}`);
    if (state.lastBlockHeight > 0 && h.height !== state.lastBlockHeight + 1) fail(`wrong Block.Header.Height. Expected ${state.lastBlockHeight + 1}, got ${h.height}`);
    if (!blockIdsEqual(h.lastBlockId, state.lastBlockId)) fail('wrong Block.Header.LastBlockID');
    if (!bytesEqual(h.appHash, state.appHash)) fail(`wrong Block.Header.AppHash.  Expected ${toHexUpper(state.appHash)}, got ${toHexUpper(h.appHash)}`);
    if (!bytesEqual(h.consensusHash, hashConsensusParams(state.consensusParams))) fail('wrong Block.Header.ConsensusHash');
    if (!bytesEqual(h.lastResultsHash, state.lastResultsHash)) fail(`wrong Block.Header.LastResultsHash.  Expected ${toHexUpper(state.lastResultsHash)}, got ${toHexUpper(h.lastResultsHash)}`);
    if (!bytesEqual(h.validatorsHash, state.validators.hash())) fail('wrong Block.Header.ValidatorsHash');
    if (!bytesEqual(h.nextValidatorsHash, state.nextValidators.hash())) fail('wrong Block.Header.NextValidatorsHash');
    if (h.height === state.initialHeight) {
      if (block.lastCommit.signatures.length !== 0) fail("initial block can't have LastCommit signatures");
    } else {
      state.lastValidators.verifyCommit(state.chainId, state.lastBlockId, h.height - 1, block.lastCommit);
    }
    if (!state.validators.hasAddress(h.proposerAddress)) fail(`block.Header.ProposerAddress ${toHexUpper(h.proposerAddress)} is not a validator`);
    if (h.height > state.initialHeight) {
      if (compareTimestamps(h.time, state.lastBlockTime) <= 0) fail('block time not greater than last block time');
      if (!timestampsEqual(h.time, medianTime(block.lastCommit, state.lastValidators))) fail('invalid block time');
    } else if (h.height === state.initialHeight) {
      if (!timestampsEqual(h.time, state.lastBlockTime)) fail('block time is not equal to genesis time');
    } else {
      fail(`block height ${h.height} lower than initial height ${state.initialHeight}`);
    }
    if (block.evidence.length > 0) {
      const pool = this.deps.evidencePool;
      if (!pool) fail('evidence is not supported by this node');
      let size = 0;
      for (const ev of block.evidence) size += ev.length;
      if (BigInt(size) > state.consensusParams.evidence.maxBytes) fail(`evidence size ${size} exceeds the maximum ${state.consensusParams.evidence.maxBytes}`);
      pool!.checkEvidence(state, block.evidence);
    }
  }

  /** Ask the app whether to accept a proposal (ProcessProposal). */
  async processProposal(block: Block, state: ChainState): Promise<boolean> {
    const res = await this.deps.app.processProposal({
      txs: block.data.txs,
      proposedLastCommit: buildLastCommitInfo(block, this.lastValidatorsFor(block, state), state.initialHeight),
      misbehavior: misbehaviorOf(block),
      hash: hashBlock(block),
      height: block.header.height,
      time: timestampToDate(block.header.time),
      nextValidatorsHash: block.header.nextValidatorsHash,
      proposerAddress: block.header.proposerAddress,
    });
    return res.status === 'accept';
  }

  private lastValidatorsFor(block: Block, state: ChainState): ValidatorSet | undefined {
    if (block.header.height === state.initialHeight) return undefined;
    return this.deps.stateStore.loadValidators(block.header.height - 1) ?? state.lastValidators;
  }

  /**
   * Execute a decided block and commit it: returns the new state (ApplyBlock). The block must
   * already be in the block store.
   */
  async applyBlock(state: ChainState, blockId: BlockId, block: Block, options: { validate?: boolean; fireEvents?: boolean } = {}): Promise<ChainState> {
    if (options.validate) this.validateBlock(state, block);
    const height = block.header.height;
    const response = await this.deps.app.finalizeBlock({
      txs: block.data.txs,
      decidedLastCommit: buildLastCommitInfo(block, this.lastValidatorsFor(block, state), state.initialHeight),
      misbehavior: misbehaviorOf(block),
      hash: hashBlock(block),
      height,
      time: timestampToDate(block.header.time),
      nextValidatorsHash: block.header.nextValidatorsHash,
      proposerAddress: block.header.proposerAddress,
    });
    if (response.txResults.length !== block.data.txs.length) {
      throw new ConsensusError(
        'APP',
        `expected tx results length to match size of transactions in block. Expected ${block.data.txs.length}, got ${response.txResults.length}`,
      );
    }
    this.logger.debug('finalized block', { height, numTxs: block.data.txs.length, appHash: toHexUpper(response.appHash) });

    await this.deps.stateStore.saveFinalizeBlockResponse(height, response);

    const validatorUpdates = validatorUpdatesToValidators(response.validatorUpdates, state.consensusParams.validator.pubKeyTypes);
    const next = updateState(state, blockId, block, response, validatorUpdates);

    const retainHeight = await this.commit(block, response.txResults);

    next.appHash = response.appHash;
    await this.deps.stateStore.save(next);
    if (this.deps.evidencePool) await this.deps.evidencePool.update(next, block.evidence.map(decodeEvidence));

    if (retainHeight > 0) await this.prune(retainHeight);

    if (options.fireEvents !== false) this.fireEvents(block, blockId, response, validatorUpdates);
    return next;
  }

  /** Lock the mempool, Commit the app, update the mempool (BlockExecutor.Commit). */
  private async commit(block: Block, txResults: ExecTxResult[]): Promise<number> {
    const mempool = this.deps.mempool;
    const release = mempool ? await mempool.acquire() : undefined;
    try {
      const res = await this.deps.app.commit();
      if (mempool) await mempool.update(block.header.height, block.data.txs, txResults);
      return res.retainHeight;
    } finally {
      release?.();
    }
  }

  private async prune(retainHeight: number): Promise<void> {
    const base = this.deps.blockStore.base();
    if (retainHeight <= base) return;
    try {
      const pruned = await this.deps.blockStore.pruneBlocks(retainHeight);
      await this.deps.stateStore.prune(base, retainHeight);
      this.logger.debug('pruned blocks', { pruned, retainHeight });
    } catch (err) {
      this.logger.error('failed to prune blocks', { retainHeight, err: (err as Error).message });
    }
  }

  fireEvents(block: Block, blockId: BlockId, response: ResponseFinalizeBlock, validatorUpdates: Validator[]): void {
    const bus = this.deps.eventBus;
    if (!bus) return;
    bus.publishNewBlock({ block, blockId, resultFinalizeBlock: response });
    bus.publishNewBlockHeader({ header: block.header });
    bus.publishNewBlockEvents({ height: block.header.height, events: response.events, numTxs: block.data.txs.length });
    block.data.txs.forEach((tx, index) => bus.publishTx({ height: block.header.height, index, tx, result: response.txResults[index]! }));
    if (validatorUpdates.length > 0) bus.publish('ValidatorSetUpdates', { validatorUpdates });
  }

  /** FinalizeBlock + Commit without touching the state (handshake replay, ExecCommitBlock). */
  async execCommitBlock(block: Block, lastValidators: ValidatorSet | undefined, initialHeight: number): Promise<Uint8Array> {
    const response = await this.deps.app.finalizeBlock({
      txs: block.data.txs,
      decidedLastCommit: buildLastCommitInfo(block, lastValidators, initialHeight),
      misbehavior: misbehaviorOf(block),
      hash: hashBlock(block),
      height: block.header.height,
      time: timestampToDate(block.header.time),
      nextValidatorsHash: block.header.nextValidatorsHash,
      proposerAddress: block.header.proposerAddress,
    });
    if (response.txResults.length !== block.data.txs.length) {
      throw new ConsensusError('APP', `expected tx results length to match size of transactions in block. Expected ${block.data.txs.length}, got ${response.txResults.length}`);
    }
    await this.deps.app.commit();
    return response.appHash;
  }
}

/** The state after `block` (updateState); appHash is filled in by the caller after Commit. */
export function updateState(state: ChainState, blockId: BlockId, block: Block, response: ResponseFinalizeBlock, validatorUpdates: Validator[]): ChainState {
  const height = block.header.height;
  const nextValidators = state.nextValidators.copy();
  let lastHeightValidatorsChanged = state.lastHeightValidatorsChanged;
  if (validatorUpdates.length > 0) {
    nextValidators.updateWithChangeSet(validatorUpdates);
    // Changes from this height apply to the next next height.
    lastHeightValidatorsChanged = height + 1 + 1;
  }
  nextValidators.incrementProposerPriority(1);

  let params = state.consensusParams;
  let lastHeightParamsChanged = state.lastHeightConsensusParamsChanged;
  const version = { consensus: { ...state.version.consensus }, software: state.version.software };
  if (response.consensusParamUpdates) {
    params = copyConsensusParams(response.consensusParamUpdates);
    try {
      validateConsensusParams(params);
      assertVoteExtensionsDisabled(params);
    } catch (err) {
      throw new ConsensusError('INVALID_PARAMS', `validating new consensus params: ${(err as Error).message}`);
    }
    version.consensus.app = params.version.app;
    lastHeightParamsChanged = height + 1;
  }

  const next = copyChainState(state);
  return {
    ...next,
    version,
    lastBlockHeight: height,
    lastBlockId: blockId,
    lastBlockTime: block.header.time,
    nextValidators,
    validators: state.nextValidators.copy(),
    lastValidators: state.validators.copy(),
    lastHeightValidatorsChanged,
    consensusParams: params,
    lastHeightConsensusParamsChanged: lastHeightParamsChanged,
    lastResultsHash: hashTxResults(response.txResults),
  };
}
