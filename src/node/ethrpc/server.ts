/**
 * The Ethereum JSON-RPC server (Ethermint's `eth`, `net`, `web3` namespaces) on node:http,
 * enabled by app.toml `[json-rpc] enable` (address 127.0.0.1:8545 by default).
 *
 *   POST /   JSON-RPC 2.0, one request or a batch (at most 1000); body at most 5 MB
 *   ws://    (`[json-rpc] ws-address`, 127.0.0.1:8546) every method, plus eth_subscribe
 *            newHeads / logs / newPendingTransactions and eth_unsubscribe
 *
 * Namespaces by `[json-rpc] api`: eth (eth_getProof in proof.ts), net, web3 by default; txpool,
 * debug (debug.ts) and personal (personal.ts, over the node's keyring) on request.
 *
 * Errors as geth / Ethermint word them: -32700 parse error, -32600 invalid request, -32601
 * "the method X does not exist/is not available", -32602 invalid argument, -32000 for refused
 * txs and state errors (the ante chain's text), 3 "execution reverted" with the revert data.
 * Caps as Ethermint's defaults: gas cap 25,000,000, logs cap 10,000, block range cap 10,000,
 * fee history cap 100.
 */
import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import type { ConnectionStats } from '../limits/connections.js';
import { FrontThread, type Front } from '../threads/frontThread.js';
import { DEFAULT_KEPT_RESULTS, EthFront, internalEthAnswer, KEPT_METHODS, keptKey, MAX_BODY, MAX_KEPT_TEXT, type EthAnswer, type EthFrontOptions, type EthRequest } from './front.js';
import { bytesToHex } from '@ethereumjs/util';
import { toChecksumHex } from '../../keyring/address.js';
import { nullLogger, type Logger } from '../logger.js';
import { listenError } from '../limits/listen.js';
import { appVersion } from '../version/version.js';
import type { RpcEnvironment } from '../rpc/environment.js';
import { EthBackend, EthRpcError, hex, type LogJson } from './backend.js';
import { debugMethods } from './debug.js';
import { getProof } from './proof.js';
import { personalMethods, type PersonalOptions } from './personal.js';
import { revertText } from '../modules/evm/queryServer.js';
import { effectiveGasPrice } from '../modules/evm/ethTx.js';
import { bloomMayContain } from '../modules/evm/bloom.js';

export const GAS_CAP = 25_000_000n;
export const LOGS_CAP = 10_000;
export const BLOCK_RANGE_CAP = 10_000;
export const FEE_HISTORY_CAP = 100;
const MAX_BATCH = 1000;

export interface EthRpcServerOptions {
  env: RpcEnvironment;
  /** host:port (tcp:// prefix accepted). */
  address: string;
  /** The websocket server (eth_subscribe): host:port; none when undefined or empty. */
  wsAddress?: string;
  logger?: Logger;
  /** max-open-connections: at the cap the oldest idle connection is closed for a new client (0: no cap). */
  maxOpenConnections?: number;
  /** http-timeout: time to read a request and write its answer (0: none). */
  httpTimeoutMs?: number;
  /** http-idle-timeout: a connection with no request in progress is closed after this. */
  httpIdleTimeoutMs?: number;
  /** `[json-rpc] api`: the namespaces served (default eth, net, web3). */
  api?: readonly string[];
  /** The keyring behind the personal namespace (served only with `personal` in `api`). */
  personal?: PersonalOptions;
  /**
   * Results of state reads at the latest block kept by method and params until the next block
   * (app.toml [cache] json-rpc-responses; default 10,000; 0 = none). HTTP requests only.
   */
  answerCacheEntries?: number;
  /**
   * [json-rpc] http-thread: the HTTP side (connections, parsing, kept results) on a thread of its
   * own (threads/frontThread.ts). Needs `stateHeight` and `watchStateHeight`; default false.
   */
  thread?: boolean;
  /** The app's committed state height (the router's): what the thread's kept results are checked against. */
  stateHeight?: () => number;
  /** Calls `listener` with each new state height, inside the store's commit; returns the unsubscribe. */
  watchStateHeight?: (listener: (height: number) => void) => () => void;
}

/** Namespaces this server has: Ethermint's defaults, and txpool, debug (tracing) and personal (the node's keyring) on request. */
export const SERVED_NAMESPACES = ['eth', 'net', 'web3', 'txpool', 'debug', 'personal'] as const;
/** Ethermint's other namespaces: accepted in `[json-rpc] api`, not served (a warning at start). */
export const UNSERVED_NAMESPACES = ['miner'] as const;
export const DEFAULT_NAMESPACES: readonly string[] = ['eth', 'net', 'web3'];

