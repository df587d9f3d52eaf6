/**
 * An in-process network for tests: transports that "dial" each other by address without sockets
 * or encryption, but with the same node-info checks, the same switch and the same reactors as
 * TCP. Messages are copied and delivered asynchronously, in order per link.
 * `setConnected(nodeId, false)` cuts a node off (its links close, new dials fail) until it is
 * reconnected.
 */
import type { ConnectionStatus } from './conn/mconnection.js';
import { P2PError } from './errors.js';
import type { NetAddress } from './netAddress.js';
import type { NodeInfo } from './nodeInfo.js';
import type { PeerConnection, UpgradedConnection } from './peer.js';
import { checkPeer, type Transport } from './transport.js';

const ZERO_FLOW = { startMs: 0, bytes: 0, curRate: 0, avgRate: 0, peakRate: 0, durationMs: 0, idleMs: 0 };

class MemoryLink implements PeerConnection {
  remote: MemoryLink | undefined;
  private onReceive: ((channelId: number, message: Buffer) => void) | undefined;
  private onError: ((err: Error) => void) | undefined;
  private backlog: [number, Buffer][] = [];
  private closed = false;
  private started = false;
  private sent = 0;
  private readonly startedMs = Date.now();

  constructor(private readonly latencyMs: number) {}

  start(onReceive: (channelId: number, message: Buffer) => void, onError: (err: Error) => void): void {
    this.onReceive = onReceive;
    this.onError = onError;
    this.started = true;
    if (this.closed) {
      setImmediate(() => onError(new P2PError('CLOSED', 'connection closed by the peer')));
      return;
    }
    const backlog = this.backlog;
    this.backlog = [];
    for (const [ch, msg] of backlog) this.deliver(ch, msg);
  }

  send(channelId: number, message: Uint8Array): boolean {
    if (this.closed || !this.remote) return false;
    const copy = Buffer.from(message);
    this.sent += copy.length;
    const remote = this.remote;
    const run = (): void => remote.deliver(channelId, copy);
    if (this.latencyMs > 0) setTimeout(run, this.latencyMs);
    else setImmediate(run);
    return true;
  }

  private deliver(channelId: number, message: Buffer): void {
    if (this.closed) return;
    if (!this.started) {
      this.backlog.push([channelId, message]);
      return;
    }
    this.onReceive?.(channelId, message);
  }

  canSend(): boolean {
    return !this.closed;
  }

  stop(): void {
    if (this.closed) return;
    this.closed = true;
    const remote = this.remote;
    if (remote) setImmediate(() => remote.closedByPeer());
  }

  closedByPeer(): void {
    if (this.closed) return;
    this.closed = true;
    this.onError?.(new P2PError('CLOSED', 'connection closed by the peer'));
  }

  status(): ConnectionStatus {
    return { durationMs: Date.now() - this.startedMs, sendMonitor: { ...ZERO_FLOW, bytes: this.sent }, recvMonitor: { ...ZERO_FLOW }, channels: [] };
  }
}

export class MemoryTransport implements Transport {
  private inbound: ((conn: UpgradedConnection) => void) | undefined;
  private address: string | undefined;
  private readonly links = new Set<MemoryLink>();

  constructor(
    private readonly network: MemoryNetwork,
    readonly nodeInfo: () => NodeInfo,
  ) {}

  async listen(host: string, port: number): Promise<{ host: string; port: number }> {
    const bound = port === 0 ? this.network.nextPort() : port;
    this.address = `${host}:${bound}`;
    this.network.register(this.address, this);
    return { host, port: bound };
  }

  onInbound(handler: (conn: UpgradedConnection) => void): void {
    this.inbound = handler;
  }

  onInboundRejected(): void {}

  setAcceptFilter(): void {}

  get nodeId(): string {
    return this.nodeInfo().id;
  }

  /** Called by the dialing side's transport. */
  accept(conn: UpgradedConnection): void {
    if (!this.inbound) throw new P2PError('DIAL_FAILED', 'connection refused');
    this.inbound(conn);
  }

  async dial(addr: NetAddress): Promise<UpgradedConnection> {
    await new Promise((r) => setImmediate(r));
    const target = this.network.lookup(`${addr.host}:${addr.port}`);
    if (!target || !this.network.isConnected(this.nodeId) || !this.network.isConnected(target.nodeId)) {
      throw new P2PError('DIAL_FAILED', `dial ${addr.host}:${addr.port}: connection refused`);
    }
    if (target.nodeId !== addr.id) throw new P2PError('ID_MISMATCH', `conn.ID (${target.nodeId}) dialed ID (${addr.id}) mismatch`);
    const ours = this.nodeInfo();
    const theirs = target.nodeInfo();
    checkPeer(ours, theirs, target.nodeId);
    checkPeer(theirs, ours, this.nodeId);
    const ourLink = new MemoryLink(this.network.latencyMs);
    const theirLink = new MemoryLink(this.network.latencyMs);
    ourLink.remote = theirLink;
    theirLink.remote = ourLink;
    const upgraded = (owner: MemoryTransport, link: MemoryLink, info: NodeInfo, outbound: boolean, socketAddr: NetAddress): UpgradedConnection => ({
      nodeInfo: info,
      socketAddr,
      remoteIp: '127.0.0.1',
      outbound,
      open: () => {
        owner.links.add(link);
        return link;
      },
      close: () => link.stop(),
    });
    target.accept(upgraded(target, theirLink, ours, false, { id: this.nodeId, host: '127.0.0.1', port: 0 }));
    return upgraded(this, ourLink, theirs, true, { ...addr });
  }

  /** Close every link (the node went offline). */
  dropAll(): void {
    for (const link of this.links) link.stop();
    this.links.clear();
  }

  async close(): Promise<void> {
    this.dropAll();
    if (this.address) this.network.unregister(this.address, this);
  }
}

export class MemoryNetwork {
  private readonly transports = new Map<string, MemoryTransport>();
  private readonly offline = new Set<string>();
  private port = 10000;

  /** Optional delay per message in ms (0 = next macrotask). */
  constructor(readonly latencyMs = 0) {}

  transport(nodeInfo: () => NodeInfo): MemoryTransport {
    return new MemoryTransport(this, nodeInfo);
  }

  nextPort(): number {
    return this.port++;
  }

  register(address: string, transport: MemoryTransport): void {
    this.transports.set(address, transport);
  }

  unregister(address: string, transport: MemoryTransport): void {
    if (this.transports.get(address) === transport) this.transports.delete(address);
  }

  lookup(address: string): MemoryTransport | undefined {
    return this.transports.get(address);
  }

  isConnected(nodeId: string): boolean {
    return !this.offline.has(nodeId);
  }

  /** Take a node offline (its links close, dials to and from it fail) or bring it back. */
  setConnected(nodeId: string, connected: boolean): void {
    if (connected) {
      this.offline.delete(nodeId);
      return;
    }
    this.offline.add(nodeId);
    for (const t of this.transports.values()) if (t.nodeId === nodeId) t.dropAll();
  }
}
