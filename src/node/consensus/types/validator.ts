/**
 * Validators and validator sets (types/validator.go, validator_set.go): ordering by power then
 * address, proposer-priority rotation, change sets from the app, hash and commit verification.
 * Powers and priorities are int64 in CometBFT; they are bigint here and follow Go's arithmetic
 * (truncating int64 division, Euclidean big.Int division for the average, clipping on overflow).
 */
import { ConsensusError } from '../errors.js';
import { BlockIdFlag, blockIdsEqual, validateCommitSig, type BlockId, type Commit } from './block.js';
import { bytesEqual, compareBytes, toHexUpper } from './bytes.js';
import { pubKeyAddress, validatePubKey, verifySignature, writePublicKey, type PubKey } from './keys.js';
import { merkleRoot } from './merkle.js';
import { encodeProto } from './proto.js';
import { commitSigToVote, voteSignBytes } from './vote.js';

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
/** MaxTotalVotingPower = MaxInt64 / 8. */
export const MAX_TOTAL_VOTING_POWER = INT64_MAX / 8n;
const PRIORITY_WINDOW_SIZE_FACTOR = 2n;

export interface Validator {
  address: Uint8Array;
  pubKey: PubKey;
  votingPower: bigint;
  proposerPriority: bigint;
}

export function newValidator(pubKey: PubKey, votingPower: bigint): Validator {
  validatePubKey(pubKey);
  return { address: pubKeyAddress(pubKey), pubKey, votingPower, proposerPriority: 0n };
}

function copyValidator(v: Validator): Validator {
  return { address: v.address, pubKey: v.pubKey, votingPower: v.votingPower, proposerPriority: v.proposerPriority };
}

/** SimpleValidator{pub_key=1, voting_power=2}: the bytes hashed into validators_hash. */
export function validatorHashBytes(v: Validator): Uint8Array {
  return encodeProto((w) => {
    w.messageAlways(1, (x) => writePublicKey(x, v.pubKey));
    w.varintField(2, v.votingPower);
  }, 64);
}

function clip(v: bigint): bigint {
  if (v > INT64_MAX) return INT64_MAX;
  if (v < INT64_MIN) return INT64_MIN;
  return v;
}

/** Go big.Int Div: Euclidean division (floors for a positive divisor). */
function euclideanDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? (b > 0n ? q - 1n : q + 1n) : q;
}

/** Higher priority wins; ties go to the lower address (Validator.CompareProposerPriority). */
function morePriority(a: Validator | undefined, b: Validator): Validator {
  if (!a) return b;
  if (a.proposerPriority > b.proposerPriority) return a;
  if (a.proposerPriority < b.proposerPriority) return b;
  const c = compareBytes(a.address, b.address);
  if (c < 0) return a;
  if (c > 0) return b;
  throw new ConsensusError('INVALID_VALIDATOR_SET', 'cannot compare identical validators');
}

function byVotingPower(a: Validator, b: Validator): number {
  if (a.votingPower === b.votingPower) return compareBytes(a.address, b.address);
  return a.votingPower > b.votingPower ? -1 : 1;
}

function byAddress(a: Validator, b: Validator): number {
  return compareBytes(a.address, b.address);
}

export class ValidatorSet {
  validators: Validator[] = [];
  proposer: Validator | undefined;
  private totalPower = 0n;
  private cachedHash: Uint8Array | undefined;

  /** NewValidatorSet: apply `validators` as additions, then one priority increment. */
  static create(validators: Validator[]): ValidatorSet {
    const set = new ValidatorSet();
    set.updateWithChangeSet(validators, false);
    if (validators.length > 0) set.incrementProposerPriority(1);
    return set;
  }

  /** Rebuild a stored set exactly (priorities and proposer included). */
  static restore(validators: Validator[], proposerAddress: Uint8Array | undefined): ValidatorSet {
    const set = new ValidatorSet();
    set.validators = validators.map(copyValidator);
    set.updateTotalVotingPower();
    set.proposer = proposerAddress ? set.validators.find((v) => bytesEqual(v.address, proposerAddress)) : undefined;
    return set;
  }

  get size(): number {
    return this.validators.length;
  }

  isEmpty(): boolean {
    return this.validators.length === 0;
  }

  copy(): ValidatorSet {
    const set = new ValidatorSet();
    set.validators = this.validators.map(copyValidator);
    set.totalPower = this.totalPower;
    set.cachedHash = this.cachedHash;
    set.proposer = this.proposer ? set.validators.find((v) => bytesEqual(v.address, this.proposer!.address)) ?? copyValidator(this.proposer) : undefined;
    return set;
  }

  copyIncrementProposerPriority(times: number): ValidatorSet {
    const set = this.copy();
    set.incrementProposerPriority(times);
    return set;
  }

