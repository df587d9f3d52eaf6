/**
 * blockchain, block, block_by_hash, block_results, commit, header, header_by_hash, validators,
 * consensus_params, block_search (rpc/core/{blocks,consensus}.go).
 */
import {
  renderBlock,
  renderBlockMeta,
  renderBlockResult,
  renderBlockResults,
  renderBlockResultsText,
  renderCommitResult,
  renderConsensusParamsResult,
  renderHeader,
  renderValidatorsResult,
  type BlockIdJson,
} from '../../consensus/json.js';
import type { Block, BlockMeta } from '../../consensus/types/block.js';
import { validatePage, validatePerPage } from '../../indexer/paging.js';
import { Query } from '../../indexer/query.js';
import { defineRoute, RawJson, type Route } from '../route.js';
import type { RpcEnvironment } from '../environment.js';
import { indexLagging } from './txs.js';
import { latestUncommittedHeight, parseOrderBy, resolveHeight, RpcHandlerError } from './common.js';

const BLOCKCHAIN_LIMIT = 20;
/** block_results of blocks with at least this many txs is rendered in slices of RENDER_SLICE_MS. */
const SLICED_RESULTS_FROM = 100;
const RENDER_SLICE_MS = 4;
const ZERO_BLOCK_ID: BlockIdJson = { hash: '', parts: { total: 0, hash: '' } };

/** filterMinMax of rpc/core/blocks.go. */
export function filterMinMax(base: number, height: number, min: number, max: number, limit: number): { min: number; max: number } {
  if (min < 0 || max < 0) throw new RpcHandlerError('heights must be non-negative');
  let lo = min === 0 ? 1 : min;
  let hi = max === 0 ? height : max;
  hi = Math.min(height, hi);
  lo = Math.max(base, lo);
  lo = Math.max(lo, hi - limit + 1);
  if (lo > hi) throw new RpcHandlerError(`min height ${lo} can't be greater than max height ${hi}`);
  return { min: lo, max: hi };
}

function blockResult(meta: BlockMeta | undefined, block: Block | undefined): unknown {
  if (meta && block) return renderBlockResult(meta.blockId, block);
  return { block_id: ZERO_BLOCK_ID, block: block ? renderBlock(block) : null };
}

function heightArg(env: RpcEnvironment, height: number | undefined): number {
  return resolveHeight(env, env.blockStore.height(), height);
}

