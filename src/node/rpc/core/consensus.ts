/**
 * consensus_state, dump_consensus_state (from the engine's round-state summary), broadcast_evidence,
 * and the websocket-only subscribe / unsubscribe / unsubscribe_all (rpc/core/{consensus,evidence,events}.go).
 */
import { renderTime } from '../../consensus/json.js';
import { toHexUpper } from '../../consensus/types/bytes.js';
import type { RoundStateSummary } from '../../consensus/index.js';
import { isIndexerError } from '../../indexer/errors.js';
import { Query, MAX_QUERY_LENGTH } from '../../indexer/query.js';
import { defineRoute, type Route } from '../route.js';
import type { RpcEnvironment } from '../environment.js';
import { RpcHandlerError } from './common.js';
import { stepNumber } from './render.js';

function roundState(env: RpcEnvironment): RoundStateSummary {
  const rs = env.roundState?.();
  if (!rs) throw new RpcHandlerError('consensus state is not available: consensus is not running', 'NOT_FOUND');
  return rs;
}

function proposer(rs: RoundStateSummary): { address: string; index: number } | null {
  return rs.proposer ? { address: toHexUpper(rs.proposer.address), index: rs.proposer.index } : null;
}

function parseSubscriptionQuery(text: string): Query {
  try {
    return Query.parse(text);
  } catch (err) {
    if (isIndexerError(err)) throw new RpcHandlerError(`failed to parse query: ${err.message}`);
    throw err;
  }
}

export const consensusRoutes: Route[] = [
  defineRoute({
    name: 'consensus_state',
    params: [],
    handler: (env) => {
      const rs = roundState(env);
      return {
        round_state: {
          'height/round/step': `${rs.height}/${rs.round}/${stepNumber(rs.step)}`,
          start_time: renderTime(rs.startTime),
          proposal_block_hash: toHexUpper(rs.proposalBlockHash),
          locked_block_hash: toHexUpper(rs.lockedBlockHash),
          valid_block_hash: toHexUpper(rs.validBlockHash),
          height_vote_set: [{ round: rs.round, prevotes: [], prevotes_bit_array: rs.prevotes, precommits: [], precommits_bit_array: rs.precommits }],
          proposer: proposer(rs),
        },
      };
    },
  }),

  defineRoute({
    name: 'dump_consensus_state',
    params: [],
    handler: (env) => {
      const rs = roundState(env);
      return {
        round_state: {
          height: String(rs.height),
          round: rs.round,
          step: stepNumber(rs.step),
          start_time: renderTime(rs.startTime),
          proposal_block_hash: toHexUpper(rs.proposalBlockHash),
          locked_round: rs.lockedRound,
          locked_block_hash: toHexUpper(rs.lockedBlockHash),
          valid_round: rs.validRound,
          valid_block_hash: toHexUpper(rs.validBlockHash),
          votes: [{ round: rs.round, prevotes: [], prevotes_bit_array: rs.prevotes, precommits: [], precommits_bit_array: rs.precommits }],
          proposer: proposer(rs),
        },
        peers: [],
      };
    },
  }),

  defineRoute({
    name: 'broadcast_evidence',
    params: [{ name: 'evidence', type: 'json' }],
    handler: (_env, args) => {
      if (args.evidence === undefined) throw new RpcHandlerError('no evidence was provided');
      throw new RpcHandlerError('broadcast_evidence is not supported: this node does not accept evidence', 'INVALID_ARGUMENT');
    },
  }),

  defineRoute({
    name: 'subscribe',
    params: [{ name: 'query', type: 'string' }],
    wsOnly: true,
    handler: (_env, args, ctx) => {
      const ws = ctx.ws;
      if (!ws || ctx.requestId === undefined) throw new RpcHandlerError('subscribe is only available on the websocket (/websocket)');
      const text = args.query ?? '';
      const subs = ctx.subscriptions;
      const { maxSubscriptionClients, maxSubscriptionsPerClient } = ctx.options;
      if (subs.numClientSubscriptions(ws.remoteAddr) === 0 && subs.numClients() >= maxSubscriptionClients) {
        throw new RpcHandlerError(`max_subscription_clients ${maxSubscriptionClients} reached`, 'ABORTED');
      }
      if (subs.numClientSubscriptions(ws.remoteAddr) >= maxSubscriptionsPerClient) {
        throw new RpcHandlerError(`max_subscriptions_per_client ${maxSubscriptionsPerClient} reached`, 'ABORTED');
      }
      if (text.length > MAX_QUERY_LENGTH) throw new RpcHandlerError('maximum query length exceeded');
      const query = parseSubscriptionQuery(text);
      subs.add(ws.remoteAddr, query.toString());
      ws.subscribe(query, text, ctx.requestId);
      ctx.logger.debug('subscribed', { remote: ws.remoteAddr, query: text });
      return {};
    },
  }),

  defineRoute({
    name: 'unsubscribe',
    params: [{ name: 'query', type: 'string' }],
    wsOnly: true,
    handler: (_env, args, ctx) => {
      const ws = ctx.ws;
      if (!ws) throw new RpcHandlerError('unsubscribe is only available on the websocket (/websocket)');
      const query = parseSubscriptionQuery(args.query ?? '');
      if (!ctx.subscriptions.remove(ws.remoteAddr, query.toString())) throw new RpcHandlerError('subscription not found', 'NOT_FOUND');
      ws.unsubscribe(query);
      return {};
    },
  }),

  defineRoute({
    name: 'unsubscribe_all',
    params: [],
    wsOnly: true,
    handler: (_env, _args, ctx) => {
      const ws = ctx.ws;
      if (!ws) throw new RpcHandlerError('unsubscribe_all is only available on the websocket (/websocket)');
      if (ctx.subscriptions.numClientSubscriptions(ws.remoteAddr) === 0) throw new RpcHandlerError('subscription not found', 'NOT_FOUND');
      ws.unsubscribeAll();
      return {};
    },
  }),
];
