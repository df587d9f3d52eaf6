/**
 * CometBFT's light-client verification (light/verifier.go of the 0.34 line that ibc-go v6 links):
 * a new header is trusted from a trusted header and its next validator set, either
 *
 *   - adjacent (height + 1): the new header's validators are the trusted next validators (hash
 *     equality) and more than 2/3 of them signed it; or
 *   - non-adjacent: at least `trustLevel` (default 1/3) of the trusted validators' power signed it,
 *     and more than 2/3 of its own validator set did;
 *
 * and in both cases the trusted header is within the trusting period, the new header is later in
 * height and time, not further in the future than the max clock drift, and its validators are the
 * ones supplied. Signatures are checked with the consensus engine's vote sign bytes and keys.
 * Times are nanoseconds since the Unix epoch (bigint), so no precision is lost.
 */
import { BlockIdFlag, blockIdsEqual, hashHeader, type BlockId, type Commit, type Header } from '../../../../consensus/types/block.js';
import { bytesEqual, toHexUpper } from '../../../../consensus/types/bytes.js';
import { verifySignature } from '../../../../consensus/types/keys.js';
import type { Timestamp } from '../../../../consensus/types/time.js';
import type { ValidatorSet } from '../../../../consensus/types/validator.js';
import { commitSigToVote, voteSignBytes } from '../../../../consensus/types/vote.js';
import { LightClientInputError, validateSignedHeader, type TmSignedHeader } from './convert.js';

export interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

/** The header a client trusts: what its consensus state keeps of it. */
export interface TrustedHeader {
  chainId: string;
  height: number;
  timeNs: bigint;
  nextValidatorsHash: Uint8Array;
}

/** Why verification failed; `kind` follows CometBFT's error types. */
export type LightErrorKind = 'old-header-expired' | 'invalid-header' | 'new-valset-cant-be-trusted' | 'not-enough-voting-power' | 'other';

export class LightVerificationError extends Error {
  constructor(
    readonly kind: LightErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'LightVerificationError';
  }
}

export function timestampToNs(t: Timestamp | { seconds: bigint | number; nanos: number }): bigint {
  return BigInt(t.seconds) * 1_000_000_000n + BigInt(t.nanos);
}

/** Go's time.Time.String()-like RFC 3339 form, for messages. */
export function formatNs(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const rest = ns % 1_000_000_000n;
  const iso = new Date(Number(ms)).toISOString().replace(/\.\d{3}Z$/, '');
  return `${iso}.${(rest < 0n ? rest + 1_000_000_000n : rest).toString().padStart(9, '0')}Z`;
}

/** Go's Duration.String() for whole or fractional seconds. */
export function formatDurationNs(ns: bigint): string {
  const seconds = Number(ns) / 1e9;
  if (seconds >= 3600) {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = seconds - h * 3600 - m * 60;
    return `${h}h${m}m${s}s`;
  }
  if (seconds >= 60) {
    const m = Math.floor(seconds / 60);
    return `${m}m${seconds - m * 60}s`;
  }
  return `${seconds}s`;
}

/** The header at `trusted` has expired when trusted time + trusting period ≤ now (HeaderExpired). */
export function headerExpired(trustedTimeNs: bigint, trustingPeriodNs: bigint, nowNs: bigint): boolean {
  return trustedTimeNs + trustingPeriodNs <= nowNs;
}

/**
 * VerifyCommitLight: the commit is for `blockId` at `height`, one signature slot per validator,
 * and the validators that signed for the block hold more than 2/3 of the set's power. Stops at
 * the first signature that tips the tally, as CometBFT does.
 */
export function verifyCommitLight(vals: ValidatorSet, chainId: string, blockId: BlockId, height: number, commit: Commit): void {
  if (vals.size !== commit.signatures.length) {
    throw new LightVerificationError('other', `invalid commit -- wrong set size: ${vals.size} vs ${commit.signatures.length}`);
  }
  if (height !== commit.height) throw new LightVerificationError('other', `invalid commit -- wrong height: ${height} vs ${commit.height}`);
  if (!blockIdsEqual(blockId, commit.blockId)) throw new LightVerificationError('other', `invalid commit -- wrong block ID: want ${toHexUpper(blockId.hash)}, got ${toHexUpper(commit.blockId.hash)}`);
  const needed = (vals.totalVotingPower() * 2n) / 3n;
  let tallied = 0n;
  for (let idx = 0; idx < commit.signatures.length; idx++) {
    const sig = commit.signatures[idx]!;
    if (sig.blockIdFlag !== BlockIdFlag.Commit) continue;
    const val = vals.validators[idx]!;
    if (!bytesEqual(val.address, sig.validatorAddress)) {
      throw new LightVerificationError('other', `validator address mismatch at index ${idx}: expected ${toHexUpper(val.address)}, got ${toHexUpper(sig.validatorAddress)}`);
    }
    if (!verifySignature(val.pubKey, voteSignBytes(chainId, commitSigToVote(commit, idx)!), sig.signature)) {
      throw new LightVerificationError('other', `wrong signature (#${idx}): ${toHexUpper(sig.signature)}`);
    }
    tallied += val.votingPower;
    if (tallied > needed) return;
  }
  throw new LightVerificationError('not-enough-voting-power', `invalid commit -- insufficient voting power: got ${tallied}, needed more than ${needed}`);
}

/**
 * VerifyCommitLightTrusting: validators of the trusted set that signed `commit` hold more than
 * `trustLevel` of its power. Validators are looked up by address (the sets may differ); a
 * validator signing twice is refused.
 */
