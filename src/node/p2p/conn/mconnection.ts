/**
 * The multiplexed connection (p2p/conn/connection.go) over a secret connection: several channels
 * share one stream of length-prefixed tendermint.p2p.Packet messages. A channel message is cut
 * into PacketMsg pieces of at most `max_packet_msg_payload_size` bytes (eof on the last); the
 * sender picks, packet by packet, the pending channel with the least recently-sent bytes per unit
 * of priority. PacketPing / PacketPong keep the link alive. Send and receive are limited to
 * `send_rate` / `recv_rate` bytes per second.
 *
 * Node is single-threaded, so instead of CometBFT's send routine and flush timer the packets
 * queued during one event-loop turn are written together at the next turn (the bytes on the wire
 * are the same; `flush_throttle_timeout` only bounds how long a partial batch may wait).
 */
import { P2PError } from '../errors.js';
import { ByteQueue, delimit } from './byteQueue.js';
import { FlowLimiter, type FlowStatus } from './flowrate.js';
import type { SecretConnection } from './secretConnection.js';

export interface ChannelDescriptor {
  id: number;
  /** Relative share of the send bandwidth. */
  priority: number;
  /** Messages that may wait to be sent; `send` fails when full. */
  sendQueueCapacity: number;
  /** Largest message accepted on this channel. */
  recvMessageCapacity: number;
}

export interface MConnectionOptions {
  sendRateBytesPerS: number;
  recvRateBytesPerS: number;
  maxPacketMsgPayloadSize: number;
  flushThrottleMs: number;
  pingIntervalMs: number;
  pongTimeoutMs: number;
}

/** CometBFT's defaults ([p2p] of config.toml and DefaultMConnConfig). */
export const defaultMConnectionOptions: Readonly<MConnectionOptions> = Object.freeze({
  sendRateBytesPerS: 5_120_000,
  recvRateBytesPerS: 5_120_000,
  maxPacketMsgPayloadSize: 1024,
  flushThrottleMs: 100,
  pingIntervalMs: 60_000,
  pongTimeoutMs: 45_000,
});

/** Packets batched per write at most (numBatchPacketMsgs × a full plaintext buffer). */
const MAX_WRITE_BATCH_BYTES = 64 * 1024;
const STATS_DECAY_INTERVAL_MS = 2000;

const PING_PACKET = delimit(Uint8Array.of(0x0a, 0x00));
const PONG_PACKET = delimit(Uint8Array.of(0x12, 0x00));

function uvarintBytes(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** Length-prefixed Packet{packet_msg: PacketMsg{channel_id, eof, data}}. */
export function encodePacketMsg(channelId: number, eof: boolean, data: Uint8Array): Buffer {
  const inner: number[] = [];
  if (channelId !== 0) inner.push(0x08, ...uvarintBytes(channelId));
  if (eof) inner.push(0x10, 0x01);
  const dataPrefix = data.length > 0 ? [0x1a, ...uvarintBytes(data.length)] : [];
  const innerLength = inner.length + dataPrefix.length + data.length;
  const packetHead = [0x1a, ...uvarintBytes(innerLength)];
  const packetLength = packetHead.length + innerLength;
  const outerPrefix = uvarintBytes(packetLength);
  const out = Buffer.allocUnsafe(outerPrefix.length + packetLength);
  let pos = 0;
  for (const b of outerPrefix) out[pos++] = b;
  for (const b of packetHead) out[pos++] = b;
  for (const b of inner) out[pos++] = b;
  for (const b of dataPrefix) out[pos++] = b;
  out.set(data, pos);
  return out;
}

/** Size of the largest PacketMsg packet for a payload size (maxPacketMsgSize). */
export function maxPacketMsgSize(maxPayload: number): number {
  const delimited = encodePacketMsg(0x01, true, new Uint8Array(maxPayload));
  return readUvarint(delimited, 0)[0];
}

export type Packet = { type: 'ping' } | { type: 'pong' } | { type: 'msg'; channelId: number; eof: boolean; data: Buffer };

function readUvarint(buf: Buffer, pos: number): [number, number] {
  let value = 0;
  let shift = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= buf.length) throw new P2PError('PROTOCOL', 'truncated packet');
    const b = buf[pos++]!;
    value += (b & 0x7f) * shift;
    shift *= 128;
    if (b < 0x80) return [value, pos];
  }
  throw new P2PError('PROTOCOL', 'varint overflow in packet');
}