export interface EthRpcAddress {
  host: string;
  port: number;
  url: string;
  /** ws://host:port when the websocket server runs. */
  wsUrl?: string;
}

type Handler = (params: unknown[]) => Promise<unknown>;

interface LogCriteria {
  /** Undefined: follow the latest block. */
  from: number | undefined;
  to: number | undefined;
  addresses: string[];
  topics: string[][];
}

/** Whether a block's bloom admits the filter: some address, and for each topic position some option. */
function bloomTest(criteria: LogCriteria): (bloom: Uint8Array) => boolean {
  const bytes = (hexText: string) => Buffer.from(hexText.slice(2), 'hex');
  const addresses = criteria.addresses.map(bytes);
  const topics = criteria.topics.filter((options) => options.length > 0).map((options) => options.map(bytes));
  return (bloom) => (addresses.length === 0 || addresses.some((a) => bloomMayContain(bloom, a))) && topics.every((options) => options.some((t) => bloomMayContain(bloom, t)));
}

const isEmptyBloom = (bloom: Uint8Array): boolean => bloom.every((byte) => byte === 0);

/**
 * A necessary condition on a log's stored JSON (checksummed address, lowercase hex topics): every
 * wanted address or topic option text occurs in it. Logs that fail it are not parsed.
 */
function storedLogTest(criteria: LogCriteria): (stored: string) => boolean {
  const addresses = criteria.addresses.flatMap((a) => (/^0x[0-9a-f]{40}$/.test(a) ? [toChecksumHex(Buffer.from(a.slice(2), 'hex'))] : []));
  if (addresses.length < criteria.addresses.length) return () => true;
  const topics = criteria.topics.filter((options) => options.length > 0);
  return (stored) => (addresses.length === 0 || addresses.some((a) => stored.includes(a))) && topics.every((options) => options.some((t) => stored.includes(t)));
}

/** An eth_subscribe subscription (Ethermint's newPendingTransactions reports txs as they commit). */
type Subscription = { kind: 'newHeads' } | { kind: 'logs'; criteria: LogCriteria } | { kind: 'newPendingTransactions' };

type Filter =
  | { kind: 'blocks'; last: number; touched: number }
  | { kind: 'logs'; criteria: LogCriteria; last: number; touched: number }
  | { kind: 'pending'; seen: Set<string>; touched: number };

/** Ethermint's filter cap and the 5-minute deadline of an unpolled filter. */
export const FILTER_CAP = 200;
const FILTER_TIMEOUT_MS = 5 * 60_000;

function param(params: unknown[], index: number): unknown {
  return params[index];
}

function hexData(value: unknown, what: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new EthRpcError(-32602, `invalid argument ${what}: hex string expected`);
  return new Uint8Array(Buffer.from(value.slice(2), 'hex'));
}

function address(value: unknown, what = '0'): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw new EthRpcError(-32602, `invalid argument ${what}: hex string has length ${typeof value === 'string' ? value.length - 2 : 0}, want 40 for common.Address`);
  return value;
}

export class EthRpcServer {
  private front: Front | undefined;
  private wsServer: WebSocketServer | undefined;
  private offNewBlock: (() => void) | undefined;
  private readonly sockets = new Set<WebSocket>();
  private readonly subscriptions = new Map<WebSocket, Map<string, Subscription>>();
  private readonly backend: EthBackend;
  private readonly logger: Logger;
  private readonly methods: Map<string, Handler>;
  private readonly filters = new Map<string, Filter>();

  constructor(private readonly options: EthRpcServerOptions) {
    this.backend = new EthBackend(options.env);
    this.logger = options.logger ?? nullLogger;
    const api = new Set(options.api ?? DEFAULT_NAMESPACES);
    this.methods = new Map([...this.buildMethods()].filter(([name]) => api.has(name.slice(0, name.indexOf('_')))));
  }

