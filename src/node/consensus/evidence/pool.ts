/**
 * The evidence pool (evidence/pool.go) for duplicate-vote evidence.
 *
 * - Consensus reports conflicting votes; once the block of their height is committed they become
 *   evidence (its time is that block's time) and join the pending list.
 * - Peers' evidence is verified (validator set and block time of its height, both signatures,
 *   not expired, not committed) before it is kept; invalid evidence is an error the reactor
 *   punishes.
 * - Proposers take pending evidence up to the evidence max_bytes; every block's evidence is
 *   checked the same way, and once committed it is marked so it is never included again.
 *
 * Pending evidence and committed markers live in the node database (bucket consensusEvidence),
 * so a restart neither loses evidence nor re-includes committed evidence.
 */
import type { BatchOp, Database } from '../../store/db/database.js';
import { Bucket, bucketKey } from '../../store/db/buckets.js';
import type { Logger } from '../../logger.js';
import { nullLogger } from '../../logger.js';
import { ConsensusError } from '../errors.js';
import type { ChainState } from '../state/chainState.js';
import type { BlockStore } from '../store/blockStore.js';
import type { StateStore } from '../store/stateStore.js';
import { concatBytes, readUint64BE, uint64BE } from '../types/bytes.js';
import { diffMillis } from '../types/time.js';
import type { Vote } from '../types/vote.js';
import { decodeEvidence, encodeEvidence, evidenceHash, evidenceKey, newDuplicateVoteEvidence, verifyDuplicateVote, type DuplicateVoteEvidence } from './evidence.js';

const PENDING_PREFIX = 0x00;
const COMMITTED_PREFIX = 0x01;

interface PendingEvidence {
  evidence: DuplicateVoteEvidence;
  bytes: Uint8Array;
  height: number;
}

export class EvidencePool {
  private readonly pending = new Map<string, PendingEvidence>();
  private buffer: [Vote, Vote][] = [];
  private state: ChainState | undefined;
  private listeners: (() => void)[] = [];
  private readonly logger: Logger;

  constructor(
    private readonly db: Database,
    private readonly blockStore: BlockStore,
    private readonly stateStore: StateStore,
    logger?: Logger,
  ) {
    this.logger = logger ?? nullLogger;
  }

  /** Load pending evidence (call once at start). */
  async load(state: ChainState): Promise<void> {
    this.state = state;
    for await (const [key, value] of this.db.entries({ gte: bucketKey(Bucket.consensusEvidence, Uint8Array.of(PENDING_PREFIX)), lt: bucketKey(Bucket.consensusEvidence, Uint8Array.of(PENDING_PREFIX + 1)) })) {
      try {
        const evidence = decodeEvidence(value);
        this.pending.set(evidenceKey(evidence), { evidence, bytes: value, height: evidence.voteA.height });
      } catch (err) {
        this.logger.error('dropping undecodable stored evidence', { key: Buffer.from(key).toString('hex'), err: (err as Error).message });
      }
    }
  }

  setState(state: ChainState): void {
    this.state = state;
  }

