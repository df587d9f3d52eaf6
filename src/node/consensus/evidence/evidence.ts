/**
 * Duplicate-vote evidence (types/evidence.go, evidence/verify.go): two votes of one validator for
 * the same height, round and type but different block IDs. Encoded as tendermint.types.Evidence
 * {duplicate_vote_evidence = 1: {vote_a = 1, vote_b = 2, total_voting_power = 3, validator_power = 4,
 * timestamp = 5}}, with vote_a the vote whose BlockID key (hash ‖ part-set-header proto) sorts
 * first. The timestamp is the time of the block at the votes' height; the powers are those of the
 * validator set at that height.
 */
import type { Misbehavior } from '../../abci/types.js';
import { ConsensusError } from '../errors.js';
import { blockIdsEqual, writePartSetHeader, type BlockId } from '../types/block.js';
import { bytesEqual, compareBytes, concatBytes, sha256, toHexUpper } from '../types/bytes.js';
import { ProtoWriter, encodeProto, readMessage } from '../types/proto.js';
import { readTimestamp, timestampToDate, writeTimestamp, type Timestamp } from '../types/time.js';
import type { ValidatorSet } from '../types/validator.js';
import { decodeVote, validateVoteBasic, verifyVote, writeVote, type Vote } from '../types/vote.js';

export interface DuplicateVoteEvidence {
  voteA: Vote;
  voteB: Vote;
  totalVotingPower: bigint;
  validatorPower: bigint;
  timestamp: Timestamp;
}

/** BlockID.Key(): hash ‖ PartSetHeader protobuf. */
function blockIdKey(id: BlockId): Uint8Array {
  return concatBytes(id.hash, encodeProto((w) => writePartSetHeader(w, id.partSetHeader), 48));
}

/** NewDuplicateVoteEvidence: order the votes and take the powers from `validators`. */
export function newDuplicateVoteEvidence(vote1: Vote, vote2: Vote, blockTime: Timestamp, validators: ValidatorSet): DuplicateVoteEvidence | undefined {
  const [, val] = validators.getByAddress(vote1.validatorAddress);
  if (!val) return undefined;
  const [voteA, voteB] = compareBytes(blockIdKey(vote1.blockId), blockIdKey(vote2.blockId)) < 0 ? [vote1, vote2] : [vote2, vote1];
  return { voteA, voteB, totalVotingPower: validators.totalVotingPower(), validatorPower: val.votingPower, timestamp: blockTime };
}

export function writeDuplicateVoteEvidence(w: ProtoWriter, ev: DuplicateVoteEvidence): void {
  w.messageAlways(1, (x) => writeVote(x, ev.voteA));
  w.messageAlways(2, (x) => writeVote(x, ev.voteB));
  w.varintField(3, ev.totalVotingPower);
  w.varintField(4, ev.validatorPower);
  w.messageAlways(5, (x) => writeTimestamp(x, ev.timestamp));
}

/** tendermint.types.Evidence bytes (what a block's evidence list holds). */
export function encodeEvidence(ev: DuplicateVoteEvidence): Uint8Array {
  return encodeProto((w) => w.messageAlways(1, (x) => writeDuplicateVoteEvidence(x, ev)), 512);
}

export function decodeEvidence(bytes: Uint8Array): DuplicateVoteEvidence {
  let out: DuplicateVoteEvidence | undefined;
  readMessage(bytes, (field, wire, r) => {
    if (field === 2 && wire === 2) throw new ConsensusError('INVALID_BLOCK', 'light client attack evidence is not supported');
    if (field !== 1 || wire !== 2) return r.skip(wire);
    let voteA: Vote | undefined;
    let voteB: Vote | undefined;
    let total = 0n;
    let power = 0n;
    let timestamp: Timestamp = { seconds: 0, nanos: 0 };
    readMessage(r.bytes(), (f, wt, rr) => {
      if (f === 1 && wt === 2) voteA = decodeVote(rr.bytes());
      else if (f === 2 && wt === 2) voteB = decodeVote(rr.bytes());
      else if (f === 3 && wt === 0) total = rr.int64();
      else if (f === 4 && wt === 0) power = rr.int64();
      else if (f === 5 && wt === 2) timestamp = readTimestamp(rr.bytes());
      else rr.skip(wt);
    });
    if (!voteA || !voteB) throw new ConsensusError('INVALID_BLOCK', 'one or both of the votes are empty');
    out = { voteA, voteB, totalVotingPower: total, validatorPower: power, timestamp };
  });
  if (!out) throw new ConsensusError('INVALID_BLOCK', 'unknown evidence type');
  return out;
}