  private buildMethods(): Map<string, Handler> {
    const b = this.backend;
    const evmQuery = async (method: string, request: Record<string, unknown>, height: number) => {
      const q = await import('../../gen/ethermint/evm/v1/query_pb.js');
      const { MsgEthereumTxResponseSchema } = await import('../../gen/ethermint/evm/v1/tx_pb.js');
      const schemas: Record<string, [unknown, unknown]> = {
        Balance: [q.QueryBalanceRequestSchema, q.QueryBalanceResponseSchema],
        Account: [q.QueryAccountRequestSchema, q.QueryAccountResponseSchema],
        Code: [q.QueryCodeRequestSchema, q.QueryCodeResponseSchema],
        Storage: [q.QueryStorageRequestSchema, q.QueryStorageResponseSchema],
        EthCall: [q.EthCallRequestSchema, MsgEthereumTxResponseSchema],
        EstimateGas: [q.EthCallRequestSchema, q.EstimateGasResponseSchema],
      };
      const [input, output] = schemas[method]!;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return (await b.query(`/ethermint.evm.v1.Query/${method}`, input as any, request, output as any, height)) as Record<string, any>;
    };
    const callRequest = async (params: unknown[]) => {
      const args = param(params, 0);
      if (args === null || typeof args !== 'object') throw new EthRpcError(-32602, 'missing value for required argument 0');
      const height = b.resolveHeight(param(params, 1));
      return { height, request: { args: new TextEncoder().encode(JSON.stringify(args)), gasCap: GAS_CAP, chainId: await b.chainId() } };
    };
    const suggestTip = async (): Promise<bigint> => {
      const baseFee = await b.baseFee();
      if (baseFee === undefined) return 0n;
      const params = await b.feeMarketParams();
      return (baseFee * BigInt(params.elasticityMultiplier - 1)) / BigInt(params.baseFeeChangeDenominator);
    };
    const m: Record<string, Handler> = {
      web3_clientVersion: async () => `tokend/${appVersion()}/${process.platform}-${process.arch}/node${process.versions.node}`,
      web3_sha3: async (p) => {
        const { keccak256 } = await import('../../util/hash.js');
        return bytesToHex(keccak256(hexData(param(p, 0), '0')));
      },
      net_version: async () => (await b.chainId()).toString(),
      net_listening: async () => true,
      net_peerCount: async () => (b.env.netInfo?.().peers.length ?? 0),
      eth_chainId: async () => hex(await b.chainId()),
      eth_blockNumber: async () => hex(b.latestHeight()),
      eth_syncing: async () => false,
      eth_mining: async () => false,
      eth_hashrate: async () => '0x0',
      eth_accounts: async () => [],
      eth_protocolVersion: async () => hex(65),
      eth_getBalance: async (p) => {
        const response = await evmQuery('Balance', { address: address(param(p, 0)) }, b.resolveHeight(param(p, 1)));
        return hex(BigInt(response.balance as string));
      },
      eth_getTransactionCount: async (p) => {
        const who = address(param(p, 0));
        const response = await evmQuery('Account', { address: who }, b.resolveHeight(param(p, 1)));
        let nonce = response.nonce as bigint;
        // "pending" counts the sender's txs waiting in the mempool too (Ethermint, geth): the
        // nonce a wallet should sign next.
        if (param(p, 1) === 'pending') for (const tx of await b.pendingEthTxs()) if (tx.from === who.toLowerCase()) nonce++;
        return hex(nonce);
      },
      eth_getCode: async (p) => bytesToHex((await evmQuery('Code', { address: address(param(p, 0)) }, b.resolveHeight(param(p, 1)))).code as Uint8Array),
      eth_getStorageAt: async (p) => {
        const key = param(p, 1);
        if (typeof key !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(key)) throw new EthRpcError(-32602, 'invalid argument 1: hex string expected');
        return (await evmQuery('Storage', { address: address(param(p, 0)), key }, b.resolveHeight(param(p, 2)))).value;
      },
      eth_call: async (p) => {
        const { height, request } = await callRequest(p);
        const response = await evmQuery('EthCall', request, height);
        if (response.vmError !== '') {
          const ret = response.ret as Uint8Array;
          if (response.vmError === 'revert') throw new EthRpcError(3, revertText('revert', ret), bytesToHex(ret));
          throw new EthRpcError(-32000, response.vmError as string);
        }
        return bytesToHex(response.ret as Uint8Array);
      },
      eth_estimateGas: async (p) => {
        const { height, request } = await callRequest(p);
        return hex((await evmQuery('EstimateGas', request, height)).gas as bigint);
      },
      eth_gasPrice: async () => {
        const baseFee = await b.baseFee();
        const params = await b.feeMarketParams();
        const floor = (BigInt(params.minGasPrice || '0') + 10n ** 18n - 1n) / 10n ** 18n;
        const price = (baseFee ?? 0n) + (await suggestTip());
        return hex(price > floor ? price : floor);
      },
      eth_maxPriorityFeePerGas: async () => hex(await suggestTip()),
      eth_feeHistory: async (p) => {
        const countParam = param(p, 0);
        let count = typeof countParam === 'number' ? countParam : typeof countParam === 'string' && /^0x[0-9a-fA-F]+$/.test(countParam) ? Number(BigInt(countParam)) : NaN;
        if (!Number.isFinite(count) || count < 0) throw new EthRpcError(-32602, 'invalid argument 0: block count must be a number');
        if (count > FEE_HISTORY_CAP) count = FEE_HISTORY_CAP;
        const newest = b.resolveHeight(param(p, 1));
        const percentiles = (param(p, 2) ?? []) as number[];
        if (!Array.isArray(percentiles) || percentiles.some((x, i) => typeof x !== 'number' || x < 0 || x > 100 || (i > 0 && x < percentiles[i - 1]!))) {
          throw new EthRpcError(-32602, 'invalid reward percentiles');
        }
        const oldest = Math.max(1, newest - count + 1);
        const baseFees: string[] = [];
        const ratios: number[] = [];
        const rewards: string[][] = [];
        for (let h = oldest; h <= newest; h++) {
          const block = b.env.blockStore.loadBlock(h);
          const baseFee = (await b.baseFee(h).catch(() => undefined)) ?? 0n;
          baseFees.push(hex(baseFee));
          const txs = block === undefined ? [] : await b.ethTxs(block);
          const used = txs.reduce((s, t) => s + t.gasUsed, 0n);
          const max = b.maxGas(h);
          ratios.push(max === 0n ? 0 : Number(used) / Number(max));
          const tips = txs.map((t) => ({ tip: effectiveGasPrice(t.tx, baseFee) - baseFee, gas: t.gasUsed })).sort((x, y) => (x.tip < y.tip ? -1 : x.tip > y.tip ? 1 : 0));
          rewards.push(
            percentiles.map((pct) => {
              if (tips.length === 0 || used === 0n) return '0x0';
              const threshold = (Number(used) * pct) / 100;
              let sum = 0;
              for (const t of tips) {
                sum += Number(t.gas);
                if (sum >= threshold) return hex(t.tip);
              }
              return hex(tips[tips.length - 1]!.tip);
            }),
          );
        }
        // The next block's base fee.
        baseFees.push(hex((await b.baseFee().catch(() => undefined)) ?? 0n));
        const result: Record<string, unknown> = { oldestBlock: hex(oldest), baseFeePerGas: baseFees, gasUsedRatio: ratios };
        if (percentiles.length > 0) result.reward = rewards;
        return result;
      },
      eth_getProof: async (p) => getProof(b, p),
      eth_sendRawTransaction: async (p) => b.sendRaw(hexData(param(p, 0), '0')),
      // txpool (geth's TxPoolAPI): the mempool holds only executable txs (CheckTx admits the
      // next nonce of each sender), so everything is pending and nothing queued.
      txpool_content: async () => {
        const pending: Record<string, Record<string, unknown>> = {};
        const baseFee = await b.baseFee().catch(() => undefined);
        for (const item of await b.pendingEthTxs()) (pending[toChecksumHex(Buffer.from(item.from.slice(2), 'hex'))] ??= {})[item.tx.nonce.toString()] = b.txJson(undefined, item, baseFee);
        return { pending, queued: {} };
      },
      txpool_contentFrom: async (p) => {
        const from = address(param(p, 0)).toLowerCase();
        const pending: Record<string, unknown> = {};
        const baseFee = await b.baseFee().catch(() => undefined);
        for (const item of await b.pendingEthTxs()) if (item.from === from) pending[item.tx.nonce.toString()] = b.txJson(undefined, item, baseFee);
        return { pending, queued: {} };
      },
      txpool_inspect: async () => {
        const pending: Record<string, Record<string, string>> = {};
        for (const { tx, from } of await b.pendingEthTxs()) {
          const price = 'maxFeePerGas' in tx ? tx.maxFeePerGas : tx.gasPrice;
          const target = tx.to === undefined ? 'contract creation' : toChecksumHex(tx.to.bytes);
          (pending[toChecksumHex(Buffer.from(from.slice(2), 'hex'))] ??= {})[tx.nonce.toString()] = `${target}: ${tx.value} wei + ${tx.gasLimit} gas × ${price} wei`;
        }
        return { pending, queued: {} };
      },
      txpool_status: async () => ({ pending: hex((await b.pendingEthTxs()).length), queued: '0x0' }),
      eth_getTransactionByHash: async (p) => {
        const found = await b.findTx(String(param(p, 0)));
        if (found === undefined) return null;
        return b.txJson(found.block, found.tx, await b.baseFee(found.block.header.height).catch(() => undefined));
      },
      eth_getTransactionReceipt: async (p) => {
        const found = await b.findTx(String(param(p, 0)));
        if (found === undefined) return null;
        return b.receiptJson(found.block, found.tx, await b.ethTxs(found.block));
      },
      eth_getBlockByNumber: async (p) => {
        const tag = param(p, 0);
        let height: number;
        try {
          height = b.resolveHeight(tag);
        } catch (err) {
          if (err instanceof EthRpcError && err.code === -32000) return null;
          throw err;
        }
        const block = b.env.blockStore.loadBlock(height);
        return block === undefined ? null : b.blockJson(block, param(p, 1) === true);
      },
      eth_getBlockByHash: async (p) => {
        const block = b.blockByHash(String(param(p, 0)));
        return block === undefined ? null : b.blockJson(block, param(p, 1) === true);
      },
      eth_getBlockTransactionCountByNumber: async (p) => {
        const block = b.env.blockStore.loadBlock(b.resolveHeight(param(p, 0)));
        return block === undefined ? null : hex((await b.ethTxs(block)).length);
      },
      eth_getBlockTransactionCountByHash: async (p) => {
        const block = b.blockByHash(String(param(p, 0)));
        return block === undefined ? null : hex((await b.ethTxs(block)).length);
      },
      eth_getLogs: async (p) => this.getLogs(param(p, 0)),
      eth_newFilter: async (p) => {
        const criteria = this.logCriteria(param(p, 0));
        return this.newFilter({ kind: 'logs', criteria, last: (criteria.from ?? b.latestHeight() + 1) - 1, touched: Date.now() });
      },
      eth_newBlockFilter: async () => this.newFilter({ kind: 'blocks', last: b.latestHeight(), touched: Date.now() }),
      eth_newPendingTransactionFilter: async () => this.newFilter({ kind: 'pending', seen: new Set(), touched: Date.now() }),
      eth_getFilterChanges: async (p) => this.filterChanges(param(p, 0)),
      eth_getFilterLogs: async (p) => {
        const filter = this.filter(param(p, 0));
        if (filter.kind !== 'logs') throw new EthRpcError(-32000, 'filter is not a logs filter');
        const latest = b.latestHeight();
        return this.logsIn(filter.criteria, filter.criteria.from ?? latest, filter.criteria.to ?? latest);
      },
      eth_uninstallFilter: async (p) => typeof param(p, 0) === 'string' && this.filters.delete(param(p, 0) as string),
    };
    Object.assign(m, debugMethods(b, GAS_CAP));
    if (this.options.personal !== undefined) Object.assign(m, personalMethods(b, this.options.personal, new Map(Object.entries(m))));
    return new Map(Object.entries(m));
  }