function skipField(buf: Buffer, pos: number, wire: number): number {
  if (wire === 0) return readUvarint(buf, pos)[1];
  if (wire === 1) return pos + 8;
  if (wire === 5) return pos + 4;
  if (wire === 2) {
    const [len, p] = readUvarint(buf, pos);
    return p + len;
  }
  throw new P2PError('PROTOCOL', `unsupported wire type ${wire} in packet`);
}

/** Decode one tendermint.p2p.Packet (without its length prefix). */
export function decodePacket(buf: Buffer): Packet {
  let pos = 0;
  let packet: Packet | undefined;
  while (pos < buf.length) {
    const [tag, p] = readUvarint(buf, pos);
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    pos = p;
    if (wire !== 2 || field < 1 || field > 3) {
      pos = skipField(buf, pos, wire);
      continue;
    }
    const [len, start] = readUvarint(buf, pos);
    const end = start + len;
    if (end > buf.length) throw new P2PError('PROTOCOL', 'truncated packet');
    pos = end;
    if (field === 1) packet = { type: 'ping' };
    else if (field === 2) packet = { type: 'pong' };
    else {
      let channelId = 0;
      let eof = false;
      let data: Buffer = Buffer.alloc(0);
      let q = start;
      while (q < end) {
        const [t, q1] = readUvarint(buf, q);
        const f = Math.floor(t / 8);
        const w = t & 7;
        if (f === 1 && w === 0) {
          const [v, q2] = readUvarint(buf, q1);
          channelId = v >= 2 ** 31 ? v - 2 ** 32 : v; // int32 (negative ids are rejected below)
          q = q2;
        } else if (f === 2 && w === 0) {
          const [v, q2] = readUvarint(buf, q1);
          eof = v !== 0;
          q = q2;
        } else if (f === 3 && w === 2) {
          const [l, q2] = readUvarint(buf, q1);
          if (q2 + l > end) throw new P2PError('PROTOCOL', 'truncated packet data');
          data = buf.subarray(q2, q2 + l);
          q = q2 + l;
        } else {
          q = skipField(buf, q1, w);
        }
      }
      packet = { type: 'msg', channelId, eof, data };
    }
  }
  if (!packet) throw new P2PError('PROTOCOL', 'unknown message type: empty packet');
  return packet;
}

class Channel {
  readonly queue: Uint8Array[] = [];
  sending: Uint8Array | undefined;
  sendingOffset = 0;
  recentlySent = 0;
  private recving: Buffer[] = [];
  private recvingBytes = 0;

  constructor(readonly desc: ChannelDescriptor) {}

  get pending(): boolean {
    return this.sending !== undefined || this.queue.length > 0;
  }

  /** Next packet of the message being sent (starts the next queued message if needed). */
  nextPacket(maxPayload: number): Buffer {
    if (!this.sending) {
      this.sending = this.queue.shift()!;
      this.sendingOffset = 0;
    }
    const rest = this.sending.length - this.sendingOffset;
    const size = Math.min(rest, maxPayload);
    const chunk = this.sending.subarray(this.sendingOffset, this.sendingOffset + size);
    const eof = rest <= maxPayload;
    const packet = encodePacketMsg(this.desc.id, eof, chunk);
    if (eof) this.sending = undefined;
    else this.sendingOffset += size;
    this.recentlySent += packet.length;
    return packet;
  }

  /** Add a received piece; returns the whole message on eof. */
  receive(data: Buffer, eof: boolean): Buffer | undefined {
    if (this.recvingBytes + data.length > this.desc.recvMessageCapacity) {
      throw new P2PError('MESSAGE_TOO_LARGE', `received message exceeds available capacity: ${this.desc.recvMessageCapacity} < ${this.recvingBytes + data.length}`);
    }
    if (data.length > 0) {
      this.recving.push(data);
      this.recvingBytes += data.length;
    }
    if (!eof) return undefined;
    const message = this.recving.length === 1 ? this.recving[0]! : Buffer.concat(this.recving, this.recvingBytes);
    this.recving = [];
    this.recvingBytes = 0;
    return message;
  }
}

export interface ChannelStatus {
  id: number;
  sendQueueCapacity: number;
  sendQueueSize: number;
  priority: number;
  recentlySent: number;
}

export interface ConnectionStatus {
  durationMs: number;
  sendMonitor: FlowStatus;
  recvMonitor: FlowStatus;
  channels: ChannelStatus[];
}

