/**
 * REST gateway options (app.toml [api]) with defaults. The node's config loader maps
 *   [api] address              → address             ("tcp://localhost:1317")
 *   [api] max-open-connections → maxOpenConnections  (1000)
 *   [api] enabled-unsafe-cors  → enableUnsafeCors    (false)
 *   [api] rpc-read-timeout     → requestTimeoutMs    (10 s; SDK seconds)
 *   [api] rpc-write-timeout    → writeTimeoutMs      (0 = none; SDK seconds)
 *   [api] rpc-max-body-bytes   → maxBodyBytes        (1000000)
 *   [api] idle-timeout         → keepAliveTimeoutMs  (60 s; tokend, seconds)
 *   [api] http-thread          → thread              (true; tokend)
 *   [cache] rest-responses     → answerCacheEntries  (10000; tokend)
 */
import { TokendError } from '../../util/errors.js';

export interface ApiOptions {
  /** "tcp://host:port" (or "host:port"); port 0 picks a free port (tests). */
  address: string;
  /** Connections open at once (0 = unlimited); at the cap the oldest idle one is closed for a new one. */
  maxOpenConnections: number;
  /** Largest POST body accepted (bytes); larger bodies get 413. */
  maxBodyBytes: number;
  /** Allow any origin (Access-Control-Allow-Origin: *, preflight answered). */
  enableUnsafeCors: boolean;
  /** Idle keep-alive connections are closed after this. */
  keepAliveTimeoutMs: number;
  /** Time allowed to receive a whole request. */
  requestTimeoutMs: number;
  /** Time allowed to write a whole answer (0 = no limit). */
  writeTimeoutMs: number;
  /**
   * Answers of GET queries of the app's state at the latest height kept by URL, dropped as soon
   * as a block is committed (0 = none).
   */
  answerCacheEntries: number;
  /**
   * Serve the HTTP side (connections, parsing, the kept answers) on a thread of its own
   * (threads/frontThread.ts): an answer kept for the latest state then never waits for the main thread.
   */
  thread: boolean;
}

export const defaultApiOptions: Readonly<ApiOptions> = Object.freeze({
  address: 'tcp://localhost:1317',
  maxOpenConnections: 1000,
  maxBodyBytes: 10 * 1024 * 1024,
  enableUnsafeCors: false,
  keepAliveTimeoutMs: 60_000,
  requestTimeoutMs: 10_000,
  writeTimeoutMs: 0,
  answerCacheEntries: 10_000,
  thread: false,
});

/** host and port of "tcp://host:port", "host:port" or "[::1]:port"; an empty host means all interfaces. */
export function parseApiAddress(address: string, what = 'API'): { host: string; port: number } {
  const withoutScheme = address.replace(/^[a-z]+:\/\//i, '');
  const match = /^(?:\[([^\]]+)\]|([^:/]*)):(\d+)$/.exec(withoutScheme);
  const port = match === null ? NaN : Number(match[3]);
  if (match === null || !Number.isInteger(port) || port > 65535) {
    throw new TokendError('CONFIG_INVALID', `invalid ${what} listen address "${address}"`, { hint: 'use tcp://host:port, e.g. tcp://127.0.0.1:1317' });
  }
  const host = match[1] ?? match[2] ?? '';
  return { host: host === '' ? '0.0.0.0' : host, port };
}