export function verifyCommitLightTrusting(vals: ValidatorSet, chainId: string, commit: Commit, trustLevel: Fraction): void {
  if (trustLevel.denominator === 0n) throw new LightVerificationError('other', 'trustLevel has zero Denominator');
  const needed = (vals.totalVotingPower() * trustLevel.numerator) / trustLevel.denominator;
  let tallied = 0n;
  const seen = new Map<number, number>();
  for (let idx = 0; idx < commit.signatures.length; idx++) {
    const sig = commit.signatures[idx]!;
    if (sig.blockIdFlag !== BlockIdFlag.Commit) continue;
    const [valIdx, val] = vals.getByAddress(sig.validatorAddress);
    if (val === undefined) continue;
    const first = seen.get(valIdx);
    if (first !== undefined) throw new LightVerificationError('other', `double vote from ${toHexUpper(val.address)} (${first} and ${idx})`);
    seen.set(valIdx, idx);
    if (!verifySignature(val.pubKey, voteSignBytes(chainId, commitSigToVote(commit, idx)!), sig.signature)) {
      throw new LightVerificationError('other', `wrong signature (#${idx}): ${toHexUpper(sig.signature)}`);
    }
    tallied += val.votingPower;
    if (tallied > needed) return;
  }
  throw new LightVerificationError('not-enough-voting-power', `invalid commit -- insufficient voting power: got ${tallied}, needed more than ${needed}`);
}

/** verifyNewHeaderAndVals: the checks shared by adjacent and non-adjacent verification. */
function verifyNewHeaderAndVals(untrusted: TmSignedHeader, untrustedVals: ValidatorSet, trusted: TrustedHeader, nowNs: bigint, maxClockDriftNs: bigint): void {
  try {
    validateSignedHeader(untrusted, trusted.chainId, hashHeader);
  } catch (err) {
    if (err instanceof LightClientInputError) throw new LightVerificationError('invalid-header', `untrustedHeader.ValidateBasic failed: ${err.message}`);
    throw err;
  }
  const header = untrusted.header;
  if (header.height <= trusted.height) {
    throw new LightVerificationError('invalid-header', `expected new header height ${header.height} to be greater than one of old header ${trusted.height}`);
  }
  const timeNs = timestampToNs(header.time);
  if (timeNs <= trusted.timeNs) {
    throw new LightVerificationError('invalid-header', `expected new header time ${formatNs(timeNs)} to be after old header time ${formatNs(trusted.timeNs)}`);
  }
  if (timeNs >= nowNs + maxClockDriftNs) {
    throw new LightVerificationError('invalid-header', `new header has a time from the future ${formatNs(timeNs)} (now: ${formatNs(nowNs)}; max clock drift: ${formatDurationNs(maxClockDriftNs)})`);
  }
  const suppliedHash = untrustedVals.hash();
  if (!bytesEqual(header.validatorsHash, suppliedHash)) {
    throw new LightVerificationError(
      'invalid-header',
      `expected new header validators (${toHexUpper(header.validatorsHash)}) to match those that were supplied (${toHexUpper(suppliedHash)}) at height ${header.height}`,
    );
  }
}

function expiredError(trusted: TrustedHeader, trustingPeriodNs: bigint, nowNs: bigint): LightVerificationError {
  return new LightVerificationError('old-header-expired', `old header has expired at ${formatNs(trusted.timeNs + trustingPeriodNs)} (now: ${formatNs(nowNs)})`);
}

function asInvalidHeader(err: unknown): never {
  if (err instanceof LightVerificationError) throw new LightVerificationError('invalid-header', `invalid header: ${err.message}`);
  throw err;
}

export interface VerifyOptions {
  trustingPeriodNs: bigint;
  nowNs: bigint;
  maxClockDriftNs: bigint;
  trustLevel: Fraction;
}

/** light.Verify: adjacent or non-adjacent verification of `untrusted` from `trusted`. */
export function verifyLight(trusted: TrustedHeader, trustedVals: ValidatorSet, untrusted: TmSignedHeader, untrustedVals: ValidatorSet, options: VerifyOptions): void {
  const { trustingPeriodNs, nowNs, maxClockDriftNs, trustLevel } = options;
  const adjacent = untrusted.header.height === trusted.height + 1;
  if (headerExpired(trusted.timeNs, trustingPeriodNs, nowNs)) throw expiredError(trusted, trustingPeriodNs, nowNs);
  try {
    verifyNewHeaderAndVals(untrusted, untrustedVals, trusted, nowNs, maxClockDriftNs);
  } catch (err) {
    asInvalidHeader(err);
  }
  if (adjacent) {
    if (!bytesEqual(untrusted.header.validatorsHash, trusted.nextValidatorsHash)) {
      throw new LightVerificationError(
        'other',
        `expected old header next validators (${toHexUpper(trusted.nextValidatorsHash)}) to match those from new header (${toHexUpper(untrusted.header.validatorsHash)})`,
      );
    }
  } else {
    try {
      verifyCommitLightTrusting(trustedVals, trusted.chainId, untrusted.commit, trustLevel);
    } catch (err) {
      if (err instanceof LightVerificationError && err.kind === 'not-enough-voting-power') {
        throw new LightVerificationError('new-valset-cant-be-trusted', `cant trust new val set: ${err.message}`);
      }
      asInvalidHeader(err);
    }
  }
  try {
    verifyCommitLight(untrustedVals, trusted.chainId, untrusted.commit.blockId, untrusted.header.height, untrusted.commit);
  } catch (err) {
    asInvalidHeader(err);
  }
}

export type { Header };
