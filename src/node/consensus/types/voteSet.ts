/**
 * Vote tallies: one `VoteSet` per (height, round, type) and a `HeightVoteSet` of them per height
 * (types/vote_set.go, consensus/types/height_vote_set.go). +2/3 means strictly more than two
 * thirds of the total voting power.
 */
import { ConsensusError } from '../errors.js';
import { BitArray } from './bitArray.js';
import { blockIdIsZero, blockIdKey, blockIdsEqual, type BlockId, type Commit, type CommitSig } from './block.js';
import { bytesEqual, toHexUpper } from './bytes.js';
import type { ValidatorSet } from './validator.js';
import { SignedMsgType, validateVoteBasic, verifyVote, voteToCommitSig, type Vote, type VoteType } from './vote.js';

export interface AddVoteResult {
  added: boolean;
  /** The earlier vote of the same validator when `vote` conflicts with it (equivocation). */
  conflicting?: Vote;
}

export class VoteSet {
  private readonly votes: (Vote | undefined)[];
  private readonly powerByBlock = new Map<string, { blockId: BlockId; power: bigint }>();
  private sum = 0n;
  private maj23: BlockId | undefined;
  private readonly quorum: bigint;

  constructor(
    readonly chainId: string,
    readonly height: number,
    readonly round: number,
    readonly type: VoteType,
    readonly validators: ValidatorSet,
  ) {
    this.votes = new Array<Vote | undefined>(validators.size).fill(undefined);
    this.quorum = (validators.totalVotingPower() * 2n) / 3n + 1n;
  }

  /**
   * Verify and add a vote. Returns added=false for a duplicate. Throws for an invalid vote and
   * for a second, different vote by the same validator (the first one is kept).
   */
  addVote(vote: Vote): AddVoteResult {
    validateVoteBasic(vote);
    if (vote.height !== this.height || vote.round !== this.round || vote.type !== this.type) {
      throw new ConsensusError(
        'INVALID_VOTE',
        `expected ${this.height}/${this.round}/${this.type}, but got ${vote.height}/${vote.round}/${vote.type}: unexpected step`,
      );
    }
    const val = this.validators.getByIndex(vote.validatorIndex);
    if (!val) {
      throw new ConsensusError('INVALID_VOTE', `cannot find validator ${vote.validatorIndex} in valSet of size ${this.validators.size}: invalid validator index`);
    }
    if (!bytesEqual(val.address, vote.validatorAddress)) {
      throw new ConsensusError(
        'INVALID_VOTE',
        `vote.ValidatorAddress (${toHexUpper(vote.validatorAddress)}) does not match address (${toHexUpper(val.address)}) for vote.ValidatorIndex (${vote.validatorIndex})`,
      );
    }
    const existing = this.votes[vote.validatorIndex];
    if (existing && blockIdsEqual(existing.blockId, vote.blockId)) {
      if (bytesEqual(existing.signature, vote.signature)) return { added: false };
      throw new ConsensusError('INVALID_VOTE', 'non-deterministic signature');
    }
    verifyVote(this.chainId, vote, val.pubKey);
    if (existing) {
      throw new ConsensusError('CONFLICTING_VOTE', `conflicting votes from validator ${toHexUpper(vote.validatorAddress)}`, {
        meta: { height: vote.height, round: vote.round, type: vote.type, existing, conflicting: vote },
      });
    }
    this.votes[vote.validatorIndex] = vote;
    this.sum += val.votingPower;
    const key = blockIdKey(vote.blockId);
    const entry = this.powerByBlock.get(key) ?? { blockId: vote.blockId, power: 0n };
    entry.power += val.votingPower;
    this.powerByBlock.set(key, entry);
    if (!this.maj23 && entry.power >= this.quorum) this.maj23 = vote.blockId;
    return { added: true };
  }

  getByIndex(index: number): Vote | undefined {
    return this.votes[index];
  }

  /** Number of validators (slots), voted or not. */
  get size(): number {
    return this.votes.length;
  }

  readonly isCommit = false;

  /** Which validators voted (for anything). */
  bitArray(): BitArray {
    const bits = new BitArray(this.votes.length);
    this.votes.forEach((v, i) => {
      if (v) bits.set(i);
    });
    return bits;
  }

  /** Which validators voted for `blockId` (BitArrayByBlockID). */
  bitArrayByBlockId(blockId: BlockId): BitArray {
    const bits = new BitArray(this.votes.length);
    this.votes.forEach((v, i) => {
      if (v && blockIdsEqual(v.blockId, blockId)) bits.set(i);
    });
    return bits;
  }

  getByAddress(address: Uint8Array): Vote | undefined {
    const [index] = this.validators.getByAddress(address);
    return index < 0 ? undefined : this.votes[index];
  }

