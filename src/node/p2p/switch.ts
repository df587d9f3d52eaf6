/**
 * The switch (p2p/switch.go): owns the peers, routes each channel's messages to the reactor that
 * registered the channel, dials persistent peers and keeps them connected with back-off, enforces
 * the inbound/outbound limits, refuses banned peers, and stops (and bans) peers that misbehave.
 */
import type { Logger } from '../logger.js';
import { nullLogger } from '../logger.js';
import type { ChannelDescriptor } from './conn/mconnection.js';
import { P2PError, banWorthy, isP2PError } from './errors.js';
import { formatNetAddress, type NetAddress } from './netAddress.js';
import type { NodeInfo } from './nodeInfo.js';
import { Peer, type UpgradedConnection } from './peer.js';
import type { Transport } from './transport.js';

/** A protocol on one or more channels (CometBFT's Reactor). */
export interface Reactor {
  readonly name: string;
  channels(): ChannelDescriptor[];
  setSwitch(sw: Switchboard): void;
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
  /** Before the peer starts receiving: set up per-peer state. */
  initPeer?(peer: Peer): void;
  addPeer(peer: Peer): void;
  removePeer(peer: Peer, reason: unknown): void;
  /** One whole message; throw (a P2PError) to have the peer stopped. */
  receive(channelId: number, peer: Peer, message: Buffer): void;
}

/** What reactors may do with the switch. */
export interface Switchboard {
  readonly nodeId: string;
  nodeInfo(): NodeInfo;
  peers(): Peer[];
  peer(id: string): Peer | undefined;
  /** Queue `message` on `channelId` for every peer (those with a full queue miss it). */
  broadcast(channelId: number, message: Uint8Array): void;
  /** Disconnect for an error; misbehaviour (see banWorthy) also bans the peer for a while. */
  stopPeerForError(peer: Peer, reason: unknown): void;
  stopPeerGracefully(peer: Peer): void;
  markPeerAsGood(peer: Peer): void;
  numPeers(): { outbound: number; inbound: number; dialing: number };
  maxNumOutboundPeers(): number;
  dialPeerWithAddress(addr: NetAddress): Promise<void>;
  isDialingOrExistingAddress(addr: NetAddress): boolean;
  isBanned(id: string): boolean;
  isPersistent(id: string): boolean;
}

export interface SwitchOptions {
  maxNumInboundPeers: number;
  maxNumOutboundPeers: number;
  persistentPeers: NetAddress[];
  unconditionalPeerIds: string[];
  allowDuplicateIp: boolean;
  persistentPeersMaxDialPeriodMs: number;
  banDurationMs: number;
}

/** CometBFT's reconnection schedule: 20 tries about 5 s apart, then 10 with base-3 back-off. */
const RECONNECT_ATTEMPTS = 20;
const RECONNECT_INTERVAL_MS = 5000;
const RECONNECT_BACKOFF_ATTEMPTS = 10;
const RECONNECT_BACKOFF_BASE_S = 3;
/** The first redials come sooner, so a restarted neighbour is picked up within a second or two. */
const FAST_RECONNECT_MS = [250, 500, 1000, 2000];
/** Spread of the first dial of each persistent peer (CometBFT waits up to 3 s). */
const DIAL_RANDOMIZER_MS = 300;

export interface AddressBookHooks {
  /** A peer proved its address (outbound) or announced one (inbound). */
  markGood?(id: string): void;
  markAttempt?(addr: NetAddress): void;
  markBad?(addr: NetAddress, banMs: number): void;
  removeAddress?(addr: NetAddress): void;
}

export class Switch implements Switchboard {
  private readonly reactors: Reactor[] = [];
  private readonly reactorByChannel = new Map<number, Reactor>();
  private readonly channelDescs: ChannelDescriptor[] = [];
  private readonly peerMap = new Map<string, Peer>();
  private readonly dialing = new Set<string>();
  private readonly reconnecting = new Set<string>();
  private readonly banned = new Map<string, number>();
  private readonly persistentIds: Set<string>;
  private readonly unconditionalIds: Set<string>;
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = false;
  private addrBook: AddressBookHooks = {};
  private readonly logger: Logger;

