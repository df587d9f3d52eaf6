import { Args } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { txFlags, type TxFlagValues } from '../../cli/txCommand.js';
import { keyringFlags, openCliKeyring } from '../../cli/keys.js';
import { nodeFlag } from '../../cli/nodeFlags.js';
import { TokendError } from '../../util/errors.js';
import type { JsonValue } from '../../node/client/query.js';

export default class TxMultisign extends NodeCommand<typeof TxMultisign, JsonValue> {
  static override summary = "Combine multisig members' signatures into a signed transaction";
  static override description =
    'Reads the unsigned tx FILE, the multisig key NAME from the keyring and one signature file per member (the output of `tx sign FILE --from MEMBER --multisig NAME`), ' +
    "checks each signature against the tx and the multisig account's account number and sequence (from the node, or --offline with --account-number and --sequence), and prints the signed tx JSON for `tx broadcast`. " +
    'A repeated member, a non-member, a signature made for another tx and fewer signatures than the threshold are refused.';
  static override examples = [
    '<%= config.bin %> tx multisign unsigned.json vault alice-signature.json bob-signature.json > signed.json',
    '<%= config.bin %> tx multisign unsigned.json vault a.json b.json --offline --account-number 12 --sequence 0 --chain-id testnet',
  ];
  static override strict = false;
  static override args = {
    file: Args.string({ required: true, description: 'The unsigned tx JSON file ("-" for stdin)' }),
    name: Args.string({ required: true, description: 'The multisig key (name or address in the keyring)' }),
    signatures: Args.string({ required: true, description: 'Signature files, one per member (more may follow)' }),
  };
  static override flags = {
    ...nodeFlag,
    ...keyringFlags,
    'chain-id': txFlags['chain-id'],
    offline: txFlags.offline,
    'account-number': txFlags['account-number'],
    sequence: txFlags.sequence,
  };

  async execute(): Promise<JsonValue> {
    const flags = this.flags as unknown as Pick<TxFlagValues, 'keyring-backend' | 'chain-id' | 'offline' | 'account-number' | 'sequence'>;
    const { argv } = await this.parse(TxMultisign);
    const [file, name, ...signatureFiles] = argv as string[];
    const { readTxFile, txToJson } = await import('../../node/client/txFile.js');
    const { combineMultisig, readSignatureFile } = await import('../../node/client/multisig.js');
    const tx = readTxFile(file!);
    const files = signatureFiles.map((path) => ({ path, descriptors: readSignatureFile(path) }));
    const backend = this.clientConfig({ 'keyring-backend': flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    const record = await keyring.record(name!);
    if (record.type !== 'multi') throw new TokendError('INVALID_ARGUMENT', `key "${record.name}" is not a multisig key`, { hint: 'create one with: tokend keys add NAME --multisig a,b,c --multisig-threshold 2' });
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
      ({ accountNumber, sequence } = await fetchSignerAccount(await this.rpc(), toAccountAddress(record.address)));
    }
    return txToJson(await combineMultisig(tx, record, name!, files, { chainId, accountNumber, sequence }));
  }

  protected override async renderText(result: JsonValue): Promise<string> {
    return JSON.stringify(result);
  }
}
