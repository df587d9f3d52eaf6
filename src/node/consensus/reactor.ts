/**
 * The consensus reactor (consensus/reactor.go): CometBFT's gossip protocol between engines.
 *
 * Each node tells its peers where it is (NewRoundStep on every step, NewValidBlock, HasVote for
 * every vote it adds) and keeps, per peer, what that peer is known to have (PeerRoundState: its
 * height/round/step, proposal, block-part and vote bit arrays). A gossip routine per peer then
 * sends what the peer lacks: the current proposal and its parts, the votes of the peer's round,
 * and — for a peer behind us — the decided block's parts and commit from the block store.
 * VoteSetMaj23 / VoteSetBits let peers that claim a +2/3 majority learn exactly which votes the
 * other side is missing.
 *
 * Channels: 0x20 state, 0x21 data, 0x22 votes, 0x23 vote-set bits. Undecodable or invalid
 * messages and messages with bad signatures stop (and ban) the peer; a peer that floods the
 * engine is stopped too.
 */
import type { Logger } from '../logger.js';
import { nullLogger } from '../logger.js';
import { P2PError } from '../p2p/errors.js';
import type { ChannelDescriptor } from '../p2p/conn/mconnection.js';
import type { Peer } from '../p2p/peer.js';
import type { Reactor, Switchboard } from '../p2p/switch.js';
import { FlowLimiter } from '../p2p/conn/flowrate.js';
import type { BlockStore } from './store/blockStore.js';
import { BitArray } from './types/bitArray.js';
import { BLOCK_PART_SIZE_BYTES, BlockIdFlag, partSetHeadersEqual, type Commit, type PartSetHeader } from './types/block.js';
import { PartSet, type Part } from './types/partset.js';
import { SignedMsgType, commitSigToVote, type Proposal, type Vote, type VoteType } from './types/vote.js';
import type { ConsensusEngine, EngineListener, RoundStateView } from './state/engine.js';
import { decodeConsensusMessage, encodeConsensusMessage, type ReactorMessage } from './state/messages.js';
import { RoundStep } from './state/timeoutTicker.js';

export const STATE_CHANNEL = 0x20;
export const DATA_CHANNEL = 0x21;
export const VOTE_CHANNEL = 0x22;
export const VOTE_SET_BITS_CHANNEL = 0x23;
/** Largest consensus message (consensus maxMsgSize). */
const MAX_MSG_BYTES = 1048576;
/** peer_gossip_sleep_duration and peer_query_maj23_sleep_duration. */
const PEER_GOSSIP_SLEEP_MS = 100;
const PEER_QUERY_MAJ23_SLEEP_MS = 2000;
/** Messages per second a peer may send us on average (burst: 5 s worth); above that it is flooding. */
const PEER_MESSAGES_PER_S = 2000;
/** The engine's inbound queue above which peer messages are dropped. */
const MAX_ENGINE_QUEUE = 20000;
const PEER_STATE_KEY = 'consensus.peerState';

/** Votes of one kind for one height and round: a VoteSet, or a stored commit. */
interface VoteSetReader {
  readonly height: number;
  readonly round: number;
  readonly type: VoteType;
  readonly size: number;
  readonly isCommit: boolean;
  bitArray(): BitArray;
  getByIndex(index: number): Vote | undefined;
}

/** A stored commit as a vote set (Commit.WrappedExtendedCommit). */
class CommitVotes implements VoteSetReader {
  readonly type = SignedMsgType.Precommit as VoteType;
  readonly isCommit = true;
  constructor(private readonly commit: Commit) {}
  get height(): number {
    return this.commit.height;
  }
  get round(): number {
    return this.commit.round;
  }
  get size(): number {
    return this.commit.signatures.length;
  }
  bitArray(): BitArray {
    const bits = new BitArray(this.commit.signatures.length);
    this.commit.signatures.forEach((s, i) => {
      if (s.blockIdFlag !== BlockIdFlag.Absent) bits.set(i);
    });
    return bits;
  }
  getByIndex(index: number): Vote | undefined {
    return commitSigToVote(this.commit, index);
  }
}

