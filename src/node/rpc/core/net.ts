/**
 * The unsafe p2p routes (rpc/core/net.go): dial_seeds and dial_peers. The node registers them
 * only when config.toml [rpc] unsafe = true; otherwise they do not exist (-32601).
 */
import { defineRoute, type Route } from '../route.js';
import type { RpcEnvironment } from '../environment.js';
import { RpcHandlerError } from './common.js';

function addressList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new RpcHandlerError(`${name} must be a list of id@host:port strings`);
  return value as string[];
}

function p2p(env: RpcEnvironment): NonNullable<RpcEnvironment['p2p']> {
  if (!env.p2p) throw new RpcHandlerError('p2p is not running on this node');
  return env.p2p;
}

export const unsafeNetRoutes: Route[] = [
  defineRoute({
    name: 'dial_seeds',
    params: [{ name: 'seeds', type: 'json' }],
    handler: (env, args) => {
      const seeds = addressList(args.seeds, 'seeds');
      if (seeds.length === 0) throw new RpcHandlerError('no seeds provided');
      try {
        p2p(env).dialSeeds(seeds);
      } catch (err) {
        throw new RpcHandlerError((err as Error).message);
      }
      return { log: 'Dialing seeds in progress. See /net_info for details' };
    },
  }),
  defineRoute({
    name: 'dial_peers',
    params: [
      { name: 'peers', type: 'json' },
      { name: 'persistent', type: 'bool' },
      { name: 'unconditional', type: 'bool' },
      { name: 'private', type: 'bool' },
    ],
    handler: (env, args) => {
      const peers = addressList(args.peers, 'peers');
      if (peers.length === 0) throw new RpcHandlerError('no peers provided');
      try {
        p2p(env).dialPeers(peers, { persistent: args.persistent ?? false, unconditional: args.unconditional ?? false, private: args.private ?? false });
      } catch (err) {
        throw new RpcHandlerError((err as Error).message);
      }
      return { log: 'Dialing peers in progress. See /net_info for details' };
    },
  }),
  defineRoute({
    name: 'unsafe_flush_mempool',
    params: [],
    handler: (env) => {
      const mempool = env.mempool as { flush?: () => void };
      mempool.flush?.();
      return {};
    },
  }),
];
