/**
 * Consensus messages exchanged between engines (and recorded in the WAL), with their
 * tendermint.consensus.Message protobuf encoding (proposal=3, block_part=5, vote=6).
 */
import { ConsensusError } from '../errors.js';
import { decodeCommit, encodeCommit, type Commit } from '../types/block.js';
import { readPart, writePart, type Part } from '../types/partset.js';
import { ProtoWriter, encodeProto, readMessage } from '../types/proto.js';
import { decodeProposal, decodeVote, writeProposal, writeVote, type Proposal, type Vote } from '../types/vote.js';

export type ConsensusMessage =
  | { type: 'proposal'; proposal: Proposal }
  | { type: 'blockPart'; height: number; round: number; part: Part }
  | { type: 'vote'; vote: Vote };

/**
 * Catch-up messages (this engine's minimal block sync): a node that sees a peer ahead asks for
 * the decided block of its height; the peer answers with the stored block parts and commit.
 */
export type SyncMessage =
  | { type: 'syncRequest'; height: number }
  | { type: 'syncResponse'; height: number; parts: Part[]; partSetTotal: number; partSetHash: Uint8Array; commit: Commit };

/** Mempool gossip: a tx admitted by a peer's CheckTx. */
export interface TxMessage {
  type: 'tx';
  tx: Uint8Array;
}

export type PeerMessage = ConsensusMessage | SyncMessage | TxMessage;

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

export function writeConsensusMessage(w: ProtoWriter, m: ConsensusMessage): void {
  switch (m.type) {
    case 'proposal':
      w.messageAlways(3, (x) => x.messageAlways(1, (y) => writeProposal(y, m.proposal)));
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
  }
}

export function encodeConsensusMessage(m: ConsensusMessage): Uint8Array {
  return encodeProto((w) => writeConsensusMessage(w, m), m.type === 'blockPart' ? m.part.bytes.length + 512 : 256);
}

export function decodeConsensusMessage(bytes: Uint8Array): ConsensusMessage {
  let out: ConsensusMessage | undefined;
  readMessage(bytes, (field, wire, r) => {
    if (wire !== 2) {
      r.skip(wire);
      return;
    }
    const b = r.bytes();
    if (field === 3) {
      readMessage(b, (f, wt, rr) => {
        if (f === 1 && wt === 2) out = { type: 'proposal', proposal: decodeProposal(rr.bytes()) };
        else rr.skip(wt);
      });
    } else if (field === 5) {
      let height = 0;
      let round = 0;
      let part: Part | undefined;
      readMessage(b, (f, wt, rr) => {
        if (f === 1 && wt === 0) height = rr.int64Number();
        else if (f === 2 && wt === 0) round = rr.int32();
        else if (f === 3 && wt === 2) part = readPart(rr.bytes());
        else rr.skip(wt);
      });
      if (part) out = { type: 'blockPart', height, round, part };
    } else if (field === 6) {
      readMessage(b, (f, wt, rr) => {
        if (f === 1 && wt === 2) out = { type: 'vote', vote: decodeVote(rr.bytes()) };
        else rr.skip(wt);
      });
    }
  });
  if (!out) throw new ConsensusError('DECODE', 'unknown consensus message');
  return out;
}

/** Sync and tx-gossip messages use a private encoding (field numbers 100+ so they never collide with Message). */
export function encodePeerMessage(m: PeerMessage): Uint8Array {
  if (m.type === 'tx') return encodeProto((w) => w.bytesAlways(102, m.tx), m.tx.length + 8);
  if (m.type === 'syncRequest') return encodeProto((w) => w.messageAlways(100, (x) => x.varintField(1, m.height)), 16);
  if (m.type === 'syncResponse') {
    return encodeProto((w) =>
      w.messageAlways(101, (x) => {
        x.varintField(1, m.height);
        for (const p of m.parts) x.messageAlways(2, (y) => writePart(y, p));
        x.varintField(3, m.partSetTotal);
        x.bytesField(4, m.partSetHash);
        x.bytesAlways(5, encodeCommit(m.commit));
      }),
    );
  }
  return encodeConsensusMessage(m);
}

export function decodePeerMessage(bytes: Uint8Array): PeerMessage {
  let sync: SyncMessage | TxMessage | undefined;
  readMessage(bytes, (field, wire, r) => {
    if (field === 102 && wire === 2) {
      sync = { type: 'tx', tx: r.bytes().slice() };
    } else if (field === 100 && wire === 2) {
      let height = 0;
      readMessage(r.bytes(), (f, wt, rr) => {
        if (f === 1 && wt === 0) height = rr.int64Number();
        else rr.skip(wt);
      });
      sync = { type: 'syncRequest', height };
    } else if (field === 101 && wire === 2) {
      const m: Extract<SyncMessage, { type: 'syncResponse' }> = {
        type: 'syncResponse',
        height: 0,
        parts: [],
        partSetTotal: 0,
        partSetHash: new Uint8Array(0),
        commit: { height: 0, round: 0, blockId: { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } }, signatures: [] },
      };
      readMessage(r.bytes(), (f, wt, rr) => {
        if (f === 1 && wt === 0) m.height = rr.int64Number();
        else if (f === 2 && wt === 2) m.parts.push(readPart(rr.bytes()));
        else if (f === 3 && wt === 0) m.partSetTotal = rr.uvarint();
        else if (f === 4 && wt === 2) m.partSetHash = rr.bytes().slice();
        else if (f === 5 && wt === 2) m.commit = decodeCommit(rr.bytes());
        else rr.skip(wt);
      });
      sync = m;
    } else {
      r.skip(wire);
    }
  });
  return sync ?? decodeConsensusMessage(bytes);
}