/** What we know a peer has (cstypes.PeerRoundState). */
export interface PeerRoundState {
  height: number;
  round: number;
  step: number;
  startTimeMs: number;
  proposal: boolean;
  proposalBlockPartSetHeader: PartSetHeader;
  proposalBlockParts: BitArray | undefined;
  proposalPolRound: number;
  proposalPol: BitArray | undefined;
  prevotes: BitArray | undefined;
  precommits: BitArray | undefined;
  lastCommitRound: number;
  lastCommit: BitArray | undefined;
  catchupCommitRound: number;
  catchupCommit: BitArray | undefined;
}

export class PeerState {
  readonly prs: PeerRoundState = {
    height: 0,
    round: -1,
    step: 0,
    startTimeMs: 0,
    proposal: false,
    proposalBlockPartSetHeader: { total: 0, hash: new Uint8Array(0) },
    proposalBlockParts: undefined,
    proposalPolRound: -1,
    proposalPol: undefined,
    prevotes: undefined,
    precommits: undefined,
    lastCommitRound: -1,
    lastCommit: undefined,
    catchupCommitRound: -1,
    catchupCommit: undefined,
  };
  readonly limiter = new FlowLimiter(PEER_MESSAGES_PER_S, PEER_MESSAGES_PER_S * 5);
  stopped = false;
  private waker: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly peer: Peer) {}

  /** Sleep up to `ms`, or until woken. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.waker = resolve;
      this.timer = setTimeout(() => {
        this.waker = undefined;
        resolve();
      }, ms);
    });
  }

  wake(): void {
    const w = this.waker;
    if (!w) return;
    this.waker = undefined;
    clearTimeout(this.timer);
    w();
  }

  setHasProposal(proposal: Proposal): void {
    const prs = this.prs;
    if (prs.height !== proposal.height || prs.round !== proposal.round || prs.proposal) return;
    prs.proposal = true;
    if (prs.proposalBlockParts) return;
    prs.proposalBlockPartSetHeader = proposal.blockId.partSetHeader;
    prs.proposalBlockParts = new BitArray(proposal.blockId.partSetHeader.total);
    prs.proposalPolRound = proposal.polRound;
    prs.proposalPol = undefined;
  }

  initProposalBlockParts(header: PartSetHeader): void {
    if (this.prs.proposalBlockParts) return;
    this.prs.proposalBlockPartSetHeader = header;
    this.prs.proposalBlockParts = new BitArray(header.total);
  }

  setHasProposalBlockPart(height: number, round: number, index: number): void {
    if (this.prs.height !== height || this.prs.round !== round) return;
    this.prs.proposalBlockParts?.set(index);
  }

  private getVoteBitArray(height: number, round: number, type: VoteType): BitArray | undefined {
    const prs = this.prs;
    if (prs.height === height) {
      if (prs.round === round) return type === SignedMsgType.Prevote ? prs.prevotes : prs.precommits;
      if (prs.catchupCommitRound === round) return type === SignedMsgType.Prevote ? undefined : prs.catchupCommit;
      if (prs.proposalPolRound === round) return type === SignedMsgType.Prevote ? prs.proposalPol : undefined;
      return undefined;
    }
    if (prs.height === height + 1 && prs.lastCommitRound === round) return type === SignedMsgType.Prevote ? undefined : prs.lastCommit;
    return undefined;
  }

  private ensureCatchupCommitRound(height: number, round: number, numValidators: number): void {
    const prs = this.prs;
    if (prs.height !== height || prs.catchupCommitRound === round) return;
    prs.catchupCommitRound = round;
    prs.catchupCommit = round === prs.round ? prs.precommits : new BitArray(numValidators);
  }

  ensureVoteBitArrays(height: number, numValidators: number): void {
    const prs = this.prs;
    if (prs.height === height) {
      prs.prevotes ??= new BitArray(numValidators);
      prs.precommits ??= new BitArray(numValidators);
      prs.catchupCommit ??= new BitArray(numValidators);
      prs.proposalPol ??= new BitArray(numValidators);
    } else if (prs.height === height + 1) {
      prs.lastCommit ??= new BitArray(numValidators);
    }
  }

  /** A vote of `votes` the peer does not have (PickVoteToSend). */
  pickVoteToSend(votes: VoteSetReader): Vote | undefined {
    if (votes.size === 0) return undefined;
    if (votes.isCommit) this.ensureCatchupCommitRound(votes.height, votes.round, votes.size);
    this.ensureVoteBitArrays(votes.height, votes.size);
    const have = this.getVoteBitArray(votes.height, votes.round, votes.type);
    if (!have) return undefined;
    const index = votes.bitArray().sub(have).pickRandom();
    return index < 0 ? undefined : votes.getByIndex(index);
  }

  setHasVote(height: number, round: number, type: VoteType, index: number): void {
    this.getVoteBitArray(height, round, type)?.set(index);
  }

  applyNewRoundStep(m: Extract<ReactorMessage, { type: 'newRoundStep' }>): void {
    const prs = this.prs;
    if (compareHRS(m.height, m.round, m.step, prs.height, prs.round, prs.step) <= 0) return;
    const psHeight = prs.height;
    const psRound = prs.round;
    const psCatchupCommitRound = prs.catchupCommitRound;
    const psCatchupCommit = prs.catchupCommit;
    const lastPrecommits = prs.precommits;
    prs.height = m.height;
    prs.round = m.round;
    prs.step = m.step;
    prs.startTimeMs = Date.now() - m.secondsSinceStartTime * 1000;
    if (psHeight !== m.height || psRound !== m.round) {
      prs.proposal = false;
      prs.proposalBlockPartSetHeader = { total: 0, hash: new Uint8Array(0) };
      prs.proposalBlockParts = undefined;
      prs.proposalPolRound = -1;
      prs.proposalPol = undefined;
      prs.prevotes = undefined;
      prs.precommits = undefined;
    }
    if (psHeight === m.height && psRound !== m.round && m.round === psCatchupCommitRound) prs.precommits = psCatchupCommit;
    if (psHeight !== m.height) {
      if (psHeight + 1 === m.height && psRound === m.lastCommitRound) {
        prs.lastCommitRound = m.lastCommitRound;
        prs.lastCommit = lastPrecommits;
      } else {
        prs.lastCommitRound = m.lastCommitRound;
        prs.lastCommit = undefined;
      }
      prs.catchupCommitRound = -1;
      prs.catchupCommit = undefined;
    }
  }

  applyNewValidBlock(m: Extract<ReactorMessage, { type: 'newValidBlock' }>): void {
    const prs = this.prs;
    if (prs.height !== m.height) return;
    if (prs.round !== m.round && !m.isCommit) return;
    prs.proposalBlockPartSetHeader = m.blockPartSetHeader;
    prs.proposalBlockParts = m.blockParts;
  }

  applyProposalPol(m: Extract<ReactorMessage, { type: 'proposalPol' }>): void {
    const prs = this.prs;
    if (prs.height !== m.height || prs.proposalPolRound !== m.proposalPolRound) return;
    prs.proposalPol = m.proposalPol;
  }

  applyHasVote(m: Extract<ReactorMessage, { type: 'hasVote' }>): void {
    if (this.prs.height !== m.height) return;
    this.setHasVote(m.height, m.round, m.voteType, m.index);
  }

  applyVoteSetBits(m: Extract<ReactorMessage, { type: 'voteSetBits' }>, ourVotes: BitArray | undefined): void {
    const votes = this.getVoteBitArray(m.height, m.round, m.voteType);
    if (!votes) return;
    if (!ourVotes) votes.update(m.votes);
    else votes.update(votes.sub(ourVotes).or(m.votes));
  }
}

