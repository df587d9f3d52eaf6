import { Args, Flags } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { nodeFlag } from '../../cli/nodeFlags.js';
import type { TxResponseJson } from '../../node/client/txResponse.js';

export default class QueryTx extends NodeCommand<typeof QueryTx, TxResponseJson> {
  static override summary = 'Query a committed tx by hash, by <addr>/<seq>, or by signatures';
  static override examples = [
    '<%= config.bin %> query tx 6B8A…E1F2',
    '<%= config.bin %> query tx --type acc_seq token1…/3',
    '<%= config.bin %> query tx --type signature <base64sig>',
  ];
  static override args = { value: Args.string({ required: true, description: 'tx hash (hex), <address>/<sequence>, or comma-separated base64 signatures' }) };
  static override flags = {
    ...nodeFlag,
    type: Flags.option({ options: ['hash', 'acc_seq', 'signature'] as const, default: 'hash', description: 'What the argument is' })(),
  };

  async execute(): Promise<TxResponseJson> {
    const { queryTx } = await import('../../cli/queries.js');
    return queryTx(() => this.rpc(), this.args.value, this.flags.type);
  }
}
