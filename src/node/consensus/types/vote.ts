/**
 * Votes and proposals with their canonical sign bytes (types/vote.go, proposal.go, canonical.go):
 * the proto-encoded CanonicalVote / CanonicalProposal (height and round as sfixed64, chain_id
 * included, block_id omitted for nil), prefixed with its uvarint length.
 */
import { ConsensusError } from '../errors.js';
import {
  BlockIdFlag,
  blockIdIsComplete,
  blockIdIsZero,
  readBlockId,
  validateBlockId,
  writeBlockId,
  zeroBlockId,
  type BlockId,
  type CommitSig,
} from './block.js';
import { EMPTY_BYTES, bytesEqual } from './bytes.js';
import { pubKeyAddress, verifySignature, type PubKey } from './keys.js';
import { ProtoWriter, encodeProto, lengthDelimited, readLengthDelimited, readMessage } from './proto.js';
import { ZERO_TIME, readTimestamp, writeTimestamp, type Timestamp } from './time.js';

export enum SignedMsgType {
  Unknown = 0,
  Prevote = 1,
  Precommit = 2,
  Proposal = 32,
}

export type VoteType = SignedMsgType.Prevote | SignedMsgType.Precommit;

export interface Vote {
  type: VoteType;
  height: number;
  round: number;
  /** Zero block ID for a nil vote. */
  blockId: BlockId;
  timestamp: Timestamp;
  validatorAddress: Uint8Array;
  validatorIndex: number;
  signature: Uint8Array;
  extension: Uint8Array;
  extensionSignature: Uint8Array;
}

export interface Proposal {
  type: SignedMsgType.Proposal;
  height: number;
  round: number;
  /** -1 when the proposer has no proof-of-lock round. */
  polRound: number;
  blockId: BlockId;
  timestamp: Timestamp;
  signature: Uint8Array;
}

export function isVoteType(t: number): t is VoteType {
  return t === SignedMsgType.Prevote || t === SignedMsgType.Precommit;
}

function writeCanonicalBlockId(w: ProtoWriter, field: number, id: BlockId): void {
  if (blockIdIsZero(id)) return; // CanonicalizeBlockID returns nil for a zero block ID
  w.messageAlways(field, (x) => {
    x.bytesField(1, id.hash);
    x.messageAlways(2, (y) => {
      y.varintField(1, id.partSetHeader.total);
      y.bytesField(2, id.partSetHeader.hash);
    });
  });
}

/** Bytes a validator signs for a vote (VoteSignBytes). */
export function voteSignBytes(chainId: string, vote: Pick<Vote, 'type' | 'height' | 'round' | 'blockId' | 'timestamp'>): Uint8Array {
  return lengthDelimited(
    encodeProto((w) => {
      w.varintField(1, vote.type);
      w.sfixed64Field(2, vote.height);
      w.sfixed64Field(3, vote.round);
      writeCanonicalBlockId(w, 4, vote.blockId);
      w.messageAlways(5, (x) => writeTimestamp(x, vote.timestamp));
      w.stringField(6, chainId);
    }, 160),
  );
}

/** Bytes a proposer signs for a proposal (ProposalSignBytes). */
export function proposalSignBytes(chainId: string, p: Pick<Proposal, 'height' | 'round' | 'polRound' | 'blockId' | 'timestamp'>): Uint8Array {
  return lengthDelimited(
    encodeProto((w) => {
      w.varintField(1, SignedMsgType.Proposal);
      w.sfixed64Field(2, p.height);
      w.sfixed64Field(3, p.round);
      w.varintField(4, p.polRound);
      writeCanonicalBlockId(w, 5, p.blockId);
      w.messageAlways(6, (x) => writeTimestamp(x, p.timestamp));
      w.stringField(7, chainId);
    }, 160),
  );
}