function compareHRS(h1: number, r1: number, s1: number, h2: number, r2: number, s2: number): number {
  if (h1 !== h2) return h1 < h2 ? -1 : 1;
  if (r1 !== r2) return r1 < r2 ? -1 : 1;
  if (s1 !== s2) return s1 < s2 ? -1 : 1;
  return 0;
}

export interface ConsensusReactorOptions {
  /** True while block sync or state sync runs: data and votes are ignored until switchToConsensus. */
  waitSync: boolean;
  /** Told about equivocation (the evidence pool). */
  onConflictingVotes?: (voteA: Vote, voteB: Vote) => void;
}

export class ConsensusReactor implements Reactor, EngineListener {
  readonly name = 'CONSENSUS';
  private sw: Switchboard | undefined;
  private engine: ConsensusEngine | undefined;
  private waitSync: boolean;
  private running = false;
  private readonly peerStates = new Map<string, PeerState>();
  private readonly maj23Timers = new Map<string, NodeJS.Timeout>();
  private readonly partCache = new Map<number, PartSet>();
  private readonly commitCache = new Map<number, CommitVotes>();
  private readonly logger: Logger;

  constructor(
    private readonly blockStore: BlockStore,
    private readonly options: ConsensusReactorOptions,
    logger?: Logger,
  ) {
    this.waitSync = options.waitSync;
    this.logger = logger ?? nullLogger;
  }

