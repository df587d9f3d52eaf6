import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import { TokendError } from '../../util/errors.js';
import type { JsonValue } from '../../node/client/query.js';

export default class TxDecode extends BaseCommand<typeof TxDecode, JsonValue> {
  static override summary = 'Decode base64 (or hex) TxRaw bytes to transaction JSON';
  static override examples = ['<%= config.bin %> tx decode CpIBCo8BChwvY29zbW9z…'];
  static override args = { tx: Args.string({ required: true, description: 'base64 or hex tx bytes' }) };

  async execute(): Promise<JsonValue> {
    const text = this.args.tx.trim();
    let bytes: Buffer;
    if (/^(0x)?[0-9a-fA-F]+$/.test(text) && text.replace(/^0x/, '').length % 2 === 0) bytes = Buffer.from(text.replace(/^0x/, ''), 'hex');
    else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) bytes = Buffer.from(text, 'base64');
    else throw new TokendError('INVALID_ARGUMENT', 'the tx is neither base64 nor hex');
    const { decodeTxBytes, txToJson } = await import('../../node/client/txFile.js');
    return txToJson(decodeTxBytes(bytes));
  }

  protected override async renderText(result: JsonValue): Promise<string> {
    return JSON.stringify(result);
  }
}