/** Timestamp carried in canonical vote/proposal sign bytes (field 5 of a vote, 6 of a proposal). */
export function timestampFromSignBytes(signBytes: Uint8Array, kind: 'vote' | 'proposal'): Timestamp {
  const timestampField = kind === 'vote' ? 5 : 6;
  let ts: Timestamp = ZERO_TIME;
  const [payload] = readLengthDelimited(signBytes);
  readMessage(payload, (field, wire, r) => {
    if (field === timestampField && wire === 2) ts = readTimestamp(r.bytes());
    else r.skip(wire);
  });
  return ts;
}

export function writeVote(w: ProtoWriter, v: Vote): void {
  w.varintField(1, v.type);
  w.varintField(2, v.height);
  w.varintField(3, v.round);
  w.messageAlways(4, (x) => writeBlockId(x, v.blockId));
  w.messageAlways(5, (x) => writeTimestamp(x, v.timestamp));
  w.bytesField(6, v.validatorAddress);
  w.varintField(7, v.validatorIndex);
  w.bytesField(8, v.signature);
  w.bytesField(9, v.extension);
  w.bytesField(10, v.extensionSignature);
}

export function encodeVote(v: Vote): Uint8Array {
  return encodeProto((w) => writeVote(w, v), 200);
}

export function decodeVote(bytes: Uint8Array): Vote {
  const v: Vote = {
    type: SignedMsgType.Prevote,
    height: 0,
    round: 0,
    blockId: zeroBlockId(),
    timestamp: ZERO_TIME,
    validatorAddress: EMPTY_BYTES,
    validatorIndex: 0,
    signature: EMPTY_BYTES,
    extension: EMPTY_BYTES,
    extensionSignature: EMPTY_BYTES,
  };
  let type = 0;
  readMessage(bytes, (field, wire, r) => {
    if (wire === 0) {
      if (field === 1) type = r.int32();
      else if (field === 2) v.height = r.int64Number();
      else if (field === 3) v.round = r.int32();
      else if (field === 7) v.validatorIndex = r.int32();
      else r.skip(wire);
    } else if (wire === 2) {
      const b = r.bytes();
      if (field === 4) v.blockId = readBlockId(b);
      else if (field === 5) v.timestamp = readTimestamp(b);
      else if (field === 6) v.validatorAddress = b.slice();
      else if (field === 8) v.signature = b.slice();
      else if (field === 9) v.extension = b.slice();
      else if (field === 10) v.extensionSignature = b.slice();
    } else r.skip(wire);
  });
  if (!isVoteType(type)) throw new ConsensusError('INVALID_VOTE', 'invalid Type');
  v.type = type;
  return v;
}

export function writeProposal(w: ProtoWriter, p: Proposal): void {
  w.varintField(1, SignedMsgType.Proposal);
  w.varintField(2, p.height);
  w.varintField(3, p.round);
  w.varintField(4, p.polRound);
  w.messageAlways(5, (x) => writeBlockId(x, p.blockId));
  w.messageAlways(6, (x) => writeTimestamp(x, p.timestamp));
  w.bytesField(7, p.signature);
}

export function encodeProposal(p: Proposal): Uint8Array {
  return encodeProto((w) => writeProposal(w, p), 200);
}

export function decodeProposal(bytes: Uint8Array): Proposal {
  const p: Proposal = {
    type: SignedMsgType.Proposal,
    height: 0,
    round: 0,
    polRound: 0,
    blockId: zeroBlockId(),
    timestamp: ZERO_TIME,
    signature: EMPTY_BYTES,
  };
  let type = 0;
  readMessage(bytes, (field, wire, r) => {
    if (wire === 0) {
      if (field === 1) type = r.int32();
      else if (field === 2) p.height = r.int64Number();
      else if (field === 3) p.round = r.int32();
      else if (field === 4) p.polRound = r.int32();
      else r.skip(wire);
    } else if (wire === 2) {
      const b = r.bytes();
      if (field === 5) p.blockId = readBlockId(b);
      else if (field === 6) p.timestamp = readTimestamp(b);
      else if (field === 7) p.signature = b.slice();
    } else r.skip(wire);
  });
  if (type !== SignedMsgType.Proposal) throw new ConsensusError('INVALID_PROPOSAL', 'invalid Type');
  return p;
}

