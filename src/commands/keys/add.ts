import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import { keyOutput, keyringFlags, openCliKeyring, renderKeyTable, MNEMONIC_WARNING, type KeyOutput } from '../../cli/keys.js';
import { readSecret } from '../../cli/prompt.js';
import { TokendError } from '../../util/errors.js';

export default class KeysAdd extends BaseCommand<typeof KeysAdd, KeyOutput> {
  static override summary = 'Create a new key, recover one from a mnemonic, or store a multisig key';
  static override description =
    'Derives a key from a new 24-word BIP-39 mnemonic (printed last; write it down) or, with --recover, from a mnemonic read at a prompt or from stdin.\n' +
    'With the file backend and piped stdin, give the keyring passphrase first (twice when the keyring is new), then the mnemonic.\n' +
    'With --multisig a,b,c --multisig-threshold K, stores an offline K-of-N multisig key (/cosmos.crypto.multisig.LegacyAminoPubKey) made of those keys, sorted by address unless --nosort; no secret is stored.\n' +
    'With --pubkey, stores another party\'s public key (type "offline"), e.g. a multisig member whose key lives elsewhere.';
  static override examples = [
    '<%= config.bin %> keys add alice',
    'echo "$MNEMONIC" | <%= config.bin %> keys add alice --recover --keyring-backend test -o json',
    '<%= config.bin %> keys add validator --algo secp256k1 --account 1 --index 2',
    '<%= config.bin %> keys add bob --pubkey \'{"@type":"/cosmos.crypto.secp256k1.PubKey","key":"A…"}\'',
    '<%= config.bin %> keys add vault --multisig alice,bob,carol --multisig-threshold 2',
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
    multisig: Flags.string({ description: 'Comma-separated names of the keys that make up a multisig key (stored offline: public keys only)' }),
    'multisig-threshold': Flags.integer({ description: 'Signatures a multisig key needs (K of N)', default: 1 }),
    nosort: Flags.boolean({ description: 'Keep the multisig keys in the order given instead of sorting them by address' }),
    pubkey: Flags.string({ description: 'Store another party\'s public key (JSON, as `keys show -p` prints it) as an offline key, e.g. a multisig member' }),
  };

  async execute(): Promise<KeyOutput> {
    const { name } = this.args;
    const flags = this.flags;
    const { checkKeyName } = await import('../../keyring/keyring.js');
    const hd = await import('../../keyring/hd.js');
    checkKeyName(name);
    if (flags.multisig !== undefined) return this.addMultisig(name, flags.multisig);
    if (flags.pubkey !== undefined) return this.addOffline(name, flags.pubkey);
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

  private async addOffline(name: string, json: string): Promise<KeyOutput> {
    if (this.flags.recover) throw new TokendError('INVALID_ARGUMENT', '--pubkey cannot be combined with --recover', { exitCode: 2 });
    const { parsePublicKeyJson } = await import('../../keyring/keys.js');
    const { algo, pubKey } = parsePublicKeyJson(json);
    const backend = this.flags['dry-run'] ? 'memory' : this.clientConfig({ 'keyring-backend': this.flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    await keyring.prepareWrite();
    return keyOutput(await keyring.addOffline(name, algo, pubKey));
  }

  private async addMultisig(name: string, list: string): Promise<KeyOutput> {
    const flags = this.flags;
    if (flags.recover || flags['hd-path'] !== undefined || flags.account !== undefined || flags.index !== undefined) {
      throw new TokendError('INVALID_ARGUMENT', '--multisig cannot be combined with --recover or derivation flags', { exitCode: 2 });
    }
    const names = list.split(',').map((n) => n.trim());
    if (names.some((n) => n === '')) throw new TokendError('INVALID_ARGUMENT', `--multisig "${list}" has an empty key name`, { hint: 'give key names separated by commas: --multisig a,b,c', exitCode: 2 });
    const repeated = names.find((n, i) => names.indexOf(n) !== i);
    if (repeated !== undefined) throw new TokendError('INVALID_ARGUMENT', `duplicate multisig keys: ${repeated}`, { exitCode: 2 });
    const threshold = flags['multisig-threshold'];
    if (threshold < 1) throw new TokendError('INVALID_ARGUMENT', `--multisig-threshold must be a positive integer, got ${threshold}`, { exitCode: 2 });
    if (threshold > names.length) {
      throw new TokendError('INVALID_ARGUMENT', `multisig threshold ${threshold} is above the number of keys (${names.length})`, { hint: `a k-of-n multisig needs k ≤ n: use --multisig-threshold ${names.length} or less`, exitCode: 2 });
    }
    const backend = flags['dry-run'] ? 'memory' : this.clientConfig({ 'keyring-backend': flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    await keyring.prepareWrite();
    const members = [];
    for (const member of names) {
      const record = await keyring.record(member);
      if (record.type === 'multi') throw new TokendError('INVALID_ARGUMENT', `key "${member}" is itself a multisig key; nested multisig keys are not supported`);
      members.push({ algo: record.algo, pubKey: record.pubKey });
    }
    return keyOutput(await keyring.addMultisig({ name, threshold, members, sort: !flags.nosort }));
  }

  protected override async renderText(result: KeyOutput): Promise<string> {
    const table = await renderKeyTable([result]);
    if (result.mnemonic === undefined) return table;
    return `${table}\n\n${MNEMONIC_WARNING}\n\n${result.mnemonic}`;
  }
}