  channels(): ChannelDescriptor[] {
    return [
      { id: STATE_CHANNEL, priority: 6, sendQueueCapacity: 100, recvMessageCapacity: MAX_MSG_BYTES },
      { id: DATA_CHANNEL, priority: 10, sendQueueCapacity: 100, recvMessageCapacity: MAX_MSG_BYTES },
      { id: VOTE_CHANNEL, priority: 7, sendQueueCapacity: 100, recvMessageCapacity: MAX_MSG_BYTES },
      { id: VOTE_SET_BITS_CHANNEL, priority: 1, sendQueueCapacity: 2, recvMessageCapacity: MAX_MSG_BYTES },
    ];
  }

  setSwitch(sw: Switchboard): void {
    this.sw = sw;
  }

  start(): void {
    this.running = true;
  }

  stop(): void {
    this.running = false;
    for (const ps of this.peerStates.values()) {
      ps.stopped = true;
      ps.wake();
    }
    for (const t of this.maj23Timers.values()) clearInterval(t);
    this.maj23Timers.clear();
  }

  /** Attach the engine (it reports to this reactor). */
  setEngine(engine: ConsensusEngine | undefined): void {
    this.engine?.setListener(undefined);
    this.engine = engine;
    engine?.setListener(this);
  }

  get isWaitingForSync(): boolean {
    return this.waitSync;
  }

  /** Block/state sync finished: take part in consensus gossip (SwitchToConsensus). */
  switchToConsensus(engine: ConsensusEngine): void {
    this.setEngine(engine);
    this.waitSync = false;
    this.partCache.clear();
    this.commitCache.clear();
    this.broadcastNewRoundStep();
    this.wakeAll();
  }

  /** The consensus height a peer reported (the mempool reactor does not send txs to lagging peers). */
  static peerHeight(peer: Peer): number | undefined {
    const ps = peer.data.get(PEER_STATE_KEY) as PeerState | undefined;
    return ps?.prs.height;
  }

  peerState(peerId: string): PeerRoundState | undefined {
    return this.peerStates.get(peerId)?.prs;
  }

  initPeer(peer: Peer): void {
    const ps = new PeerState(peer);
    peer.data.set(PEER_STATE_KEY, ps);
    this.peerStates.set(peer.id, ps);
  }

  addPeer(peer: Peer): void {
    const ps = this.peerStates.get(peer.id);
    if (!ps || !this.running) return;
    void this.gossipRoutine(peer, ps);
    const timer = setInterval(() => this.queryMaj23(peer, ps), PEER_QUERY_MAJ23_SLEEP_MS);
    timer.unref();
    this.maj23Timers.set(peer.id, timer);
    if (!this.waitSync) this.sendNewRoundStep(peer);
  }

