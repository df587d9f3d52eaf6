/**
 * `tendermint bootstrap-state` (node.BootstrapState): write the consensus state at a height whose
 * app state is already present (restored by hand from a snapshot, for instance), using the light
 * client of [statesync] (rpc_servers, trust_height, trust_hash, trust_period) to get the verified
 * validators, params and commit. Refuses a node that already has consensus state.
 */
import type { Database } from '../../store/db/database.js';
import { ConsensusError } from '../errors.js';
import { BlockStore } from '../store/blockStore.js';
import { StateStore } from '../store/stateStore.js';
import { fromHex } from '../types/bytes.js';
import { LightClient, RpcProvider, stateFromLightClient } from './lightClient.js';

export interface BootstrapOptions {
  db: Database;
  chainId: string;
  initialHeight: number;
  height: number;
  rpcServers: string[];
  trustHeight: number;
  trustHash: string;
  trustPeriodMs: number;
}

export async function bootstrapState(options: BootstrapOptions): Promise<{ height: number; app_hash: string }> {
  const stateStore = new StateStore(options.db);
  const blockStore = new BlockStore(options.db);
  if (stateStore.load() !== undefined || blockStore.height() > 0) throw new ConsensusError('STORE', 'state not empty, trying to initialize non empty state');
  if (options.height <= 0) throw new ConsensusError('STORE', 'nothing to bootstrap: the app has no committed state (pass --height)');
  if (options.rpcServers.length < 2) throw new ConsensusError('INVALID_GENESIS', 'config.toml statesync.rpc_servers needs at least two servers (a primary and a witness)');
  let hash: Uint8Array;
  try {
    hash = fromHex(options.trustHash);
  } catch {
    throw new ConsensusError('INVALID_GENESIS', `config.toml statesync.trust_hash "${options.trustHash}" is not hex`);
  }
  const [primary, ...witnesses] = options.rpcServers.map((url) => new RpcProvider(url));
  const lc = new LightClient(options.chainId, primary!, witnesses, { height: options.trustHeight, hash, periodMs: options.trustPeriodMs });
  await lc.initialize();
  const state = await stateFromLightClient(lc, options.chainId, options.initialHeight, options.height);
  const commit = (await lc.verifyLightBlockAtHeight(options.height)).commit;
  await stateStore.bootstrap(state);
  await blockStore.saveSeenCommit(options.height, commit);
  return { height: options.height, app_hash: Buffer.from(state.appHash).toString('hex').toUpperCase() };
}
