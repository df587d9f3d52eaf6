/**
 * The JSON-RPC client the CLI uses to talk to a node's consensus RPC (`--node`).
 *
 *   const client = new RpcClient('tcp://localhost:26657');
 *   const status = await client.status();
 *   const page = await client.txSearch({ query: "transfer.recipient='token1…'", page: 2 });
 *   await client.close();
 *
 * One keep-alive node:http agent per client (node's own client: it costs nothing to load, which
 * matters for a CLI that makes one or two calls per process). Methods return the raw JSON results (types in
 * rpcTypes.ts). Failures are TokendErrors with one clear line:
 *   - node down: "cannot reach node at tcp://localhost:26657: connection refused" (hint: start a node or check --node)
 *   - no answer in time: "node at … did not answer status within 30000 ms"
 *   - an RPC error: RpcCallError with the JSON-RPC code, message and data ("tx (AB…) not found");
 *     a broadcast_tx_commit timeout still carries the tx hash (`txHash`).
 */
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { TokendError } from '../../util/errors.js';
import type {
  AbciInfoResult,
  AbciQueryResult,
  BlockchainResult,
  BlockResult,
  BlockResultsResult,
  BlockSearchResult,
  BroadcastEvidenceResult,
  BroadcastTxCommitResult,
  BroadcastTxResult,
  CheckTxResult,
  CommitResult,
  ConsensusParamsResult,
  ConsensusStateResult,
  DumpConsensusStateResult,
  GenesisChunkResult,
  GenesisResult,
  HeaderResult,
  HealthResult,
  NetInfoResult,
  OrderBy,
  StatusResult,
  TxResult,
  TxSearchResult,
  UnconfirmedTxsResult,
  ValidatorsResult,
} from './rpcTypes.js';

export interface RpcClientOptions {
  /** Per-request timeout (waiting for headers, and for the body). Default 30 s. */
  timeoutMs?: number;
  /** Pool size. Default 4. */
  connections?: number;
  /** Idle keep-alive sockets are closed after this. Default 30 s. */
  keepAliveTimeoutMs?: number;
  /** Connection establishment timeout. Default 10 s. */
  connectTimeoutMs?: number;
}

export const DEFAULT_RPC_TIMEOUT_MS = 30_000;

/** A JSON-RPC error answered by the node. */
export class RpcCallError extends TokendError {
  readonly method: string;
  readonly rpcCode: number;
  readonly rpcMessage: string;
  readonly data: string | undefined;
  /** For broadcast_tx_commit failures after the tx was accepted: its hash (uppercase hex). */
  readonly txHash: string | undefined;

  constructor(method: string, error: { code: number; message: string; data?: unknown }) {
    const data = typeof error.data === 'string' ? error.data : error.data === undefined ? undefined : JSON.stringify(error.data);
    const txHash = data ? /tx hash ([0-9A-F]{64})/i.exec(data)?.[1]?.toUpperCase() : undefined;
    super('RPC_ERROR', data ? `${data}` : `${error.message} (code ${error.code})`, {
      meta: { method, code: error.code, message: error.message, ...(data !== undefined ? { data } : {}), ...(txHash ? { txHash } : {}) },
      ...(txHash ? { hint: `the tx may still be committed; check it with: query tx ${txHash}` } : {}),
    });
    this.name = 'RpcCallError';
    this.method = method;
    this.rpcCode = error.code;
    this.rpcMessage = error.message;
    this.data = data;
    this.txHash = txHash;
  }
}

export function isRpcCallError(err: unknown): err is RpcCallError {
  return err instanceof RpcCallError;
}

