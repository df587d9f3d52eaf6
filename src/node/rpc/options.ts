/**
 * RPC server options with CometBFT config.toml [rpc] names and defaults. The node's config loader
 * maps config.toml onto these.
 */
import { TokendError } from '../../util/errors.js';

export interface RpcOptions {
  /** laddr: "tcp://host:port" (or "host:port"); port 0 picks a free port (tests). */
  laddr: string;
  /** cors_allowed_origins: [] disables CORS; "*" allows every origin. */
  corsAllowedOrigins: string[];
  /** cors_allowed_methods. */
  corsAllowedMethods: string[];
  /** cors_allowed_headers. */
  corsAllowedHeaders: string[];
  /** max_open_connections (0 = unlimited). */
  maxOpenConnections: number;
  /** max_subscription_clients: distinct remote addresses holding subscriptions (broadcast_tx_commit counts). */
  maxSubscriptionClients: number;
  /** max_subscriptions_per_client. */
  maxSubscriptionsPerClient: number;
  /** experimental_subscription_buffer_size: events queued per websocket before the client counts as slow. */
  subscriptionBufferSize: number;
  /** experimental_close_on_slow_client: cancel a slow client's subscriptions (else its events are dropped). */
  closeOnSlowClient: boolean;
  /** timeout_broadcast_tx_commit. */
  timeoutBroadcastTxCommitMs: number;
  /** max_request_batch_size (0 = unlimited). */
  maxRequestBatchSize: number;
  /** max_body_bytes: largest request body (and websocket message). */
  maxBodyBytes: number;
  /** max_header_bytes. */
  maxHeaderBytes: number;
  /** timeout_read: time to receive a whole request (Go http.Server ReadTimeout). */
  readTimeoutMs: number;
  /** timeout_idle: idle connections (keep-alive, or never sending a request) are closed after this. */
  keepAliveTimeoutMs: number;
  /** Websocket ping period; a client that misses a pong for wsReadWaitMs is dropped. */
  wsPingPeriodMs: number;
  wsReadWaitMs: number;
}

export const defaultRpcOptions: Readonly<RpcOptions> = Object.freeze({
  laddr: 'tcp://127.0.0.1:26657',
  corsAllowedOrigins: [],
  corsAllowedMethods: ['HEAD', 'GET', 'POST'],
  corsAllowedHeaders: ['Origin', 'Accept', 'Content-Type', 'X-Requested-With', 'X-Server-Time'],
  maxOpenConnections: 900,
  maxSubscriptionClients: 100,
  maxSubscriptionsPerClient: 5,
  subscriptionBufferSize: 200,
  closeOnSlowClient: false,
  timeoutBroadcastTxCommitMs: 10_000,
  maxRequestBatchSize: 10,
  maxBodyBytes: 1_000_000,
  maxHeaderBytes: 1 << 20,
  readTimeoutMs: 10_000,
  keepAliveTimeoutMs: 60_000,
  wsPingPeriodMs: 27_000,
  wsReadWaitMs: 30_000,
});

/** Split a listen address ("tcp://127.0.0.1:26657", "127.0.0.1:26657", ":26657") into host and port. */
export function parseListenAddress(laddr: string): { host: string; port: number } {
  const withoutScheme = laddr.replace(/^[a-z]+:\/\//i, '');
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(withoutScheme);
  if (!m) throw new TokendError('CONFIG_INVALID', `invalid RPC listen address "${laddr}"`, { hint: 'use tcp://host:port, e.g. tcp://127.0.0.1:26657' });
  const host = m[1] ?? m[2] ?? '';
  return { host: host === '' ? '0.0.0.0' : host, port: Number(m[3]) };
}
