import { Args, Flags } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { nodeFlag } from '../../cli/nodeFlags.js';
import { TokendError } from '../../util/errors.js';
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
    const rpc = await this.rpc();
    const { txResponseFromResult } = await import('../../node/client/txResponse.js');
    const value = this.args.value.trim();
    if (this.flags.type === 'hash') {
      const hex = value.replace(/^0x/i, '');
      if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new TokendError('INVALID_ARGUMENT', `invalid tx hash "${value}"`, { hint: 'a tx hash is 64 hex characters', exitCode: 2 });
      try {
        return await txResponseFromResult(rpc, await rpc.tx(hex.toUpperCase()));
      } catch (err) {
        if (err instanceof TokendError && /not found/.test(err.message)) throw new TokendError('NOT_FOUND', `tx ${hex.toUpperCase()} not found`, { hint: 'it may not be committed yet, or the node does not index txs' });
        throw err;
      }
    }
    let query: string;
    if (this.flags.type === 'acc_seq') {
      if (!/^[a-z0-9]+1[a-z0-9]+\/\d+$/.test(value)) throw new TokendError('INVALID_ARGUMENT', `expected <address>/<sequence>, got "${value}"`, { exitCode: 2 });
      query = `tx.acc_seq='${value}'`;
    } else {
      const signatures = value.split(',').map((s) => s.trim()).filter(Boolean);
      if (signatures.length === 0 || signatures.some((s) => !/^[A-Za-z0-9+/]+={0,2}$/.test(s))) throw new TokendError('INVALID_ARGUMENT', 'expected comma-separated base64 signatures', { exitCode: 2 });
      query = signatures.map((s) => `tx.signature='${s}'`).join(' AND ');
    }
    const found = await rpc.txSearch({ query, page: 1, perPage: 2 });
    if (found.txs.length === 0) throw new TokendError('NOT_FOUND', `no tx found with ${query}`);
    if (found.txs.length > 1) throw new TokendError('INVALID_ARGUMENT', `found ${found.total_count} txs with ${query}; expected one`);
    return txResponseFromResult(rpc, found.txs[0]!);
  }
}
