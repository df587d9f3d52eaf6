import { Args, Flags } from '@oclif/core';
import { NodeCommand } from '../../cli/nodeCommand.js';
import { txFlags, type TxFlagValues } from '../../cli/txCommand.js';
import { keyringFlags, openCliKeyring } from '../../cli/keys.js';
import { TokendError } from '../../util/errors.js';
import type { JsonValue } from '../../node/client/query.js';

export default class TxSign extends NodeCommand<typeof TxSign, JsonValue> {
  static override summary = 'Sign a transaction JSON file (from --generate-only) and print the signed JSON';
  static override description =
    "Looks up the signer's account number and sequence on the node unless --offline (then give --account-number and --sequence).\n" +
    'With --multisig, the key signs as a member of that multisig key (for its account number and sequence, in amino-json mode) and only the signature is printed, for `tx multisign`.';
  static override examples = [
    '<%= config.bin %> tx sign unsigned.json --from alice > signed.json',
    '<%= config.bin %> tx sign unsigned.json --from alice --sign-mode amino-json > signed.json',
    '<%= config.bin %> tx sign unsigned.json --from alice --offline --account-number 3 --sequence 7 --chain-id testnet',
    '<%= config.bin %> tx sign unsigned.json --from alice --multisig vault > alice-signature.json',
  ];
  static override args = { file: Args.string({ required: true, description: 'Tx JSON file ("-" for stdin)' }) };
  static override flags = {
    ...txFlags,
    ...keyringFlags,
    multisig: Flags.string({ description: 'Sign as a member of this multisig key (its name in the keyring, or its address); prints the signature only', helpGroup: 'TX' }),
  };

  async execute(): Promise<JsonValue> {
    const flags = this.flags as unknown as TxFlagValues & { multisig?: string };
    if (!flags.from) throw new TokendError('INVALID_ARGUMENT', 'no signer given', { hint: 'pass --from <key-name-or-address>', exitCode: 2 });
    const { readTxFile, signTxMessage, txToJson } = await import('../../node/client/txFile.js');
    const tx = readTxFile(this.args.file);
    const backend = this.clientConfig({ 'keyring-backend': flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    const key = await keyring.find(flags.from);
    const chainId = this.clientConfig({ 'chain-id': flags['chain-id'] })['chain-id'];
    const { looksLikeAddress, parseAddress, toAccountAddress } = await import('../../keyring/address.js');
    const { signModeFromName } = await import('../../node/client/tx.js');
    if (flags.multisig !== undefined) {
      // The multisig key from the keyring (membership is checked), or just its account address.
      let multisig;
      let address: string;
      try {
        multisig = await keyring.record(flags.multisig);
      } catch (err) {
        if (!(err instanceof TokendError && err.code === 'KEY_NOT_FOUND' && looksLikeAddress(flags.multisig))) throw err;
      }
      if (multisig !== undefined) {
        if (multisig.type !== 'multi') throw new TokendError('INVALID_ARGUMENT', `key "${multisig.name}" is not a multisig key`, { hint: 'create one with: tokend keys add NAME --multisig a,b,c --multisig-threshold 2' });
        address = toAccountAddress(multisig.address);
      } else {
        address = toAccountAddress(parseAddress(flags.multisig));
      }
      const { accountNumber, sequence } = await this.signerAccount(flags, address);
      const { signAsMember } = await import('../../node/client/multisig.js');
      return signAsMember(tx, keyring, key, multisig?.type === 'multi' ? multisig : undefined, flags.multisig, { chainId, accountNumber, sequence }, signModeFromName(flags['sign-mode'] ?? 'amino-json'));
    }
    const { accountNumber, sequence } = await this.signerAccount(flags, toAccountAddress(key.address));
    return txToJson(await signTxMessage(tx, keyring, key, chainId, accountNumber, sequence, signModeFromName(flags['sign-mode'] ?? 'direct')));
  }

  private async signerAccount(flags: TxFlagValues, address: string): Promise<{ accountNumber: bigint; sequence: bigint }> {
    if (flags.offline) {
      if (flags['account-number'] === undefined || flags.sequence === undefined) throw new TokendError('INVALID_ARGUMENT', '--offline needs --account-number and --sequence', { exitCode: 2 });
      if (!/^\d+$/.test(flags['account-number']) || !/^\d+$/.test(flags.sequence)) throw new TokendError('INVALID_ARGUMENT', '--account-number and --sequence must be non-negative integers', { exitCode: 2 });
      return { accountNumber: BigInt(flags['account-number']), sequence: BigInt(flags.sequence) };
    }
    const { fetchSignerAccount } = await import('../../node/client/broadcast.js');
    return fetchSignerAccount(await this.rpc(), address);
  }

  protected override async renderText(result: JsonValue): Promise<string> {
    return JSON.stringify(result);
  }
}
