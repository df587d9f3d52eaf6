/**
 * The node's health, one answer for every server: `/health` (RPC; an error while unhealthy),
 * `/ready` (RPC; HTTP 503 while not ready, for load balancers), `broadcast_tx_*` (refused while
 * unhealthy) and the Prometheus gauges.
 *
 * Healthy: nothing has stopped the node from committing (no storage fault, no consensus
 * failure). Ready: healthy, consensus running and not catching up with peers.
 */
export interface HealthReport {
  healthy: boolean;
  ready: boolean;
  /** Why the node is unhealthy or not ready. */
  reason?: string;
  height: number;
  catchingUp: boolean;
}

export class NodeHealth {
  private fault: string | undefined;
  private started = false;

  constructor(private readonly probe: () => { height: number; catchingUp: boolean; consensusFailure?: string }) {}

  /** Record the first fatal condition (later ones do not replace it). */
  fail(reason: string): void {
    this.fault ??= reason;
  }

  get failure(): string | undefined {
    return this.fault ?? this.probe().consensusFailure;
  }

  /** Consensus is running (set by the node once start-up is over). */
  markStarted(): void {
    this.started = true;
  }

  report(): HealthReport {
    const p = this.probe();
    const failure = this.fault ?? p.consensusFailure;
    if (failure !== undefined) return { healthy: false, ready: false, reason: failure, height: p.height, catchingUp: p.catchingUp };
    if (!this.started) return { healthy: true, ready: false, reason: 'starting', height: p.height, catchingUp: p.catchingUp };
    if (p.catchingUp) return { healthy: true, ready: false, reason: 'catching up with peers', height: p.height, catchingUp: true };
    return { healthy: true, ready: true, height: p.height, catchingUp: false };
  }
}