  totalVotingPower(): bigint {
    if (this.totalPower === 0n) this.updateTotalVotingPower();
    return this.totalPower;
  }

  private updateTotalVotingPower(): void {
    let sum = 0n;
    for (const v of this.validators) {
      sum = clip(sum + v.votingPower);
      if (sum > MAX_TOTAL_VOTING_POWER) {
        throw new ConsensusError('INVALID_VALIDATOR_SET', `total voting power ${sum} exceeds maximum ${MAX_TOTAL_VOTING_POWER}`);
      }
    }
    this.totalPower = sum;
  }

  hasAddress(address: Uint8Array): boolean {
    return this.validators.some((v) => bytesEqual(v.address, address));
  }

  /** Index and validator, or [-1, undefined]. */
  getByAddress(address: Uint8Array): [number, Validator | undefined] {
    const index = this.validators.findIndex((v) => bytesEqual(v.address, address));
    return index < 0 ? [-1, undefined] : [index, this.validators[index]];
  }

  getByIndex(index: number): Validator | undefined {
    return this.validators[index];
  }

  getProposer(): Validator {
    if (this.validators.length === 0) throw new ConsensusError('INVALID_VALIDATOR_SET', 'empty validator set has no proposer');
    if (!this.proposer) {
      let p: Validator | undefined;
      for (const v of this.validators) p = morePriority(p, v);
      this.proposer = p;
    }
    return this.proposer!;
  }

  /** Merkle root over SimpleValidator encodings (validators_hash). */
  hash(): Uint8Array {
    if (!this.cachedHash) this.cachedHash = merkleRoot(this.validators.map(validatorHashBytes));
    return this.cachedHash;
  }

  /** Advance the proposer rotation `times` rounds (IncrementProposerPriority). */
  incrementProposerPriority(times: number): void {
    if (this.validators.length === 0) throw new ConsensusError('INVALID_VALIDATOR_SET', 'empty validator set');
    if (times <= 0) throw new ConsensusError('INVALID_VALIDATOR_SET', 'cannot call IncrementProposerPriority with non-positive times');
    this.rescalePriorities(PRIORITY_WINDOW_SIZE_FACTOR * this.totalVotingPower());
    this.shiftByAvgProposerPriority();
    let proposer: Validator | undefined;
    for (let i = 0; i < times; i++) proposer = this.incrementOnce();
    this.proposer = proposer;
  }

  private incrementOnce(): Validator {
    for (const v of this.validators) v.proposerPriority = clip(v.proposerPriority + v.votingPower);
    let most: Validator | undefined;
    for (const v of this.validators) most = morePriority(most, v);
    most!.proposerPriority = clip(most!.proposerPriority - this.totalVotingPower());
    return most!;
  }

  private rescalePriorities(diffMax: bigint): void {
    if (diffMax <= 0n) return;
    let max = INT64_MIN;
    let min = INT64_MAX;
    for (const v of this.validators) {
      if (v.proposerPriority < min) min = v.proposerPriority;
      if (v.proposerPriority > max) max = v.proposerPriority;
    }
    let diff = max - min;
    if (diff < 0n) diff = -diff;
    const ratio = (diff + diffMax - 1n) / diffMax;
    if (diff > diffMax) for (const v of this.validators) v.proposerPriority = v.proposerPriority / ratio;
  }

  private shiftByAvgProposerPriority(): void {
    let sum = 0n;
    for (const v of this.validators) sum += v.proposerPriority;
    const avg = euclideanDiv(sum, BigInt(this.validators.length));
    for (const v of this.validators) v.proposerPriority = clip(v.proposerPriority - avg);
  }

