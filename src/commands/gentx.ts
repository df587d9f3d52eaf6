import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { keyringFlags, openCliKeyring } from '../cli/keys.js';
import { TokendError } from '../util/errors.js';
import type { GentxResult } from '../node/genesis/setup.js';

export default class Gentx extends BaseCommand<typeof Gentx, GentxResult> {
  static override summary = 'Generate a genesis transaction that creates a validator with a self-delegation';
  static override description =
    'Signs a MsgCreateValidator with the key <key-name> (account number 0, sequence 0) and writes it to config/gentx/.\n' +
    'The key must hold at least <amount> in genesis.json (add-genesis-account). The validator key is config/priv_validator_key.json.';
  static override examples = ['<%= config.bin %> gentx alice 1000000000000000000attotoken --chain-id testnet --keyring-backend test'];
  static override args = {
    'key-name': Args.string({ required: true, description: 'Name of the key that self-delegates and signs' }),
    amount: Args.string({ required: true, description: 'Self-delegation, e.g. 1000000000000000000attotoken' }),
  };
  static override flags = {
    ...keyringFlags,
    'chain-id': Flags.string({ description: 'The chain id (must match genesis.json)' }),
    moniker: Flags.string({ description: "The validator's name (default: the node's moniker)" }),
    'commission-rate': Flags.string({ description: 'Initial commission rate', default: '0.1' }),
    'commission-max-rate': Flags.string({ description: 'Maximum commission rate', default: '0.2' }),
    'commission-max-change-rate': Flags.string({ description: 'Maximum daily change of the commission rate', default: '0.01' }),
    'min-self-delegation': Flags.string({ description: 'Minimum self-delegation the validator must keep', default: '1' }),
    details: Flags.string({ description: 'Validator details' }),
    identity: Flags.string({ description: 'Identity signature (e.g. Keybase)' }),
    website: Flags.string({ description: 'Validator website' }),
    'security-contact': Flags.string({ description: 'Security contact email' }),
    ip: Flags.string({ description: "The node's public P2P IP", default: '127.0.0.1' }),
    'output-document': Flags.string({ description: 'Write the gentx here instead of config/gentx/gentx-<node-id>.json' }),
  };

  async execute(): Promise<GentxResult> {
    const flags = this.flags;
    const { parseCoins } = await import('../node/client/coins.js');
    const [amount, ...extra] = parseCoins(this.args.amount);
    if (!amount || extra.length > 0) throw new TokendError('INVALID_ARGUMENT', `the self-delegation must be one coin, got "${this.args.amount}"`);
    const backend = this.clientConfig({ 'keyring-backend': flags['keyring-backend'] })['keyring-backend'];
    const keyring = await openCliKeyring(backend, this.home);
    const { createGentx } = await import('../node/genesis/setup.js');
    return createGentx({
      home: this.home,
      keyring,
      keyName: this.args['key-name'],
      amount,
      chainId: flags['chain-id'],
      moniker: flags.moniker,
      commissionRate: flags['commission-rate'],
      commissionMaxRate: flags['commission-max-rate'],
      commissionMaxChangeRate: flags['commission-max-change-rate'],
      minSelfDelegation: flags['min-self-delegation'],
      details: flags.details,
      identity: flags.identity,
      website: flags.website,
      securityContact: flags['security-contact'],
      ip: flags.ip,
      outputDocument: flags['output-document'],
    });
  }

  protected override async renderText(result: GentxResult): Promise<string> {
    return `Genesis transaction written to "${result.file}"`;
  }
}