/** Stateless vote checks (Vote.ValidateBasic, without vote extensions). */
export function validateVoteBasic(v: Vote): void {
  const fail = (msg: string): never => {
    throw new ConsensusError('INVALID_VOTE', msg);
  };
  if (!isVoteType(v.type)) fail('invalid Type');
  if (v.height <= 0) fail('negative or zero Height');
  if (v.round < 0) fail('negative Round');
  validateBlockId(v.blockId, 'wrong BlockID');
  if (!blockIdIsZero(v.blockId) && !blockIdIsComplete(v.blockId)) fail('blockID must be either empty or complete');
  if (v.validatorAddress.length !== 20) fail(`expected ValidatorAddress size to be 20 bytes, got ${v.validatorAddress.length} bytes`);
  if (v.validatorIndex < 0) fail('negative ValidatorIndex');
  if (v.signature.length === 0) fail('signature is missing');
  if (v.signature.length > 64) fail('signature is too big (max: 64)');
  if (v.extension.length > 0 || v.extensionSignature.length > 0) fail('vote extensions are not enabled on this chain');
}

/** Check the vote's signer and signature against `pubKey`. */
export function verifyVote(chainId: string, v: Vote, pubKey: PubKey): void {
  if (!bytesEqual(pubKeyAddress(pubKey), v.validatorAddress)) throw new ConsensusError('INVALID_VOTE', 'invalid validator address');
  if (!verifySignature(pubKey, voteSignBytes(chainId, v), v.signature)) throw new ConsensusError('INVALID_VOTE', 'invalid signature');
}

export function validateProposalBasic(p: Proposal): void {
  const fail = (msg: string): never => {
    throw new ConsensusError('INVALID_PROPOSAL', msg);
  };
  if (p.height <= 0) fail('non positive Height');
  if (p.round < 0) fail('negative Round');
  if (p.polRound < -1) fail('negative POLRound (exception: -1)');
  validateBlockId(p.blockId, 'wrong BlockID');
  if (!blockIdIsComplete(p.blockId)) fail('expected a complete, non-empty BlockID');
  if (p.signature.length === 0) fail('signature is missing');
  if (p.signature.length > 64) fail('signature is too big (max: 64)');
}

/** The CommitSig a precommit contributes to a commit. */
export function voteToCommitSig(v: Vote | undefined): CommitSig {
  if (!v) return { blockIdFlag: BlockIdFlag.Absent, validatorAddress: EMPTY_BYTES, timestamp: ZERO_TIME, signature: EMPTY_BYTES };
  return {
    blockIdFlag: blockIdIsZero(v.blockId) ? BlockIdFlag.Nil : BlockIdFlag.Commit,
    validatorAddress: v.validatorAddress,
    timestamp: v.timestamp,
    signature: v.signature,
  };
}

/** Rebuild validator `index`'s precommit from a commit (Commit.GetVote); undefined when absent. */
export function commitSigToVote(commit: { height: number; round: number; blockId: BlockId; signatures: CommitSig[] }, index: number): Vote | undefined {
  const sig = commit.signatures[index];
  if (!sig || sig.blockIdFlag === BlockIdFlag.Absent) return undefined;
  return {
    type: SignedMsgType.Precommit,
    height: commit.height,
    round: commit.round,
    blockId: sig.blockIdFlag === BlockIdFlag.Commit ? commit.blockId : zeroBlockId(),
    timestamp: sig.timestamp,
    validatorAddress: sig.validatorAddress,
    validatorIndex: index,
    signature: sig.signature,
    extension: EMPTY_BYTES,
    extensionSignature: EMPTY_BYTES,
  };
}
