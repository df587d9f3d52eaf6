/**
 * tx, tx_search, check_tx, broadcast_tx_{async,sync,commit}, unconfirmed_txs, num_unconfirmed_txs
 * (rpc/core/{tx,mempool}.go).
 */
import type { ResponseCheckTx } from '../../abci/types.js';
import { renderExecTxResult } from '../../consensus/json.js';
import { txHash, type Block } from '../../consensus/types/block.js';
import { toBase64, toHexUpper } from '../../consensus/types/bytes.js';
import { validatePerPage } from '../../indexer/paging.js';
import { Query } from '../../indexer/query.js';
import { defineRoute, type Route } from '../route.js';
import type { RpcEnvironment } from '../environment.js';
import { parseOrderBy, RpcHandlerError } from './common.js';
import { EMPTY_EXEC_TX_RESULT, renderCheckTx, renderResultTx } from './render.js';

const EMPTY = new Uint8Array(0);
const NOT_SETTLED = Symbol('not settled');

function txNotFound(env: RpcEnvironment, hash: Uint8Array): RpcHandlerError {
  const range = env.txIndexer.indexedRange();
  let message = `tx (${toHexUpper(hash)}) not found`;
  // Say so when this node's index does not start at the chain's first height (indexer enabled late, pruned store).
  if (range.earliest > Math.max(1, env.genesis.initialHeight)) message += `; this node indexed heights ${range.earliest} to ${range.latest} only`;
  const eviction = env.mempool.evictionOf?.(hash);
  if (eviction) message += `; it was evicted from the mempool at height ${eviction.height}: ${eviction.reason}`;
  return new RpcHandlerError(message, 'NOT_FOUND', { meta: { indexedFrom: range.earliest, indexedTo: range.latest } });
}

/**
 * Stored blocks the indexer has not indexed yet (its write failed, or it is still catching up at
 * start) are indexed before a lookup may answer "not found"; undefined when nothing lags.
 */
export function indexLagging(env: Pick<RpcEnvironment, 'txIndexer' | 'blockStore' | 'catchUpIndex'>): Promise<void> | undefined {
  if (!env.catchUpIndex || !env.txIndexer.enabled) return undefined;
  if (env.txIndexer.indexedRange().latest >= env.blockStore.height()) return undefined;
  return env.catchUpIndex();
}

function broadcastResult(res: ResponseCheckTx, hash: Uint8Array): Record<string, unknown> {
  return { code: res.code, data: toHexUpper(res.data), log: res.log, codespace: res.codespace, hash: toHexUpper(hash) };
}