  /** Called when new evidence becomes pending (the reactor wakes its routines). */
  onNewEvidence(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Conflicting votes from consensus; turned into evidence once their height is committed. */
  reportConflictingVotes(voteA: Vote, voteB: Vote): void {
    this.buffer.push([voteA, voteB]);
    if (this.state && voteA.height <= this.state.lastBlockHeight) void this.processBuffer();
  }

  pendingList(): DuplicateVoteEvidence[] {
    return [...this.pending.values()].map((p) => p.evidence);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Pending evidence for a proposal, within `maxBytes` of encoded evidence (PendingEvidence). */
  pendingEvidence(maxBytes: bigint): { evidence: Uint8Array[]; bytes: number } {
    const out: Uint8Array[] = [];
    let size = 0;
    for (const p of [...this.pending.values()].sort((a, b) => a.height - b.height)) {
      if (BigInt(size + p.bytes.length) > maxBytes) break;
      out.push(p.bytes);
      size += p.bytes.length;
    }
    return { evidence: out, bytes: size };
  }

  private committedKey(ev: DuplicateVoteEvidence): Uint8Array {
    return bucketKey(Bucket.consensusEvidence, concatBytes(Uint8Array.of(COMMITTED_PREFIX), evidenceHash(ev)));
  }

  private pendingKey(ev: DuplicateVoteEvidence): Uint8Array {
    return bucketKey(Bucket.consensusEvidence, concatBytes(Uint8Array.of(PENDING_PREFIX), uint64BE(ev.voteA.height), evidenceHash(ev)));
  }

  isCommitted(ev: DuplicateVoteEvidence): boolean {
    return this.db.getSync(this.committedKey(ev)) !== undefined;
  }

  private isExpired(state: ChainState, ev: DuplicateVoteEvidence): boolean {
    const params = state.consensusParams.evidence;
    const ageBlocks = state.lastBlockHeight - ev.voteA.height;
    const ageMs = diffMillis(state.lastBlockTime, ev.timestamp);
    return BigInt(ageBlocks) > params.maxAgeNumBlocks && BigInt(Math.floor(ageMs)) * 1_000_000n > params.maxAgeDurationNs;
  }

  /** Verify one piece of evidence against `state` (verify in pool.go). Throws INVALID_BLOCK. */
  verify(state: ChainState, ev: DuplicateVoteEvidence): void {
    const height = ev.voteA.height;
    if (height > state.lastBlockHeight) throw new ConsensusError('INVALID_BLOCK', `invalid evidence: evidence from height ${height} is in the future (latest ${state.lastBlockHeight})`);
    if (this.isExpired(state, ev)) throw new ConsensusError('INVALID_BLOCK', `invalid evidence: evidence from height ${height} is too old`);
    const validators = this.stateStore.loadValidators(height);
    if (!validators) throw new ConsensusError('INVALID_BLOCK', `invalid evidence: no validator set stored for height ${height}`);
    const meta = this.blockStore.loadBlockMeta(height);
    // A state-synced node has no blocks below its first one: evidence of such a height is checked
    // against the stored validator set without the header time (it reaches us inside blocks that
    // +2/3 of the validators committed, or re-verified by them when gossiped).
    const firstStored = this.blockStore.base() > 0 ? this.blockStore.base() : state.lastBlockHeight + 1;
    if (!meta && height >= firstStored) throw new ConsensusError('INVALID_BLOCK', `invalid evidence: don't have header #${height}`);
    verifyDuplicateVote(ev, state.chainId, validators, meta?.header.time);
  }

  /** Evidence from a peer: true when newly added; throws when invalid. */
  async addEvidence(ev: DuplicateVoteEvidence): Promise<boolean> {
    const key = evidenceKey(ev);
    if (this.pending.has(key) || this.isCommitted(ev)) return false;
    const state = this.state;
    if (!state) return false;
    this.verify(state, ev);
    await this.addPending(ev, key);
    return true;
  }

  private async addPending(ev: DuplicateVoteEvidence, key: string): Promise<void> {
    const bytes = encodeEvidence(ev);
    this.pending.set(key, { evidence: ev, bytes, height: ev.voteA.height });
    await this.db.put(this.pendingKey(ev), bytes);
    this.logger.info('verified new evidence of byzantine behavior', { height: ev.voteA.height, validator: Buffer.from(ev.voteA.validatorAddress).toString('hex').toUpperCase() });
    for (const l of this.listeners) l();
  }

  /** Check a block's evidence list (CheckEvidence): valid, not committed, no duplicates. */
  checkEvidence(state: ChainState, evidence: readonly Uint8Array[]): DuplicateVoteEvidence[] {
    const seen = new Set<string>();
    const out: DuplicateVoteEvidence[] = [];
    for (const bytes of evidence) {
      const ev = decodeEvidence(bytes);
      const key = evidenceKey(ev);
      if (seen.has(key)) throw new ConsensusError('INVALID_BLOCK', 'invalid evidence: duplicate evidence');
      seen.add(key);
      if (this.isCommitted(ev)) throw new ConsensusError('INVALID_BLOCK', 'invalid evidence: evidence was already committed');
      if (!this.pending.has(key)) this.verify(state, ev);
      out.push(ev);
    }
    return out;
  }

  /** After a block is committed: mark its evidence, drop expired evidence, turn buffered votes into evidence. */
  async update(state: ChainState, committed: readonly DuplicateVoteEvidence[]): Promise<void> {
    this.state = state;
    const ops: BatchOp[] = [];
    for (const ev of committed) {
      ops.push({ type: 'put', key: this.committedKey(ev), value: uint64BE(ev.voteA.height) });
      ops.push({ type: 'del', key: this.pendingKey(ev) });
      this.pending.delete(evidenceKey(ev));
    }
    for (const [key, p] of this.pending) {
      if (this.isExpired(state, p.evidence)) {
        this.pending.delete(key);
        ops.push({ type: 'del', key: this.pendingKey(p.evidence) });
      }
    }
    if (ops.length > 0) await this.db.batch(ops);
    await this.processBuffer();
  }

  private async processBuffer(): Promise<void> {
    const state = this.state;
    if (!state) return;
    const keep: [Vote, Vote][] = [];
    for (const [a, b] of this.buffer) {
      if (a.height > state.lastBlockHeight) {
        keep.push([a, b]);
        continue;
      }
      const validators = this.stateStore.loadValidators(a.height);
      const meta = this.blockStore.loadBlockMeta(a.height);
      if (!validators || !meta) continue;
      const ev = newDuplicateVoteEvidence(a, b, meta.header.time, validators);
      if (!ev) continue;
      const key = evidenceKey(ev);
      if (this.pending.has(key) || this.isCommitted(ev)) continue;
      try {
        verifyDuplicateVote(ev, state.chainId, validators, meta.header.time);
      } catch (err) {
        this.logger.error('conflicting votes do not make valid evidence', { height: a.height, err: (err as Error).message });
        continue;
      }
      await this.addPending(ev, key);
    }
    this.buffer = keep;
  }

  /** Height of committed evidence (tests, RPC). */
  committedHeight(ev: DuplicateVoteEvidence): number | undefined {
    const raw = this.db.getSync(this.committedKey(ev));
    return raw ? readUint64BE(raw, 0) : undefined;
  }
}
