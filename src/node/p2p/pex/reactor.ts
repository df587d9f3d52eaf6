/**
 * Peer exchange (p2p/pex/pex_reactor.go) on channel 0x00 with tendermint.p2p.Message:
 * outbound peers are asked for addresses while the book needs more; inbound peers' announced
 * addresses are learned; every `ensure_peers` period (30 s) the node dials addresses from the book
 * up to `max_num_outbound_peers`, falling back to the seeds. In seed mode the node crawls the
 * book instead, answers one address request per inbound peer and hangs up.
 *
 * Abuse: a second request sooner than a third of the period, an address list we did not ask for,
 * or one longer than the largest selection stops (and bans) the peer.
 */
import type { Logger } from '../../logger.js';
import { nullLogger } from '../../logger.js';
import { ProtoWriter, encodeProto, readMessage } from '../../consensus/types/proto.js';
import type { ChannelDescriptor } from '../conn/mconnection.js';
import { P2PError } from '../errors.js';
import { formatNetAddress, type NetAddress } from '../netAddress.js';
import { nodeInfoNetAddress } from '../nodeInfo.js';
import type { Peer } from '../peer.js';
import type { Reactor, Switchboard } from '../switch.js';
import { MAX_GET_SELECTION, type AddrBook } from './addrBook.js';

export const PEX_CHANNEL = 0x00;
const MAX_ADDRESS_SIZE = 256;
const MAX_MSG_SIZE = MAX_ADDRESS_SIZE * MAX_GET_SELECTION;
export const DEFAULT_ENSURE_PEERS_PERIOD_MS = 30_000;
const MIN_TIME_BETWEEN_CRAWLS_MS = 2 * 60_000;
const CRAWL_PEER_PERIOD_MS = 30_000;
const SEED_DISCONNECT_WAIT_MS = 3_000;
const SAVE_PERIOD_MS = 2 * 60_000;

export type PexMessage = { type: 'request' } | { type: 'addrs'; addrs: NetAddress[] };

export function encodePexMessage(msg: PexMessage): Uint8Array {
  if (msg.type === 'request') return encodeProto((w) => w.messageAlways(1, () => undefined), 4);
  return encodeProto((w: ProtoWriter) =>
    w.messageAlways(2, (x) => {
      for (const a of msg.addrs) {
        x.messageAlways(1, (y) => {
          y.stringField(1, a.id);
          y.stringField(2, a.host);
          y.varintField(3, a.port);
        });
      }
    }),
  );
}

export function decodePexMessage(bytes: Uint8Array): PexMessage {
  let out: PexMessage | undefined;
  readMessage(bytes, (field, wire, r) => {
    if (wire !== 2) return r.skip(wire);
    const inner = r.bytes();
    if (field === 1) out = { type: 'request' };
    else if (field === 2) {
      const addrs: NetAddress[] = [];
      readMessage(inner, (f, wt, rr) => {
        if (f !== 1 || wt !== 2) return rr.skip(wt);
        const a: NetAddress = { id: '', host: '', port: 0 };
        readMessage(rr.bytes(), (g, w3, r3) => {
          if (g === 1 && w3 === 2) a.id = r3.string();
          else if (g === 2 && w3 === 2) a.host = r3.string();
          else if (g === 3 && w3 === 0) a.port = r3.uvarint();
          else r3.skip(w3);
        });
        addrs.push(a);
      });
      out = { type: 'addrs', addrs };
    }
  });
  if (!out) throw new P2PError('PROTOCOL', 'unknown PEX message');
  return out;
}

export interface PexReactorOptions {
  seedMode: boolean;
  seeds: NetAddress[];
  ensurePeersPeriodMs: number;
  banDurationMs: number;
}

export class PexReactor implements Reactor {
  readonly name = 'PEX';
  private sw: Switchboard | undefined;
  private readonly requestsSent = new Set<string>();
  private readonly lastReceivedRequests = new Map<string, number>();
  private readonly crawled = new Map<string, number>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly logger: Logger;