  /** A filter object → block range and criteria (range checked against the caps). */
  private logCriteria(filter: unknown): LogCriteria {
    const b = this.backend;
    if (filter === null || typeof filter !== 'object') throw new EthRpcError(-32602, 'invalid argument 0: filter object expected');
    const f = filter as { fromBlock?: unknown; toBlock?: unknown; blockHash?: string; address?: string | string[]; topics?: (string | string[] | null)[] };
    let from: number | undefined;
    let to: number | undefined;
    if (f.blockHash !== undefined) {
      if (f.fromBlock !== undefined || f.toBlock !== undefined) throw new EthRpcError(-32602, 'invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
      const block = b.blockByHash(f.blockHash);
      if (block === undefined) throw new EthRpcError(-32000, 'unknown block');
      from = to = block.header.height;
    } else {
      from = f.fromBlock === undefined || f.fromBlock === 'latest' ? undefined : b.resolveHeight(f.fromBlock);
      to = f.toBlock === undefined || f.toBlock === 'latest' ? undefined : b.resolveHeight(f.toBlock);
    }
    const addresses = f.address === undefined || f.address === null ? [] : (Array.isArray(f.address) ? f.address : [f.address]).map((a) => address(a).toLowerCase());
    if (!Array.isArray(f.topics ?? [])) throw new EthRpcError(-32602, 'invalid argument 0: topics must be an array');
    const topics = (f.topics ?? []).map((t) => (t === null ? [] : Array.isArray(t) ? t.map((x) => String(x).toLowerCase()) : [String(t).toLowerCase()]));
    return { from, to, addresses, topics };
  }

  private async getLogs(filter: unknown): Promise<LogJson[]> {
    const criteria = this.logCriteria(filter);
    const latest = this.backend.latestHeight();
    return this.logsIn(criteria, criteria.from ?? latest, criteria.to ?? latest);
  }

  private async logsIn(criteria: LogCriteria, from: number, to: number): Promise<LogJson[]> {
    const b = this.backend;
    if (from > to) {
      if (criteria.from !== undefined && criteria.to !== undefined) throw new EthRpcError(-32000, 'invalid block range params');
      return [];
    }
    if (to - from > BLOCK_RANGE_CAP) throw new EthRpcError(-32000, `maximum [from, to] blocks distance: ${BLOCK_RANGE_CAP}`);
    const logs: LogJson[] = [];
    const mayMatch = bloomTest(criteria);
    const stored = storedLogTest(criteria);
    for (let h = from; h <= to; h++) {
      // The block's bloom (read without its tx results) rules out most blocks of a selective
      // filter, and every block without logs (the empty bloom) whatever the filter; only a
      // block stored before its bloom can be known that way is read to find out.
      const blockBloom = b.storedBloom(h);
      if (blockBloom !== undefined && (isEmptyBloom(blockBloom) || !mayMatch(blockBloom))) continue;
      const response = b.env.stateStore.loadFinalizeBlockResponse(h);
      if (response === undefined) continue;
      if (blockBloom === undefined && !response.txResults.some((r) => r.events.some((e) => e.type === 'tx_log'))) continue;
      for (const log of b.blockLogs(h, response.txResults, stored)) {
        if (criteria.addresses.length > 0 && !criteria.addresses.includes(log.address)) continue;
        if (criteria.topics.some((options, i) => options.length > 0 && !options.includes((log.topics[i] ?? '').toLowerCase()))) continue;
        logs.push(log);
        if (logs.length > LOGS_CAP) throw new EthRpcError(-32005, `query returned more than ${LOGS_CAP} results`);
      }
    }
    return logs;
  }

  // ------------------------------------------------------------------ filters (polling)

  private newFilter(filter: Filter): string {
    this.evictFilters();
    if (this.filters.size >= FILTER_CAP) throw new EthRpcError(-32000, `error creating filter: max limit reached`);
    const id = `0x${randomBytes(16).toString('hex')}`;
    this.filters.set(id, filter);
    return id;
  }

  private evictFilters(): void {
    const now = Date.now();
    for (const [id, filter] of this.filters) if (now - filter.touched > FILTER_TIMEOUT_MS) this.filters.delete(id);
  }

  private filter(id: unknown): Filter {
    this.evictFilters();
    const filter = typeof id === 'string' ? this.filters.get(id) : undefined;
    if (filter === undefined) throw new EthRpcError(-32000, 'filter not found');
    filter.touched = Date.now();
    return filter;
  }

  private async filterChanges(id: unknown): Promise<unknown[]> {
    const filter = this.filter(id);
    const b = this.backend;
    const latest = b.latestHeight();
    switch (filter.kind) {
      case 'blocks': {
        const hashes: string[] = [];
        for (let h = filter.last + 1; h <= latest; h++) hashes.push(b.blockHash(h));
        filter.last = latest;
        return hashes;
      }
      case 'logs': {
        const to = filter.criteria.to === undefined ? latest : Math.min(filter.criteria.to, latest);
        const from = Math.max(filter.last + 1, filter.criteria.from ?? 0);
        const logs = from > to ? [] : await this.logsIn(filter.criteria, from, to);
        filter.last = Math.max(filter.last, to);
        return logs;
      }
      case 'pending': {
        const hashes: string[] = [];
        const current = new Set<string>();
        for (const { hash } of await b.pendingEthTxs()) {
          current.add(hash);
          if (!filter.seen.has(hash)) hashes.push(hash);
        }
        filter.seen = current;
        return hashes;
      }
    }
  }

  /**
   * One request's reply. With `keep`, a state read at the latest block (KEPT_METHODS, not
   * "pending") that no block came in during reports its key and result there, for the front to keep.
   */
  private async handleOne(request: unknown, keep?: (kept: NonNullable<EthAnswer['keep']>) => void): Promise<Record<string, unknown> | undefined> {
    if (request === null || typeof request !== 'object' || Array.isArray(request)) {
      return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } };
    }
    const { id, method, params } = request as { id?: unknown; method?: unknown; params?: unknown };
    const reply = (body: Record<string, unknown>) => ({ jsonrpc: '2.0', id: id ?? null, ...body });
    if (typeof method !== 'string') return reply({ error: { code: -32600, message: 'invalid request' } });
    const handler = this.methods.get(method);
    if (handler === undefined) return reply({ error: { code: -32601, message: `the method ${method} does not exist/is not available` } });
    if (params !== undefined && !Array.isArray(params)) return reply({ error: { code: -32602, message: 'non-array args' } });
    const args = (params as unknown[] | undefined) ?? [];
    let key: string | undefined;
    let at = -1;
    if (keep !== undefined && KEPT_METHODS.has(method) && !args.includes('pending')) {
      key = keptKey(method, args);
      if (key.length > MAX_KEPT_TEXT) key = undefined;
      at = this.backend.latestHeight();
    }
    try {
      const result = (await handler(args)) ?? null;
      // Kept only if no block came in while it was computed, and not a long one.
      if (key !== undefined && this.backend.latestHeight() === at) {
        const text = JSON.stringify(result, bigintAsHex);
        if (text.length <= MAX_KEPT_TEXT) keep!({ key, result: text, at });
      }
      return reply({ result });
    } catch (err) {
      if (err instanceof EthRpcError) return reply({ error: { code: err.code, message: err.message, ...(err.data === undefined ? {} : { data: err.data }) } });
      this.logger.error('json-rpc handler failed', { method, err: (err as Error).message });
      return reply({ error: { code: -32000, message: (err as Error).message } });
    }
  }

  /**
   * The HTTP front's backend: one POST body (one request or a batch) → its answer. Never rejects.
   * A single request's keepable result comes back in `keep`, at the height it was read at.
   */
  readonly answerHttp = async (request: EthRequest): Promise<EthAnswer> => {
    const answer = (body: unknown, keep?: EthAnswer['keep']): EthAnswer => ({ status: 200, body: JSON.stringify(body, bigintAsHex), ...(keep === undefined ? {} : { keep }) });
    if (!('body' in request)) {
      return { status: 413, body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `content length too large (>${MAX_BODY})` } }) };
    }
    try {
      let body: unknown;
      try {
        body = JSON.parse(request.body);
      } catch {
        return answer({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
      }
      if (Array.isArray(body)) {
        if (body.length === 0) return answer({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'empty batch' } });
        if (body.length > MAX_BATCH) return answer({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } });
        const out = [];
        for (const item of body) out.push(await this.handleOne(item));
        return answer(out);
      }
      let kept: EthAnswer['keep'];
      // With nothing kept ([cache] json-rpc-responses = 0) no result is offered.
      const reply = await this.handleOne(body, this.keptResults > 0 ? (k) => (kept = k) : undefined);
      return answer(reply, kept);
    } catch (err) {
      this.logger.error('json-rpc request failed', { err: (err as Error).message });
      return internalEthAnswer();
    }
  };

  /** [cache] json-rpc-responses: how many results the HTTP front keeps (0: none, and none is offered). */
  private get keptResults(): number {
    return this.options.answerCacheEntries ?? DEFAULT_KEPT_RESULTS;
  }

  async start(): Promise<EthRpcAddress> {
    const [host, portText] = splitAddress(this.options.address);
    const frontOptions: EthFrontOptions = {
      host,
      port: Number(portText),
      maxOpenConnections: this.options.maxOpenConnections ?? 0,
      httpTimeoutMs: this.options.httpTimeoutMs ?? 30_000,
      httpIdleTimeoutMs: this.options.httpIdleTimeoutMs ?? 120_000,
      answerCacheEntries: this.keptResults,
    };
    const { stateHeight, watchStateHeight } = this.options;
    let front: Front;
    if (this.options.thread === true && stateHeight !== undefined && watchStateHeight !== undefined) {
      // Kept results belong to the app's state height, which the thread sees in shared memory; the
      // backend reports a result's height as latestHeight(), which moves only after it.
      const spec = { label: 'Ethereum JSON-RPC', kind: 'eth' as const, backend: this.answerHttp, internalError: internalEthAnswer, stateHeight, watchStateHeight };
      front = new FrontThread<EthFrontOptions, EthRequest, EthAnswer>(frontOptions, spec, this.logger);
    } else {
      front = new EthFront(frontOptions, this.answerHttp, () => this.backend.latestHeight(), this.logger);
    }
    let address: { port: number };
    try {
      address = await front.start();
    } catch (err) {
      throw listenError('the Ethereum JSON-RPC', this.options.address, '[json-rpc] address', err);
    }
    this.front = front;
    const url = `http://${host}:${address.port}`;
    this.logger.info('Ethereum JSON-RPC listening', { address: url, thread: front instanceof FrontThread });
    let wsUrl: string | undefined;
    try {
      if (this.options.wsAddress !== undefined && this.options.wsAddress !== '') wsUrl = await this.startWs(this.options.wsAddress);
    } catch (err) {
      // A websocket port that cannot be had fails the start; the HTTP side (and its thread) goes too.
      await this.stop();
      throw err;
    }
    return { host, port: address.port, url, wsUrl };
  }

  // ------------------------------------------------------------------ websocket (eth_subscribe)

  private async startWs(addressText: string): Promise<string> {
    const [host, portText] = splitAddress(addressText);
    const wss = new WebSocketServer({ host, port: Number(portText), maxPayload: MAX_BODY });
    await new Promise<void>((resolve, reject) => {
      wss.once('error', reject);
      wss.once('listening', () => {
        wss.off('error', reject);
        resolve();
      });
    });
    this.wsServer = wss;
    wss.on('connection', (socket) => {
      this.sockets.add(socket);
      this.subscriptions.set(socket, new Map());
      socket.on('message', (data) => {
        void this.onWsMessage(socket, data.toString()).catch((err: unknown) => this.logger.error('json-rpc ws message failed', { err: (err as Error).message }));
      });
      socket.on('close', () => {
        this.sockets.delete(socket);
        this.subscriptions.delete(socket);
      });
    });
    this.offNewBlock = this.options.env.eventBus.on('NewBlock', (data) => {
      void this.publishBlock(data.block.header.height).catch((err: unknown) => this.logger.error('json-rpc ws publish failed', { err: (err as Error).message }));
    });
    const bound = wss.address() as AddressInfo;
    const url = `ws://${host}:${bound.port}`;
    this.logger.info('Ethereum JSON-RPC websocket listening', { address: url });
    return url;
  }

  private send(socket: WebSocket, body: unknown): void {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? hex(v) : v)));
  }

  private async onWsMessage(socket: WebSocket, text: string): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      this.send(socket, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
      return;
    }
    const one = async (request: unknown) => {
      const r = request as { id?: unknown; method?: unknown; params?: unknown };
      if (r !== null && typeof r === 'object' && (r.method === 'eth_subscribe' || r.method === 'eth_unsubscribe') && this.methods.has('eth_chainId')) {
        try {
          const params = Array.isArray(r.params) ? r.params : [];
          const result = r.method === 'eth_subscribe' ? this.subscribe(socket, params) : this.subscriptions.get(socket)?.delete(String(params[0])) === true;
          return { jsonrpc: '2.0', id: r.id ?? null, result };
        } catch (err) {
          const e = err instanceof EthRpcError ? err : new EthRpcError(-32000, (err as Error).message);
          return { jsonrpc: '2.0', id: r.id ?? null, error: { code: e.code, message: e.message } };
        }
      }
      return this.handleOne(request);
    };
    if (Array.isArray(body)) {
      const out = [];
      for (const item of body.slice(0, MAX_BATCH)) out.push(await one(item));
      this.send(socket, out);
    } else {
      this.send(socket, await one(body));
    }
  }

  private subscribe(socket: WebSocket, params: unknown[]): string {
    const kind = params[0];
    const subs = this.subscriptions.get(socket)!;
    const id = `0x${randomBytes(16).toString('hex')}`;
    switch (kind) {
      case 'newHeads':
        subs.set(id, { kind: 'newHeads' });
        break;
      case 'logs':
        subs.set(id, { kind: 'logs', criteria: this.logCriteria(params[1] ?? {}) });
        break;
      case 'newPendingTransactions':
        subs.set(id, { kind: 'newPendingTransactions' });
        break;
      default:
        throw new EthRpcError(-32602, `no "${String(kind)}" subscription in eth namespace`);
    }
    return id;
  }

  private async publishBlock(height: number): Promise<void> {
    if (this.sockets.size === 0) return;
    const b = this.backend;
    const block = b.env.blockStore.loadBlock(height);
    if (block === undefined) return;
    let head: Record<string, unknown> | undefined;
    let txs: { hash: string }[] | undefined;
    for (const [socket, subs] of this.subscriptions) {
      for (const [id, sub] of subs) {
        let results: unknown[] = [];
        if (sub.kind === 'newHeads') {
          if (head === undefined) {
            const { transactions: _t, uncles: _u, ...rest } = await b.blockJson(block, false);
            head = rest;
          }
          results = [head];
        } else if (sub.kind === 'logs') {
          const from = sub.criteria.from ?? height;
          const to = sub.criteria.to ?? height;
          results = height < from || height > to ? [] : await this.logsIn(sub.criteria, height, height);
        } else {
          txs ??= await b.ethTxs(block);
          results = txs.map((t) => t.hash);
        }
        for (const result of results) this.send(socket, { jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result } });
      }
    }
  }

  /** How many results the HTTP front keeps now (at most answerCacheEntries). */
  get cachedAnswers(): number {
    return this.front?.keptAnswers ?? 0;
  }

  /** Open HTTP connections against the cap (undefined before start). */
  connectionStats(): ConnectionStats | undefined {
    return this.front?.connectionStats();
  }

  async stop(): Promise<void> {
    this.offNewBlock?.();
    this.offNewBlock = undefined;
    const wss = this.wsServer;
    this.wsServer = undefined;
    if (wss !== undefined) {
      for (const socket of this.sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    }
    const front = this.front;
    this.front = undefined;
    await front?.stop();
  }
}

function bigintAsHex(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? hex(value) : value;
}

function splitAddress(text: string): [string, string] {
  const bare = text.replace(/^tcp:\/\//, '').replace(/^http:\/\//, '');
  const i = bare.lastIndexOf(':');
  if (i <= 0 || !/^[0-9]+$/.test(bare.slice(i + 1))) throw new Error(`invalid [json-rpc] address "${text}": want host:port`);
  const host = bare.slice(0, i);
  return [host === 'localhost' ? '127.0.0.1' : host, bare.slice(i + 1)];
}
