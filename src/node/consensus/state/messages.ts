/**
 * tendermint.consensus.Message: what the consensus reactor gossips (channels 0x20–0x23), with
 * the subset the engine consumes and records in the WAL (proposal = 3, block_part = 5, vote = 6).
 * Decoding validates each message as CometBFT's ValidateBasic does, so a peer's malformed message
 * is refused before it reaches the engine.
 */
import { ConsensusError } from '../errors.js';
import { BitArray, readBitArray, writeBitArray } from '../types/bitArray.js';
import { readBlockId, readPartSetHeader, validateBlockId, writeBlockId, writePartSetHeader, type BlockId, type PartSetHeader } from '../types/block.js';
import { readPart, writePart, type Part } from '../types/partset.js';
import { ProtoWriter, encodeProto, readMessage } from '../types/proto.js';
import { decodeProposal, decodeVote, isVoteType, validateProposalBasic, validateVoteBasic, writeProposal, writeVote, type Proposal, type Vote, type VoteType } from '../types/vote.js';

/** Messages the engine handles (and logs to the WAL). */
export type ConsensusMessage =
  | { type: 'proposal'; proposal: Proposal }
  | { type: 'blockPart'; height: number; round: number; part: Part }
  | { type: 'vote'; vote: Vote };

/** Every message of the consensus reactor. */
export type ReactorMessage =
  | ConsensusMessage
  | { type: 'newRoundStep'; height: number; round: number; step: number; secondsSinceStartTime: number; lastCommitRound: number }
  | { type: 'newValidBlock'; height: number; round: number; blockPartSetHeader: PartSetHeader; blockParts: BitArray; isCommit: boolean }
  | { type: 'proposalPol'; height: number; proposalPolRound: number; proposalPol: BitArray }
  | { type: 'hasVote'; height: number; round: number; voteType: VoteType; index: number }
  | { type: 'voteSetMaj23'; height: number; round: number; voteType: VoteType; blockId: BlockId }
  | { type: 'voteSetBits'; height: number; round: number; voteType: VoteType; blockId: BlockId; votes: BitArray };

/** Largest number of parts a block may have (types.MaxBlockPartsCount: 100 MiB / 64 KiB + 1). */
export const MAX_BLOCK_PARTS_COUNT = 1601;

export function messageHeight(m: ConsensusMessage): number {
  switch (m.type) {
    case 'proposal':
      return m.proposal.height;
    case 'blockPart':
      return m.height;
    case 'vote':
      return m.vote.height;
  }
}

export function writeConsensusMessage(w: ProtoWriter, m: ReactorMessage): void {
  switch (m.type) {
    case 'newRoundStep':
      w.messageAlways(1, (x) => {
        x.varintField(1, m.height);
        x.varintField(2, m.round);
        x.varintField(3, m.step);
        x.varintField(4, m.secondsSinceStartTime);
        x.varintField(5, m.lastCommitRound);
      });
      return;
    case 'newValidBlock':
      w.messageAlways(2, (x) => {
        x.varintField(1, m.height);
        x.varintField(2, m.round);
        x.messageAlways(3, (y) => writePartSetHeader(y, m.blockPartSetHeader));
        x.messageAlways(4, (y) => writeBitArray(y, m.blockParts));
        x.varintField(5, m.isCommit);
      });
      return;
    case 'proposal':
      w.messageAlways(3, (x) => x.messageAlways(1, (y) => writeProposal(y, m.proposal)));
      return;
    case 'proposalPol':
      w.messageAlways(4, (x) => {
        x.varintField(1, m.height);
        x.varintField(2, m.proposalPolRound);
        x.messageAlways(3, (y) => writeBitArray(y, m.proposalPol));
      });
      return;
    case 'blockPart':
      w.messageAlways(5, (x) => {
        x.varintField(1, m.height);
        x.varintField(2, m.round);
        x.messageAlways(3, (y) => writePart(y, m.part));
      });
      return;
    case 'vote':
      w.messageAlways(6, (x) => x.messageAlways(1, (y) => writeVote(y, m.vote)));
      return;
    case 'hasVote':
      w.messageAlways(7, (x) => {
        x.varintField(1, m.height);
        x.varintField(2, m.round);
        x.varintField(3, m.voteType);
        x.varintField(4, m.index);
      });
      return;
    case 'voteSetMaj23':
      w.messageAlways(8, (x) => {
        x.varintField(1, m.height);
        x.varintField(2, m.round);
        x.varintField(3, m.voteType);
        x.messageAlways(4, (y) => writeBlockId(y, m.blockId));
      });
      return;
    case 'voteSetBits':
      w.messageAlways(9, (x) => {
        x.varintField(1, m.height);
        x.varintField(2, m.round);
        x.varintField(3, m.voteType);
        x.messageAlways(4, (y) => writeBlockId(y, m.blockId));
        x.messageAlways(5, (y) => writeBitArray(y, m.votes));
      });
      return;
  }
}

