import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import { keyOutput, keyringFlags, openCliKeyring, renderKeyTable, MNEMONIC_WARNING, type KeyOutput } from '../../cli/keys.js';
import { readSecret } from '../../cli/prompt.js';
import { TokendError } from '../../util/errors.js';

export default class KeysAdd extends BaseCommand<typeof KeysAdd, KeyOutput> {
  static override summary = 'Create a new key, or recover one from a mnemonic';
  static override description =
    'Derives a key from a new 24-word BIP-39 mnemonic (printed last; write it down) or, with --recover, from a mnemonic read at a prompt or from stdin.\n' +
    'With the file backend and piped stdin, give the keyring passphrase first (twice when the keyring is new), then the mnemonic.';
  static override examples = [
    '<%= config.bin %> keys add alice',
    'echo "$MNEMONIC" | <%= config.bin %> keys add alice --recover --keyring-backend test -o json',
    '<%= config.bin %> keys add validator --algo secp256k1 --account 1 --index 2',
  ];
  static override args = { name: Args.string({ required: true, description: 'Name of the key' }) };
  static override flags = {
    ...keyringFlags,
    recover: Flags.boolean({ description: 'Recover the key from a mnemonic (prompt, or stdin when not a TTY)' }),
    algo: Flags.option({ options: ['eth_secp256k1', 'secp256k1'] as const, default: 'eth_secp256k1', description: 'Key algorithm' })(),
    account: Flags.integer({ description: 'BIP-44 account number', min: 0, max: 2147483647 }),
    index: Flags.integer({ description: 'BIP-44 address index', min: 0, max: 2147483647 }),
    'coin-type': Flags.integer({ description: 'BIP-44 coin type (default 60 for eth_secp256k1, 118 for secp256k1)', min: 0, max: 2147483647 }),
    'hd-path': Flags.string({ description: "Full BIP-32 path (overrides --account/--index), e.g. m/44'/60'/0'/0/0" }),
    'dry-run': Flags.boolean({ description: 'Derive and print the key without storing it (uses an in-memory keyring)' }),
    'no-backup': Flags.boolean({ description: 'Do not print the new mnemonic' }),
  };

  async execute(): Promise<KeyOutput> {
    const { name } = this.args;
    const flags = this.flags;
    const { checkKeyName } = await import('../../keyring/keyring.js');
    const hd = await import('../../keyring/hd.js');
    checkKeyName(name);
    // Validate the derivation path before touching the keyring.
    const hdPath = hd.buildHdPath({ algo: flags.algo, account: flags.account, index: flags.index, coinType: flags['coin-type'], hdPath: flags['hd-path'] });
    const backend = flags['dry-run'] ? 'memory' : this.clientConfig({ 'keyring-backend': flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    await keyring.prepareWrite();
    if (await keyring.has(name)) {
      throw new TokendError('KEY_EXISTS', `a key named "${name}" already exists`, {
        hint: `choose another name, or remove it first with \`tokend keys delete ${name}\``,
      });
    }
    let mnemonic: string;
    if (flags.recover) {
      const entered = await readSecret('Enter your bip39 mnemonic: ', 'a bip39 mnemonic');
      mnemonic = hd.validateMnemonic(entered);
    } else {
      mnemonic = hd.generateMnemonic(24);
    }
    const record = await keyring.create({ name, mnemonic, algo: flags.algo, hdPath });
    const out = await keyOutput(record);
    if (!flags.recover && !flags['no-backup']) out.mnemonic = mnemonic;
    return out;
  }

  protected override async renderText(result: KeyOutput): Promise<string> {
    const table = await renderKeyTable([result]);
    if (result.mnemonic === undefined) return table;
    return `${table}\n\n${MNEMONIC_WARNING}\n\n${result.mnemonic}`;
  }
}
