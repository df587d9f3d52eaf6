import { Flags } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { nodeFlag } from '../../cli/nodeFlags.js';
import { MAX_TXS_LIMIT as MAX_LIMIT, type SearchTxsResult } from '../../cli/queries.js';

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

  async execute(): Promise<SearchTxsResult> {
    const { searchTxs } = await import('../../cli/queries.js');
    return searchTxs(() => this.rpc(), this.flags);
  }
}
