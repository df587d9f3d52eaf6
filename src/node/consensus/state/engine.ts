/**
 * The Tendermint round-based BFT state machine (consensus/state.go), as explicit `enter*`
 * transitions driven by ONE single-writer loop over a queue of messages, timeouts and mempool
 * notifications. Only the loop mutates the round state; app calls are awaited inside it.
 *
 * Per height: NewHeight → (timeout_commit) → NewRound → Propose → Prevote → [PrevoteWait] →
 * Precommit → [PrecommitWait] → Commit, with locking (a validator that precommitted a block
 * prevotes it in later rounds until a newer polka unlocks it) and the valid-block rule (a block
 * with a polka in the current round is re-proposed). +2/3 means more than two thirds of power.
 *
 * Own proposals and votes go through the internal queue: they are fsync'd to the WAL, then sent
 * to peers, then handled like any message. The end-height marker is fsync'd after the block is
 * saved and before it is executed. On restart the WAL is replayed to resume the height.
 */
import type { Application } from '../../abci/types.js';
import { ConsensusError, isConsensusError } from '../errors.js';
import { describeStorageFault, storageFaultOf } from '../../../util/storageFault.js';
import type { EventBus } from '../events.js';
import { nullLogger, type Logger } from '../../logger.js';
import type { Mempool } from '../mempool/mempool.js';
import { precommitTimeoutMs, prevoteTimeoutMs, proposeTimeoutMs, waitForTxs, type ConsensusOptions } from '../options.js';
import type { PrivValidator } from '../privval.js';
import type { BlockStore } from '../store/blockStore.js';
import type { StateStore } from '../store/stateStore.js';
import {
  BLOCK_PART_SIZE_BYTES,
  blockHashesTo,
  blockIdIsZero,
  emptyCommit,
  hashBlock,
  zeroBlockId,
  type Block,
  type BlockId,
  type Commit,
  type PartSetHeader,
} from '../types/block.js';
import { EMPTY_BYTES, bytesEqual, toHexUpper } from '../types/bytes.js';
import { PartSet, type Part } from '../types/partset.js';
import { effectiveMaxBytes } from '../types/params.js';
import { addMillis, compareTimestamps, diffMillis, timestampNow, timestampToDate, type Timestamp } from '../types/time.js';
import type { ValidatorSet } from '../types/validator.js';
import { HeightVoteSet, VoteSet } from '../types/voteSet.js';
import { SignedMsgType, commitSigToVote, proposalSignBytes, validateProposalBasic, type Proposal, type Vote, type VoteType } from '../types/vote.js';
import { verifySignature } from '../types/keys.js';
import { copyChainState, nextHeight, type ChainState } from './chainState.js';
import { BlockExecutor } from './execution.js';
import { messageHeight, type ConsensusMessage } from './messages.js';
import { ROUND_STEP_NAMES, RoundStep, TimeoutTicker, type TimeoutInfo } from './timeoutTicker.js';
import type { WAL } from './wal.js';

type LoopItem = { kind: 'msg'; msg: ConsensusMessage; peerId: string } | { kind: 'timeout'; ti: TimeoutInfo } | { kind: 'txsAvailable' };

/** Messages for future heights/rounds kept until we get there (bounded). */
const MAX_BUFFERED_MESSAGES = 20000;
/** How far ahead (heights) buffered messages may be. */
const MAX_BUFFERED_HEIGHT_AHEAD = 2;

/**
 * What the consensus reactor hears from the engine (CometBFT's internal event switch): it
 * broadcasts NewRoundStep / NewValidBlock / HasVote and wakes its gossip routines.
 */
export interface EngineListener {
  /** Height, round or step changed. */
  onNewRoundStep(): void;
  /** A block got +2/3 prevotes (or is being committed) and we now track its parts. */
  onValidBlock(): void;
  /** A vote was added to one of our vote sets. */
  onVote(vote: Vote): void;
  /** Something was added to the round state (proposal, part, vote). */
  onChange(): void;
  /** A peer sent something provably wrong (bad signature, bad part proof, oversized block). */
  onPeerMisbehaviour(peerId: string, err: Error): void;
  /** Two votes of one validator for the same height, round and type (equivocation). */
  onConflictingVotes(voteA: Vote, voteB: Vote): void;
}

/** The live round state the reactor reads (never mutate it outside the engine). */
export interface RoundStateView {
  height: number;
  round: number;
  step: RoundStep;
  /** When the current height's round 0 starts (ms since the epoch). */
  startTimeMs: number;
  initialHeight: number;
  validators: ValidatorSet;
  proposal: Proposal | undefined;
  proposalBlockParts: PartSet | undefined;
  votes: HeightVoteSet;
  lastCommit: VoteSet | undefined;
  /** Round of the last commit; -1 at the initial height. */
  lastCommitRound: number;
  maxBlockBytes: number;
}

export interface EngineDeps {
  app: Application;
  state: ChainState;
  blockStore: BlockStore;
  stateStore: StateStore;
  executor: BlockExecutor;
  mempool: Mempool;
  eventBus: EventBus;
  wal: WAL;
  privValidator?: PrivValidator;
  options: ConsensusOptions;
  logger?: Logger;
  /** Called when the engine halts on an unrecoverable error (CometBFT's "CONSENSUS FAILURE"). */
  onFailure?: (err: Error) => void;
}

/** A snapshot of the round state for the RPC (consensus_state). */
export interface RoundStateSummary {
  height: number;
  round: number;
  step: string;
  startTime: Timestamp;
  proposalBlockHash: Uint8Array;
  lockedBlockHash: Uint8Array;
  lockedRound: number;
  validBlockHash: Uint8Array;
  validRound: number;
  proposer: { address: Uint8Array; index: number } | undefined;
  prevotes: string;
  precommits: string;
}

export class ConsensusEngine {
  // ---- round state (mutated only by the loop) ----
  height = 0;
  round = 0;
  step: RoundStep = RoundStep.NewHeight;
  private startTime: Timestamp = timestampNow();
  private commitTime: Timestamp | undefined;
  validators!: ValidatorSet;
  private proposal: Proposal | undefined;
  private proposalBlock: Block | undefined;
  private proposalBlockParts: PartSet | undefined;
  private lockedRound = -1;
  private lockedBlock: Block | undefined;
  private lockedBlockParts: PartSet | undefined;
  private validRound = -1;
  private validBlock: Block | undefined;
  private validBlockParts: PartSet | undefined;
  private votes!: HeightVoteSet;
  private commitRound = -1;
  private lastCommit: VoteSet | undefined;
  private triggeredTimeoutPrecommit = false;
  state: ChainState;