/** `tcp://host:port` | `host:port` | `http(s)://host:port[/path]` → the HTTP origin and base path. */
export function resolveNodeAddress(node: string): { origin: string; basePath: string; display: string } {
  const trimmed = node.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `tcp://${trimmed}`;
  const scheme = withScheme.slice(0, withScheme.indexOf(':')).toLowerCase();
  if (scheme !== 'tcp' && scheme !== 'http' && scheme !== 'https') {
    throw new TokendError('INVALID_ARGUMENT', `invalid node address "${node}": unsupported scheme ${scheme}://`, { hint: 'use tcp://host:port, http://host:port or https://host:port' });
  }
  let url: URL;
  try {
    url = new URL(scheme === 'tcp' ? `http${withScheme.slice(3)}` : withScheme);
  } catch {
    throw new TokendError('INVALID_ARGUMENT', `invalid node address "${node}"`, { hint: 'use tcp://host:port, e.g. tcp://localhost:26657' });
  }
  if (!url.hostname) throw new TokendError('INVALID_ARGUMENT', `invalid node address "${node}": no host`, { hint: 'use tcp://host:port, e.g. tcp://localhost:26657' });
  const basePath = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return { origin: url.origin, basePath, display: trimmed };
}

type Hash = Uint8Array | string;

function hashBytes(hash: Hash): Uint8Array {
  if (typeof hash !== 'string') return hash;
  const clean = hash.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]*$/.test(clean) || clean.length % 2 !== 0) throw new TokendError('INVALID_ARGUMENT', `invalid hash "${hash}": expected hex`, { hint: 'pass the 64 hex digits of the hash' });
  return new Uint8Array(Buffer.from(clean, 'hex'));
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Drop undefined params; integers become the decimal strings CometBFT expects. */
function params(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    out[key] = typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
  }
  return out;
}

const NETWORK_MESSAGES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset by the node',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the node',
  UND_ERR_SOCKET: 'connection closed by the node',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  RPC_CONNECT_TIMEOUT: 'connection timed out',
};

/** An error carrying one of the codes above (or RPC_ANSWER_TIMEOUT). */
function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return undefined;
}

export class RpcClient {
  /** The address as given (for messages). */
  readonly address: string;
  private readonly basePath: string;
  private readonly origin: URL;
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly connectTimeoutMs: number;
  private nextId = 1;

  constructor(node: string, options: RpcClientOptions = {}) {
    const { origin, basePath, display } = resolveNodeAddress(node);
    this.address = display;
    this.basePath = basePath;
    this.origin = new URL(origin);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    // An https agent is made on first use (node:https is only loaded for https nodes).
    this.agent = new Agent({ keepAlive: true, maxSockets: options.connections ?? 4, timeout: options.keepAliveTimeoutMs ?? 30_000 });
  }

  /** Close the pooled connections. */
  async close(): Promise<void> {
    this.agent.destroy();
    this.httpsAgent?.destroy();
  }

  private httpsAgent?: Agent;

