/**
 * The work of `query bank balances`, `query txs`, `query tx` and `query account`, free of oclif: their commands
 * call it, and so does the fast path (fast.ts) that runs them without loading the command framework.
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

export type TxLookup = 'hash' | 'acc_seq' | 'signature';

/** `query tx`: a committed tx by its hash, by `<address>/<sequence>`, or by its signatures. */
export async function queryTx(rpc: () => Promise<RpcClient>, input: string, type: TxLookup): Promise<TxResponseJson> {
  const { txResponseFromResult } = await import('../node/client/txResponse.js');
  const value = input.trim();
  if (type === 'hash') {
    const hex = value.replace(/^0x/i, '');
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new TokendError('INVALID_ARGUMENT', `invalid tx hash "${value}"`, { hint: 'a tx hash is 64 hex characters', exitCode: 2 });
    const client = await rpc();
    try {
      return await txResponseFromResult(client, await client.tx(hex.toUpperCase()));
    } catch (err) {
      if (err instanceof TokendError && /not found/.test(err.message)) throw new TokendError('NOT_FOUND', `tx ${hex.toUpperCase()} not found`, { hint: 'it may not be committed yet, or the node does not index txs' });
      throw err;
    }
  }
  let query: string;
  if (type === 'acc_seq') {
    if (!/^[a-z0-9]+1[a-z0-9]+\/\d+$/.test(value)) throw new TokendError('INVALID_ARGUMENT', `expected <address>/<sequence>, got "${value}"`, { exitCode: 2 });
    query = `tx.acc_seq='${value}'`;
  } else {
    const signatures = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (signatures.length === 0 || signatures.some((s) => !/^[A-Za-z0-9+/]+={0,2}$/.test(s))) throw new TokendError('INVALID_ARGUMENT', 'expected comma-separated base64 signatures', { exitCode: 2 });
    query = signatures.map((s) => `tx.signature='${s}'`).join(' AND ');
  }
  const client = await rpc();
  const found = await client.txSearch({ query, page: 1, perPage: 2 });
  if (found.txs.length === 0) throw new TokendError('NOT_FOUND', `no tx found with ${query}`);
  if (found.txs.length > 1) throw new TokendError('INVALID_ARGUMENT', `found ${found.total_count} txs with ${query}; expected one`);
  return txResponseFromResult(client, found.txs[0]!);
}

/**
 * Prints the account flat — @type, address, pub_key, account_number, sequence (+ code_hash for an
 * EthAccount) — as the spec describes; the REST gateway keeps the nested protobuf JSON.
 */
export function flattenAccount(account: JsonObject): JsonObject {
  const base = (account.base_account ?? account) as JsonObject;
  const out: JsonObject = {
    '@type': account['@type'] ?? null,
    address: base.address ?? null,
    pub_key: base.pub_key ?? null,
    account_number: base.account_number ?? '0',
    sequence: base.sequence ?? '0',
  };
  if (account.code_hash !== undefined) out.code_hash = account.code_hash;
  if (account.name !== undefined) out.name = account.name;
  if (account.permissions !== undefined) out.permissions = account.permissions;
  return out;
}

/** `query account`: cosmos.auth.v1beta1.Query/Account of a bech32 or hex address, printed flat. */
export async function queryAccount(rpc: () => Promise<RpcClient>, input: { address: string; height?: number }): Promise<JsonObject> {
  const { queryMethod } = await import('../node/client/query.js');
  const { Query } = await import('../gen/cosmos/auth/v1beta1/query_pb.js');
  const { parseAddress, toAccountAddress } = await import('../keyring/address.js');
  const address = toAccountAddress(parseAddress(input.address));
  const result = await queryMethod(await rpc(), Query.method.account, { address }, input.height);
  return flattenAccount(result.value.account as JsonObject);
}