export type ReceiveHandler = (channelId: number, message: Buffer) => void;
export type ErrorHandler = (err: Error) => void;

export class MConnection {
  private readonly channels = new Map<number, Channel>();
  private readonly channelList: Channel[];
  private readonly sendMonitor: FlowLimiter;
  private readonly recvMonitor: FlowLimiter;
  private readonly recvQueue = new ByteQueue();
  private readonly maxPacketSize: number;
  private readonly startedMs = Date.now();
  private pumpScheduled = false;
  private pumpTimer: NodeJS.Timeout | undefined;
  private waitingDrain = false;
  private pingTimer: NodeJS.Timeout | undefined;
  private pongTimer: NodeJS.Timeout | undefined;
  private statsTimer: NodeJS.Timeout | undefined;
  private resumeTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private receiving = false;

  constructor(
    private readonly conn: SecretConnection,
    channels: readonly ChannelDescriptor[],
    private readonly options: MConnectionOptions,
    private readonly onReceive: ReceiveHandler,
    private readonly onError: ErrorHandler,
  ) {
    for (const desc of channels) {
      if (this.channels.has(desc.id)) throw new P2PError('PROTOCOL', `duplicate channel ${desc.id}`);
      this.channels.set(desc.id, new Channel(desc));
    }
    this.channelList = [...this.channels.values()];
    this.maxPacketSize = maxPacketMsgSize(options.maxPacketMsgPayloadSize);
    const burst = (rate: number): number => Math.max(this.maxPacketSize * 10, Math.floor(rate / 10));
    this.sendMonitor = new FlowLimiter(options.sendRateBytesPerS, burst(options.sendRateBytesPerS));
    this.recvMonitor = new FlowLimiter(options.recvRateBytesPerS, burst(options.recvRateBytesPerS));
  }

  start(): void {
    this.conn.onError((err) => this.fail(err));
    this.conn.socket.on('close', () => this.fail(new P2PError('CLOSED', 'connection closed by the peer')));
    this.conn.socket.on('error', (err: Error) => this.fail(new P2PError('CLOSED', `connection error: ${err.message}`)));
    this.conn.socket.on('drain', () => {
      this.waitingDrain = false;
      this.schedulePump();
    });
    this.conn.onData((data) => this.receive(data));
    this.pingTimer = setInterval(() => this.sendPing(), this.options.pingIntervalMs);
    this.statsTimer = setInterval(() => {
      for (const ch of this.channelList) ch.recentlySent = Math.floor(ch.recentlySent * 0.8);
    }, STATS_DECAY_INTERVAL_MS);
    this.pingTimer.unref();
    this.statsTimer.unref();
  }

  get isRunning(): boolean {
    return !this.stopped;
  }

  /** Queue a message; false when the channel's queue is full, the channel is unknown or the connection stopped. */
  send(channelId: number, message: Uint8Array): boolean {
    if (this.stopped) return false;
    const ch = this.channels.get(channelId);
    if (!ch) return false;
    if (ch.queue.length >= ch.desc.sendQueueCapacity) return false;
    ch.queue.push(message);
    this.schedulePump();
    return true;
  }

  canSend(channelId: number): boolean {
    const ch = this.channels.get(channelId);
    return !this.stopped && ch !== undefined && ch.queue.length < ch.desc.sendQueueCapacity;
  }

  /** Stop: flush what is queued (best effort), close the socket. */
  stop(): void {
    if (this.stopped) return;
    this.pump(true);
    this.stopped = true;
    this.clearTimers();
    this.conn.socket.end();
    setTimeout(() => this.conn.socket.destroy(), 1000).unref();
  }

  status(): ConnectionStatus {
    return {
      durationMs: Date.now() - this.startedMs,
      sendMonitor: this.sendMonitor.status(),
      recvMonitor: this.recvMonitor.status(),
      channels: this.channelList.map((ch) => ({
        id: ch.desc.id,
        sendQueueCapacity: ch.desc.sendQueueCapacity,
        sendQueueSize: ch.queue.length + (ch.sending ? 1 : 0),
        priority: ch.desc.priority,
        recentlySent: ch.recentlySent,
      })),
    };
  }

  private clearTimers(): void {
    clearInterval(this.pingTimer);
    clearInterval(this.statsTimer);
    clearTimeout(this.pongTimer);
    clearTimeout(this.pumpTimer);
    clearTimeout(this.resumeTimer);
  }

