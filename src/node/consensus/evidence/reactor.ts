/**
 * The evidence reactor (evidence/reactor.go) on channel 0x38 with tendermint.types.EvidenceList:
 * every pending piece of evidence is sent once to each peer whose consensus height is past the
 * evidence's height; evidence from peers is verified by the pool, and a peer that sends invalid
 * evidence is stopped and banned.
 */
import type { Logger } from '../../logger.js';
import { nullLogger } from '../../logger.js';
import { P2PError } from '../../p2p/errors.js';
import type { ChannelDescriptor } from '../../p2p/conn/mconnection.js';
import type { Peer } from '../../p2p/peer.js';
import type { Reactor, Switchboard } from '../../p2p/switch.js';
import { isConsensusError } from '../errors.js';
import { encodeProto, readMessage } from '../types/proto.js';
import { ConsensusReactor } from '../reactor.js';
import { decodeEvidence, encodeEvidence, evidenceKey, type DuplicateVoteEvidence } from './evidence.js';
import type { EvidencePool } from './pool.js';

export const EVIDENCE_CHANNEL = 0x38;
const MAX_MSG_BYTES = 1048576;
const BROADCAST_INTERVAL_MS = 500;

export function encodeEvidenceList(list: readonly DuplicateVoteEvidence[]): Uint8Array {
  return encodeProto((w) => list.forEach((ev) => w.bytesAlways(1, encodeEvidence(ev))), 1024);
}

export function decodeEvidenceList(bytes: Uint8Array): DuplicateVoteEvidence[] {
  const out: DuplicateVoteEvidence[] = [];
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 2) out.push(decodeEvidence(r.bytes()));
    else r.skip(wire);
  });
  return out;
}

export class EvidenceReactor implements Reactor {
  readonly name = 'EVIDENCE';
  private sw: Switchboard | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly sent = new Map<string, Set<string>>();
  private readonly logger: Logger;

  constructor(
    private readonly pool: EvidencePool,
    logger?: Logger,
  ) {
    this.logger = logger ?? nullLogger;
    pool.onNewEvidence(() => this.broadcast());
  }

  channels(): ChannelDescriptor[] {
    return [{ id: EVIDENCE_CHANNEL, priority: 6, sendQueueCapacity: 100, recvMessageCapacity: MAX_MSG_BYTES }];
  }

  setSwitch(sw: Switchboard): void {
    this.sw = sw;
  }

  start(): void {
    this.timer = setInterval(() => this.broadcast(), BROADCAST_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  addPeer(peer: Peer): void {
    this.sent.set(peer.id, new Set());
    this.sendTo(peer);
  }

  removePeer(peer: Peer): void {
    this.sent.delete(peer.id);
  }

  receive(_channelId: number, peer: Peer, message: Buffer): void {
    let list: DuplicateVoteEvidence[];
    try {
      list = decodeEvidenceList(message);
    } catch (err) {
      throw new P2PError('PROTOCOL', `evidence: invalid message: ${(err as Error).message}`);
    }
    for (const ev of list) {
      this.sent.get(peer.id)?.add(evidenceKey(ev));
      this.pool.addEvidence(ev).catch((err: Error) => {
        if (isConsensusError(err, 'INVALID_BLOCK')) {
          this.logger.error('peer sent invalid evidence', { peer: peer.id, err: err.message });
          this.sw?.stopPeerForError(peer, new P2PError('MISBEHAVIOUR', `evidence: ${err.message}`));
        } else {
          this.logger.error('failed to add evidence', { peer: peer.id, err: err.message });
        }
      });
    }
  }

  private broadcast(): void {
    for (const peer of this.sw?.peers() ?? []) this.sendTo(peer);
  }

  private sendTo(peer: Peer): void {
    const sent = this.sent.get(peer.id);
    if (!sent || !peer.isRunning) return;
    const peerHeight = ConsensusReactor.peerHeight(peer) ?? 0;
    for (const ev of this.pool.pendingList()) {
      const key = evidenceKey(ev);
      if (sent.has(key) || peerHeight <= ev.voteA.height) continue;
      if (peer.send(EVIDENCE_CHANNEL, encodeEvidenceList([ev]))) sent.add(key);
    }
  }
}
