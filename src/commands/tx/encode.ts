import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';

export default class TxEncode extends BaseCommand<typeof TxEncode, { tx_bytes: string }> {
  static override summary = 'Encode a transaction JSON file to base64 TxRaw bytes';
  static override examples = ['<%= config.bin %> tx encode signed.json'];
  static override args = { file: Args.string({ required: true, description: 'Tx JSON file ("-" for stdin)' }) };

  async execute(): Promise<{ tx_bytes: string }> {
    const { readTxFile, txRawBytes } = await import('../../node/client/txFile.js');
    return { tx_bytes: Buffer.from(txRawBytes(readTxFile(this.args.file))).toString('base64') };
  }

  protected override async renderText(result: { tx_bytes: string }): Promise<string> {
    return result.tx_bytes;
  }
}