export const txRoutes: Route[] = [
  defineRoute({
    name: 'tx',
    params: [
      { name: 'hash', type: 'hash' },
      { name: 'prove', type: 'bool' },
    ],
    cacheable: true,
    handler: (env, args) => {
      if (!env.txIndexer.enabled) throw new RpcHandlerError('transaction indexing is disabled', 'NOT_FOUND');
      const hash = args.hash ?? EMPTY;
      const found = env.txIndexer.get(hash);
      if (found) return renderResultTx(found, args.prove ? env.blockStore.loadBlock(found.height) : undefined);
      const lagging = indexLagging(env);
      if (!lagging) throw txNotFound(env, hash);
      return lagging.then(() => {
        const again = env.txIndexer.get(hash);
        if (!again) throw txNotFound(env, hash);
        return renderResultTx(again, args.prove ? env.blockStore.loadBlock(again.height) : undefined);
      });
    },
  }),

  defineRoute({
    name: 'tx_search',
    params: [
      { name: 'query', type: 'string' },
      { name: 'prove', type: 'bool' },
      { name: 'page', type: 'int' },
      { name: 'per_page', type: 'int' },
      { name: 'order_by', type: 'string' },
    ],
    handler: async (env, args) => {
      if (!env.txIndexer.enabled) throw new RpcHandlerError('transaction indexing is disabled', 'NOT_FOUND');
      const query = Query.parseLimited(args.query ?? '');
      const orderBy = parseOrderBy(args.order_by, 'asc');
      const perPage = validatePerPage(args.per_page);
      await indexLagging(env);
      const { total, items } = await env.txIndexer.search(query, { page: args.page, perPage, orderBy });
      const blocks = new Map<number, Block | undefined>();
      const blockAt = (height: number): Block | undefined => {
        if (!blocks.has(height)) blocks.set(height, env.blockStore.loadBlock(height));
        return blocks.get(height);
      };
      const txs = items.map((item) => renderResultTx(item, args.prove ? blockAt(item.height) : undefined));
      return { txs, total_count: String(total) };
    },
  }),

  defineRoute({
    name: 'check_tx',
    params: [{ name: 'tx', type: 'bytes' }],
    handler: async (env, args) => renderCheckTx(await env.app.checkTx({ tx: args.tx ?? EMPTY, type: 'new' })),
  }),

  defineRoute({
    name: 'broadcast_tx_async',
    params: [{ name: 'tx', type: 'bytes' }],
    handler: async (env, args, ctx) => {
      const tx = args.tx ?? EMPTY;
      const pending = env.mempool.checkTx(tx);
      // The mempool's own refusals (cache, size, full) fail before CheckTx runs: report those;
      // do not wait for the app (CometBFT's async mode).
      const early = await Promise.race([
        pending.then(
          () => NOT_SETTLED,
          (err: unknown) => err,
        ),
        new Promise<typeof NOT_SETTLED>((resolve) => setImmediate(() => resolve(NOT_SETTLED))),
      ]);
      if (early !== NOT_SETTLED) throw early;
      pending.catch((err: unknown) => ctx.logger.debug('async CheckTx failed', { err: (err as Error).message }));
      return { code: 0, data: '', log: '', codespace: '', hash: toHexUpper(txHash(tx)) };
    },
  }),

  defineRoute({
    name: 'broadcast_tx_sync',
    params: [{ name: 'tx', type: 'bytes' }],
    handler: async (env, args) => {
      const tx = args.tx ?? EMPTY;
      return broadcastResult(await env.mempool.checkTx(tx), txHash(tx));
    },
  }),

  defineRoute({
    name: 'broadcast_tx_commit',
    params: [{ name: 'tx', type: 'bytes' }],
    handler: async (env, args, ctx) => {
      const tx = args.tx ?? EMPTY;
      const hash = txHash(tx);
      const hashHex = toHexUpper(hash);
      const subs = ctx.subscriptions;
      const { maxSubscriptionClients, maxSubscriptionsPerClient, timeoutBroadcastTxCommitMs } = ctx.options;
      if (subs.numClientSubscriptions(ctx.remoteAddr) === 0 && subs.numClients() >= maxSubscriptionClients) {
        throw new RpcHandlerError(`max_subscription_clients ${maxSubscriptionClients} reached`, 'ABORTED');
      }
      if (subs.numClientSubscriptions(ctx.remoteAddr) >= maxSubscriptionsPerClient) {
        throw new RpcHandlerError(`max_subscriptions_per_client ${maxSubscriptionsPerClient} reached`, 'ABORTED');
      }
      const key = `tm.event = 'Tx' AND tx.hash = '${hashHex}'`;
      try {
        subs.add(ctx.remoteAddr, key);
      } catch (err) {
        throw new RpcHandlerError(`failed to subscribe to tx: ${(err as Error).message}`, 'ABORTED');
      }
      // Wait from before CheckTx so the commit cannot be missed.
      const waiter = env.eventBus.waitForTx(hashHex, timeoutBroadcastTxCommitMs);
      waiter.promise.catch(() => undefined);
      const onShutdown = (): void => waiter.cancel();
      ctx.shutdown.addEventListener('abort', onShutdown, { once: true });
      try {
        let checked: ResponseCheckTx;
        try {
          checked = await env.mempool.checkTx(tx);
        } catch (err) {
          throw new RpcHandlerError(`error on broadcastTxCommit: ${(err as Error).message}`, 'ABORTED', { cause: err });
        }
        if (checked.code !== 0) {
          return { check_tx: renderCheckTx(checked), tx_result: renderExecTxResult(EMPTY_EXEC_TX_RESULT), hash: hashHex, height: '0' };
        }
        try {
          const included = await waiter.promise;
          return { check_tx: renderCheckTx(checked), tx_result: renderExecTxResult(included.result), hash: hashHex, height: String(included.height) };
        } catch (err) {
          const message = (err as Error).message;
          if (message.includes('timed out')) {
            // The caller must still learn the hash: the tx may yet be committed.
            throw new RpcHandlerError(`timed out waiting for tx to be included in a block (tx hash ${hashHex})`, 'ABORTED', { meta: { hash: hashHex } });
          }
          const reason = ctx.shutdown.aborted ? 'CometBFT exited' : message;
          throw new RpcHandlerError(`txSub was canceled (reason: ${reason}) (tx hash ${hashHex})`, 'ABORTED', { meta: { hash: hashHex } });
        }
      } finally {
        ctx.shutdown.removeEventListener('abort', onShutdown);
        waiter.cancel();
        subs.remove(ctx.remoteAddr, key);
      }
    },
  }),

  defineRoute({
    name: 'unconfirmed_txs',
    params: [{ name: 'limit', type: 'int' }],
    handler: (env, args) => {
      const txs = env.mempool.reapMaxTxs(validatePerPage(args.limit));
      return { n_txs: String(txs.length), total: String(env.mempool.size()), total_bytes: String(env.mempool.sizeBytes()), txs: txs.map(toBase64) };
    },
  }),

  defineRoute({
    name: 'num_unconfirmed_txs',
    params: [],
    handler: (env) => {
      const n = String(env.mempool.size());
      return { n_txs: n, total: n, total_bytes: String(env.mempool.sizeBytes()), txs: null };
    },
  }),
];
