/**
 * A connection cap with idle eviction for the node's servers (RPC + websocket, REST, gRPC).
 *
 * Every accepted connection is admitted here. Below the cap it is simply tracked. At the cap the
 * oldest *idle* connection (no request in flight, not a websocket) is closed to make room, so a
 * flood of idle sockets never locks out a new client; only when every connection is busy is the
 * new one refused. A connection idle for `idleTimeoutMs` is closed by a sweep, whatever the
 * protocol (HTTP/1 keep-alive, an HTTP/2 session without streams, a socket that never sent a
 * byte), so idle sockets cannot hold descriptors for long.
 *
 *   const guard = new ConnectionGuard('rpc', { maxConnections: 900, idleTimeoutMs: 60_000 }, logger);
 *   server.on('connection', (socket) => guard.admit(() => socket.destroy(), socket));
 *   … tracked.busy() / tracked.idle() around each request; tracked.pin() for a websocket …
 *   guard.close();
 */
import type { Socket } from 'node:net';
import { nullLogger, type Logger } from '../logger.js';

export interface ConnectionLimits {
  /** Connections open at once (0 = unlimited). */
  maxConnections: number;
  /** Close a connection idle this long (0 = never). */
  idleTimeoutMs: number;
}

export interface ConnectionStats {
  open: number;
  max: number;
  evicted: number;
  refused: number;
}

export class TrackedConnection {
  private inFlight = 0;
  private pinned = false;
  lastActiveMs = Date.now();
  closed = false;

  constructor(
    private readonly guard: ConnectionGuard,
    readonly close: () => void,
  ) {}

  /** A request started on this connection. */
  busy(): void {
    this.inFlight++;
    this.lastActiveMs = Date.now();
  }

  /** A request finished. */
  idle(): void {
    if (this.inFlight > 0) this.inFlight--;
    this.lastActiveMs = Date.now();
  }

  /** Never idle (a websocket: its own ping/pong decides when it is dead). */
  pin(): void {
    this.pinned = true;
  }

  get isIdle(): boolean {
    return !this.pinned && this.inFlight === 0;
  }

  /** The connection is gone (its close event). */
  release(): void {
    if (this.closed) return;
    this.closed = true;
    this.guard.forget(this);
  }
}

export class ConnectionGuard {
  private readonly open = new Set<TrackedConnection>();
  private readonly sweeper: NodeJS.Timeout | undefined;
  /** Connections closed to make room for new ones, and refused because all were busy. */
  evicted = 0;
  refused = 0;
  private lastWarnMs = 0;

  constructor(
    readonly name: string,
    readonly limits: ConnectionLimits,
    private readonly logger: Logger = nullLogger,
  ) {
    if (limits.idleTimeoutMs > 0) {
      this.sweeper = setInterval(() => this.sweep(), Math.max(100, Math.min(1000, limits.idleTimeoutMs / 4)));
      this.sweeper.unref();
    }
  }

  get size(): number {
    return this.open.size;
  }

  stats(): ConnectionStats {
    return { open: this.open.size, max: this.limits.maxConnections, evicted: this.evicted, refused: this.refused };
  }

  /**
   * A new connection. Returns its tracker, or undefined when it was refused (closed already).
   * `socket` (when given) is released on its close event.
   */
  admit(close: () => void, socket?: Socket): TrackedConnection | undefined {
    const max = this.limits.maxConnections;
    if (max > 0 && this.open.size >= max && !this.evictOne()) {
      this.refused++;
      this.warn('all connections busy; refusing a new one');
      close();
      return undefined;
    }
    const tracked = new TrackedConnection(this, close);
    this.open.add(tracked);
    socket?.once('close', () => tracked.release());
    return tracked;
  }

  forget(tracked: TrackedConnection): void {
    this.open.delete(tracked);
  }

  /** Close the oldest idle connection; false when none is idle. */
  private evictOne(): boolean {
    for (const tracked of this.open) {
      if (!tracked.isIdle) continue;
      this.open.delete(tracked);
      tracked.closed = true;
      tracked.close();
      this.evicted++;
      this.warn('connection cap reached; closing the oldest idle connection for a new one');
      return true;
    }
    return false;
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
  }

  /** At most one warning per 10 s per server. */
  private warn(msg: string): void {
    const now = Date.now();
    if (now - this.lastWarnMs < 10_000) return;
    this.lastWarnMs = now;
    this.logger.warn(msg, { server: this.name, max_open_connections: this.limits.maxConnections, evicted: this.evicted, refused: this.refused });
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }
}