  constructor(
    readonly book: AddrBook,
    private readonly options: PexReactorOptions,
    logger?: Logger,
  ) {
    this.logger = logger ?? nullLogger;
  }

  channels(): ChannelDescriptor[] {
    return [{ id: PEX_CHANNEL, priority: 1, sendQueueCapacity: 10, recvMessageCapacity: MAX_MSG_SIZE }];
  }

  setSwitch(sw: Switchboard): void {
    this.sw = sw;
    this.book.addOurAddress(sw.nodeId);
  }

  start(): void {
    const period = this.options.ensurePeersPeriodMs;
    if (this.options.seedMode) {
      this.every(CRAWL_PEER_PERIOD_MS, () => this.crawl());
      this.schedule(500, () => this.crawl());
    } else {
      this.every(period, () => this.ensurePeers(true));
      this.schedule(1000 + Math.random() * 500, () => this.ensurePeers(true));
    }
    this.every(SAVE_PERIOD_MS, () => this.book.save());
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.length = 0;
    this.book.save();
  }

  private every(ms: number, fn: () => void): void {
    const t = setInterval(fn, ms);
    t.unref();
    this.timers.push(t);
  }

  private schedule(ms: number, fn: () => void): void {
    const t = setTimeout(fn, ms);
    t.unref();
    this.timers.push(t);
  }

  addPeer(peer: Peer): void {
    if (peer.isOutbound) {
      if (this.book.needMoreAddrs()) this.requestAddrs(peer);
      return;
    }
    let addr: NetAddress;
    try {
      addr = nodeInfoNetAddress(peer.nodeInfo);
    } catch (err) {
      this.logger.error('failed to get peer NetAddress', { peer: peer.id, err: (err as Error).message });
      return;
    }
    this.book.addAddress(addr, addr);
  }

  removePeer(peer: Peer): void {
    this.requestsSent.delete(peer.id);
    if (!peer.isOutbound) this.lastReceivedRequests.delete(peer.id);
  }

  requestAddrs(peer: Peer): void {
    if (this.requestsSent.has(peer.id)) return;
    this.requestsSent.add(peer.id);
    peer.send(PEX_CHANNEL, encodePexMessage({ type: 'request' }));
  }

  receive(_channelId: number, peer: Peer, message: Buffer): void {
    const msg = decodePexMessage(message);
    if (msg.type === 'request') {
      if (this.options.seedMode && !peer.isOutbound) {
        if (this.lastReceivedRequests.has(peer.id)) return;
        this.lastReceivedRequests.set(peer.id, Date.now());
        peer.send(PEX_CHANNEL, encodePexMessage({ type: 'addrs', addrs: this.book.getSelection() }));
        this.schedule(SEED_DISCONNECT_WAIT_MS, () => this.sw?.stopPeerGracefully(peer));
        return;
      }
      this.checkRequestRate(peer);
      peer.send(PEX_CHANNEL, encodePexMessage({ type: 'addrs', addrs: this.book.getSelection() }));
      return;
    }
    if (!this.requestsSent.has(peer.id)) throw new P2PError('FLOOD', 'unsolicited pexAddrsMessage');
    this.requestsSent.delete(peer.id);
    if (msg.addrs.length > MAX_GET_SELECTION) throw new P2PError('FLOOD', `too many addresses in one PEX message (${msg.addrs.length} > ${MAX_GET_SELECTION})`);
    let src: NetAddress;
    try {
      src = nodeInfoNetAddress(peer.nodeInfo);
    } catch {
      src = peer.socketAddr;
    }
    for (const addr of msg.addrs) this.book.addAddress(addr, src);
    if (this.options.seeds.some((s) => s.id === peer.id)) this.ensurePeers(false);
  }