/** Evidence hash (Hash(): sha256 of the DuplicateVoteEvidence protobuf). */
export function evidenceHash(ev: DuplicateVoteEvidence): Uint8Array {
  return sha256(encodeProto((w) => writeDuplicateVoteEvidence(w, ev), 512));
}

export function evidenceKey(ev: DuplicateVoteEvidence): string {
  return toHexUpper(evidenceHash(ev));
}

/** Stateless checks (DuplicateVoteEvidence.ValidateBasic). */
export function validateEvidenceBasic(ev: DuplicateVoteEvidence): void {
  const fail = (msg: string): never => {
    throw new ConsensusError('INVALID_BLOCK', `invalid evidence: ${msg}`);
  };
  try {
    validateVoteBasic(ev.voteA);
    validateVoteBasic(ev.voteB);
  } catch (err) {
    fail((err as Error).message);
  }
  if (compareBytes(blockIdKey(ev.voteA.blockId), blockIdKey(ev.voteB.blockId)) >= 0) fail('duplicate votes in invalid order');
}

/**
 * Verify against the validator set and block time of the evidence height (VerifyDuplicateVote plus
 * the pool's time check). Throws with CometBFT's wording.
 */
/**
 * `blockTime` undefined: the header of the evidence height is not stored (below a state-synced
 * node's first block); the votes, signatures and powers are still checked, the time cannot be.
 */
export function verifyDuplicateVote(ev: DuplicateVoteEvidence, chainId: string, validators: ValidatorSet, blockTime: Timestamp | undefined): void {
  validateEvidenceBasic(ev);
  const fail = (msg: string): never => {
    throw new ConsensusError('INVALID_BLOCK', `invalid evidence: ${msg}`);
  };
  const { voteA, voteB } = ev;
  const [, val] = validators.getByAddress(voteA.validatorAddress);
  if (!val) return fail(`address ${toHexUpper(voteA.validatorAddress)} was not a validator at height ${voteA.height}`);
  if (voteA.height !== voteB.height || voteA.round !== voteB.round || voteA.type !== voteB.type) fail('h/r/s does not match');
  if (!bytesEqual(voteA.validatorAddress, voteB.validatorAddress)) fail('validator addresses do not match');
  if (blockIdsEqual(voteA.blockId, voteB.blockId)) fail('block IDs are the same - not a real duplicate vote');
  if (val.votingPower !== ev.validatorPower) fail(`validator power from evidence and our validator set does not match (${ev.validatorPower} != ${val.votingPower})`);
  if (validators.totalVotingPower() !== ev.totalVotingPower) fail(`total voting power from the evidence and our validator set does not match (${ev.totalVotingPower} != ${validators.totalVotingPower()})`);
  if (blockTime !== undefined && (ev.timestamp.seconds !== blockTime.seconds || ev.timestamp.nanos !== blockTime.nanos)) fail('evidence has a different time to the block it is associated with');
  try {
    verifyVote(chainId, voteA, val.pubKey);
    verifyVote(chainId, voteB, val.pubKey);
  } catch (err) {
    fail(`verifying vote: ${(err as Error).message}`);
  }
}

/** The ABCI view handed to the app in FinalizeBlock (Misbehavior). */
export function toMisbehavior(ev: DuplicateVoteEvidence): Misbehavior {
  return {
    type: 'duplicate_vote',
    validatorAddress: ev.voteA.validatorAddress,
    power: ev.validatorPower,
    height: ev.voteA.height,
    time: timestampToDate(ev.timestamp),
    totalVotingPower: ev.totalVotingPower,
  };
}
