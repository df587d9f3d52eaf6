import { Flags } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { nodeFlag } from '../../cli/nodeFlags.js';
import { TokendError } from '../../util/errors.js';
import type { TxResponseJson } from '../../node/client/txResponse.js';

interface SearchTxsResult {
  total_count: string;
  count: string;
  page_number: string;
  page_total: string;
  limit: string;
  txs: TxResponseJson[];
}

/** The node answers at most this many txs per page (CometBFT's per_page cap). */
const MAX_LIMIT = 100;

export default class QueryTxs extends NodeCommand<typeof QueryTxs, SearchTxsResult> {
  static override summary = 'Search committed txs by events, a page at a time';
  static override description =
    "--events takes 'type.attribute=value' conditions joined by '&' (all must match); --query takes a CometBFT query such as \"transfer.recipient='token1…' AND tx.height>=100\".\n" +
    'The result says total_count and page_total: walk --page 1..page_total to see every match.';
  static override examples = [
    "<%= config.bin %> query txs --events 'transfer.recipient=token1…' --page 1 --limit 50",
    "<%= config.bin %> query txs --query \"message.sender='token1…'\" --order_by desc",
  ];
  static override flags = {
    ...nodeFlag,
    events: Flags.string({ description: "Conditions 'type.attr=value', joined by '&'" }),
    query: Flags.string({ description: 'A CometBFT event query (alternative to --events)' }),
    page: Flags.integer({ description: 'Page number, from 1', default: 1, min: 1 }),
    limit: Flags.integer({ description: `Txs per page (1–${MAX_LIMIT})`, default: 30, min: 1 }),
    order_by: Flags.option({ options: ['asc', 'desc'] as const, default: 'asc', description: 'Order by height and index' })(),
  };

  private buildQuery(): string {
    const { events, query } = this.flags;
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

  async execute(): Promise<SearchTxsResult> {
    if (this.flags.limit > MAX_LIMIT) throw new TokendError('INVALID_ARGUMENT', `--limit must be at most ${MAX_LIMIT}, got ${this.flags.limit}`, { hint: 'walk more pages with --page instead', exitCode: 2 });
    const query = this.buildQuery();
    const rpc = await this.rpc();
    const { txResponseFromResult } = await import('../../node/client/txResponse.js');
    let found;
    try {
      found = await rpc.txSearch({ query, page: this.flags.page, perPage: this.flags.limit, orderBy: this.flags.order_by });
    } catch (err) {
      // An empty result has no page 2: answer an empty page rather than an error, as the SDK does.
      if (err instanceof TokendError && /page should be within/.test(err.message)) {
        const total = Number(/\[1, (\d+)\]/.exec(err.message)?.[1] ?? '0');
        return { total_count: '0', count: '0', page_number: String(this.flags.page), page_total: String(total === 1 ? 0 : total), limit: String(this.flags.limit), txs: [] };
      }
      throw err;
    }
    const blockTimes = new Map<string, string>();
    const txs = [];
    for (const tx of found.txs) txs.push(await txResponseFromResult(rpc, tx, blockTimes));
    const total = Number(found.total_count);
    return {
      total_count: found.total_count,
      count: String(txs.length),
      page_number: String(this.flags.page),
      page_total: String(Math.ceil(total / this.flags.limit)),
      limit: String(this.flags.limit),
      txs,
    };
  }
}
