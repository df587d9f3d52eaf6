/**
 * REST gateway options (app.toml [api]) with defaults. The node's config loader maps
 *   [api] address              → address             ("tcp://localhost:1317")
 *   [api] max-open-connections → maxOpenConnections  (1000)
 *   [api] enabled-unsafe-cors  → enableUnsafeCors    (false)
 */
import { TokendError } from '../../util/errors.js';

export interface ApiOptions {
  /** "tcp://host:port" (or "host:port"); port 0 picks a free port (tests). */
  address: string;
  /** Connections served at once (0 = unlimited); further connections are dropped by node:http. */
  maxOpenConnections: number;
  /** Largest POST body accepted (bytes); larger bodies get 413. */
  maxBodyBytes: number;
  /** Allow any origin (Access-Control-Allow-Origin: *, preflight answered). */
  enableUnsafeCors: boolean;
  /** Idle keep-alive connections are closed after this. */
  keepAliveTimeoutMs: number;
  /** Time allowed to receive a whole request. */
  requestTimeoutMs: number;
}

export const defaultApiOptions: Readonly<ApiOptions> = Object.freeze({
  address: 'tcp://localhost:1317',
  maxOpenConnections: 1000,
  maxBodyBytes: 10 * 1024 * 1024,
  enableUnsafeCors: false,
  keepAliveTimeoutMs: 65_000,
  requestTimeoutMs: 60_000,
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
