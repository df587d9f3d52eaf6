/**
 * The work of `query bank balances` and `query txs`, free of oclif: their commands call it, and so
 * does the fast path (fast.ts) that runs them without loading the command framework.
 */
import type { RpcClient } from '../node/client/rpc.js';
import type { JsonObject, JsonValue } from '../node/client/query.js';
import type { TxResponseJson } from '../node/client/txResponse.js';
import { TokendError } from '../util/errors.js';
import { paginationRequest, type PaginationFlagValues } from './pagination.js';

export interface BankBalancesInput extends PaginationFlagValues {
  address: string;
  denom?: string;
  height?: number;
}

/** cosmos.bank.v1beta1.Query/AllBalances, or Balance with a denom. */
export async function queryBankBalances(rpc: () => Promise<RpcClient>, input: BankBalancesInput): Promise<JsonValue> {
  const { queryMethod } = await import('../node/client/query.js');
  const { Query } = await import('../gen/cosmos/bank/v1beta1/query_pb.js');
  const { parseAddress, toAccountAddress } = await import('../keyring/address.js');
  // Accept hex too, but always send bech32 (the query's wire format).
  const address = toAccountAddress(parseAddress(input.address));
  const client = await rpc();
  if (input.denom !== undefined) {
    return (await queryMethod(client, Query.method.balance, { address, denom: input.denom }, input.height)).value;
  }
  const request: JsonObject = { address };
  const pagination = paginationRequest(input);
  if (pagination) request.pagination = pagination;
  return (await queryMethod(client, Query.method.allBalances, request, input.height)).value;
}

export interface SearchTxsResult {
  total_count: string;
  count: string;
  page_number: string;
  page_total: string;
  limit: string;
  txs: TxResponseJson[];
}

export interface SearchTxsInput {
  events?: string;
  query?: string;
  page: number;
  limit: number;
  order_by: 'asc' | 'desc';
}

/** The node answers at most this many txs per page (CometBFT's per_page cap). */
export const MAX_TXS_LIMIT = 100;

function txsQuery({ events, query }: SearchTxsInput): string {
  if (events && query) throw new TokendError('INVALID_ARGUMENT', 'use either --events or --query, not both', { exitCode: 2 });
  if (query) return query;
  if (!events) throw new TokendError('INVALID_ARGUMENT', 'give --events or --query', { hint: "e.g. --events 'transfer.recipient=token1…'", exitCode: 2 });
  return events
    .split('&')
    .map((condition) => {
      const match = /^([^=\s]+\.[^=\s]+)=(.+)$/.exec(condition.trim());
      if (!match) throw new TokendError('INVALID_ARGUMENT', `invalid event condition "${condition}"`, { hint: "use 'type.attribute=value'", exitCode: 2 });
      const value = match[2]!.replace(/^'(.*)'$/, '$1');
      return `${match[1]}='${value.replace(/'/g, "\\'")}'`;
    })
    .join(' AND ');
}

/** One page of a tx_search, as the SDK's `query txs` prints it. */
export async function searchTxs(rpc: () => Promise<RpcClient>, input: SearchTxsInput): Promise<SearchTxsResult> {
  if (input.limit > MAX_TXS_LIMIT) throw new TokendError('INVALID_ARGUMENT', `--limit must be at most ${MAX_TXS_LIMIT}, got ${input.limit}`, { hint: 'walk more pages with --page instead', exitCode: 2 });
  const query = txsQuery(input);
  const client = await rpc();
  const { txResponseFromResult } = await import('../node/client/txResponse.js');
  let found;
  try {
    found = await client.txSearch({ query, page: input.page, perPage: input.limit, orderBy: input.order_by });
  } catch (err) {
    // An empty result has no page 2: answer an empty page rather than an error, as the SDK does.
    if (err instanceof TokendError && /page should be within/.test(err.message)) {
      const total = Number(/\[1, (\d+)\]/.exec(err.message)?.[1] ?? '0');
      return { total_count: '0', count: '0', page_number: String(input.page), page_total: String(total === 1 ? 0 : total), limit: String(input.limit), txs: [] };
    }
    throw err;
  }
  const blockTimes = new Map<string, string>();
  const txs = [];
  for (const tx of found.txs) txs.push(await txResponseFromResult(client, tx, blockTimes));
  const total = Number(found.total_count);
  return {
    total_count: found.total_count,
    count: String(txs.length),
    page_number: String(input.page),
    page_total: String(Math.ceil(total / input.limit)),
    limit: String(input.limit),
    txs,
  };
}
