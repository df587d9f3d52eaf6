/**
 * The mempool reactor (mempool/reactor.go) on channel 0x30 with tendermint.mempool.Message:
 * every tx admitted to our mempool is sent to each peer, in admission order, except to the peers
 * it came from; txs from peers go through CheckTx like local submissions. A peer whose consensus
 * height is more than one block behind a tx's is skipped until it catches up (it could not
 * include the tx yet). Several ready txs travel in one Txs message (up to 64 KiB).
 */
import type { Logger } from '../../logger.js';
import { nullLogger } from '../../logger.js';
import { P2PError } from '../../p2p/errors.js';
import type { ChannelDescriptor } from '../../p2p/conn/mconnection.js';
import { FlowLimiter } from '../../p2p/conn/flowrate.js';
import type { Peer } from '../../p2p/peer.js';
import type { Reactor, Switchboard } from '../../p2p/switch.js';
import { encodeProto, readMessage } from '../types/proto.js';
import { ConsensusReactor } from '../reactor.js';
import type { Mempool, MempoolTx } from './mempool.js';

export const MEMPOOL_CHANNEL = 0x30;
const BATCH_MAX_BYTES = 64 * 1024;
const PEER_CATCHUP_SLEEP_MS = 100;
/** Messages per second a peer may send (burst: 2 s worth). */
const PEER_MESSAGES_PER_S = 10000;

export function encodeTxs(txs: readonly Uint8Array[]): Uint8Array {
  let size = 8;
  for (const tx of txs) size += tx.length + 6;
  return encodeProto((w) => w.messageAlways(1, (x) => txs.forEach((tx) => x.bytesAlways(1, tx))), size);
}

export function decodeTxs(bytes: Uint8Array): Uint8Array[] {
  const txs: Uint8Array[] = [];
  let found = false;
  readMessage(bytes, (field, wire, r) => {
    if (field !== 1 || wire !== 2) return r.skip(wire);
    found = true;
    readMessage(r.bytes(), (f, wt, rr) => {
      if (f === 1 && wt === 2) txs.push(rr.bytes().slice());
      else rr.skip(wt);
    });
  });
  if (!found) throw new P2PError('PROTOCOL', 'mempool: unknown message');
  if (txs.length === 0) throw new P2PError('PROTOCOL', 'mempool: empty txs from peer');
  return txs;
}

export interface MempoolReactorOptions {
  /** [mempool] broadcast: gossip txs to peers. */
  broadcast: boolean;
  maxTxBytes: number;
}

export class MempoolReactor implements Reactor {
  readonly name = 'MEMPOOL';
  private sw: Switchboard | undefined;
  private running = false;
  private readonly routines = new Map<string, { stopped: boolean }>();
  private readonly limiters = new Map<string, FlowLimiter>();
  private readonly logger: Logger;

  constructor(
    private readonly mempool: Mempool,
    private readonly options: MempoolReactorOptions,
    logger?: Logger,
  ) {
    this.logger = logger ?? nullLogger;
  }

  channels(): ChannelDescriptor[] {
    return [{ id: MEMPOOL_CHANNEL, priority: 5, sendQueueCapacity: 100, recvMessageCapacity: Math.max(BATCH_MAX_BYTES, this.options.maxTxBytes) + 64 }];
  }

  setSwitch(sw: Switchboard): void {
    this.sw = sw;
  }

  start(): void {
    this.running = true;
  }

  stop(): void {
    this.running = false;
    for (const r of this.routines.values()) r.stopped = true;
  }

  addPeer(peer: Peer): void {
    this.limiters.set(peer.id, new FlowLimiter(PEER_MESSAGES_PER_S, PEER_MESSAGES_PER_S * 2));
    if (!this.options.broadcast || !this.running) return;
    const routine = { stopped: false };
    const previous = this.routines.get(peer.id);
    if (previous) previous.stopped = true;
    this.routines.set(peer.id, routine);
    void this.broadcastTxRoutine(peer, routine);
  }

  removePeer(peer: Peer): void {
    const routine = this.routines.get(peer.id);
    if (routine) routine.stopped = true;
    this.routines.delete(peer.id);
    this.limiters.delete(peer.id);
  }

  receive(_channelId: number, peer: Peer, message: Buffer): void {
    const limiter = this.limiters.get(peer.id);
    if (limiter) {
      limiter.update(1);
      if (limiter.available() <= 0) throw new P2PError('FLOOD', `mempool: peer sends more than ${PEER_MESSAGES_PER_S} messages per second`);
    }
    const txs = decodeTxs(message);
    for (const tx of txs) {
      this.mempool.checkTx(tx, { sender: peer.id }).catch((err: Error) => {
        this.logger.trace('peer tx not added to the mempool', { peer: peer.id, err: err.message });
      });
    }
  }

  private async broadcastTxRoutine(peer: Peer, routine: { stopped: boolean }): Promise<void> {
    let cursor = 0;
    while (!routine.stopped && this.running && peer.isRunning) {
      const first = this.mempool.nextAfter(cursor);
      if (!first) {
        await this.mempool.waitForNewTx(PEER_CATCHUP_SLEEP_MS);
        continue;
      }
      const peerHeight = ConsensusReactor.peerHeight(peer);
      if (peerHeight !== undefined && peerHeight > 0 && peerHeight < first.height - 1) {
        await new Promise((r) => setTimeout(r, PEER_CATCHUP_SLEEP_MS));
        continue;
      }
      // Collect ready txs (skipping those the peer sent us) up to one batch.
      const batch: Uint8Array[] = [];
      let bytes = 0;
      let last = cursor;
      for (let entry: MempoolTx | undefined = first; entry; entry = this.mempool.nextAfter(entry.seq)) {
        if (bytes > 0 && bytes + entry.tx.length > BATCH_MAX_BYTES) break;
        if (peerHeight !== undefined && peerHeight > 0 && peerHeight < entry.height - 1) break;
        last = entry.seq;
        if (entry.senders.has(peer.id)) continue;
        batch.push(entry.tx);
        bytes += entry.tx.length;
      }
      if (batch.length > 0 && !peer.send(MEMPOOL_CHANNEL, encodeTxs(batch))) {
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      cursor = last;
      await new Promise((r) => setImmediate(r));
    }
  }

  /** The switch this reactor is registered with (tests). */
  get switchboard(): Switchboard | undefined {
    return this.sw;
  }
}
