/**
 * The node-level methods of cosmos.tx.v1beta1.Service (the SDK's x/auth/tx service.go): lookups
 * in the tx indexer and the block store, and broadcast through the engine's mempool (which runs
 * the app's CheckTx). Simulate, TxDecode and TxEncode are the app's (src/node/app/services.ts)
 * and reach the servers through the app router.
 *
 *   GetTx            hash (hex, either case, optional 0x) → tx + TxResponse; NotFound "tx not found: <hash>"
 *   GetTxsEvent      `query` (0.50) and/or `events` (0.47: "type.key=value" items, joined with
 *                    AND); page (1-based) + limit (default 100, above the maximum → InvalidArgument,
 *                    never silently truncated) or, for older clients, pagination.offset/limit;
 *                    order_by ASC (default) / DESC; `total` is always the full match count
 *   BroadcastTx      SYNC: CheckTx result; ASYNC: hash only (mempool refusals still reported);
 *                    BLOCK (removed upstream in SDK 0.47): waits for the commit, like CometBFT's
 *                    broadcast_tx_commit (DeadlineExceeded after the timeout, the tx may still
 *                    commit); UNSPECIFIED → InvalidArgument. Mempool refusals are answered as the
 *                    SDK does (CheckCometError): code 19 tx already in mempool, 20 mempool is full,
 *                    21 tx too large, codespace "sdk".
 *   GetBlockWithTxs  block + decoded txs, offset-paged over the block's txs
 */
import { create } from '@bufbuild/protobuf';
import { TxResponseSchema, type TxResponse } from '../../gen/cosmos/base/abci/v1beta1/abci_pb.js';
import {
  BroadcastMode,
  BroadcastTxResponseSchema,
  GetBlockWithTxsResponseSchema,
  GetTxResponseSchema,
  GetTxsEventResponseSchema,
  OrderBy,
  Service as TxService,
  type GetTxsEventRequest,
} from '../../gen/cosmos/tx/v1beta1/service_pb.js';
import { PageResponseSchema } from '../../gen/cosmos/base/query/v1beta1/pagination_pb.js';
import type { ResponseCheckTx } from '../abci/types.js';
import { isConsensusError } from '../consensus/errors.js';
import { txHash } from '../consensus/types/block.js';
import { fromHex, toHexUpper } from '../consensus/types/bytes.js';
import { isIndexerError } from '../indexer/errors.js';
import { Query } from '../indexer/query.js';
import type { IndexedTx } from '../indexer/types.js';
import type { SearchPage } from '../indexer/paging.js';
import type { EventDataTx } from '../consensus/events.js';
import type { Tx } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { txResponse } from '../codec/txResponse.js';
import { indexLagging } from '../rpc/core/txs.js';
import { blockTimestamp, decodeTx } from './convert.js';
import { nodeServiceEntries } from './define.js';
import { offsetPage, type PageLimits } from './paging.js';
import { loadProtoBlock } from './tendermint.js';
import { QueryError, queryError, type NodeServicesEnv, type QueryEntry } from './types.js';

export interface TxServiceOptions {
  limits: PageLimits;
  /** How long BROADCAST_MODE_BLOCK waits for the commit (CometBFT timeout_broadcast_tx_commit). */
  broadcastTimeoutMs: number;
}

const EVENT_FORMAT = '{eventType}.{eventAttribute}={value}';
const SDK_CODESPACE = 'sdk';
const NOT_SETTLED = Symbol('not settled');

/**
 * A 0.47 `events` item as a query condition: "transfer.recipient='x'" passes through;
 * "transfer.recipient=x" gets its value quoted (numbers stay bare); anything without a
 * comparison is InvalidArgument with the SDK's text.
 */
export function eventCondition(event: string): string {
  const text = event.trim();
  const match = /^([^\s=<>]+)\s*(<=|>=|=|<|>)\s*(.*)$/.exec(text);
  if (match === null) {
    if (/\s(CONTAINS|EXISTS)(\s|$)/.test(text)) return text;
    throw queryError('InvalidArgument', `invalid event; event ${event} should be of the format: ${EVENT_FORMAT}`);
  }
  const [, key, op, value] = match as unknown as [string, string, string, string];
  if (value === '') throw queryError('InvalidArgument', `invalid event; event ${event} should be of the format: ${EVENT_FORMAT}`);
  const quoted = value.startsWith("'") || /^-?\d+(\.\d+)?$/.test(value) ? value : `'${value.replace(/'/g, "\\'")}'`;
  return `${key}${op}${quoted}`;
}

/** The query text of a GetTxsEvent request: `query`, and/or the `events` items joined with AND. */
export function txsEventQuery(request: Pick<GetTxsEventRequest, 'query' | 'events'>): string {
  const parts: string[] = [];
  if (request.query.trim() !== '') parts.push(request.query.trim());
  for (const event of request.events) if (event.trim() !== '') parts.push(eventCondition(event));
  return parts.join(' AND ');
}

