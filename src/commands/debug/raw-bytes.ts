import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import { TokendError } from '../../util/errors.js';

export default class DebugRawBytes extends BaseCommand<typeof DebugRawBytes, { hex: string }> {
  static override summary = 'Convert a byte list such as "[72 101 108 108 111]" to hex';
  static override examples = ['<%= config.bin %> debug raw-bytes "[72 101 108 108 111]"'];
  static override args = { bytes: Args.string({ required: true, description: 'Bytes as [b1 b2 …] (decimal 0–255, spaces or commas)' }) };

  async execute(): Promise<{ hex: string }> {
    const text = this.args.bytes.trim().replace(/^\[/, '').replace(/\]$/, '').trim();
    const parts = text === '' ? [] : text.split(/[\s,]+/);
    const bytes = parts.map((part) => {
      const value = /^\d+$/.test(part) ? Number(part) : NaN;
      if (!Number.isInteger(value) || value < 0 || value > 255) {
        throw new TokendError('INVALID_ARGUMENT', `"${part}" is not a byte`, { hint: 'give decimal numbers from 0 to 255, e.g. "[72 101 108]"' });
      }
      return value;
    });
    return { hex: Buffer.from(bytes).toString('hex').toUpperCase() };
  }

  protected override async renderText(result: { hex: string }): Promise<string> {
    return result.hex;
  }
}