  removePeer(peer: Peer): void {
    const ps = this.peerStates.get(peer.id);
    if (ps && ps.peer === peer) {
      ps.stopped = true;
      ps.wake();
      this.peerStates.delete(peer.id);
      clearInterval(this.maj23Timers.get(peer.id));
      this.maj23Timers.delete(peer.id);
    }
  }

  // ---- EngineListener ----

  onNewRoundStep(): void {
    if (this.waitSync) return;
    this.broadcastNewRoundStep();
    this.wakeAll();
  }

  onValidBlock(): void {
    const rs = this.engine?.roundStateView();
    if (!rs || !rs.proposalBlockParts || this.waitSync) return;
    this.broadcast(STATE_CHANNEL, {
      type: 'newValidBlock',
      height: rs.height,
      round: rs.round,
      blockPartSetHeader: rs.proposalBlockParts.header,
      blockParts: rs.proposalBlockParts.bitArray(),
      isCommit: rs.step === RoundStep.Commit,
    });
  }

  onVote(vote: Vote): void {
    if (this.waitSync) return;
    this.broadcast(STATE_CHANNEL, { type: 'hasVote', height: vote.height, round: vote.round, voteType: vote.type, index: vote.validatorIndex });
  }

  onChange(): void {
    this.wakeAll();
  }

  onPeerMisbehaviour(peerId: string, err: Error): void {
    const peer = this.sw?.peer(peerId);
    if (peer) this.sw?.stopPeerForError(peer, new P2PError('MISBEHAVIOUR', `consensus: ${err.message}`));
  }

  onConflictingVotes(voteA: Vote, voteB: Vote): void {
    this.options.onConflictingVotes?.(voteA, voteB);
  }

  // ---- receiving ----

  receive(channelId: number, peer: Peer, message: Buffer): void {
    const ps = this.peerStates.get(peer.id);
    if (!ps || !this.running) return;
    ps.limiter.update(1);
    if (ps.limiter.available() <= 0) throw new P2PError('FLOOD', `consensus: peer sends more than ${PEER_MESSAGES_PER_S} messages per second`);
    let msg: ReactorMessage;
    try {
      msg = decodeConsensusMessage(message);
    } catch (err) {
      throw new P2PError('PROTOCOL', `consensus: invalid message: ${(err as Error).message}`);
    }
    const engine = this.engine;
    const rs = engine?.roundStateView();
    switch (channelId) {
      case STATE_CHANNEL:
        this.receiveState(msg, ps, peer, rs);
        break;
      case DATA_CHANNEL:
        if (this.waitSync || !engine || !rs) return;
        if (msg.type === 'proposal') {
          const maxParts = Math.floor((rs.maxBlockBytes - 1) / BLOCK_PART_SIZE_BYTES) + 1;
          if (msg.proposal.blockId.partSetHeader.total > maxParts) throw new P2PError('MISBEHAVIOUR', 'consensus: proposal block has too many parts');
          ps.setHasProposal(msg.proposal);
          this.forward(engine, msg, peer);
        } else if (msg.type === 'proposalPol') {
          ps.applyProposalPol(msg);
        } else if (msg.type === 'blockPart') {
          ps.setHasProposalBlockPart(msg.height, msg.round, msg.part.index);
          this.forward(engine, msg, peer);
        }
        break;
      case VOTE_CHANNEL:
        if (this.waitSync || !engine || !rs) return;
        if (msg.type === 'vote') {
          ps.ensureVoteBitArrays(rs.height, rs.validators.size);
          ps.ensureVoteBitArrays(rs.height - 1, rs.lastCommit?.size ?? 0);
          ps.setHasVote(msg.vote.height, msg.vote.round, msg.vote.type, msg.vote.validatorIndex);
          this.forward(engine, msg, peer);
        }
        break;
      case VOTE_SET_BITS_CHANNEL:
        if (this.waitSync || !rs) return;
        if (msg.type === 'voteSetBits') {
          let ours: BitArray | undefined;
          if (rs.height === msg.height) {
            const set = msg.voteType === SignedMsgType.Prevote ? rs.votes.prevotes(msg.round) : rs.votes.precommits(msg.round);
            ours = set?.bitArrayByBlockId(msg.blockId);
          }
          ps.applyVoteSetBits(msg, ours);
        }
        break;
      default:
        throw new P2PError('PROTOCOL', `consensus: unknown channel ${channelId}`);
    }
    ps.wake();
  }