/** page and limit of a GetTxsEvent request (0.50 page/limit, or 0.45-style pagination offset/limit). */
export function txsEventPage(request: Pick<GetTxsEventRequest, 'page' | 'limit' | 'pagination'>, limits: PageLimits): { page: number; limit: number } {
  let page = Number(request.page);
  let limit = Number(request.limit);
  const pagination = request.pagination;
  if (page === 0 && limit === 0 && pagination !== undefined) {
    if (pagination.key.length > 0) throw queryError('InvalidArgument', 'key-based pagination is not supported by GetTxsEvent; use page and limit');
    limit = Number(pagination.limit);
    if (limit === 0) limit = limits.defaultLimit;
    const offset = Number(pagination.offset);
    if (offset % limit !== 0) throw queryError('InvalidArgument', `pagination.offset ${offset} is not a multiple of the limit ${limit}; use page and limit`);
    page = offset / limit + 1;
  }
  if (limit === 0) limit = limits.defaultLimit;
  if (limit > limits.maxLimit) {
    throw queryError('InvalidArgument', `limit ${limit} is larger than the maximum page size ${limits.maxLimit}; request pages of at most ${limits.maxLimit} txs`);
  }
  if (page === 0) page = 1;
  return { page, limit };
}

function requireIndexer(env: NodeServicesEnv): void {
  if (!env.txIndexer.enabled) throw queryError('Unimplemented', 'transaction indexing is disabled');
}

function indexedTxResponse(env: NodeServicesEnv, indexed: IndexedTx): { tx: Tx; response: TxResponse } {
  const tx = decodeTx(indexed.tx);
  return { tx, response: txResponse(indexed, tx, blockTimestamp(env.blockStore, indexed.height)) };
}

/** The SDK's CheckCometError: mempool refusals as a TxResponse with an "sdk" code, else undefined. */
function mempoolRefusal(err: unknown, hashHex: string): TxResponse | undefined {
  if (!isConsensusError(err)) return undefined;
  const code = err.reason === 'MEMPOOL_TX_IN_CACHE' ? 19 : err.reason === 'MEMPOOL_FULL' ? 20 : err.reason === 'MEMPOOL_TX_TOO_LARGE' ? 21 : 0;
  if (code === 0) return undefined;
  return create(TxResponseSchema, { txhash: hashHex, code, codespace: SDK_CODESPACE, rawLog: err.message });
}