export const blockRoutes: Route[] = [
  defineRoute({
    name: 'blockchain',
    params: [
      { name: 'minHeight', type: 'int64' },
      { name: 'maxHeight', type: 'int64' },
    ],
    cacheable: true,
    handler: (env, args) => {
      const store = env.blockStore;
      const { min, max } = filterMinMax(store.base(), store.height(), args.minHeight ?? 0, args.maxHeight ?? 0, BLOCKCHAIN_LIMIT);
      const metas: unknown[] = [];
      for (let h = max; h >= min; h--) {
        const meta = store.loadBlockMeta(h);
        if (meta) metas.push(renderBlockMeta(meta));
      }
      return { last_height: String(store.height()), block_metas: metas };
    },
  }),

  defineRoute({
    name: 'block',
    params: [{ name: 'height', type: 'int64' }],
    cacheable: ['height'],
    handler: async (env, args) => {
      const base = env.blockStore.base();
      const requested = args.height;
      // A height this node pruned (or never had, after state sync): fetched from peers and verified.
      if (env.fetchBlock && requested !== undefined && requested > 0 && base > 0 && requested < base) {
        try {
          const { block, blockId } = await env.fetchBlock(requested);
          return renderBlockResult(blockId, block);
        } catch (err) {
          throw new RpcHandlerError(`height ${requested} is not available locally (lowest height is ${base}) and could not be fetched from peers: ${(err as Error).message}`, 'NOT_FOUND');
        }
      }
      const h = heightArg(env, args.height);
      return blockResult(env.blockStore.loadBlockMeta(h), env.blockStore.loadBlock(h));
    },
  }),

  defineRoute({
    name: 'block_by_hash',
    params: [{ name: 'hash', type: 'hash' }],
    cacheable: true,
    handler: (env, args) => {
      const block = args.hash && args.hash.length > 0 ? env.blockStore.loadBlockByHash(args.hash) : undefined;
      if (!block) return { block_id: ZERO_BLOCK_ID, block: null };
      return blockResult(env.blockStore.loadBlockMeta(block.header.height), block);
    },
  }),

  defineRoute({
    name: 'block_results',
    params: [{ name: 'height', type: 'int64' }],
    cacheable: ['height'],
    handler: (env, args) => {
      const h = heightArg(env, args.height);
      const results = env.stateStore.loadFinalizeBlockResponse(h);
      if (!results) throw new RpcHandlerError(`could not find results for height #${h}`, 'NOT_FOUND');
      // A big block's results are rendered in slices, so queries and CheckTx are not held up.
      if (results.txResults.length >= SLICED_RESULTS_FROM) return renderBlockResultsText(h, results, RENDER_SLICE_MS).then((text) => new RawJson(text));
      return renderBlockResults(h, results);
    },
  }),

  defineRoute({
    name: 'commit',
    params: [{ name: 'height', type: 'int64' }],
    cacheable: ['height'],
    handler: (env, args) => {
      const store = env.blockStore;
      const h = heightArg(env, args.height);
      const meta = store.loadBlockMeta(h);
      if (!meta) return null;
      // The latest height has only the commit this node saw; it becomes canonical with the next
      // block. Saving that block moves the commit from seen to canonical in one batch, which is
      // readable before the store's height moves: then the canonical one is already there.
      const seen = h === store.height() ? store.loadSeenCommit(h) : undefined;
      const commit = seen ?? store.loadBlockCommit(h);
      if (!commit) throw new RpcHandlerError(`commit for height ${h} not found`, 'NOT_FOUND');
      return renderCommitResult(meta.header, commit, seen === undefined);
    },
  }),

  defineRoute({
    name: 'header',
    params: [{ name: 'height', type: 'int64' }],
    cacheable: ['height'],
    handler: (env, args) => {
      const meta = env.blockStore.loadBlockMeta(heightArg(env, args.height));
      return { header: meta ? renderHeader(meta.header) : null };
    },
  }),

  defineRoute({
    name: 'header_by_hash',
    params: [{ name: 'hash', type: 'hexbytes' }],
    cacheable: true,
    handler: (env, args) => {
      const meta = args.hash && args.hash.length > 0 ? env.blockStore.loadBlockMetaByHash(args.hash) : undefined;
      return { header: meta ? renderHeader(meta.header) : null };
    },
  }),

  defineRoute({
    name: 'validators',
    params: [
      { name: 'height', type: 'int64' },
      { name: 'page', type: 'int' },
      { name: 'per_page', type: 'int' },
    ],
    cacheable: ['height'],
    handler: (env, args) => {
      const h = resolveHeight(env, latestUncommittedHeight(env), args.height);
      const set = env.stateStore.loadValidators(h);
      if (!set) throw new RpcHandlerError(`could not find validator set for height #${h}`, 'NOT_FOUND');
      const validators = set.validators;
      const perPage = validatePerPage(args.per_page);
      const page = validatePage(args.page, perPage, validators.length);
      const skip = (page - 1) * perPage;
      return renderValidatorsResult(h, validators.slice(skip, skip + perPage), validators.length);
    },
  }),

  defineRoute({
    name: 'consensus_params',
    params: [{ name: 'height', type: 'int64' }],
    cacheable: ['height'],
    handler: (env, args) => {
      const h = resolveHeight(env, latestUncommittedHeight(env), args.height);
      const params = env.stateStore.loadConsensusParams(h);
      if (!params) throw new RpcHandlerError(`could not find consensus params for height #${h}`, 'NOT_FOUND');
      return renderConsensusParamsResult(h, params);
    },
  }),

  defineRoute({
    name: 'block_search',
    params: [
      { name: 'query', type: 'string' },
      { name: 'page', type: 'int' },
      { name: 'per_page', type: 'int' },
      { name: 'order_by', type: 'string' },
    ],
    handler: async (env, args) => {
      if (!env.blockIndexer.enabled) throw new RpcHandlerError('block indexing is disabled', 'NOT_FOUND');
      const query = Query.parseLimited(args.query ?? '');
      const orderBy = parseOrderBy(args.order_by, 'desc');
      const perPage = validatePerPage(args.per_page);
      await indexLagging(env);
      const { total, items } = await env.blockIndexer.search(query, { page: args.page, perPage, orderBy });
      const blocks: unknown[] = [];
      for (const height of items) {
        const block = env.blockStore.loadBlock(height);
        const meta = block ? env.blockStore.loadBlockMeta(height) : undefined;
        if (block && meta) blocks.push(renderBlockResult(meta.blockId, block));
      }
      return { blocks, total_count: String(total) };
    },
  }),
];