  private forward(engine: ConsensusEngine, msg: ReactorMessage, peer: Peer): void {
    if (msg.type !== 'proposal' && msg.type !== 'blockPart' && msg.type !== 'vote') return;
    if (engine.queueLength > MAX_ENGINE_QUEUE) {
      this.logger.debug('consensus queue full; dropping peer message', { peer: peer.id, type: msg.type });
      return;
    }
    engine.receivePeerMessage(msg, peer.id);
  }

  private receiveState(msg: ReactorMessage, ps: PeerState, peer: Peer, rs: RoundStateView | undefined): void {
    switch (msg.type) {
      case 'newRoundStep': {
        const initialHeight = rs?.initialHeight ?? 1;
        if (msg.height < initialHeight) throw new P2PError('PROTOCOL', `consensus: invalid Height ${msg.height} (lower than initial height ${initialHeight})`);
        if (msg.height === initialHeight && msg.lastCommitRound !== -1) {
          throw new P2PError('PROTOCOL', `consensus: invalid LastCommitRound ${msg.lastCommitRound} (must be -1 for initial height ${initialHeight})`);
        }
        if (msg.height > initialHeight && msg.lastCommitRound < 0) throw new P2PError('PROTOCOL', `consensus: LastCommitRound can only be negative for initial height ${initialHeight}`);
        ps.applyNewRoundStep(msg);
        return;
      }
      case 'newValidBlock':
        ps.applyNewValidBlock(msg);
        return;
      case 'hasVote':
        ps.applyHasVote(msg);
        return;
      case 'voteSetMaj23': {
        if (!rs || rs.height !== msg.height) return;
        const set = msg.voteType === SignedMsgType.Prevote ? rs.votes.prevotes(msg.round) : rs.votes.precommits(msg.round);
        const votes = set ? set.bitArrayByBlockId(msg.blockId) : new BitArray(0);
        peer.trySend(VOTE_SET_BITS_CHANNEL, encodeConsensusMessage({ type: 'voteSetBits', height: msg.height, round: msg.round, voteType: msg.voteType, blockId: msg.blockId, votes }));
        return;
      }
      default:
        return;
    }
  }

  // ---- sending ----

  private broadcast(channelId: number, msg: ReactorMessage): void {
    this.sw?.broadcast(channelId, encodeConsensusMessage(msg));
  }

  private roundStepMessage(rs: RoundStateView): ReactorMessage {
    return {
      type: 'newRoundStep',
      height: rs.height,
      round: rs.round,
      step: rs.step,
      secondsSinceStartTime: Math.max(0, Math.floor((Date.now() - rs.startTimeMs) / 1000)),
      lastCommitRound: rs.lastCommitRound,
    };
  }

  private broadcastNewRoundStep(): void {
    const rs = this.engine?.roundStateView();
    if (rs) this.broadcast(STATE_CHANNEL, this.roundStepMessage(rs));
  }

  private sendNewRoundStep(peer: Peer): void {
    const rs = this.engine?.roundStateView();
    if (rs) peer.send(STATE_CHANNEL, encodeConsensusMessage(this.roundStepMessage(rs)));
  }

  private wakeAll(): void {
    for (const ps of this.peerStates.values()) ps.wake();
  }

  /** One routine per peer does CometBFT's gossipDataRoutine and gossipVotesRoutine in turns. */
  private async gossipRoutine(peer: Peer, ps: PeerState): Promise<void> {
    while (!ps.stopped && peer.isRunning && this.running) {
      let sent = false;
      const engine = this.engine;
      if (engine && !this.waitSync) {
        try {
          const rs = engine.roundStateView();
          const data = this.gossipData(peer, ps, rs);
          const votes = this.gossipVotes(peer, ps, rs);
          sent = data || votes;
        } catch (err) {
          this.logger.error('consensus gossip failed', { peer: peer.id, err: (err as Error).message });
        }
      }
      if (sent) await new Promise((r) => setImmediate(r));
      else await ps.sleep(PEER_GOSSIP_SLEEP_MS);
    }
  }