  constructor(
    private readonly transport: Transport,
    private readonly info: () => NodeInfo,
    private readonly options: SwitchOptions,
    logger?: Logger,
  ) {
    this.logger = logger ?? nullLogger;
    this.persistentIds = new Set(options.persistentPeers.map((a) => a.id));
    this.unconditionalIds = new Set(options.unconditionalPeerIds);
    transport.onInbound((conn) => this.acceptInbound(conn));
    transport.onInboundRejected((err, remote) => {
      if (isP2PError(err, 'FILTERED')) this.logger.debug('inbound connection refused', { remote, err: err.message });
      else this.logger.info('inbound peer rejected', { remote, err: err.message });
    });
    transport.setAcceptFilter((ip) => this.filterInbound(ip));
  }

  get nodeId(): string {
    return this.info().id;
  }

  nodeInfo(): NodeInfo {
    return this.info();
  }

  setAddressBook(hooks: AddressBookHooks): void {
    this.addrBook = hooks;
  }

  addReactor(reactor: Reactor): void {
    for (const desc of reactor.channels()) {
      if (this.reactorByChannel.has(desc.id)) throw new P2PError('PROTOCOL', `channel ${desc.id} has multiple reactors`);
      this.reactorByChannel.set(desc.id, reactor);
      this.channelDescs.push(desc);
    }
    this.reactors.push(reactor);
    reactor.setSwitch(this);
  }

  /** Channel ids of every registered reactor (DefaultNodeInfo.channels). */
  channelIds(): number[] {
    return this.channelDescs.map((d) => d.id);
  }

  reactor<T extends Reactor>(name: string): T | undefined {
    return this.reactors.find((r) => r.name === name) as T | undefined;
  }