  private fail(err: Error): void {
    if (this.stopped) return;
    this.stopped = true;
    this.clearTimers();
    this.conn.socket.destroy();
    this.onError(err);
  }

  // ---- sending ----

  private schedulePump(): void {
    if (this.pumpScheduled || this.waitingDrain || this.stopped) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump(false);
    });
  }

  private selectChannel(): Channel | undefined {
    let least = Number.POSITIVE_INFINITY;
    let chosen: Channel | undefined;
    for (const ch of this.channelList) {
      if (!ch.pending) continue;
      const ratio = ch.recentlySent / ch.desc.priority;
      if (ratio < least) {
        least = ratio;
        chosen = ch;
      }
    }
    return chosen;
  }

  private pump(final: boolean): void {
    if (this.stopped || this.pumpTimer) return;
    const budget = final ? Number.POSITIVE_INFINITY : this.sendMonitor.available();
    if (budget < this.maxPacketSize && !final) {
      this.pumpTimer = setTimeout(() => {
        this.pumpTimer = undefined;
        this.pump(false);
      }, Math.max(1, this.sendMonitor.waitMs(this.maxPacketSize)));
      return;
    }
    const packets: Buffer[] = [];
    let bytes = 0;
    const limit = Math.min(budget, final ? Number.POSITIVE_INFINITY : MAX_WRITE_BATCH_BYTES);
    while (bytes < limit) {
      const ch = this.selectChannel();
      if (!ch) break;
      const packet = ch.nextPacket(this.options.maxPacketMsgPayloadSize);
      packets.push(packet);
      bytes += packet.length;
    }
    if (bytes > 0) {
      this.sendMonitor.update(bytes);
      const flushed = this.conn.write(packets.length === 1 ? packets[0]! : Buffer.concat(packets, bytes));
      if (!flushed) this.waitingDrain = true;
    }
    if (!final && this.channelList.some((ch) => ch.pending)) this.schedulePump();
  }

  private sendPing(): void {
    if (this.stopped) return;
    this.conn.write(PING_PACKET);
    if (!this.pongTimer) {
      this.pongTimer = setTimeout(() => this.fail(new P2PError('TIMEOUT', 'pong timeout')), this.options.pongTimeoutMs);
      this.pongTimer.unref();
    }
  }

  // ---- receiving ----

  private receive(data: Buffer): void {
    this.recvQueue.push(data);
    if (this.receiving) return;
    this.receiving = true;
    try {
      this.drainReceived();
    } finally {
      this.receiving = false;
    }
  }

  private drainReceived(): void {
    while (!this.stopped) {
      let raw: Buffer | undefined;
      try {
        raw = this.recvQueue.takeDelimited(this.maxPacketSize);
      } catch (err) {
        this.fail(err as Error);
        return;
      }
      if (!raw) break;
      this.recvMonitor.update(raw.length + 2);
      let packet: Packet;
      try {
        packet = decodePacket(raw);
      } catch (err) {
        this.fail(err as Error);
        return;
      }
      if (packet.type === 'ping') {
        this.conn.write(PONG_PACKET);
        continue;
      }
      if (packet.type === 'pong') {
        clearTimeout(this.pongTimer);
        this.pongTimer = undefined;
        continue;
      }
      const ch = packet.channelId >= 0 && packet.channelId <= 0xff ? this.channels.get(packet.channelId) : undefined;
      if (!ch) {
        this.fail(new P2PError('PROTOCOL', `unknown channel ${packet.channelId.toString(16).toUpperCase()}`));
        return;
      }
      let message: Buffer | undefined;
      try {
        message = ch.receive(packet.data, packet.eof);
      } catch (err) {
        this.fail(err as Error);
        return;
      }
      if (message) {
        try {
          this.onReceive(ch.desc.id, message);
        } catch (err) {
          this.fail(err as Error);
          return;
        }
      }
    }
    this.throttleReceive();
  }

  /** Over recv_rate: pause reading the socket until the budget allows a packet again. */
  private throttleReceive(): void {
    if (this.stopped || this.resumeTimer) return;
    const wait = this.recvMonitor.waitMs(this.maxPacketSize);
    if (wait <= 0) return;
    this.conn.socket.pause();
    this.resumeTimer = setTimeout(() => {
      this.resumeTimer = undefined;
      if (!this.stopped) this.conn.socket.resume();
    }, wait);
  }
}