export function encodeConsensusMessage(m: ReactorMessage): Uint8Array {
  return encodeProto((w) => writeConsensusMessage(w, m), m.type === 'blockPart' ? m.part.bytes.length + 512 : 256);
}

function fail(msg: string): never {
  throw new ConsensusError('DECODE', msg);
}

function checkHeightRound(height: number, round: number): void {
  if (height < 0) fail('negative Height');
  if (round < 0) fail('negative Round');
}

function readVoteType(v: number): VoteType {
  if (!isVoteType(v)) fail('invalid Type');
  return v;
}

/** Decode and validate one message; throws DECODE for anything malformed. */
export function decodeConsensusMessage(bytes: Uint8Array): ReactorMessage {
  let out: ReactorMessage | undefined;
  readMessage(bytes, (field, wire, r) => {
    if (wire !== 2) return r.skip(wire);
    const b = r.bytes();
    switch (field) {
      case 1: {
        const m = { type: 'newRoundStep' as const, height: 0, round: 0, step: 0, secondsSinceStartTime: 0, lastCommitRound: 0 };
        readMessage(b, (f, wt, rr) => {
          if (wt !== 0) return rr.skip(wt);
          if (f === 1) m.height = rr.int64Number();
          else if (f === 2) m.round = rr.int32();
          else if (f === 3) m.step = rr.uvarint();
          else if (f === 4) m.secondsSinceStartTime = rr.int64Number();
          else if (f === 5) m.lastCommitRound = rr.int32();
          else rr.skip(wt);
        });
        checkHeightRound(m.height, m.round);
        if (m.step < 1 || m.step > 8) fail('invalid Step');
        if (m.lastCommitRound < -1) fail('invalid LastCommitRound (cannot be < -1)');
        out = m;
        return;
      }
      case 2: {
        let height = 0;
        let round = 0;
        let psh: PartSetHeader = { total: 0, hash: new Uint8Array(0) };
        let parts: BitArray | undefined;
        let isCommit = false;
        readMessage(b, (f, wt, rr) => {
          if (f === 1 && wt === 0) height = rr.int64Number();
          else if (f === 2 && wt === 0) round = rr.int32();
          else if (f === 3 && wt === 2) psh = readPartSetHeader(rr.bytes());
          else if (f === 4 && wt === 2) parts = readBitArray(rr.bytes());
          else if (f === 5 && wt === 0) isCommit = rr.uvarint() !== 0;
          else rr.skip(wt);
        });
        checkHeightRound(height, round);
        if (psh.hash.length !== 0 && psh.hash.length !== 32) fail('wrong BlockPartSetHeader: wrong Hash');
        if (!parts || parts.size === 0) fail('empty blockParts');
        if (parts.size !== psh.total) fail(`blockParts bit array size ${parts.size} not equal to BlockPartSetHeader.Total ${psh.total}`);
        if (parts.size > MAX_BLOCK_PARTS_COUNT) fail(`blockParts bit array is too big: ${parts.size}, max: ${MAX_BLOCK_PARTS_COUNT}`);
        out = { type: 'newValidBlock', height, round, blockPartSetHeader: psh, blockParts: parts, isCommit };
        return;
      }
      case 3: {
        let proposal: Proposal | undefined;
        readMessage(b, (f, wt, rr) => {
          if (f === 1 && wt === 2) proposal = decodeProposal(rr.bytes());
          else rr.skip(wt);
        });
        if (!proposal) fail('proposal message without a proposal');
        validateProposalBasic(proposal);
        out = { type: 'proposal', proposal };
        return;
      }
      case 4: {
        let height = 0;
        let polRound = 0;
        let pol: BitArray | undefined;
        readMessage(b, (f, wt, rr) => {
          if (f === 1 && wt === 0) height = rr.int64Number();
          else if (f === 2 && wt === 0) polRound = rr.int32();
          else if (f === 3 && wt === 2) pol = readBitArray(rr.bytes());
          else rr.skip(wt);
        });
        if (height < 0) fail('negative Height');
        if (polRound < 0) fail('negative ProposalPOLRound');
        if (!pol || pol.size === 0) fail('empty ProposalPOL bit array');
        out = { type: 'proposalPol', height, proposalPolRound: polRound, proposalPol: pol };
        return;
      }
      case 5: {
        let height = 0;
        let round = 0;
        let part: Part | undefined;
        readMessage(b, (f, wt, rr) => {
          if (f === 1 && wt === 0) height = rr.int64Number();
          else if (f === 2 && wt === 0) round = rr.int32();
          else if (f === 3 && wt === 2) part = readPart(rr.bytes());
          else rr.skip(wt);
        });
        checkHeightRound(height, round);
        if (!part) fail('block part message without a part');
        if (part.index < 0) fail('wrong Part: negative Index');
        if (part.bytes.length > 65536) fail(`wrong Part: too big: ${part.bytes.length} bytes, max: 65536`);
        out = { type: 'blockPart', height, round, part };
        return;
      }
      case 6: {
        let vote: Vote | undefined;
        readMessage(b, (f, wt, rr) => {
          if (f === 1 && wt === 2) vote = decodeVote(rr.bytes());
          else rr.skip(wt);
        });
        if (!vote) fail('vote message without a vote');
        validateVoteBasic(vote);
        out = { type: 'vote', vote };
        return;
      }
      case 7: {
        let height = 0;
        let round = 0;
        let type = 0;
        let index = 0;
        readMessage(b, (f, wt, rr) => {
          if (wt !== 0) return rr.skip(wt);
          if (f === 1) height = rr.int64Number();
          else if (f === 2) round = rr.int32();
          else if (f === 3) type = rr.uvarint();
          else if (f === 4) index = rr.int32();
          else rr.skip(wt);
        });
        checkHeightRound(height, round);
        if (index < 0) fail('negative Index');
        out = { type: 'hasVote', height, round, voteType: readVoteType(type), index };
        return;
      }
      case 8:
      case 9: {
        let height = 0;
        let round = 0;
        let type = 0;
        let blockId: BlockId | undefined;
        let votes: BitArray | undefined;
        readMessage(b, (f, wt, rr) => {
          if (f === 1 && wt === 0) height = rr.int64Number();
          else if (f === 2 && wt === 0) round = rr.int32();
          else if (f === 3 && wt === 0) type = rr.uvarint();
          else if (f === 4 && wt === 2) blockId = readBlockId(rr.bytes());
          else if (f === 5 && wt === 2) votes = readBitArray(rr.bytes());
          else rr.skip(wt);
        });
        if (height < 0) fail('negative Height');
        if (field === 8 && round < 0) fail('negative Round');
        const voteType = readVoteType(type);
        const id = blockId ?? { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } };
        try {
          validateBlockId(id, 'wrong BlockID');
        } catch (err) {
          fail((err as Error).message);
        }
        out = field === 8 ? { type: 'voteSetMaj23', height, round, voteType, blockId: id } : { type: 'voteSetBits', height, round, voteType, blockId: id, votes: votes ?? new BitArray(0) };
        return;
      }
      default:
        return;
    }
  });
  if (!out) fail('unknown consensus message');
  return out;
}
