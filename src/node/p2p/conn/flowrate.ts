/**
 * Byte-rate accounting for one direction of a connection (what CometBFT's libs/flowrate Monitor
 * does for send_rate / recv_rate): a token bucket that says how many bytes may go now and how
 * long to wait otherwise, plus the counters `net_info` shows.
 */
const RATE_SAMPLE_MS = 1000;

export interface FlowStatus {
  /** When the monitor started (ms since the epoch). */
  startMs: number;
  bytes: number;
  /** Bytes/s over the last sample window. */
  curRate: number;
  /** Bytes/s since start. */
  avgRate: number;
  peakRate: number;
  durationMs: number;
  idleMs: number;
}

export class FlowLimiter {
  private tokens: number;
  private lastRefill = Date.now();
  private readonly startMs = Date.now();
  private total = 0;
  private windowStart = Date.now();
  private windowBytes = 0;
  private curRate = 0;
  private peakRate = 0;
  private lastActivity = Date.now();

  /**
   * @param rateBytesPerS allowed bytes per second (0 = unlimited)
   * @param burstBytes how much may go at once after an idle period (at least one packet)
   */
  constructor(
    private readonly rateBytesPerS: number,
    private readonly burstBytes: number,
  ) {
    this.tokens = burstBytes;
  }

  private refill(now: number): void {
    if (this.rateBytesPerS <= 0) return;
    const elapsed = now - this.lastRefill;
    if (elapsed <= 0) return;
    this.tokens = Math.min(this.burstBytes, this.tokens + (elapsed * this.rateBytesPerS) / 1000);
    this.lastRefill = now;
  }

  /** Bytes that may be transferred now (Infinity when unlimited). */
  available(): number {
    if (this.rateBytesPerS <= 0) return Number.POSITIVE_INFINITY;
    this.refill(Date.now());
    return Math.max(0, Math.floor(this.tokens));
  }

  /** Milliseconds until at least `bytes` may be transferred. */
  waitMs(bytes: number): number {
    if (this.rateBytesPerS <= 0) return 0;
    this.refill(Date.now());
    const missing = Math.min(bytes, this.burstBytes) - this.tokens;
    return missing <= 0 ? 0 : Math.ceil((missing * 1000) / this.rateBytesPerS);
  }

  /** Record a transfer (tokens may go negative: the next wait pays it back). */
  update(bytes: number): void {
    const now = Date.now();
    this.refill(now);
    if (this.rateBytesPerS > 0) this.tokens -= bytes;
    this.total += bytes;
    this.lastActivity = now;
    this.windowBytes += bytes;
    if (now - this.windowStart >= RATE_SAMPLE_MS) {
      this.curRate = Math.round((this.windowBytes * 1000) / (now - this.windowStart));
      this.peakRate = Math.max(this.peakRate, this.curRate);
      this.windowStart = now;
      this.windowBytes = 0;
    }
  }

  status(): FlowStatus {
    const now = Date.now();
    const durationMs = now - this.startMs;
    return {
      startMs: this.startMs,
      bytes: this.total,
      curRate: this.curRate,
      avgRate: durationMs > 0 ? Math.round((this.total * 1000) / durationMs) : 0,
      peakRate: this.peakRate,
      durationMs,
      idleMs: now - this.lastActivity,
    };
  }
}