  async start(): Promise<void> {
    this.running = true;
    for (const reactor of this.reactors) await reactor.start?.();
    for (const addr of this.options.persistentPeers) this.later(Math.random() * DIAL_RANDOMIZER_MS, () => void this.dialPersistent(addr));
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const peer of [...this.peerMap.values()]) this.removePeer(peer, 'switch stopped');
    for (const reactor of [...this.reactors].reverse()) await reactor.stop?.();
    await this.transport.close();
  }

  get isRunning(): boolean {
    return this.running;
  }

  peers(): Peer[] {
    return [...this.peerMap.values()];
  }

  peer(id: string): Peer | undefined {
    return this.peerMap.get(id);
  }

  broadcast(channelId: number, message: Uint8Array): void {
    for (const peer of this.peerMap.values()) peer.send(channelId, message);
  }

  numPeers(): { outbound: number; inbound: number; dialing: number } {
    let outbound = 0;
    let inbound = 0;
    for (const peer of this.peerMap.values()) {
      if (peer.isOutbound) outbound++;
      else inbound++;
    }
    return { outbound, inbound, dialing: this.dialing.size };
  }

  maxNumOutboundPeers(): number {
    return this.options.maxNumOutboundPeers;
  }

  isPersistent(id: string): boolean {
    return this.persistentIds.has(id);
  }

  isBanned(id: string): boolean {
    const until = this.banned.get(id);
    if (until === undefined) return false;
    if (Date.now() < until) return true;
    this.banned.delete(id);
    return false;
  }

  /** Refuse a node for `durationMs` (it is disconnected if connected). */
  ban(id: string, durationMs: number, reason: string): void {
    this.banned.set(id, Date.now() + durationMs);
    this.logger.info('peer banned', { peer: id, reason, forMs: durationMs });
  }

  isDialingOrExistingAddress(addr: NetAddress): boolean {
    return this.dialing.has(addr.id) || this.peerMap.has(addr.id);
  }

  stopPeerForError(peer: Peer, reason: unknown): void {
    if (!this.peerMap.has(peer.id) || this.peerMap.get(peer.id) !== peer) return;
    const message = reason instanceof Error ? reason.message : String(reason);
    this.logger.error('stopping peer for error', { peer: peer.id, err: message });
    if (banWorthy(reason)) {
      this.ban(peer.id, this.options.banDurationMs, message);
      this.addrBook.markBad?.(peer.socketAddr, this.options.banDurationMs);
    }
    this.removePeer(peer, reason);
    if (peer.isPersistent && this.running) this.reconnectToPeer(this.persistentAddress(peer));
  }

  stopPeerGracefully(peer: Peer): void {
    if (this.peerMap.get(peer.id) !== peer) return;
    this.logger.info('stopping peer gracefully', { peer: peer.id });
    this.removePeer(peer, undefined);
  }

  markPeerAsGood(peer: Peer): void {
    this.addrBook.markGood?.(peer.id);
  }

  /** Dial a list of addresses (unsafe dial_peers / dial_seeds and PEX), each in the background. */
  dialPeersAsync(addrs: NetAddress[], persistent = false): void {
    for (const addr of addrs) {
      if (persistent) this.persistentIds.add(addr.id);
      if (addr.id === this.nodeId) continue;
      this.later(Math.random() * DIAL_RANDOMIZER_MS, () => {
        this.dialPeerWithAddress(addr).catch((err: Error) => {
          this.logger.info('error dialing peer', { address: formatNetAddress(addr), err: err.message });
          if (persistent) this.reconnectToPeer(addr);
        });
      });
    }
  }

  async dialPeerWithAddress(addr: NetAddress): Promise<void> {
    if (!this.running) throw new P2PError('CLOSED', 'switch is not running');
    if (addr.id === this.nodeId) throw new P2PError('SELF', 'cannot dial self');
    if (this.isBanned(addr.id)) throw new P2PError('BANNED', `peer ${addr.id} is banned`);
    if (this.isDialingOrExistingAddress(addr)) throw new P2PError('DUPLICATE', `already dialing or connected to ${formatNetAddress(addr)}`);
    this.dialing.add(addr.id);
    this.addrBook.markAttempt?.(addr);
    try {
      const conn = await this.transport.dial(addr);
      this.addPeer(conn);
    } catch (err) {
      if (isP2PError(err, 'ID_MISMATCH') || isP2PError(err, 'INCOMPATIBLE') || isP2PError(err, 'SELF')) {
        this.logger.error('dialed peer rejected', { address: formatNetAddress(addr), err: (err as Error).message });
        this.addrBook.removeAddress?.(addr);
      }
      throw err;
    } finally {
      this.dialing.delete(addr.id);
    }
  }

  // ---- internals ----

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.running) fn();
    }, ms);
    this.timers.add(timer);
  }

  private persistentAddress(peer: Peer): NetAddress {
    return this.options.persistentPeers.find((a) => a.id === peer.id) ?? peer.socketAddr;
  }

  private async dialPersistent(addr: NetAddress): Promise<void> {
    if (this.peerMap.has(addr.id)) return;
    try {
      await this.dialPeerWithAddress(addr);
    } catch (err) {
      if (isP2PError(err, 'DUPLICATE')) return;
      this.logger.info('error dialing persistent peer', { address: formatNetAddress(addr), err: (err as Error).message });
      this.reconnectToPeer(addr);
    }
  }

  private reconnectDelayMs(attempt: number): number {
    let base: number;
    if (attempt < FAST_RECONNECT_MS.length) base = FAST_RECONNECT_MS[attempt]!;
    else if (attempt < RECONNECT_ATTEMPTS) base = RECONNECT_INTERVAL_MS;
    else base = RECONNECT_BACKOFF_BASE_S ** (attempt - RECONNECT_ATTEMPTS + 1) * 1000;
    const cap = this.options.persistentPeersMaxDialPeriodMs;
    if (cap > 0) base = Math.min(base, cap);
    return base * (0.75 + Math.random() * 0.5);
  }

  /** Redial with back-off until connected, banned or out of attempts (reconnectToPeer). */
  private reconnectToPeer(addr: NetAddress): void {
    if (this.reconnecting.has(addr.id) || !this.running) return;
    this.reconnecting.add(addr.id);
    const started = Date.now();
    const attempt = (n: number): void => {
      if (!this.running || this.peerMap.has(addr.id)) {
        this.reconnecting.delete(addr.id);
        return;
      }
      if (n >= RECONNECT_ATTEMPTS + RECONNECT_BACKOFF_ATTEMPTS) {
        this.reconnecting.delete(addr.id);
        this.logger.error('failed to reconnect to peer; giving up', { address: formatNetAddress(addr), elapsedMs: Date.now() - started });
        return;
      }
      this.later(this.reconnectDelayMs(n), () => {
        if (this.isBanned(addr.id)) {
          attempt(n + 1);
          return;
        }
        this.dialPeerWithAddress(addr).then(
          () => this.reconnecting.delete(addr.id),
          (err: Error) => {
            if (isP2PError(err, 'DUPLICATE') && this.peerMap.has(addr.id)) {
              this.reconnecting.delete(addr.id);
              return;
            }
            this.logger.debug('error reconnecting to peer; trying again', { address: formatNetAddress(addr), tries: n + 1, err: err.message });
            attempt(n + 1);
          },
        );
      });
    };
    this.logger.info('reconnecting to peer', { address: formatNetAddress(addr) });
    attempt(0);
  }

  private filterInbound(remoteIp: string): string | undefined {
    if (!this.running) return 'switch not running';
    if (!this.options.allowDuplicateIp) {
      for (const peer of this.peerMap.values()) if (peer.remoteIp === remoteIp) return `ip<${remoteIp}> already connected`;
    }
    return undefined;
  }

  private acceptInbound(conn: UpgradedConnection): void {
    const id = conn.nodeInfo.id;
    const { inbound } = this.numPeers();
    if (!this.unconditionalIds.has(id) && !this.persistentIds.has(id) && inbound >= this.options.maxNumInboundPeers) {
      this.logger.info('ignoring inbound connection: already have enough inbound peers', { peer: id, have: inbound, max: this.options.maxNumInboundPeers });
      conn.close();
      return;
    }
    try {
      this.addPeer(conn);
    } catch (err) {
      this.logger.info('inbound peer not added', { peer: id, err: (err as Error).message });
    }
  }

  /** Turn an upgraded connection into a running peer (addPeer + filterPeer). */
  private addPeer(conn: UpgradedConnection): void {
    const id = conn.nodeInfo.id;
    if (!this.running) {
      conn.close();
      throw new P2PError('CLOSED', 'switch stopped');
    }
    if (this.isBanned(id)) {
      conn.close();
      throw new P2PError('BANNED', `peer ${id} is banned`);
    }
    const existing = this.peerMap.get(id);
    if (existing) {
      // Both sides dialed at once: both keep the connection dialed by the node with the lower ID.
      const newDialer = conn.outbound ? this.nodeId : id;
      const oldDialer = existing.isOutbound ? this.nodeId : id;
      if (newDialer !== oldDialer && newDialer < oldDialer) {
        this.logger.debug('replacing a simultaneous connection', { peer: id });
        this.removePeer(existing, 'replaced by a simultaneous connection');
      } else {
        conn.close();
        throw new P2PError('DUPLICATE', `duplicate peer ${id}`);
      }
    }
    const peer = new Peer(conn.nodeInfo, conn.socketAddr, conn.remoteIp, conn.outbound, this.persistentIds.has(id), conn.open(this.channelDescs));
    for (const reactor of this.reactors) reactor.initPeer?.(peer);
    peer.start(
      (channelId, message) => this.route(peer, channelId, message),
      (err) => this.onPeerConnectionError(peer, err),
    );
    this.peerMap.set(id, peer);
    if (conn.outbound) this.addrBook.markGood?.(id);
    this.logger.info('added peer', { peer: id, outbound: conn.outbound, address: formatNetAddress(conn.socketAddr) });
    for (const reactor of this.reactors) {
      try {
        reactor.addPeer(peer);
      } catch (err) {
        this.logger.error('reactor failed to add peer', { reactor: reactor.name, peer: id, err: (err as Error).message });
      }
    }
  }

  private route(peer: Peer, channelId: number, message: Buffer): void {
    const reactor = this.reactorByChannel.get(channelId);
    if (!reactor) {
      this.stopPeerForError(peer, new P2PError('PROTOCOL', `unknown channel ${channelId}`));
      return;
    }
    try {
      reactor.receive(channelId, peer, message);
    } catch (err) {
      this.stopPeerForError(peer, err);
    }
  }

  private onPeerConnectionError(peer: Peer, err: Error): void {
    if (this.peerMap.get(peer.id) !== peer) return;
    if (isP2PError(err, 'CLOSED')) {
      this.logger.info('peer disconnected', { peer: peer.id, reason: err.message });
      this.removePeer(peer, err);
      if (peer.isPersistent && this.running) this.reconnectToPeer(this.persistentAddress(peer));
      return;
    }
    this.stopPeerForError(peer, err);
  }

  private removePeer(peer: Peer, reason: unknown): void {
    if (this.peerMap.get(peer.id) === peer) this.peerMap.delete(peer.id);
    peer.stop();
    for (const reactor of this.reactors) {
      try {
        reactor.removePeer(peer, reason);
      } catch (err) {
        this.logger.error('reactor failed to remove peer', { reactor: reactor.name, peer: peer.id, err: (err as Error).message });
      }
    }
  }
}
