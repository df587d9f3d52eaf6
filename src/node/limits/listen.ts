/**
 * The one line a server that cannot listen fails its start with, as CometBFT and the SDK word it
 * ("cannot listen for RPC on tcp://127.0.0.1:26657: address already in use"), with a hint naming
 * the setting to change. Only a system error (one with a `code`: EADDRINUSE, EACCES,
 * EADDRNOTAVAIL, …) is a listen failure; any other error (a server thread that died before
 * listening) is passed on as it is, without a hint that would not help.
 */
import type { AddressInfo, Server } from 'node:net';
import { TokendError } from '../../util/errors.js';

/**
 * `server.listen(port, host)` as a promise: the bound address, or the listen error (rejected, not
 * emitted). Errors after that are the caller's to log (`on('error')`).
 */
export function listenOn(server: Pick<Server, 'listen' | 'once' | 'off' | 'address'>, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** How an address is written in a URL or a gRPC target: an IPv6 host in brackets. */
export function shownHost(address: AddressInfo | string): string {
  const host = typeof address === 'string' ? address : address.address;
  return host.includes(':') ? `[${host}]` : host;
}

/** `server`: "RPC", "the REST gateway", …; `address` as configured; `setting`: where to change it. */
export function listenError(server: string, address: string, setting: string, err: unknown): Error {
  const e = err as NodeJS.ErrnoException;
  if (typeof e?.code !== 'string') return err instanceof Error ? err : new Error(String(err));
  const why = e.code === 'EADDRINUSE' ? 'address already in use' : e.code === 'EACCES' ? 'permission denied' : (e.message ?? String(err));
  return new TokendError('CONFIG_INVALID', `cannot listen for ${server} on ${address}: ${why}`, { hint: `stop the other process or set ${setting} to a free port`, cause: err });
}