  /** POST `body` to the node; resolves with the status and the whole body once it has arrived. */
  private async post(body: string, timeoutMs: number): Promise<{ statusCode: number; text: string }> {
    const https = this.origin.protocol === 'https:';
    let request = httpRequest;
    let agent = this.agent;
    if (https) {
      const mod = await import('node:https');
      this.httpsAgent ??= new mod.Agent({ keepAlive: true, maxSockets: this.agent.maxSockets });
      request = mod.request as typeof httpRequest;
      agent = this.httpsAgent;
    }
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (err: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(answerTimer);
        clearTimeout(connectTimer);
        req.destroy();
        reject(err);
      };
      const req = request({
        protocol: this.origin.protocol,
        hostname: this.origin.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: this.origin.port || (https ? 443 : 80),
        path: this.basePath,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      const answerTimer = setTimeout(() => fail(codedError('RPC_ANSWER_TIMEOUT', `no answer within ${timeoutMs} ms`)), timeoutMs);
      let connectTimer: ReturnType<typeof setTimeout> | undefined;
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => fail(codedError('RPC_CONNECT_TIMEOUT', 'connect timeout')), this.connectTimeoutMs);
        socket.once('connect', () => clearTimeout(connectTimer));
      });
      req.on('error', fail);
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('aborted', () => fail(codedError('ECONNRESET', 'aborted')));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(answerTimer);
          clearTimeout(connectTimer);
          resolve({ statusCode: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.end(body);
    });
  }

  private networkError(method: string, err: unknown, timeoutMs: number): TokendError {
    const code = errorCode(err);
    if (code === 'RPC_ANSWER_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return new TokendError('NODE_UNREACHABLE', `node at ${this.address} did not answer ${method} within ${timeoutMs} ms`, {
        hint: 'the node may be busy or stuck; retry later or check its logs',
        cause: err,
      });
    }
    // node:http's "socket hang up": the node closed the connection without answering.
    const closed = code === 'ECONNRESET' && err instanceof Error && err.message === 'socket hang up';
    const what = (closed ? NETWORK_MESSAGES.UND_ERR_SOCKET : code && NETWORK_MESSAGES[code]) ?? (err instanceof Error ? err.message : String(err));
    return new TokendError('NODE_UNREACHABLE', `cannot reach node at ${this.address}: ${what}`, {
      hint: 'start a node (tokend start) or point --node at a running one',
      cause: err,
    });
  }

  /**
   * Call `method` with named params (already in wire form) and return its `result`.
   * `timeoutMs` overrides the client's timeout for this call.
   */
  async call<T>(method: string, callParams: Record<string, unknown> = {}, timeoutMs = this.timeoutMs): Promise<T> {
    const id = this.nextId++;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: params(callParams) });
    let statusCode: number;
    let text: string;
    try {
      ({ statusCode, text } = await this.post(body, timeoutMs));
    } catch (err) {
      throw this.networkError(method, err, timeoutMs);
    }
    let reply: { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    try {
      reply = JSON.parse(text) as typeof reply;
    } catch {
      const snippet = text.length > 200 ? `${text.slice(0, 200)}…` : text;
      throw new TokendError('RPC_ERROR', `node at ${this.address} answered ${method} with HTTP ${statusCode} and no JSON-RPC reply: ${snippet.trim() || '(empty body)'}`, {
        hint: 'check that --node points at the consensus RPC (port 26657)',
      });
    }
    if (reply && typeof reply === 'object' && reply.error && typeof reply.error === 'object') throw new RpcCallError(method, reply.error);
    if (!reply || typeof reply !== 'object' || !('result' in reply)) {
      throw new TokendError('RPC_ERROR', `node at ${this.address} answered ${method} without a result (HTTP ${statusCode})`);
    }
    return reply.result as T;
  }

  // ---- info ----

  health(): Promise<HealthResult> {
    return this.call('health');
  }

  status(): Promise<StatusResult> {
    return this.call('status');
  }

  netInfo(): Promise<NetInfoResult> {
    return this.call('net_info');
  }

  genesis(): Promise<GenesisResult> {
    return this.call('genesis');
  }

  genesisChunked(chunk = 0): Promise<GenesisChunkResult> {
    return this.call('genesis_chunked', { chunk });
  }

  abciInfo(): Promise<AbciInfoResult> {
    return this.call('abci_info');
  }

  /** abci_query; `data` raw bytes (sent as hex); height 0/undefined = latest. */
  async abciQuery(args: { path: string; data?: Uint8Array; height?: number; prove?: boolean }): Promise<AbciQueryResult> {
    return this.call('abci_query', { path: args.path, data: hex(args.data ?? new Uint8Array(0)), height: args.height || undefined, prove: args.prove });
  }

  // ---- blocks ----

  blockchain(minHeight?: number, maxHeight?: number): Promise<BlockchainResult> {
    return this.call('blockchain', { minHeight, maxHeight });
  }

  /** The block at `height` (latest when undefined). */
  block(height?: number): Promise<BlockResult> {
    return this.call('block', { height });
  }

  async blockByHash(hash: Hash): Promise<BlockResult> {
    return this.call('block_by_hash', { hash: base64(hashBytes(hash)) });
  }

  blockResults(height?: number): Promise<BlockResultsResult> {
    return this.call('block_results', { height });
  }

  commit(height?: number): Promise<CommitResult | null> {
    return this.call('commit', { height });
  }

  header(height?: number): Promise<HeaderResult> {
    return this.call('header', { height });
  }

  async headerByHash(hash: Hash): Promise<HeaderResult> {
    return this.call('header_by_hash', { hash: hex(hashBytes(hash)) });
  }

  validators(args: { height?: number; page?: number; perPage?: number } = {}): Promise<ValidatorsResult> {
    return this.call('validators', { height: args.height, page: args.page, per_page: args.perPage });
  }

  consensusParams(height?: number): Promise<ConsensusParamsResult> {
    return this.call('consensus_params', { height });
  }

  blockSearch(args: { query: string; page?: number; perPage?: number; orderBy?: OrderBy }): Promise<BlockSearchResult> {
    return this.call('block_search', { query: args.query, page: args.page, per_page: args.perPage, order_by: args.orderBy });
  }

  consensusState(): Promise<ConsensusStateResult> {
    return this.call('consensus_state');
  }

  dumpConsensusState(): Promise<DumpConsensusStateResult> {
    return this.call('dump_consensus_state');
  }

  // ---- txs ----

  /** A committed tx by hash (hex string or bytes). */
  async tx(hash: Hash, prove = false): Promise<TxResult> {
    return this.call('tx', { hash: base64(hashBytes(hash)), prove: prove || undefined });
  }

  txSearch(args: { query: string; prove?: boolean; page?: number; perPage?: number; orderBy?: OrderBy }): Promise<TxSearchResult> {
    return this.call('tx_search', { query: args.query, prove: args.prove, page: args.page, per_page: args.perPage, order_by: args.orderBy });
  }

  /** Every page of a tx_search (never silently truncated); stops after `maxTxs` (default 10,000) with an error. */
  async txSearchAll(args: { query: string; orderBy?: OrderBy; maxTxs?: number }): Promise<TxResult[]> {
    const maxTxs = args.maxTxs ?? 10_000;
    const out: TxResult[] = [];
    for (let page = 1; ; page++) {
      const res = await this.txSearch({ query: args.query, page, perPage: 100, orderBy: args.orderBy });
      out.push(...res.txs);
      const total = Number(res.total_count);
      if (out.length >= total || res.txs.length === 0) return out;
      if (out.length >= maxTxs) {
        throw new TokendError('ABORTED', `query matches ${total} txs, more than the ${maxTxs} allowed`, { hint: 'narrow the query (e.g. add tx.height>N) or page through it' });
      }
    }
  }

  async checkTx(tx: Uint8Array): Promise<CheckTxResult> {
    return this.call('check_tx', { tx: base64(tx) });
  }

  async broadcastTxAsync(tx: Uint8Array): Promise<BroadcastTxResult> {
    return this.call('broadcast_tx_async', { tx: base64(tx) });
  }

  async broadcastTxSync(tx: Uint8Array): Promise<BroadcastTxResult> {
    return this.call('broadcast_tx_sync', { tx: base64(tx) });
  }

  /** Waits for the block (the node gives up after its timeout_broadcast_tx_commit, 10 s by default). */
  async broadcastTxCommit(tx: Uint8Array, timeoutMs = Math.max(this.timeoutMs, 60_000)): Promise<BroadcastTxCommitResult> {
    return this.call('broadcast_tx_commit', { tx: base64(tx) }, timeoutMs);
  }

  unconfirmedTxs(limit?: number): Promise<UnconfirmedTxsResult> {
    return this.call('unconfirmed_txs', { limit });
  }

  numUnconfirmedTxs(): Promise<UnconfirmedTxsResult> {
    return this.call('num_unconfirmed_txs');
  }

  broadcastEvidence(evidence: unknown): Promise<BroadcastEvidenceResult> {
    return this.call('broadcast_evidence', { evidence });
  }
}
