/**
 * A connection cap with idle eviction for the node's servers (RPC + websocket, REST, gRPC,
 * Ethereum JSON-RPC).
 *
 * `attach(server)` puts the guard in front of a server's own connection handling: every accepted
 * socket is admitted here first and only then handed to the server (node:http / node:http2 set up
 * their parsers on it then). Below the cap a socket is admitted at once. At the cap:
 *
 * - the connection idle the longest is closed to make room, if one is evictable: no request in
 *   flight, not a websocket, and either it has served a request (a keep-alive socket) or it has
 *   sent nothing for `graceMs` (a socket that connects and stays silent) — a client whose first
 *   request is still on its way is never cut off;
 * - otherwise the new socket waits, unread, in a bounded queue (`maxWaiting`), and is admitted as
 *   soon as a connection closes or becomes evictable — what CometBFT's capped listener gives a
 *   burst of clients (they wait in the accept backlog instead of failing);
 * - a socket is refused (closed) only when it has waited `waitTimeoutMs`, or when it has waited
 *   longest in a full queue and another arrives (so a flood of silent sockets cannot lock out a
 *   client that comes after it).
 *
 * A connection idle for `idleTimeoutMs` is closed by a sweep, whatever the protocol (HTTP/1
 * keep-alive, an HTTP/2 session without streams, a socket that never sent a byte), so idle
 * sockets cannot hold descriptors for long.
 *
 *   const guard = new ConnectionGuard('rpc', { maxConnections: 900, idleTimeoutMs: 60_000 }, logger);
 *   guard.attach(server, (socket, tracked) => …);   // before server.listen()
 *   … tracked.busy() / tracked.idle() around each request; tracked.pin() for a websocket …
 *   guard.close();
 */
import type { Server, Socket } from 'node:net';
import { nullLogger, type Logger } from '../logger.js';

export interface ConnectionLimits {
  /** Connections open at once (0 = unlimited). */
  maxConnections: number;
  /** Close a connection idle this long (0 = never). */
  idleTimeoutMs: number;
  /** Sockets that may wait for a slot at the cap (default `waitQueueFor(maxConnections)`). */
  maxWaiting?: number;
  /** How long a socket may wait for a slot before it is refused (default 30 s). */
  waitTimeoutMs?: number;
  /** A connection that has sent no request becomes evictable after this long (default 1 s). */
  graceMs?: number;
}

export interface ConnectionStats {
  open: number;
  max: number;
  evicted: number;
  refused: number;
  /** Sockets waiting for a slot now. */
  waiting: number;
}

export class TrackedConnection {
  private inFlight = 0;
  private pinned = false;
  /** It has started a request (a socket that has not yet is protected for the guard's grace). */
  private served = false;
  readonly openedMs = Date.now();
  lastActiveMs = this.openedMs;
  closed = false;

  constructor(
    private readonly guard: ConnectionGuard,
    readonly close: () => void,
  ) {}

  /** A request started on this connection. */
  busy(): void {
    this.inFlight++;
    this.served = true;
    this.lastActiveMs = Date.now();
  }

  /** A request finished. */
  idle(): void {
    if (this.inFlight > 0) this.inFlight--;
    this.lastActiveMs = Date.now();
    if (this.inFlight === 0) this.guard.pump();
  }

  /** Never idle (a websocket: its own ping/pong decides when it is dead). */
  pin(): void {
    this.pinned = true;
  }

  get isIdle(): boolean {
    return !this.pinned && this.inFlight === 0;
  }

  /** Idle, and either done with a request or silent for `graceMs`: may be closed for a newcomer. */
  evictable(now: number, graceMs: number): boolean {
    return this.isIdle && (this.served || now - this.openedMs >= graceMs);
  }

  /** The connection is gone (its close event). */
  release(): void {
    if (this.closed) return;
    this.closed = true;
    this.guard.forget(this);
  }
}

/**
 * The default wait queue for a cap: an eighth of it, 1–128 (0 for an unlimited cap). Waiting
 * sockets hold descriptors, so the descriptor plan (limits/descriptors.ts) reserves them too.
 */
export function waitQueueFor(maxConnections: number): number {
  if (maxConnections <= 0) return 0;
  return Math.max(1, Math.min(128, Math.floor(maxConnections / 8)));
}

interface Waiting {
  socket: Socket;
  since: number;
  admitted: (tracked: TrackedConnection) => void;
}

export class ConnectionGuard {
  private readonly open = new Set<TrackedConnection>();
  private readonly waiting: Waiting[] = [];
  private readonly sweeper: NodeJS.Timeout | undefined;
  /** Polls while sockets wait and none of the open connections is evictable yet. */
  private waitTimer: NodeJS.Timeout | undefined;
  private readonly maxWaiting: number;
  private readonly waitTimeoutMs: number;
  private readonly graceMs: number;
  /** Connections closed to make room for new ones, and sockets refused (queue full or waited too long). */
  evicted = 0;
  refused = 0;
  private lastWarnMs = 0;

  constructor(
    readonly name: string,
    readonly limits: ConnectionLimits,
    private readonly logger: Logger = nullLogger,
  ) {
    this.maxWaiting = limits.maxWaiting ?? waitQueueFor(limits.maxConnections);
    this.waitTimeoutMs = limits.waitTimeoutMs ?? 30_000;
    this.graceMs = limits.graceMs ?? 1_000;
    if (limits.idleTimeoutMs > 0) {
      this.sweeper = setInterval(() => this.sweep(), Math.max(100, Math.min(1000, limits.idleTimeoutMs / 4)));
      this.sweeper.unref();
    }
  }

