import { Args, Flags } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { nodeFlag } from '../../cli/nodeFlags.js';
import { BROADCAST_MODES } from '../../node/config/client.js';
import { TokendError } from '../../util/errors.js';
import type { TxResponseJson } from '../../node/client/txResponse.js';

export default class TxBroadcast extends NodeCommand<typeof TxBroadcast, TxResponseJson> {
  static override summary = 'Broadcast a signed transaction JSON file';
  static override examples = ['<%= config.bin %> tx broadcast signed.json -b block'];
  static override args = { file: Args.string({ required: true, description: 'Signed tx JSON file ("-" for stdin)' }) };
  static override flags = {
    ...nodeFlag,
    'broadcast-mode': Flags.option({ char: 'b', options: BROADCAST_MODES, description: 'sync | async | block' })(),
  };

  async execute(): Promise<TxResponseJson> {
    const { readTxFile, txRawBytes } = await import('../../node/client/txFile.js');
    const tx = readTxFile(this.args.file);
    if (tx.signatures.length === 0) throw new TokendError('INVALID_ARGUMENT', 'the transaction is not signed', { hint: 'sign it first with `tokend tx sign`' });
    const { broadcastTxBytes } = await import('../../node/client/broadcast.js');
    const mode = this.clientConfig({ 'broadcast-mode': this.flags['broadcast-mode'] })['broadcast-mode'];
    const response = await broadcastTxBytes(await this.rpc(), txRawBytes(tx), mode);
    return response;
  }

  protected override async print(result: TxResponseJson): Promise<void> {
    await super.print(result);
    if (result.code !== 0) throw new TokendError('TX_FAILED', `tx ${result.txhash} failed with code ${result.code} (${result.codespace || 'sdk'}): ${result.raw_log}`);
  }
}