function broadcastFailure(err: unknown, hashHex: string): TxResponse {
  const refusal = mempoolRefusal(err, hashHex);
  if (refusal !== undefined) return refusal;
  if (isConsensusError(err, 'MEMPOOL_CLOSED')) throw queryError('Unavailable', err.message);
  throw new QueryError('Internal', `failed to broadcast tx ${hashHex}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}

/** The SDK's NewResponseFormatBroadcastTx: code, codespace, data, raw_log, txhash of CheckTx. */
function checkTxResponse(res: ResponseCheckTx, hash: Uint8Array): TxResponse {
  return create(TxResponseSchema, { txhash: toHexUpper(hash), code: res.code, codespace: res.codespace, data: toHexUpper(res.data), rawLog: res.log });
}

export function txServiceEntries(env: NodeServicesEnv, options: TxServiceOptions): QueryEntry[] {
  const latestHeight = (): number => env.blockStore.height();

  async function broadcastSync(tx: Uint8Array, hash: Uint8Array): Promise<TxResponse> {
    try {
      return checkTxResponse(await env.mempool.checkTx(tx), hash);
    } catch (err) {
      return broadcastFailure(err, toHexUpper(hash));
    }
  }

  async function broadcastAsync(tx: Uint8Array, hash: Uint8Array): Promise<TxResponse> {
    const pending = env.mempool.checkTx(tx);
    // The mempool's own refusals (cache, size, full) fail before CheckTx runs: report those, do
    // not wait for the app (CometBFT's async mode).
    const early = await Promise.race([
      pending.then(
        () => NOT_SETTLED,
        (err: unknown) => ({ err }),
      ),
      new Promise<typeof NOT_SETTLED>((resolve) => setImmediate(() => resolve(NOT_SETTLED))),
    ]);
    if (typeof early === 'object') return broadcastFailure(early.err, toHexUpper(hash));
    pending.catch(() => undefined);
    return create(TxResponseSchema, { txhash: toHexUpper(hash) });
  }

  async function broadcastBlock(tx: Uint8Array, hash: Uint8Array): Promise<TxResponse> {
    const hashHex = toHexUpper(hash);
    // Wait from before CheckTx so that the commit cannot be missed.
    const waiter = env.eventBus.waitForTx(hashHex, options.broadcastTimeoutMs);
    waiter.promise.catch(() => undefined);
    try {
      let checked: ResponseCheckTx;
      try {
        checked = await env.mempool.checkTx(tx);
      } catch (err) {
        return broadcastFailure(err, hashHex);
      }
      if (checked.code !== 0) {
        return txResponse({ hash, height: 0, result: checked });
      }
      let included: EventDataTx;
      try {
        included = await waiter.promise;
      } catch (err) {
        const timedOut = (isConsensusError(err) || isIndexerError(err)) && err.reason === 'TIMEOUT';
        if (timedOut) {
          throw queryError('DeadlineExceeded', `timed out waiting for tx to be included in a block (tx hash ${hashHex}); it may still be committed, look it up with GetTx`);
        }
        throw queryError('Unavailable', `stopped waiting for tx ${hashHex}: ${err instanceof Error ? err.message : String(err)}`);
      }
      let decoded: Tx | undefined;
      try {
        decoded = decodeTx(tx, false);
      } catch {
        decoded = undefined;
      }
      return txResponse({ hash, height: included.height, result: included.result }, decoded, blockTimestamp(env.blockStore, included.height));
    } finally {
      waiter.cancel();
    }
  }

  return nodeServiceEntries(
    TxService,
    {
      async getTx(request) {
        const text = request.hash.trim().replace(/^0x/i, '');
        if (text === '') throw queryError('InvalidArgument', 'tx hash cannot be empty');
        if (!/^[0-9a-fA-F]{64}$/.test(text)) throw queryError('InvalidArgument', `invalid tx hash "${request.hash}": expected 64 hex characters`);
        requireIndexer(env);
        let found = env.txIndexer.get(fromHex(text));
        if (found === undefined) {
          const lagging = indexLagging(env);
          if (lagging) {
            await lagging;
            found = env.txIndexer.get(fromHex(text));
          }
        }
        if (found === undefined) {
          const eviction = env.mempool.evictionOf?.(fromHex(text));
          throw queryError('NotFound', `tx not found: ${request.hash}${eviction ? `; it was evicted from the mempool at height ${eviction.height}: ${eviction.reason}` : ''}`);
        }
        const { tx, response } = indexedTxResponse(env, found);
        return create(GetTxResponseSchema, { tx, txResponse: response });
      },

      async getTxsEvent(request) {
        const text = txsEventQuery(request);
        if (text === '') throw queryError('InvalidArgument', 'query cannot be empty');
        const { page, limit } = txsEventPage(request, options.limits);
        requireIndexer(env);
        let query: Query;
        try {
          query = Query.parseLimited(text);
        } catch (err) {
          throw queryError('InvalidArgument', `invalid query "${text}": ${err instanceof Error ? err.message : String(err)}`);
        }
        let found: SearchPage<IndexedTx>;
        await indexLagging(env);
        try {
          found = await env.txIndexer.search(query, { page, perPage: limit, orderBy: request.orderBy === OrderBy.DESC ? 'desc' : 'asc' });
        } catch (err) {
          if (isIndexerError(err, 'PAGE_OUT_OF_RANGE') || isIndexerError(err, 'QUERY_SYNTAX') || isIndexerError(err, 'QUERY_TOO_LONG')) {
            throw queryError('InvalidArgument', err.message);
          }
          throw err;
        }
        const txs: Tx[] = [];
        const txResponses: TxResponse[] = [];
        for (const item of found.items) {
          const { tx, response } = indexedTxResponse(env, item);
          txs.push(tx);
          txResponses.push(response);
        }
        const total = BigInt(found.total);
        return create(GetTxsEventResponseSchema, { txs, txResponses, pagination: create(PageResponseSchema, { total }), total });
      },

      async broadcastTx(request) {
        const tx = request.txBytes;
        if (tx.length === 0) throw queryError('InvalidArgument', 'invalid empty tx');
        const hash = txHash(tx);
        let response: TxResponse;
        switch (request.mode) {
          case BroadcastMode.SYNC:
            response = await broadcastSync(tx, hash);
            break;
          case BroadcastMode.ASYNC:
            response = await broadcastAsync(tx, hash);
            break;
          case BroadcastMode.BLOCK:
            response = await broadcastBlock(tx, hash);
            break;
          default:
            throw queryError('InvalidArgument', 'unsupported broadcast mode BROADCAST_MODE_UNSPECIFIED; supported modes: BROADCAST_MODE_SYNC, BROADCAST_MODE_ASYNC, BROADCAST_MODE_BLOCK');
        }
        return create(BroadcastTxResponseSchema, { txResponse: response });
      },

      async getBlockWithTxs(request) {
        const height = Number(request.height);
        const latest = env.blockStore.height();
        if (!Number.isSafeInteger(height) || height < 1 || height > latest) {
          throw queryError('InvalidArgument', `requested height ${request.height} but height must not be less than 1 or greater than the current height ${latest}`);
        }
        const { blockId, block } = loadProtoBlock(env, height);
        const blockTxs = block.data?.txs ?? [];
        const offset = request.pagination?.offset ?? 0n;
        if (blockTxs.length > 0 && offset >= BigInt(blockTxs.length)) {
          throw queryError('InvalidArgument', `out of range: cannot paginate ${blockTxs.length} txs with offset ${offset} and limit ${request.pagination?.limit ?? 0n}`);
        }
        const page = offsetPage(request.pagination, blockTxs.length, options.limits, 'GetBlockWithTxs');
        const txs = page.indexes.map((i) => decodeTx(blockTxs[i]!));
        return create(GetBlockWithTxsResponseSchema, { txs, blockId, block, pagination: page.pagination });
      },
    },
    latestHeight,
  );
}