  get size(): number {
    return this.open.size;
  }

  stats(): ConnectionStats {
    return { open: this.open.size, max: this.limits.maxConnections, evicted: this.evicted, refused: this.refused, waiting: this.waiting.length };
  }

  /**
   * Takes over `server`'s 'connection' listeners (call after creating the server, before
   * listening): each accepted socket passes `admit` first and reaches them once admitted, after
   * which `admitted(socket, tracked)` runs (the server pairs its own per-connection state there).
   */
  attach(server: Server, admitted?: (socket: Socket, tracked: TrackedConnection) => void): void {
    const listeners = server.listeners('connection') as ((socket: Socket) => void)[];
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      this.admit(socket, (tracked) => {
        for (const listener of listeners) listener.call(server, socket);
        admitted?.(socket, tracked);
      });
    });
  }

  /**
   * A new socket: `admitted(tracked)` runs now if there is room (or an evictable connection to
   * make room), later if it has to wait, never if it is refused (the socket is then closed).
   */
  admit(socket: Socket, admitted: (tracked: TrackedConnection) => void): void {
    const max = this.limits.maxConnections;
    if (this.waiting.length === 0 && (max <= 0 || this.open.size < max || this.evictOne(Date.now()))) {
      admitted(this.track(socket));
      return;
    }
    if (this.waiting.length >= this.maxWaiting) {
      // The queue is full: the socket that has waited longest gives way (under a flood of silent
      // sockets it is one of them, and a client that arrives later still gets its turn).
      const oldest = this.waiting.shift()!;
      this.refuse(oldest.socket, 'connection cap reached and the wait queue is full; closing the longest-waiting connection');
    }
    // Unread until admitted: the server has not seen it yet, so nothing consumes its bytes.
    socket.pause();
    const entry: Waiting = { socket, since: Date.now(), admitted };
    this.waiting.push(entry);
    socket.once('close', () => {
      const at = this.waiting.indexOf(entry);
      if (at >= 0) this.waiting.splice(at, 1);
    });
    this.warn('connection cap reached; new connections wait for a slot');
    this.pump();
  }

  /** Admits waiting sockets while there is room; drops those that waited too long. */
  pump(): void {
    if (this.waiting.length === 0) return;
    const now = Date.now();
    const max = this.limits.maxConnections;
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (next.socket.destroyed) {
        this.waiting.shift();
        continue;
      }
      if (now - next.since >= this.waitTimeoutMs) {
        this.waiting.shift();
        this.refuse(next.socket, 'a connection waited too long for a slot; refusing it');
        continue;
      }
      if (max > 0 && this.open.size >= max && !this.evictOne(now)) break;
      this.waiting.shift();
      const tracked = this.track(next.socket);
      next.admitted(tracked);
      next.socket.resume();
    }
    if (this.waiting.length > 0 && this.waitTimer === undefined) {
      // A silent connection becomes evictable with time, not with an event: look again shortly.
      this.waitTimer = setTimeout(() => {
        this.waitTimer = undefined;
        this.pump();
      }, Math.max(10, Math.min(100, this.graceMs)));
      this.waitTimer.unref();
    }
  }

  forget(tracked: TrackedConnection): void {
    if (this.open.delete(tracked)) this.pump();
  }

  private track(socket: Socket): TrackedConnection {
    const tracked = new TrackedConnection(this, () => socket.destroy());
    this.open.add(tracked);
    socket.once('close', () => tracked.release());
    return tracked;
  }

  private refuse(socket: Socket, why: string): void {
    this.refused++;
    this.warn(why);
    socket.destroy();
  }

  /** Close the evictable connection idle the longest; false when none is evictable. */
  private evictOne(now: number): boolean {
    let oldest: TrackedConnection | undefined;
    for (const tracked of this.open) {
      if (tracked.evictable(now, this.graceMs) && (oldest === undefined || tracked.lastActiveMs < oldest.lastActiveMs)) oldest = tracked;
    }
    if (oldest === undefined) return false;
    this.open.delete(oldest);
    oldest.closed = true;
    oldest.close();
    this.evicted++;
    this.warn('connection cap reached; closing the connection idle the longest for a new one');
    return true;
  }

  private sweep(): void {
    const cutoff = Date.now() - this.limits.idleTimeoutMs;
    for (const tracked of [...this.open]) {
      if (tracked.isIdle && tracked.lastActiveMs < cutoff) {
        this.open.delete(tracked);
        tracked.closed = true;
        tracked.close();
      }
    }
    this.pump();
  }

  /** At most one warning per 10 s per server. */
  private warn(msg: string): void {
    const now = Date.now();
    if (now - this.lastWarnMs < 10_000) return;
    this.lastWarnMs = now;
    this.logger.warn(msg, { server: this.name, max_open_connections: this.limits.maxConnections, evicted: this.evicted, refused: this.refused, waiting: this.waiting.length });
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.waitTimer) clearTimeout(this.waitTimer);
    for (const entry of this.waiting.splice(0)) entry.socket.destroy();
  }
}
