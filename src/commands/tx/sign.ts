import { Args } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { txFlags, type TxFlagValues } from '../../cli/txCommand.js';
import { keyringFlags, openCliKeyring } from '../../cli/keys.js';
import { TokendError } from '../../util/errors.js';
import type { JsonValue } from '../../node/client/query.js';

export default class TxSign extends NodeCommand<typeof TxSign, JsonValue> {
  static override summary = 'Sign a transaction JSON file (from --generate-only) and print the signed JSON';
  static override description = 'Looks up the signer\'s account number and sequence on the node unless --offline (then give --account-number and --sequence).';
  static override examples = ['<%= config.bin %> tx sign unsigned.json --from alice > signed.json', '<%= config.bin %> tx sign unsigned.json --from alice --offline --account-number 3 --sequence 7 --chain-id testnet'];
  static override args = { file: Args.string({ required: true, description: 'Tx JSON file ("-" for stdin)' }) };
  static override flags = { ...txFlags, ...keyringFlags };

  async execute(): Promise<JsonValue> {
    const flags = this.flags as unknown as TxFlagValues;
    if (!flags.from) throw new TokendError('INVALID_ARGUMENT', 'no signer given', { hint: 'pass --from <key-name-or-address>', exitCode: 2 });
    const { readTxFile, signTxMessage, txToJson } = await import('../../node/client/txFile.js');
    const tx = readTxFile(this.args.file);
    const backend = this.clientConfig({ 'keyring-backend': flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    const key = await keyring.find(flags.from);
    const chainId = this.clientConfig({ 'chain-id': flags['chain-id'] })['chain-id'];
    let accountNumber: bigint;
    let sequence: bigint;
    if (flags.offline) {
      if (flags['account-number'] === undefined || flags.sequence === undefined) throw new TokendError('INVALID_ARGUMENT', '--offline needs --account-number and --sequence', { exitCode: 2 });
      if (!/^\d+$/.test(flags['account-number']) || !/^\d+$/.test(flags.sequence)) throw new TokendError('INVALID_ARGUMENT', '--account-number and --sequence must be non-negative integers', { exitCode: 2 });
      accountNumber = BigInt(flags['account-number']);
      sequence = BigInt(flags.sequence);
    } else {
      const { fetchSignerAccount } = await import('../../node/client/broadcast.js');
      const { toAccountAddress } = await import('../../keyring/address.js');
      ({ accountNumber, sequence } = await fetchSignerAccount(await this.rpc(), toAccountAddress(key.address)));
    }
    return txToJson(await signTxMessage(tx, keyring, key, chainId, accountNumber, sequence));
  }

  protected override async renderText(result: JsonValue): Promise<string> {
    return JSON.stringify(result);
  }
}
