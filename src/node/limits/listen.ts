/**
 * The one line a server that cannot listen fails its start with, as CometBFT and the SDK word it
 * ("cannot listen for RPC on tcp://127.0.0.1:26657: address already in use"), with a hint naming
 * the setting to change.
 */
import { TokendError } from '../../util/errors.js';

/** `server`: "RPC", "the REST gateway", …; `address` as configured; `setting`: where to change it. */
export function listenError(server: string, address: string, setting: string, err: unknown): TokendError {
  const e = err as NodeJS.ErrnoException;
  const why = e.code === 'EADDRINUSE' ? 'address already in use' : e.code === 'EACCES' ? 'permission denied' : (e.message ?? String(err));
  return new TokendError('CONFIG_INVALID', `cannot listen for ${server} on ${address}: ${why}`, { hint: `stop the other process or set ${setting} to a free port`, cause: err });
}
