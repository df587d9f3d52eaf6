/**
 * A connected peer as reactors see it: its node info, direction, and per-channel send. Reactors
 * keep their per-peer state in `data` (CometBFT's peer.Set/Get).
 */
import type { ChannelDescriptor, ConnectionStatus } from './conn/mconnection.js';
import type { NetAddress } from './netAddress.js';
import type { NodeInfo } from './nodeInfo.js';

/** What carries a peer's channel messages: an MConnection over TCP, or the in-memory network. */
export interface PeerConnection {
  start(onReceive: (channelId: number, message: Buffer) => void, onError: (err: Error) => void): void;
  /** Queue a message; false when the channel queue is full or the connection is closed. */
  send(channelId: number, message: Uint8Array): boolean;
  canSend(channelId: number): boolean;
  stop(): void;
  status(): ConnectionStatus;
}

/** A connection that passed the secret-connection and node-info handshakes. */
export interface UpgradedConnection {
  nodeInfo: NodeInfo;
  /** The address we dialed (outbound) or the socket's remote address (inbound; id = node id). */
  socketAddr: NetAddress;
  remoteIp: string;
  outbound: boolean;
  /** Build the channel multiplexer for the channels our reactors use. */
  open(channels: readonly ChannelDescriptor[]): PeerConnection;
  /** Drop the connection before it became a peer. */
  close(): void;
}

export class Peer {
  readonly data = new Map<string, unknown>();
  private running = false;
  readonly connectedAtMs = Date.now();

  constructor(
    readonly nodeInfo: NodeInfo,
    readonly socketAddr: NetAddress,
    readonly remoteIp: string,
    readonly isOutbound: boolean,
    readonly isPersistent: boolean,
    private readonly conn: PeerConnection,
  ) {}

  get id(): string {
    return this.nodeInfo.id;
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(onReceive: (channelId: number, message: Buffer) => void, onError: (err: Error) => void): void {
    this.running = true;
    this.conn.start(onReceive, onError);
  }

  /** Queue a message on a channel the peer has; false when it cannot be queued. */
  send(channelId: number, message: Uint8Array): boolean {
    if (!this.running || !this.nodeInfo.channels.includes(channelId)) return false;
    return this.conn.send(channelId, message);
  }

  /** CometBFT's TrySend: the same non-blocking send (nothing in Node blocks). */
  trySend(channelId: number, message: Uint8Array): boolean {
    return this.send(channelId, message);
  }

  canSend(channelId: number): boolean {
    return this.running && this.conn.canSend(channelId);
  }

  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.conn.stop();
  }

  status(): ConnectionStatus {
    return this.conn.status();
  }

  toString(): string {
    return `Peer{${this.id} ${this.isOutbound ? 'out' : 'in'}}`;
  }
}