  private loadPart(height: number, index: number): Part | undefined {
    let parts = this.partCache.get(height);
    if (!parts) {
      const bytes = this.blockStore.loadBlockBytes(height);
      if (!bytes) return undefined;
      parts = PartSet.fromData(bytes);
      if (this.partCache.size >= 8) this.partCache.delete(this.partCache.keys().next().value!);
      this.partCache.set(height, parts);
    }
    return parts.getPart(index);
  }

  private loadCommitVotes(height: number): CommitVotes | undefined {
    let votes = this.commitCache.get(height);
    if (!votes) {
      const commit = this.blockStore.loadBlockCommit(height) ?? this.blockStore.loadSeenCommit(height);
      if (!commit) return undefined;
      votes = new CommitVotes(commit);
      if (this.commitCache.size >= 16) this.commitCache.delete(this.commitCache.keys().next().value!);
      this.commitCache.set(height, votes);
    }
    return votes;
  }

  private gossipData(peer: Peer, ps: PeerState, rs: RoundStateView): boolean {
    const prs = ps.prs;
    // Parts of the block the peer is collecting, if we have it.
    if (rs.proposalBlockParts && prs.proposalBlockParts && rs.proposalBlockParts.hasHeader(prs.proposalBlockPartSetHeader)) {
      const index = rs.proposalBlockParts.bitArray().sub(prs.proposalBlockParts).pickRandom();
      if (index >= 0) {
        const part = rs.proposalBlockParts.getPart(index)!;
        if (peer.send(DATA_CHANNEL, encodeConsensusMessage({ type: 'blockPart', height: rs.height, round: rs.round, part }))) {
          ps.setHasProposalBlockPart(prs.height, prs.round, index);
          return true;
        }
        return false;
      }
    }
    // A peer on a previous height we have: send that block's parts.
    const base = this.blockStore.base();
    if (base > 0 && prs.height > 0 && prs.height < rs.height && prs.height >= base) {
      if (!prs.proposalBlockParts) {
        const meta = this.blockStore.loadBlockMeta(prs.height);
        if (!meta) return false;
        ps.initProposalBlockParts(meta.blockId.partSetHeader);
        return true;
      }
      const index = prs.proposalBlockParts.not().pickRandom();
      if (index < 0) return false;
      const meta = this.blockStore.loadBlockMeta(prs.height);
      if (!meta || !partSetHeadersEqual(meta.blockId.partSetHeader, prs.proposalBlockPartSetHeader)) return false;
      const part = this.loadPart(prs.height, index);
      if (!part) return false;
      if (peer.send(DATA_CHANNEL, encodeConsensusMessage({ type: 'blockPart', height: prs.height, round: prs.round, part }))) {
        ps.setHasProposalBlockPart(prs.height, prs.round, index);
        return true;
      }
      return false;
    }
    if (rs.height !== prs.height || rs.round !== prs.round) return false;
    // The proposal itself, and which POL prevotes we have.
    if (rs.proposal && !prs.proposal) {
      if (peer.send(DATA_CHANNEL, encodeConsensusMessage({ type: 'proposal', proposal: rs.proposal }))) ps.setHasProposal(rs.proposal);
      if (rs.proposal.polRound >= 0) {
        const pol = rs.votes.prevotes(rs.proposal.polRound)?.bitArray();
        if (pol) peer.send(DATA_CHANNEL, encodeConsensusMessage({ type: 'proposalPol', height: rs.height, proposalPolRound: rs.proposal.polRound, proposalPol: pol }));
      }
      return true;
    }
    return false;
  }