  /** The block ID (possibly the zero ID = nil) with +2/3 of the power, if any. */
  twoThirdsMajority(): BlockId | undefined {
    return this.maj23;
  }

  hasTwoThirdsMajority(): boolean {
    return this.maj23 !== undefined;
  }

  /** More than 2/3 of the power voted, for anything. */
  hasTwoThirdsAny(): boolean {
    return this.sum > (this.validators.totalVotingPower() * 2n) / 3n;
  }

  hasAll(): boolean {
    return this.sum === this.validators.totalVotingPower();
  }

  /** Number of validators that voted. */
  count(): number {
    return this.votes.filter((v) => v !== undefined).length;
  }

  votingPowerFor(blockId: BlockId): bigint {
    return this.powerByBlock.get(blockIdKey(blockId))?.power ?? 0n;
  }

  allVotes(): Vote[] {
    return this.votes.filter((v): v is Vote => v !== undefined);
  }

  /** Build the commit of a precommit set with a +2/3 majority for a block (MakeCommit). */
  makeCommit(): Commit {
    if (this.type !== SignedMsgType.Precommit) throw new ConsensusError('INVALID_COMMIT', 'cannot MakeCommit() unless VoteSet.Type is PrecommitType');
    const maj23 = this.maj23;
    if (!maj23 || blockIdIsZero(maj23)) throw new ConsensusError('INVALID_COMMIT', 'cannot MakeCommit() unless a blockhash has +2/3');
    const signatures: CommitSig[] = this.votes.map((v) => {
      // Votes for a block other than the committed one are recorded as absent.
      if (v && !blockIdIsZero(v.blockId) && !blockIdsEqual(v.blockId, maj23)) return voteToCommitSig(undefined);
      return voteToCommitSig(v);
    });
    return { height: this.height, round: this.round, blockId: maj23, signatures };
  }

  /** Compact state for logs: "votes/total power". */
  summary(): string {
    return `${this.count()}/${this.validators.size} power=${this.sum}/${this.validators.totalVotingPower()}`;
  }
}

interface RoundVoteSets {
  prevotes: VoteSet;
  precommits: VoteSet;
}

/** All votes of one height, by round, accepting votes up to round+1 and a few catch-up rounds per peer. */
export class HeightVoteSet {
  private readonly rounds = new Map<number, RoundVoteSets>();
  private round = 0;
  private readonly peerCatchupRounds = new Map<string, number[]>();

  constructor(
    readonly chainId: string,
    readonly height: number,
    readonly validators: ValidatorSet,
  ) {
    this.addRound(0);
  }

  private addRound(round: number): void {
    if (this.rounds.has(round)) return;
    this.rounds.set(round, {
      prevotes: new VoteSet(this.chainId, this.height, round, SignedMsgType.Prevote, this.validators),
      precommits: new VoteSet(this.chainId, this.height, round, SignedMsgType.Precommit, this.validators),
    });
  }

  /** Track rounds up to `round` (the engine calls this with cs.round + 1). */
  setRound(round: number): void {
    for (let r = Math.max(0, this.round - 1); r <= round; r++) this.addRound(r);
    this.round = round;
  }

  /**
   * Add a vote. Votes for rounds beyond the tracked ones are accepted from at most two distinct
   * rounds per peer (so a peer cannot make us allocate unbounded rounds).
   */
  addVote(vote: Vote, peerId: string): AddVoteResult {
    if (vote.type !== SignedMsgType.Prevote && vote.type !== SignedMsgType.Precommit) {
      throw new ConsensusError('INVALID_VOTE', 'invalid vote type');
    }
    if (!this.rounds.has(vote.round)) {
      const rounds = this.peerCatchupRounds.get(peerId) ?? [];
      if (rounds.length >= 2) throw new ConsensusError('INVALID_VOTE', 'peer has sent a vote that does not match our round for more than one round');
      this.addRound(vote.round);
      rounds.push(vote.round);
      this.peerCatchupRounds.set(peerId, rounds);
    }
    const sets = this.rounds.get(vote.round)!;
    return (vote.type === SignedMsgType.Prevote ? sets.prevotes : sets.precommits).addVote(vote);
  }

  prevotes(round: number): VoteSet | undefined {
    return this.rounds.get(round)?.prevotes;
  }

  precommits(round: number): VoteSet | undefined {
    return this.rounds.get(round)?.precommits;
  }

  /** Highest round with a +2/3 prevote majority (a POL), and its block ID; [-1, undefined] if none. */
  polInfo(): [number, BlockId | undefined] {
    for (let r = this.round; r >= 0; r--) {
      const maj = this.prevotes(r)?.twoThirdsMajority();
      if (maj) return [r, maj];
    }
    return [-1, undefined];
  }

  /** Rounds currently tracked (for status dumps). */
  trackedRounds(): number[] {
    return [...this.rounds.keys()].sort((a, b) => a - b);
  }
}
