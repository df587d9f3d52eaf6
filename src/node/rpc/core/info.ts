/** health, status, net_info, genesis, genesis_chunked, abci_info, abci_query (rpc/core/{health,status,net,abci}.go). */
import { renderGenesisJsonText, renderSyncInfo, renderValidatorInfo } from '../../consensus/json.js';
import { BLOCK_PROTOCOL, P2P_PROTOCOL } from '../../consensus/types/block.js';
import { COMPAT_COMETBFT_VERSION } from '../../version/version.js';
import { defineRoute, RawJson, type Route, type RouteContext } from '../route.js';
import type { RpcEnvironment } from '../environment.js';
import { RpcHandlerError } from './common.js';
import { renderAbciInfo, renderConnectionStatus, renderNodeInfo, renderQuery } from './render.js';

/** CometBFT genesisChunkSize. */
const GENESIS_CHUNK_BYTES = 16 * 1024 * 1024;

function genesisChunks(env: RpcEnvironment, ctx: RouteContext): string[] {
  const cached = ctx.memo.get('genesisChunks') as string[] | undefined;
  if (cached) return cached;
  const data = Buffer.from(renderGenesisJsonText(env.genesis), 'utf8');
  const chunks: string[] = [];
  for (let i = 0; i < data.length; i += GENESIS_CHUNK_BYTES) chunks.push(data.subarray(i, i + GENESIS_CHUNK_BYTES).toString('base64'));
  ctx.memo.set('genesisChunks', chunks);
  return chunks;
}

export const infoRoutes: Route[] = [
  defineRoute({
    name: 'health',
    params: [],
    handler: (env) => {
      const health = env.health?.();
      if (health && !health.healthy) throw new RpcHandlerError(`node is unhealthy: ${health.reason ?? 'unknown'}`, 'INTERNAL');
      return {};
    },
  }),

  defineRoute({
    name: 'status',
    params: [],
    handler: (env, _args, ctx) => {
      const s = env.status();
      const validator = s.validatorInfo
        ? renderValidatorInfo(s.validatorInfo)
        : { address: '', pub_key: { type: 'tendermint/PubKeyEd25519', value: '' }, voting_power: '0' };
      return {
        node_info: renderNodeInfo(env.nodeInfo(), env.txIndexer.enabled, ctx.listenAddress),
        sync_info: renderSyncInfo(s),
        validator_info: validator,
      };
    },
  }),

  defineRoute({
    name: 'net_info',
    params: [],
    handler: (env) => {
      const info = env.netInfo?.() ?? { listening: true, listeners: [`Listener(@${env.nodeInfo().listenAddr})`], peers: [] };
      return {
        listening: info.listening,
        listeners: info.listeners,
        n_peers: String(info.peers.length),
        peers: info.peers.map((p) => ({
          node_info: renderNodeInfo(p.nodeInfo, true, ''),
          is_outbound: p.isOutbound,
          connection_status: renderConnectionStatus(p.connectionStatus),
          remote_ip: p.remoteIp,
        })),
      };
    },
  }),

  defineRoute({
    name: 'genesis',
    params: [],
    cacheable: true,
    handler: (env, _args, ctx) => {
      const chunks = genesisChunks(env, ctx);
      if (chunks.length > 1) throw new RpcHandlerError('genesis response is large, please use the genesis_chunked API instead');
      return new RawJson(`{"genesis":${renderGenesisJsonText(env.genesis)}}`);
    },
  }),

  defineRoute({
    name: 'genesis_chunked',
    params: [{ name: 'chunk', type: 'uint' }],
    cacheable: true,
    handler: (env, args, ctx) => {
      const chunks = genesisChunks(env, ctx);
      if (chunks.length === 0) throw new RpcHandlerError('service configuration error, there are no chunks');
      const id = args.chunk ?? 0;
      if (id > chunks.length - 1) throw new RpcHandlerError(`there are ${chunks.length - 1} chunks, ${id} is invalid`);
      return { chunk: String(id), total: String(chunks.length), data: chunks[id]! };
    },
  }),

  defineRoute({
    name: 'abci_info',
    params: [],
    handler: async (env) => {
      const res = await env.app.info({ version: COMPAT_COMETBFT_VERSION, blockVersion: BLOCK_PROTOCOL, p2pVersion: P2P_PROTOCOL, abciVersion: '2.0.0' });
      return { response: renderAbciInfo(res) };
    },
  }),

  defineRoute({
    name: 'abci_query',
    params: [
      { name: 'path', type: 'string' },
      { name: 'data', type: 'hexbytes' },
      { name: 'height', type: 'int64' },
      { name: 'prove', type: 'bool' },
    ],
    handler: async (env, args) => {
      const res = await env.app.query({ path: args.path ?? '', data: args.data ?? new Uint8Array(0), height: args.height ?? 0, prove: args.prove ?? false });
      return { response: renderQuery(res) };
    },
  }),
];