  // ---- loop ----
  private readonly internalQueue: LoopItem[] = [];
  private readonly externalQueue: LoopItem[] = [];
  private wake: (() => void) | undefined;
  private running = false;
  private stopping = false;
  private loopDone: Promise<void> | undefined;
  private replayMode = false;
  private readonly ticker: TimeoutTicker;
  private buffered: { msg: ConsensusMessage; peerId: string }[] = [];
  private failureError: Error | undefined;
  private listener: EngineListener | undefined;

  private readonly logger: Logger;

  constructor(private readonly deps: EngineDeps) {
    this.logger = deps.logger ?? nullLogger;
    this.state = deps.state;
    this.ticker = new TimeoutTicker((ti) => this.enqueue({ kind: 'timeout', ti }));
    if (deps.state.lastBlockHeight > 0) this.reconstructLastCommit(deps.state);
    this.updateToState(deps.state);
  }

  get failure(): Error | undefined {
    return this.failureError;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Replay the WAL for the current height, then run the loop and schedule round 0. */
  async start(): Promise<void> {
    if (this.running) return;
    this.checkDoubleSigningRisk();
    this.deps.mempool.onTxsAvailable(() => this.enqueue({ kind: 'txsAvailable' }));
    await this.catchupReplay();
    this.running = true;
    this.stopping = false;
    this.loopDone = this.runLoop();
    this.scheduleRound0();
    this.listener?.onNewRoundStep();
  }

  /** The consensus reactor (set before start). */
  setListener(listener: EngineListener | undefined): void {
    this.listener = listener;
  }

  /** The live round state (for the reactor's gossip). */
  roundStateView(): RoundStateView {
    return {
      height: this.height,
      round: this.round,
      step: this.step,
      startTimeMs: timestampToDate(this.startTime).getTime(),
      initialHeight: this.state.initialHeight,
      validators: this.validators,
      proposal: this.proposal,
      proposalBlockParts: this.proposalBlockParts,
      votes: this.votes,
      lastCommit: this.lastCommit,
      lastCommitRound: this.lastCommit ? this.lastCommit.round : -1,
      maxBlockBytes: effectiveMaxBytes(this.state.consensusParams),
    };
  }

  /** Finish the current step, stop timers and the loop, flush the WAL. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.stopping = true;
    this.ticker.stop();
    this.wake?.();
    await this.loopDone;
    this.running = false;
    // A signature whose message the loop did not reach still gets its sign state on disk.
    await this.deps.privValidator?.persisted?.().catch(() => undefined);
    this.deps.wal.flushAndSync();
  }

  /**
   * Awaits a durability wait of the height's critical path with priority over admission: CheckTx
   * of new txs waits meanwhile (the mempool's gate), so the engine goes on as soon as the disk is
   * done instead of behind a queue of CheckTx turns; queries are served meanwhile.
   */
  private durable<T>(work: Promise<T>): Promise<T> {
    return this.deps.mempool.priority.during(work);
  }

  /** Waits until the signer's state is durable; a storage fault there halts the engine as a failed signing does. */
  private async signerPersisted(kind: 'vote' | 'proposal'): Promise<void> {
    try {
      await this.deps.privValidator?.persisted?.();
    } catch (err) {
      throwIfStorageFault(err, `signing a ${kind}`);
      throw new ConsensusError('STORE', `cannot persist the signer's state while signing a ${kind}: ${(err as Error).message}`, { cause: err });
    }
  }

  // =============================================================================================
  // Loop

  private enqueue(item: LoopItem, internal = false): void {
    (internal ? this.internalQueue : this.externalQueue).push(item);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private sendInternal(msg: ConsensusMessage): void {
    this.enqueue({ kind: 'msg', msg, peerId: '' }, true);
  }

  private async runLoop(): Promise<void> {
    while (!this.stopping) {
      const item = this.internalQueue.shift() ?? this.externalQueue.shift();
      if (!item) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
        continue;
      }
      try {
        await this.handleItem(item);
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        this.failureError = error;
        this.logger.error('CONSENSUS FAILURE!!!', { err: error.message, stack: error.stack, height: this.height, round: this.round });
        this.stopping = true;
        this.ticker.stop();
        this.deps.onFailure?.(error);
      }
    }
  }

  private async handleItem(item: LoopItem): Promise<void> {
    switch (item.kind) {
      case 'msg':
        if (item.peerId === '') {
          // Own message: durable in the WAL (with everything logged before it), and the signer's
          // state behind it, before it is processed and the reactor can gossip it. Both fsyncs run
          // on the thread pool; the loop waits, the event loop does not.
          await this.durable(this.deps.wal.writeSyncAsync({ kind: 'msgInfo', msg: item.msg, peerId: '' }));
          if (item.msg.type === 'vote' || item.msg.type === 'proposal') await this.durable(this.signerPersisted(item.msg.type));
        } else {
          this.deps.wal.write({ kind: 'msgInfo', msg: item.msg, peerId: item.peerId });
        }
        await this.handleMsg(item.msg, item.peerId);
        this.listener?.onChange();
        return;
      case 'timeout':
        this.deps.wal.write({ kind: 'timeout', durationMs: item.ti.durationMs, height: item.ti.height, round: item.ti.round, step: item.ti.step });
        await this.handleTimeout(item.ti);
        return;
      case 'txsAvailable':
        await this.handleTxsAvailable();
        return;
    }
  }

  /** Entry point for the reactor (outside the loop: only enqueues). */
  receivePeerMessage(msg: ConsensusMessage, peerId: string): void {
    if (this.stopping || !this.running) return;
    this.enqueue({ kind: 'msg', msg, peerId });
  }

  /** Messages waiting to be handled (the reactor throttles peers when this grows). */
  get queueLength(): number {
    return this.externalQueue.length;
  }

  // =============================================================================================
  // Message handling

  private async handleMsg(msg: ConsensusMessage, peerId: string): Promise<void> {
    const height = messageHeight(msg);
    if (height > this.height) {
      this.bufferFuture(msg, peerId);
      return;
    }
    try {
      switch (msg.type) {
        case 'proposal':
          if (msg.proposal.height === this.height && msg.proposal.round > this.round) {
            this.bufferFuture(msg, peerId);
            return;
          }
          this.setProposal(msg.proposal);
          return;
        case 'blockPart': {
          if (msg.height === this.height && msg.round > this.round) {
            this.bufferFuture(msg, peerId);
            return;
          }
          const added = this.addProposalBlockPart(msg.height, msg.round, msg.part);
          if (added && this.proposalBlockParts?.isComplete) await this.handleCompleteProposal(msg.height);
          return;
        }
        case 'vote':
          await this.tryAddVote(msg.vote, peerId);
          return;
      }
    } catch (err) {
      if (isConsensusError(err) && err.reason !== 'APP' && err.reason !== 'STORE' && err.reason !== 'FATAL') {
        if (peerId === '') {
          // Our own message refused: e.g. a proposal with our key arrived from elsewhere first
          // (another node signs with this validator key). Logged, as CometBFT does; not fatal.
          this.logger.error('failed to process own message', { height: this.height, round: this.round, type: msg.type, err: err.message });
          return;
        }
        this.logger.debug('failed to process peer message', { height: this.height, round: this.round, peer: peerId, type: msg.type, err: err.message });
        if (err.meta?.['misbehaviour'] === true && !this.replayMode) this.listener?.onPeerMisbehaviour(peerId, err);
        return;
      }
      throw err;
    }
  }

  private bufferFuture(msg: ConsensusMessage, peerId: string): void {
    if (messageHeight(msg) > this.height + MAX_BUFFERED_HEIGHT_AHEAD) return;
    if (this.buffered.length >= MAX_BUFFERED_MESSAGES) this.buffered.shift();
    this.buffered.push({ msg, peerId });
  }

  /** Re-queue buffered messages that became current (new height or round). */
  private releaseBuffered(): void {
    if (this.buffered.length === 0) return;
    const ready: LoopItem[] = [];
    const keep: { msg: ConsensusMessage; peerId: string }[] = [];
    for (const b of this.buffered) {
      const h = messageHeight(b.msg);
      if (h < this.height) continue;
      const round = b.msg.type === 'proposal' ? b.msg.proposal.round : b.msg.type === 'blockPart' ? b.msg.round : this.round;
      if (h === this.height && round <= this.round) ready.push({ kind: 'msg', msg: b.msg, peerId: b.peerId });
      else keep.push(b);
    }
    this.buffered = keep;
    if (ready.length) {
      this.externalQueue.unshift(...ready);
      const wake = this.wake;
      this.wake = undefined;
      wake?.();
    }
  }

  private async handleTimeout(ti: TimeoutInfo): Promise<void> {
    if (ti.height !== this.height || ti.round < this.round || (ti.round === this.round && ti.step < this.step)) return;
    switch (ti.step) {
      case RoundStep.NewHeight:
        await this.enterNewRound(ti.height, 0);
        return;
      case RoundStep.NewRound:
        await this.enterPropose(ti.height, ti.round);
        return;
      case RoundStep.Propose:
        this.publishRoundState('TimeoutPropose');
        await this.enterPrevote(ti.height, ti.round);
        return;
      case RoundStep.PrevoteWait:
        this.publishRoundState('TimeoutWait');
        await this.enterPrecommit(ti.height, ti.round);
        return;
      case RoundStep.PrecommitWait:
        this.publishRoundState('TimeoutWait');
        await this.enterPrecommit(ti.height, ti.round);
        await this.enterNewRound(ti.height, ti.round + 1);
        return;
      default:
        throw new ConsensusError('INVALID_PROPOSAL', `invalid timeout step: ${ti.step}`);
    }
  }

  private async handleTxsAvailable(): Promise<void> {
    if (this.round !== 0) return;
    if (this.step === RoundStep.NewHeight) {
      if (this.needProofBlock(this.height)) return; // enterPropose will be called by enterNewRound
      // +1ms so the NewRound timeout always fires after the NewHeight one.
      this.scheduleTimeout(diffMillis(timestampNow(), this.startTime) + 1, this.height, 0, RoundStep.NewRound);
    } else if (this.step === RoundStep.NewRound) {
      await this.enterPropose(this.height, 0);
    }
  }

  // =============================================================================================
  // State transitions

  /** Enter a new round (round 0 after timeout_commit, later rounds after failed ones or a skip). */
  async enterNewRound(height: number, round: number): Promise<void> {
    if (this.height !== height || round < this.round || (this.round === round && this.step !== RoundStep.NewHeight)) return;
    let validators = this.validators;
    if (this.round < round) {
      validators = validators.copy();
      validators.incrementProposerPriority(round - this.round);
    }
    this.updateRoundStep(round, RoundStep.NewRound);
    this.validators = validators;
    if (round !== 0) {
      this.proposal = undefined;
      this.proposalBlock = undefined;
      this.proposalBlockParts = undefined;
    }
    this.votes.setRound(round + 1); // also track round+1 to allow round-skipping
    this.triggeredTimeoutPrecommit = false;
    const proposer = validators.getProposer();
    this.deps.eventBus.publish('NewRound', {
      height,
      round,
      step: ROUND_STEP_NAMES[RoundStep.NewRound],
      proposer: { address: proposer.address, index: validators.getByAddress(proposer.address)[0] },
    });
    this.logger.debug('entering new round', { height, round, proposer: toHexUpper(proposer.address) });
    this.releaseBuffered();
    // Wait for txs before proposing in round 0, unless the last block changed the app hash.
    const wait = waitForTxs(this.deps.options) && round === 0 && !this.needProofBlock(height);
    if (wait) {
      if (this.deps.options.createEmptyBlocksIntervalMs > 0) {
        this.scheduleTimeout(this.deps.options.createEmptyBlocksIntervalMs, height, round, RoundStep.NewRound);
      }
      if (this.deps.mempool.size() > 0) await this.enterPropose(height, round);
    } else {
      await this.enterPropose(height, round);
    }
  }

  /** True at the first height and when the previous block changed the app hash (a proof block is needed). */
  private needProofBlock(height: number): boolean {
    if (height === this.state.initialHeight) return true;
    const meta = this.deps.blockStore.loadBlockMeta(height - 1);
    if (!meta) return true;
    return !bytesEqual(this.state.appHash, meta.header.appHash);
  }

  async enterPropose(height: number, round: number): Promise<void> {
    if (this.height !== height || round < this.round || (this.round === round && RoundStep.Propose <= this.step)) return;
    this.scheduleTimeout(proposeTimeoutMs(this.deps.options, round), height, round, RoundStep.Propose);
    const pv = this.deps.privValidator;
    if (pv && this.validators.hasAddress(pv.address) && bytesEqual(this.validators.getProposer().address, pv.address)) {
      this.logger.debug('our turn to propose', { height, round });
      await this.decideProposal(height, round);
    }
    this.updateRoundStep(round, RoundStep.Propose);
    this.newStep();
    if (this.isProposalComplete()) await this.enterPrevote(height, this.round);
  }

  private async decideProposal(height: number, round: number): Promise<void> {
    if (this.proposal && this.proposal.height === height && this.proposal.round === round) {
      this.logger.error('a proposal signed with our key for this round arrived from a peer; not proposing (is another node running with this validator key?)', { height, round });
      return;
    }
    let block: Block;
    let parts: PartSet;
    if (this.validBlock && this.validBlockParts) {
      block = this.validBlock;
      parts = this.validBlockParts;
    } else {
      let lastCommit: Commit;
      if (height === this.state.initialHeight) lastCommit = emptyCommit();
      else if (this.lastCommit?.hasTwoThirdsMajority()) lastCommit = this.lastCommit.makeCommit();
      else {
        this.logger.error('propose step; cannot propose anything without commit for the previous block', { height });
        return;
      }
      const made = await this.deps.executor.createProposalBlock(height, this.state, lastCommit, this.deps.privValidator!.address);
      block = made.block;
      parts = made.parts;
    }
    const proposal: Proposal = {
      type: SignedMsgType.Proposal,
      height,
      round,
      polRound: this.validRound,
      blockId: { hash: hashBlock(block), partSetHeader: parts.header },
      timestamp: timestampNow(),
      signature: EMPTY_BYTES,
    };
    try {
      this.deps.privValidator!.signProposal(this.state.chainId, proposal);
    } catch (err) {
      // The signer could not persist its last-sign state (disk full, read-only home, …): the
      // validator cannot take part until that is fixed, so this halts the engine (a storage fault
      // is fatal; see util/storageFault.ts), never a silent stall.
      if (!this.replayMode) throwIfStorageFault(err, 'signing a proposal');
      if (!this.replayMode) this.logger.error('propose step; failed signing proposal', { height, round, err: (err as Error).message });
      return;
    }
    this.sendInternal({ type: 'proposal', proposal });
    for (let i = 0; i < parts.total; i++) this.sendInternal({ type: 'blockPart', height, round, part: parts.getPart(i)! });
    this.logger.debug('signed proposal', { height, round, txs: block.data.txs.length });
  }

  private isProposalComplete(): boolean {
    if (!this.proposal || !this.proposalBlock) return false;
    if (this.proposal.polRound < 0) return true;
    return this.votes.prevotes(this.proposal.polRound)?.hasTwoThirdsMajority() ?? false;
  }

  async enterPrevote(height: number, round: number): Promise<void> {
    if (this.height !== height || round < this.round || (this.round === round && RoundStep.Prevote <= this.step)) return;
    await this.doPrevote(height, round);
    this.updateRoundStep(round, RoundStep.Prevote);
    this.newStep();
    // Once addVote sees +2/3 prevotes for anything we move to PrevoteWait or Precommit.
  }

  private async doPrevote(height: number, round: number): Promise<void> {
    if (this.lockedBlock && this.lockedBlockParts) {
      this.logger.debug('prevote step; already locked on a block; prevoting locked block', { height, round });
      this.signAddVote(SignedMsgType.Prevote, hashBlock(this.lockedBlock), this.lockedBlockParts.header);
      return;
    }
    if (!this.proposalBlock || !this.proposalBlockParts) {
      this.logger.debug('prevote step: ProposalBlock is nil', { height, round });
      this.signAddVote(SignedMsgType.Prevote, EMPTY_BYTES, undefined);
      return;
    }
    try {
      this.deps.executor.validateBlock(this.state, this.proposalBlock);
    } catch (err) {
      this.logger.error('prevote step: consensus deems this block invalid; prevoting nil', { height, round, err: (err as Error).message });
      this.signAddVote(SignedMsgType.Prevote, EMPTY_BYTES, undefined);
      return;
    }
    const accepted = await this.deps.executor.processProposal(this.proposalBlock, this.state);
    if (!accepted) {
      this.logger.error('prevote step: state machine rejected a proposed block; prevoting nil', { height, round });
      this.signAddVote(SignedMsgType.Prevote, EMPTY_BYTES, undefined);
      return;
    }
    this.signAddVote(SignedMsgType.Prevote, hashBlock(this.proposalBlock), this.proposalBlockParts.header);
  }

  async enterPrevoteWait(height: number, round: number): Promise<void> {
    if (this.height !== height || round < this.round || (this.round === round && RoundStep.PrevoteWait <= this.step)) return;
    if (!this.votes.prevotes(round)?.hasTwoThirdsAny()) {
      throw new ConsensusError('FATAL', `entering prevote wait step (${height}/${round}), but prevotes does not have any +2/3 votes`);
    }
    this.scheduleTimeout(prevoteTimeoutMs(this.deps.options, round), height, round, RoundStep.PrevoteWait);
    this.updateRoundStep(round, RoundStep.PrevoteWait);
    this.newStep();
  }

  /**
   * Lock and precommit the proposal block if it has a polka in this round; precommit nil (and
   * unlock on a nil polka) otherwise.
   */
  async enterPrecommit(height: number, round: number): Promise<void> {
    if (this.height !== height || round < this.round || (this.round === round && RoundStep.Precommit <= this.step)) return;
    try {
      const blockId = this.votes.prevotes(round)?.twoThirdsMajority();
      if (!blockId) {
        this.logger.debug('precommit step; no +2/3 prevotes; precommitting nil', { height, round, locked: this.lockedBlock !== undefined });
        this.signAddVote(SignedMsgType.Precommit, EMPTY_BYTES, undefined);
        return;
      }
      this.publishRoundState('Polka');
      if (blockId.hash.length === 0) {
        if (this.lockedBlock) {
          this.logger.debug('precommit step; +2/3 prevoted for nil; unlocking', { height, round });
          this.lockedRound = -1;
          this.lockedBlock = undefined;
          this.lockedBlockParts = undefined;
          this.publishRoundState('Unlock');
        }
        this.signAddVote(SignedMsgType.Precommit, EMPTY_BYTES, undefined);
        return;
      }
      if (blockHashesTo(this.lockedBlock, blockId.hash)) {
        this.logger.debug('precommit step; +2/3 prevoted locked block; relocking', { height, round });
        this.lockedRound = round;
        this.publishRoundState('Relock');
        this.signAddVote(SignedMsgType.Precommit, blockId.hash, blockId.partSetHeader);
        return;
      }
      if (blockHashesTo(this.proposalBlock, blockId.hash)) {
        this.logger.debug('precommit step; +2/3 prevoted proposal block; locking', { height, round, hash: toHexUpper(blockId.hash) });
        try {
          this.deps.executor.validateBlock(this.state, this.proposalBlock!);
        } catch (err) {
          throw new ConsensusError('FATAL', `precommit step; +2/3 prevoted for an invalid block: ${(err as Error).message}`);
        }
        this.lockedRound = round;
        this.lockedBlock = this.proposalBlock;
        this.lockedBlockParts = this.proposalBlockParts;
        this.publishRoundState('Lock');
        this.signAddVote(SignedMsgType.Precommit, blockId.hash, blockId.partSetHeader);
        return;
      }
      // A polka for a block we do not have: unlock, fetch it, precommit nil.
      this.logger.debug('precommit step; +2/3 prevotes for a block we do not have; voting nil', { height, round });
      this.lockedRound = -1;
      this.lockedBlock = undefined;
      this.lockedBlockParts = undefined;
      if (!this.proposalBlockParts?.hasHeader(blockId.partSetHeader)) {
        this.proposalBlock = undefined;
        this.proposalBlockParts = PartSet.fromHeader(blockId.partSetHeader);
      }
      this.publishRoundState('Unlock');
      this.signAddVote(SignedMsgType.Precommit, EMPTY_BYTES, undefined);
    } finally {
      this.updateRoundStep(round, RoundStep.Precommit);
      this.newStep();
    }
  }

  async enterPrecommitWait(height: number, round: number): Promise<void> {
    if (this.height !== height || round < this.round || (this.round === round && this.triggeredTimeoutPrecommit)) return;
    if (!this.votes.precommits(round)?.hasTwoThirdsAny()) {
      throw new ConsensusError('FATAL', `entering precommit wait step (${height}/${round}), but precommits does not have any +2/3 votes`);
    }
    this.scheduleTimeout(precommitTimeoutMs(this.deps.options, round), height, round, RoundStep.PrecommitWait);
    this.triggeredTimeoutPrecommit = true;
    this.newStep();
  }

  /** +2/3 precommits for a block: commit it as soon as we have it. */
  async enterCommit(height: number, commitRound: number): Promise<void> {
    if (this.height !== height || RoundStep.Commit <= this.step) return;
    const blockId = this.votes.precommits(commitRound)?.twoThirdsMajority();
    if (!blockId) throw new ConsensusError('FATAL', 'enterCommit expects +2/3 precommits');
    if (blockHashesTo(this.lockedBlock, blockId.hash)) {
      this.proposalBlock = this.lockedBlock;
      this.proposalBlockParts = this.lockedBlockParts;
    }
    if (!blockHashesTo(this.proposalBlock, blockId.hash) && !this.proposalBlockParts?.hasHeader(blockId.partSetHeader)) {
      this.logger.info('commit is for a block we do not know about; waiting for its parts', { height, hash: toHexUpper(blockId.hash) });
      this.proposalBlock = undefined;
      this.proposalBlockParts = PartSet.fromHeader(blockId.partSetHeader);
      this.publishRoundState('ValidBlock');
      this.listener?.onValidBlock();
    }
    this.updateRoundStep(this.round, RoundStep.Commit);
    this.commitRound = commitRound;
    this.commitTime = timestampNow();
    this.newStep();
    await this.tryFinalizeCommit(height);
  }

  private async tryFinalizeCommit(height: number): Promise<void> {
    if (this.height !== height) throw new ConsensusError('FATAL', `tryFinalizeCommit() height ${this.height} vs ${height}`);
    const blockId = this.votes.precommits(this.commitRound)?.twoThirdsMajority();
    if (!blockId || blockId.hash.length === 0) {
      this.logger.error('failed attempt to finalize commit; there was no +2/3 majority or +2/3 was for nil', { height });
      return;
    }
    if (!blockHashesTo(this.proposalBlock, blockId.hash)) {
      this.logger.debug('failed attempt to finalize commit; we do not have the commit block', { height, commitBlock: toHexUpper(blockId.hash) });
      return;
    }
    await this.finalizeCommit(height);
  }

  /** Save the block, mark the height in the WAL, execute and commit it, move to the next height. */
  private async finalizeCommit(height: number): Promise<void> {
    if (this.height !== height || this.step !== RoundStep.Commit) return;
    const precommits = this.votes.precommits(this.commitRound)!;
    const blockId = precommits.twoThirdsMajority();
    const block = this.proposalBlock;
    const parts = this.proposalBlockParts;
    if (!blockId || !block || !parts) throw new ConsensusError('FATAL', 'cannot finalize commit; commit does not have 2/3 majority');
    if (!parts.hasHeader(blockId.partSetHeader)) throw new ConsensusError('FATAL', 'expected ProposalBlockParts header to be commit header');
    if (!blockHashesTo(block, blockId.hash)) throw new ConsensusError('FATAL', 'cannot finalize commit; proposal block does not hash to commit hash');
    try {
      this.deps.executor.validateBlock(this.state, block);
    } catch (err) {
      throw new ConsensusError('FATAL', `+2/3 committed an invalid block: ${(err as Error).message}`);
    }
    this.logger.info('finalizing commit of block', { height, hash: toHexUpper(blockId.hash), root: toHexUpper(block.header.appHash), numTxs: block.data.txs.length });

    if (this.deps.blockStore.height() < block.header.height) {
      // The seen commit justifies this block locally; the next block's last_commit may differ.
      await this.deps.blockStore.saveBlock(block, parts.bytes(), blockId, precommits.makeCommit());
    } else {
      this.logger.debug('calling finalizeCommit on already stored block', { height });
    }
    // The block is stored: a crash from here on is recovered by the handshake.
    await this.durable(this.deps.wal.writeSyncAsync({ kind: 'endHeight', height }));

    let newState: ChainState;
    try {
      newState = await this.deps.executor.applyBlock(copyChainState(this.state), blockId, block);
    } catch (err) {
      // A decided block that cannot be applied (bad validator or params updates from the app, …)
      // must halt the engine, never be treated as a bad peer message.
      if (isConsensusError(err) && err.reason !== 'FATAL') throw new ConsensusError('FATAL', `failed to apply block ${height}: ${err.message}`, { cause: err });
      throw err;
    }
    this.updateToState(newState);
    this.scheduleRound0();
  }

  // =============================================================================================
  // Proposals and block parts

  private setProposal(proposal: Proposal): void {
    if (this.proposal) return;
    if (proposal.height !== this.height || proposal.round !== this.round) return;
    validateProposalBasic(proposal);
    if (proposal.polRound < -1 || (proposal.polRound >= 0 && proposal.polRound >= proposal.round)) {
      throw new ConsensusError('INVALID_PROPOSAL', 'error invalid proposal POL round', { meta: { misbehaviour: true } });
    }
    const proposer = this.validators.getProposer();
    if (!verifySignature(proposer.pubKey, proposalSignBytes(this.state.chainId, proposal), proposal.signature)) {
      throw new ConsensusError('INVALID_PROPOSAL', 'error invalid proposal signature', { meta: { misbehaviour: true } });
    }
    const maxBytes = effectiveMaxBytes(this.state.consensusParams);
    if (proposal.blockId.partSetHeader.total > Math.floor((maxBytes - 1) / BLOCK_PART_SIZE_BYTES) + 1) {
      throw new ConsensusError('INVALID_PROPOSAL', 'proposal block has too many parts', { meta: { misbehaviour: true } });
    }
    this.proposal = proposal;
    if (!this.proposalBlockParts) this.proposalBlockParts = PartSet.fromHeader(proposal.blockId.partSetHeader);
    this.logger.debug('received proposal', { height: proposal.height, round: proposal.round, proposer: toHexUpper(proposer.address) });
  }

  private addProposalBlockPart(height: number, round: number, part: Part): boolean {
    if (this.height !== height) return false;
    if (!this.proposalBlockParts) return false; // not expecting parts (yet)
    let added: boolean;
    try {
      added = this.proposalBlockParts.addPart(part);
    } catch (err) {
      if (round !== this.round) return false; // a part of another round's block
      throw new ConsensusError('INVALID_BLOCK', (err as Error).message, { meta: { misbehaviour: true } });
    }
    const maxBytes = effectiveMaxBytes(this.state.consensusParams);
    if (this.proposalBlockParts.byteSize > maxBytes) {
      throw new ConsensusError('INVALID_BLOCK', `total size of proposal block parts exceeds maximum block bytes (${this.proposalBlockParts.byteSize} > ${maxBytes})`, {
        meta: { misbehaviour: true },
      });
    }
    if (added && this.proposalBlockParts.isComplete) {
      this.proposalBlock = this.proposalBlockParts.toBlock();
      this.logger.debug('received complete proposal block', { height, hash: toHexUpper(hashBlock(this.proposalBlock)) });
      this.deps.eventBus.publish('CompleteProposal', {
        height: this.height,
        round: this.round,
        step: ROUND_STEP_NAMES[this.step],
        blockId: { hash: hashBlock(this.proposalBlock), partSetHeader: this.proposalBlockParts.header },
      });
    }
    return added;
  }

  private async handleCompleteProposal(height: number): Promise<void> {
    const prevotes = this.votes.prevotes(this.round);
    const blockId = prevotes?.twoThirdsMajority();
    if (blockId && !blockIdIsZero(blockId) && this.validRound < this.round && blockHashesTo(this.proposalBlock, blockId.hash)) {
      this.validRound = this.round;
      this.validBlock = this.proposalBlock;
      this.validBlockParts = this.proposalBlockParts;
    }
    if (this.step <= RoundStep.Propose && this.isProposalComplete()) {
      await this.enterPrevote(height, this.round);
      if (blockId) await this.enterPrecommit(height, this.round);
    } else if (this.step === RoundStep.Commit) {
      await this.tryFinalizeCommit(height);
    }
  }

  // =============================================================================================
  // Votes

  private async tryAddVote(vote: Vote, peerId: string): Promise<boolean> {
    try {
      return await this.addVote(vote, peerId);
    } catch (err) {
      if (isConsensusError(err, 'CONFLICTING_VOTE')) {
        if (this.deps.privValidator && bytesEqual(vote.validatorAddress, this.deps.privValidator.address)) {
          this.logger.error('found conflicting vote from ourselves; did you unsafe_reset a validator?', { height: vote.height, round: vote.round, type: vote.type });
        } else {
          this.logger.warn('found conflicting vote; reporting duplicate-vote evidence', { validator: toHexUpper(vote.validatorAddress), height: vote.height, round: vote.round });
        }
        const existing = err.meta?.['existing'] as Vote | undefined;
        if (existing && !this.replayMode) this.listener?.onConflictingVotes(existing, vote);
        return false;
      }
      if (isConsensusError(err, 'INVALID_VOTE')) {
        this.logger.debug('failed attempting to add vote', { err: err.message, peer: peerId });
        if (peerId !== '' && !this.replayMode && /^invalid (signature|validator address)$/.test(err.message)) this.listener?.onPeerMisbehaviour(peerId, err);
        return false;
      }
      throw err;
    }
  }

  private async addVote(vote: Vote, peerId: string): Promise<boolean> {
    // A precommit for the previous height: these arrive while we wait timeout_commit.
    if (vote.height + 1 === this.height && vote.type === SignedMsgType.Precommit) {
      if (this.step !== RoundStep.NewHeight || !this.lastCommit) return false;
      const { added } = this.lastCommit.addVote(vote);
      if (!added) return false;
      this.deps.eventBus.publish('Vote', { vote });
      this.listener?.onVote(vote);
      if (this.deps.options.skipTimeoutCommit && this.lastCommit.hasAll()) await this.enterNewRound(this.height, 0);
      return true;
    }
    if (vote.height !== this.height) return false;

    const height = this.height;
    const { added } = this.votes.addVote(vote, peerId);
    if (!added) return false;
    this.deps.eventBus.publish('Vote', { vote });
    this.listener?.onVote(vote);

    if (vote.type === SignedMsgType.Prevote) {
      const prevotes = this.votes.prevotes(vote.round)!;
      const blockId = prevotes.twoThirdsMajority();
      if (blockId) {
        // A polka: unlock if it is more recent than our lock and for another block.
        if (this.lockedBlock && this.lockedRound < vote.round && vote.round <= this.round && !blockHashesTo(this.lockedBlock, blockId.hash)) {
          this.logger.debug('unlocking because of POL', { lockedRound: this.lockedRound, polRound: vote.round });
          this.lockedRound = -1;
          this.lockedBlock = undefined;
          this.lockedBlockParts = undefined;
          this.publishRoundState('Unlock');
        }
        // Update the valid block.
        if (blockId.hash.length !== 0 && this.validRound < vote.round && vote.round === this.round) {
          if (blockHashesTo(this.proposalBlock, blockId.hash)) {
            this.validRound = vote.round;
            this.validBlock = this.proposalBlock;
            this.validBlockParts = this.proposalBlockParts;
          } else {
            this.proposalBlock = undefined;
          }
          if (!this.proposalBlockParts?.hasHeader(blockId.partSetHeader)) this.proposalBlockParts = PartSet.fromHeader(blockId.partSetHeader);
          this.publishRoundState('ValidBlock');
      this.listener?.onValidBlock();
        }
      }
      if (this.round < vote.round && prevotes.hasTwoThirdsAny()) {
        await this.enterNewRound(height, vote.round); // round-skip
      } else if (this.round === vote.round && RoundStep.Prevote <= this.step) {
        const maj = prevotes.twoThirdsMajority();
        if (maj && (this.isProposalComplete() || maj.hash.length === 0)) await this.enterPrecommit(height, vote.round);
        else if (prevotes.hasTwoThirdsAny()) await this.enterPrevoteWait(height, vote.round);
      } else if (this.proposal && this.proposal.polRound >= 0 && this.proposal.polRound === vote.round) {
        if (this.isProposalComplete()) await this.enterPrevote(height, this.round);
      }
      return true;
    }

    const precommits = this.votes.precommits(vote.round)!;
    const blockId = precommits.twoThirdsMajority();
    if (blockId) {
      await this.enterNewRound(height, vote.round);
      await this.enterPrecommit(height, vote.round);
      if (blockId.hash.length !== 0) {
        await this.enterCommit(height, vote.round);
        if (this.deps.options.skipTimeoutCommit && precommits.hasAll()) await this.enterNewRound(this.height, 0);
      } else {
        await this.enterPrecommitWait(height, vote.round);
      }
    } else if (this.round <= vote.round && precommits.hasTwoThirdsAny()) {
      await this.enterNewRound(height, vote.round);
      await this.enterPrecommitWait(height, vote.round);
    }
    return true;
  }

  /** Minimum time of our vote: after the block time we vote for (BFT time). */
  private voteTime(): Timestamp {
    const now = timestampNow();
    const ref = this.lockedBlock ?? this.proposalBlock;
    if (!ref) return now;
    const min = addMillis(ref.header.time, 1);
    return compareTimestamps(now, min) > 0 ? now : min;
  }

  private signAddVote(type: VoteType, hash: Uint8Array, partSetHeader: PartSetHeader | undefined): void {
    const pv = this.deps.privValidator;
    if (!pv) return;
    const [index] = this.validators.getByAddress(pv.address);
    if (index < 0) return;
    const blockId: BlockId = hash.length ? { hash, partSetHeader: partSetHeader! } : zeroBlockId();
    const vote: Vote = {
      type,
      height: this.height,
      round: this.round,
      blockId,
      timestamp: this.voteTime(),
      validatorAddress: pv.address,
      validatorIndex: index,
      signature: EMPTY_BYTES,
      extension: EMPTY_BYTES,
      extensionSignature: EMPTY_BYTES,
    };
    try {
      pv.signVote(this.state.chainId, vote);
    } catch (err) {
      // During WAL replay the signer has already moved past these steps; the original votes are
      // replayed from the log, so a refusal here is expected.
      if (!this.replayMode) throwIfStorageFault(err, 'signing a vote');
      const ctx = { height: this.height, round: this.round, type, err: (err as Error).message };
      if (this.replayMode) this.logger.debug('replay: signer refused a vote it already passed', ctx);
      else this.logger.error('failed signing vote', ctx);
      return;
    }
    this.sendInternal({ type: 'vote', vote });
  }

  // =============================================================================================
  // Height bookkeeping

  private updateRoundStep(round: number, step: RoundStep): void {
    this.round = round;
    this.step = step;
  }

  private newStep(): void {
    this.publishRoundState('NewRoundStep');
    this.listener?.onNewRoundStep();
  }

  private publishRoundState(type: 'NewRoundStep' | 'TimeoutPropose' | 'TimeoutWait' | 'Polka' | 'Lock' | 'Unlock' | 'Relock' | 'ValidBlock'): void {
    if (!this.deps.eventBus.hasSubscribers) return;
    this.deps.eventBus.publish(type, { height: this.height, round: this.round, step: ROUND_STEP_NAMES[this.step] });
  }

  private scheduleTimeout(durationMs: number, height: number, round: number, step: RoundStep): void {
    this.ticker.schedule({ durationMs, height, round, step });
  }

  private scheduleRound0(): void {
    this.scheduleTimeout(diffMillis(timestampNow(), this.startTime), this.height, 0, RoundStep.NewHeight);
  }

  /** Reset the round state for the height after `state` (updateToState). */
  private updateToState(state: ChainState): void {
    if (this.commitRound > -1 && this.height > 0 && this.height !== state.lastBlockHeight) {
      throw new ConsensusError('STORE', `updateToState() expected state height of ${this.height} but found ${state.lastBlockHeight}`);
    }
    if (state.lastBlockHeight === 0) {
      this.lastCommit = undefined;
    } else if (this.commitRound > -1 && this.votes) {
      const precommits = this.votes.precommits(this.commitRound);
      if (!precommits?.hasTwoThirdsMajority()) throw new ConsensusError('FATAL', "wanted to form a commit, but precommits didn't have 2/3+");
      this.lastCommit = precommits;
    } else if (!this.lastCommit) {
      throw new ConsensusError('STORE', `last commit cannot be empty after initial block (H:${state.lastBlockHeight + 1})`);
    }
    const height = nextHeight(state);
    this.height = height;
    this.updateRoundStep(0, RoundStep.NewHeight);
    this.startTime = addMillis(this.commitTime ?? timestampNow(), this.deps.options.timeoutCommitMs);
    this.validators = state.validators;
    this.proposal = undefined;
    this.proposalBlock = undefined;
    this.proposalBlockParts = undefined;
    this.lockedRound = -1;
    this.lockedBlock = undefined;
    this.lockedBlockParts = undefined;
    this.validRound = -1;
    this.validBlock = undefined;
    this.validBlockParts = undefined;
    this.votes = new HeightVoteSet(state.chainId, height, state.validators);
    this.commitRound = -1;
    this.triggeredTimeoutPrecommit = false;
    this.state = state;
    this.deps.mempool.setHeight(state.lastBlockHeight);
    this.newStep();
    this.releaseBuffered();
  }

  /** Rebuild the last commit's vote set from the stored seen commit (reconstructLastCommit). */
  private reconstructLastCommit(state: ChainState): void {
    const commit = this.deps.blockStore.loadSeenCommit(state.lastBlockHeight) ?? this.deps.blockStore.loadBlockCommit(state.lastBlockHeight);
    if (!commit) throw new ConsensusError('STORE', `failed to reconstruct last commit; commit for height ${state.lastBlockHeight} not found`);
    if (commit.height !== state.lastBlockHeight) throw new ConsensusError('STORE', `heights don't match in votesFromSeenCommit ${commit.height}!=${state.lastBlockHeight}`);
    const set = new VoteSet(state.chainId, commit.height, commit.round, SignedMsgType.Precommit, state.lastValidators);
    commit.signatures.forEach((_sig, i) => {
      const vote = commitSigToVote(commit, i);
      if (vote) set.addVote(vote);
    });
    if (!set.hasTwoThirdsMajority()) throw new ConsensusError('STORE', 'failed to reconstruct last commit; commit does not have +2/3 majority');
    this.lastCommit = set;
  }

  /** Refuse to start when our signature is in one of the last `doubleSignCheckHeight` commits. */
  private checkDoubleSigningRisk(): void {
    const n = this.deps.options.doubleSignCheckHeight;
    const pv = this.deps.privValidator;
    if (!pv || n <= 0 || this.state.lastBlockHeight === 0) return;
    for (let h = this.state.lastBlockHeight; h > Math.max(0, this.state.lastBlockHeight - n); h--) {
      const commit = this.deps.blockStore.loadSeenCommit(h) ?? this.deps.blockStore.loadBlockCommit(h);
      if (commit?.signatures.some((s) => bytesEqual(s.validatorAddress, pv.address))) {
        throw new ConsensusError('DOUBLE_SIGN', `found signature from the same key at height ${h}; another node may be running with this validator key`);
      }
    }
  }

  // =============================================================================================
  // WAL replay

  private async catchupReplay(): Promise<void> {
    const markerHeight = this.height === this.state.initialHeight ? 0 : this.height - 1;
    let replay;
    try {
      replay = this.deps.wal.replayFrom(markerHeight, this.height);
    } catch (err) {
      // As CometBFT: an unusable log is reported and consensus starts without it.
      this.logger.error('error on catchup replay; proceeding to start state anyway', { height: this.height, err: (err as Error).message });
      return;
    }
    if (replay.corruption) this.logger.warn('WAL tail was corrupted; replaying up to the last good record', { reason: replay.corruption });
    if (!replay.found) {
      if (markerHeight > 0) this.logger.info('WAL does not contain #ENDHEIGHT for the previous height; nothing to replay', { height: this.height, marker: markerHeight });
      return;
    }
    this.replayMode = true;
    let count = 0;
    try {
      for (const { msg } of replay.messages) {
        if (msg.kind === 'msgInfo') {
          await this.handleMsg(msg.msg, msg.peerId);
          count++;
        } else if (msg.kind === 'timeout') {
          await this.handleTimeout({ durationMs: msg.durationMs, height: msg.height, round: msg.round, step: msg.step as RoundStep });
          count++;
        }
      }
    } finally {
      this.replayMode = false;
    }
    this.logger.info('replayed consensus WAL', { height: this.height, round: this.round, step: ROUND_STEP_NAMES[this.step], messages: count });
  }

  // =============================================================================================
  // Read access for the RPC

  roundStateSummary(): RoundStateSummary {
    let proposer: RoundStateSummary['proposer'];
    if (this.validators && this.validators.size > 0) {
      const p = this.validators.getProposer();
      proposer = { address: p.address, index: this.validators.getByAddress(p.address)[0] };
    }
    return {
      height: this.height,
      round: this.round,
      step: ROUND_STEP_NAMES[this.step],
      startTime: this.startTime,
      proposalBlockHash: this.proposalBlock ? hashBlock(this.proposalBlock) : EMPTY_BYTES,
      lockedBlockHash: this.lockedBlock ? hashBlock(this.lockedBlock) : EMPTY_BYTES,
      lockedRound: this.lockedRound,
      validBlockHash: this.validBlock ? hashBlock(this.validBlock) : EMPTY_BYTES,
      validRound: this.validRound,
      proposer,
      prevotes: this.votes.prevotes(this.round)?.summary() ?? '',
      precommits: this.votes.precommits(this.round)?.summary() ?? '',
    };
  }
}

/** A storage fault while persisting consensus data halts the engine with the OS cause. */
function throwIfStorageFault(err: unknown, doing: string): void {
  const fault = storageFaultOf(err);
  if (fault) throw new ConsensusError('STORE', `storage fault while ${doing}: ${describeStorageFault(fault)}`, { cause: err });
}