  private pickSendVote(peer: Peer, ps: PeerState, votes: VoteSetReader | undefined): boolean {
    if (!votes) return false;
    const vote = ps.pickVoteToSend(votes);
    if (!vote) return false;
    if (peer.send(VOTE_CHANNEL, encodeConsensusMessage({ type: 'vote', vote }))) {
      ps.setHasVote(vote.height, vote.round, vote.type, vote.validatorIndex);
      return true;
    }
    return false;
  }

  private gossipVotes(peer: Peer, ps: PeerState, rs: RoundStateView): boolean {
    const prs = ps.prs;
    if (rs.height === prs.height && this.gossipVotesForHeight(peer, ps, rs)) return true;
    if (prs.height !== 0 && rs.height === prs.height + 1 && this.pickSendVote(peer, ps, rs.lastCommit)) return true;
    const base = this.blockStore.base();
    if (base > 0 && prs.height > 0 && prs.height <= rs.height - 2 && prs.height >= base) {
      if (this.pickSendVote(peer, ps, this.loadCommitVotes(prs.height))) return true;
    }
    return false;
  }

  private gossipVotesForHeight(peer: Peer, ps: PeerState, rs: RoundStateView): boolean {
    const prs = ps.prs;
    if (prs.step === RoundStep.NewHeight && this.pickSendVote(peer, ps, rs.lastCommit)) return true;
    if (prs.step <= RoundStep.Propose && prs.round !== -1 && prs.round <= rs.round && prs.proposalPolRound !== -1) {
      if (this.pickSendVote(peer, ps, rs.votes.prevotes(prs.proposalPolRound))) return true;
    }
    if (prs.step <= RoundStep.PrevoteWait && prs.round !== -1 && prs.round <= rs.round) {
      if (this.pickSendVote(peer, ps, rs.votes.prevotes(prs.round))) return true;
    }
    if (prs.step <= RoundStep.PrecommitWait && prs.round !== -1 && prs.round <= rs.round) {
      if (this.pickSendVote(peer, ps, rs.votes.precommits(prs.round))) return true;
    }
    if (prs.round !== -1 && prs.round <= rs.round && this.pickSendVote(peer, ps, rs.votes.prevotes(prs.round))) return true;
    if (prs.proposalPolRound !== -1 && this.pickSendVote(peer, ps, rs.votes.prevotes(prs.proposalPolRound))) return true;
    return false;
  }

  /** Tell the peer which +2/3 majorities we have seen at its height (queryMaj23Routine). */
  private queryMaj23(peer: Peer, ps: PeerState): void {
    const engine = this.engine;
    if (!engine || this.waitSync || !peer.isRunning) return;
    const rs = engine.roundStateView();
    const prs = ps.prs;
    const send = (round: number, voteType: VoteType, blockId: ReturnType<NonNullable<ReturnType<typeof rs.votes.prevotes>>['twoThirdsMajority']>): void => {
      if (blockId) peer.trySend(STATE_CHANNEL, encodeConsensusMessage({ type: 'voteSetMaj23', height: prs.height, round, voteType, blockId }));
    };
    if (rs.height === prs.height && prs.round >= 0) {
      send(prs.round, SignedMsgType.Prevote, rs.votes.prevotes(prs.round)?.twoThirdsMajority());
      send(prs.round, SignedMsgType.Precommit, rs.votes.precommits(prs.round)?.twoThirdsMajority());
      if (prs.proposalPolRound >= 0) send(prs.proposalPolRound, SignedMsgType.Prevote, rs.votes.prevotes(prs.proposalPolRound)?.twoThirdsMajority());
    }
    if (prs.catchupCommitRound !== -1 && prs.height > 0 && prs.height <= this.blockStore.height() && prs.height >= this.blockStore.base()) {
      const commit = this.blockStore.loadBlockCommit(prs.height) ?? this.blockStore.loadSeenCommit(prs.height);
      if (commit) peer.trySend(STATE_CHANNEL, encodeConsensusMessage({ type: 'voteSetMaj23', height: prs.height, round: commit.round, voteType: SignedMsgType.Precommit, blockId: commit.blockId }));
    }
  }
}
