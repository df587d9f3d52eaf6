/**
 * The node's query table: the app's Query services plus the node-level services, as ONE
 * `QueryRouter` that the REST gateway and the gRPC server both serve.
 *
 *   const router = createQueryRouter({ app, node: rpcEnv, options: { rpcAddress: 'tcp://127.0.0.1:26657' } });
 *   new ApiServer({ router, … });  new GrpcServer({ router, … });
 *
 * The app's entries win over node-level ones with the same path (none overlap today: the app
 * serves cosmos.tx.v1beta1.Service Simulate/TxDecode/TxEncode and cosmos.base.node.v1beta1.Service;
 * the node serves the tendermint service and the tx lookups/broadcast).
 *
 * Every entry with a top-level `cosmos.base.query.v1beta1.PageRequest` field gets its
 * `pagination.limit` clamped to the maximum page size (see paging.ts) before the handler runs.
 */
import type { DescField, Message } from '@bufbuild/protobuf';
import type { PageRequest } from '../../gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { appQueryRouter, type AppQueryBackend } from './appRouter.js';
import { DEFAULT_PAGE_LIMITS, type PageLimits } from './paging.js';
import { tendermintServiceEntries } from './tendermint.js';
import { txServiceEntries } from './tx.js';
import type { NodeServicesEnv, QueryEntry, QueryRouter } from './types.js';

export interface NodeServicesOptions {
  /** other.rpc_address of GetNodeInfo (the CometBFT RPC laddr). */
  rpcAddress: string;
  /** BROADCAST_MODE_BLOCK waits this long for the commit (CometBFT's timeout_broadcast_tx_commit). */
  broadcastTimeoutMs: number;
  limits: PageLimits;
}

export const defaultNodeServicesOptions: Readonly<NodeServicesOptions> = Object.freeze({
  rpcAddress: 'tcp://127.0.0.1:26657',
  broadcastTimeoutMs: 10_000,
  limits: DEFAULT_PAGE_LIMITS,
});

/** cosmos.base.tendermint.v1beta1.Service and the node-level cosmos.tx.v1beta1.Service methods. */
export function nodeQueryEntries(env: NodeServicesEnv, options: Partial<NodeServicesOptions> = {}): QueryEntry[] {
  const resolved = { ...defaultNodeServicesOptions, ...options };
  return [
    ...tendermintServiceEntries(env, { rpcAddress: resolved.rpcAddress, limits: resolved.limits }),
    ...txServiceEntries(env, { limits: resolved.limits, broadcastTimeoutMs: resolved.broadcastTimeoutMs }),
  ];
}

const PAGE_REQUEST_TYPE = 'cosmos.base.query.v1beta1.PageRequest';

/** An entry whose request's `pagination.limit` is clamped to `maxLimit`. */
function withPageClamp(entry: QueryEntry, maxLimit: number): QueryEntry {
  const field: DescField | undefined = entry.method.input.fields.find((f) => f.fieldKind === 'message' && f.message.typeName === PAGE_REQUEST_TYPE);
  if (field === undefined) return entry;
  const name = field.localName;
  const max = BigInt(maxLimit);
  return {
    path: entry.path,
    method: entry.method,
    source: entry.source,
    handle(request: Message, ctx) {
      const page = (request as unknown as Record<string, PageRequest | undefined>)[name];
      if (page !== undefined && page.limit > max) page.limit = max;
      return entry.handle(request, ctx);
    },
  };
}

/**
 * One router over several entry lists: the first entry of a path wins. `latestHeight` is the
 * height reported with answers and errors that name no height.
 */
export function composeQueryRouter(
  sources: Iterable<Iterable<QueryEntry>>,
  latestHeight: () => number,
  limits: PageLimits = DEFAULT_PAGE_LIMITS,
  stateHeight?: () => number,
  watchStateHeight?: (listener: (height: number) => void) => () => void,
): QueryRouter {
  const byPath = new Map<string, QueryEntry>();
  for (const source of sources) {
    for (const entry of source) if (!byPath.has(entry.path)) byPath.set(entry.path, withPageClamp(entry, limits.maxLimit));
  }
  const router: QueryRouter = { entries: () => byPath.values(), lookup: (path) => byPath.get(path), latestHeight };
  if (stateHeight !== undefined) router.stateHeight = stateHeight;
  if (watchStateHeight !== undefined) router.watchStateHeight = watchStateHeight;
  return router;
}

export interface QueryRouterConfig {
  /** The App (its registry and query contexts); omit to serve node-level services only. */
  app?: AppQueryBackend;
  /** The node's readers (the RPC environment); omit to serve app services only. */
  node?: NodeServicesEnv;
  options?: Partial<NodeServicesOptions>;
  /** More entries (served after the app's and the node's). */
  extra?: Iterable<QueryEntry>;
}

export function createQueryRouter(config: QueryRouterConfig): QueryRouter {
  const resolved = { ...defaultNodeServicesOptions, ...config.options };
  const sources: Iterable<QueryEntry>[] = [];
  const app = config.app === undefined ? undefined : appQueryRouter(config.app);
  if (app !== undefined) sources.push([...app.entries()]);
  if (config.node !== undefined) sources.push(nodeQueryEntries(config.node, resolved));
  if (config.extra !== undefined) sources.push(config.extra);
  const node = config.node;
  const latestHeight = node !== undefined ? (): number => node.blockStore.height() : app !== undefined ? (): number => app.latestHeight() : (): number => 0;
  const store = config.app?.store;
  return composeQueryRouter(
    sources,
    latestHeight,
    resolved.limits,
    app === undefined ? undefined : (): number => app.latestHeight(),
    store?.watchLatest === undefined ? undefined : (listener) => store.watchLatest!(listener),
  );
}