  /** A peer may ask once right after connecting and then once per third of the ensure period. */
  private checkRequestRate(peer: Peer): void {
    const last = this.lastReceivedRequests.get(peer.id);
    if (last === undefined) {
      this.lastReceivedRequests.set(peer.id, 0);
      return;
    }
    const now = Date.now();
    if (last === 0) {
      this.lastReceivedRequests.set(peer.id, now);
      return;
    }
    const minInterval = this.options.ensurePeersPeriodMs / 3;
    if (now - last < minInterval) {
      throw new P2PError('FLOOD', `peer (${peer.id}) sent next PEX request too soon. minInterval: ${minInterval}ms. Disconnecting`);
    }
    this.lastReceivedRequests.set(peer.id, now);
  }

  /** Dial addresses from the book up to the outbound limit; fall back to seeds (ensurePeers). */
  ensurePeers(periodElapsed: boolean): void {
    const sw = this.sw;
    if (!sw) return;
    const { outbound, dialing } = sw.numPeers();
    const numToDial = sw.maxNumOutboundPeers() - (outbound + dialing);
    const toDial = new Map<string, NetAddress>();
    if (numToDial > 0) {
      const newBias = Math.min(outbound, 8) * 10 + 10;
      for (let i = 0; i < numToDial * 3 && toDial.size < numToDial; i++) {
        const addr = this.book.pickAddress(newBias, (a) => toDial.has(a.id) || sw.isDialingOrExistingAddress(a) || sw.isBanned(a.id));
        if (addr) toDial.set(addr.id, addr);
      }
      for (const addr of toDial.values()) {
        sw.dialPeerWithAddress(addr).catch((err: Error) => this.logger.debug('error dialing address from the book', { address: formatNetAddress(addr), err: err.message }));
      }
    }
    if (this.book.needMoreAddrs()) {
      const peers = sw.peers();
      if (peers.length > 0 && periodElapsed) this.requestAddrs(peers[Math.floor(Math.random() * peers.length)]!);
      if (toDial.size === 0 && numToDial > 0 && peers.length === 0) this.dialSeeds();
    }
  }

  private dialSeeds(): void {
    const sw = this.sw;
    const seeds = [...this.options.seeds].sort(() => Math.random() - 0.5);
    if (!sw || seeds.length === 0) return;
    const tryNext = (i: number): void => {
      if (i >= seeds.length) {
        this.logger.error("couldn't connect to any seeds");
        return;
      }
      sw.dialPeerWithAddress(seeds[i]!).catch((err: Error) => {
        if (err instanceof P2PError && err.reason === 'DUPLICATE') return;
        this.logger.error('error dialing seed', { seed: formatNetAddress(seeds[i]!), err: err.message });
        tryNext(i + 1);
      });
    };
    tryNext(0);
  }

  /** Seed mode: connect to known addresses we have not crawled lately and ask each for more. */
  private crawl(): void {
    const sw = this.sw;
    if (!sw) return;
    if (this.book.isEmpty()) {
      this.dialSeeds();
      return;
    }
    const now = Date.now();
    for (const addr of this.book.listAll()) {
      const last = this.crawled.get(addr.id) ?? 0;
      if (now - last < MIN_TIME_BETWEEN_CRAWLS_MS || sw.isDialingOrExistingAddress(addr) || sw.isBanned(addr.id)) continue;
      this.crawled.set(addr.id, now);
      sw.dialPeerWithAddress(addr)
        .then(() => {
          const peer = sw.peer(addr.id);
          if (peer) this.requestAddrs(peer);
        })
        .catch((err: Error) => this.logger.debug('crawl: dial failed', { address: formatNetAddress(addr), err: err.message }));
    }
    // Hang up on peers we have talked to for a while (a seed keeps no long-lived connections).
    for (const peer of sw.peers()) {
      if (!sw.isPersistent(peer.id) && Date.now() - peer.connectedAtMs > CRAWL_PEER_PERIOD_MS) sw.stopPeerGracefully(peer);
    }
  }
}