  /**
   * Apply validator updates from the app (power 0 removes). Throws without changing the set
   * when the changes are invalid (UpdateWithChangeSet).
   */
  updateWithChangeSet(changes: Validator[], allowDeletes = true): void {
    if (changes.length === 0) return;
    const sorted = changes.map(copyValidator).sort(byAddress);
    const updates: Validator[] = [];
    const deletes: Validator[] = [];
    let prev: Uint8Array | undefined;
    for (const c of sorted) {
      if (prev && bytesEqual(prev, c.address)) throw new ConsensusError('INVALID_VALIDATOR_SET', `duplicate entry ${toHexUpper(c.address)} in validator changes`);
      if (c.votingPower < 0n) throw new ConsensusError('INVALID_VALIDATOR_SET', `voting power can't be negative: ${c.votingPower}`);
      if (c.votingPower > MAX_TOTAL_VOTING_POWER) {
        throw new ConsensusError('INVALID_VALIDATOR_SET', `to prevent clipping/overflow, voting power can't be higher than ${MAX_TOTAL_VOTING_POWER}, got ${c.votingPower}`);
      }
      if (c.votingPower === 0n) deletes.push(c);
      else updates.push(c);
      prev = c.address;
    }
    if (!allowDeletes && deletes.length > 0) throw new ConsensusError('INVALID_VALIDATOR_SET', 'cannot process validators with voting power 0');
    const numNew = updates.filter((u) => !this.hasAddress(u.address)).length;
    if (numNew === 0 && this.validators.length === deletes.length) {
      throw new ConsensusError('INVALID_VALIDATOR_SET', 'applying the validator changes would result in empty set');
    }
    let removedPower = 0n;
    for (const d of deletes) {
      const [, existing] = this.getByAddress(d.address);
      if (!existing) throw new ConsensusError('INVALID_VALIDATOR_SET', `failed to find validator ${toHexUpper(d.address)} to remove`);
      removedPower += existing.votingPower;
    }
    // verifyUpdates: the total after applying updates (in increasing delta order) must stay bounded.
    const delta = (u: Validator): bigint => u.votingPower - (this.getByAddress(u.address)[1]?.votingPower ?? 0n);
    const byDelta = [...updates].sort((a, b) => {
      const da = delta(a);
      const db = delta(b);
      return da < db ? -1 : da > db ? 1 : 0;
    });
    let tvpAfterRemovals = this.totalVotingPower() - removedPower;
    for (const u of byDelta) {
      tvpAfterRemovals += delta(u);
      if (tvpAfterRemovals > MAX_TOTAL_VOTING_POWER) {
        throw new ConsensusError('INVALID_VALIDATOR_SET', `total voting power of resulting valset exceeds max ${MAX_TOTAL_VOTING_POWER}`);
      }
    }
    const tvpAfterUpdatesBeforeRemovals = tvpAfterRemovals + removedPower;
    // computeNewPriorities: new validators start at -1.125 × total.
    for (const u of updates) {
      const [, existing] = this.getByAddress(u.address);
      u.proposerPriority = existing ? existing.proposerPriority : -(tvpAfterUpdatesBeforeRemovals + (tvpAfterUpdatesBeforeRemovals >> 3n));
    }
    // applyUpdates + applyRemovals (merge by address).
    const byAddr = new Map<string, Validator>();
    for (const v of this.validators) byAddr.set(toHexUpper(v.address), v);
    for (const u of updates) byAddr.set(toHexUpper(u.address), u);
    for (const d of deletes) byAddr.delete(toHexUpper(d.address));
    this.validators = [...byAddr.values()].sort(byAddress);
    this.cachedHash = undefined;
    this.totalPower = 0n;
    this.updateTotalVotingPower();
    this.rescalePriorities(PRIORITY_WINDOW_SIZE_FACTOR * this.totalVotingPower());
    this.shiftByAvgProposerPriority();
    this.validators.sort(byVotingPower);
    if (this.proposer) this.proposer = this.validators.find((v) => bytesEqual(v.address, this.proposer!.address));
  }

  /**
   * Check that `commit` is for `blockId` at `height` and carries valid signatures from more than
   * 2/3 of this set's power (VerifyCommit; every present signature is checked).
   */
  verifyCommit(chainId: string, blockId: BlockId, height: number, commit: Commit): void {
    const fail = (msg: string): never => {
      throw new ConsensusError('INVALID_COMMIT', msg);
    };
    if (this.size !== commit.signatures.length) fail(`invalid commit -- wrong set size: ${this.size} vs ${commit.signatures.length}`);
    if (height !== commit.height) fail(`invalid commit -- wrong height: ${height} vs ${commit.height}`);
    if (!blockIdsEqual(blockId, commit.blockId)) fail('invalid commit -- wrong block ID');
    const needed = (this.totalVotingPower() * 2n) / 3n;
    let tallied = 0n;
    commit.signatures.forEach((sig, idx) => {
      if (sig.blockIdFlag === BlockIdFlag.Absent) return;
      validateCommitSig(sig, idx);
      const val = this.validators[idx]!;
      if (!bytesEqual(val.address, sig.validatorAddress)) {
        fail(`validator address mismatch at index ${idx}: expected ${toHexUpper(val.address)}, got ${toHexUpper(sig.validatorAddress)}`);
      }
      const vote = commitSigToVote(commit, idx)!;
      if (!verifySignature(val.pubKey, voteSignBytes(chainId, vote), sig.signature)) fail(`wrong signature (#${idx}): ${toHexUpper(sig.signature)}`);
      if (sig.blockIdFlag === BlockIdFlag.Commit) tallied += val.votingPower;
    });
    if (tallied <= needed) fail(`invalid commit -- insufficient voting power: got ${tallied}, needed more than ${needed}`);
  }
}
