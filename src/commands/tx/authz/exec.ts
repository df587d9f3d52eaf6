import { Args } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxAuthzExec extends TxCommand<typeof TxAuthzExec> {
  static override summary = "Execute the messages of a generated tx with the grants you hold (MsgExec)";
  static override description =
    'Reads a tx written with --generate-only (its messages signed by the granter) and signs /cosmos.authz.v1beta1.MsgExec ' +
    'from --from (the grantee) carrying those messages. "-" reads the tx from stdin.';
  static override examples = [
    '<%= config.bin %> tx send alice token1…bob 100attotoken --generate-only > tx.json',
    '<%= config.bin %> tx authz exec tx.json --from grantee --yes',
  ];
  static override args = {
    file: Args.string({ required: true, description: 'Tx JSON file (from --generate-only), or - for stdin' }),
  };
  static override flags = { ...txFlags };

  async execute(): Promise<TxOutcome> {
    const { readTxFile } = await import('../../../node/client/txFile.js');
    const { buildAuthzExec } = await import('../../../node/client/grants.js');
    const { toAccountAddress } = await import('../../../keyring/address.js');
    const tx = readTxFile(this.args.file);
    const key = await this.signingKey();
    return this.submit(key, [buildAuthzExec(toAccountAddress(key.address), tx.body?.messages ?? [])]);
  }
}
