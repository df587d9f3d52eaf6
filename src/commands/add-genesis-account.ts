import { Args } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { keyringFlags, openCliKeyring } from '../cli/keys.js';

interface AddGenesisAccountResult {
  address: string;
  coins: string;
  genesis_file: string;
}

export default class AddGenesisAccount extends BaseCommand<typeof AddGenesisAccount, AddGenesisAccountResult> {
  static override summary = 'Add a genesis account to genesis.json';
  static override examples = ['<%= config.bin %> add-genesis-account alice 1000000000000000000000attotoken --keyring-backend test', '<%= config.bin %> add-genesis-account token1… 5000attotoken'];
  static override args = {
    address: Args.string({ required: true, description: 'bech32/hex address, or the name of a key in the keyring' }),
    coins: Args.string({ required: true, description: 'Initial balance, e.g. 1000attotoken,5stake' }),
  };
  static override flags = { ...keyringFlags };

  async execute(): Promise<AddGenesisAccountResult> {
    const { parseCoins } = await import('../node/client/coins.js');
    const coins = parseCoins(this.args.coins);
    const { looksLikeAddress, parseAddress } = await import('../keyring/address.js');
    let address: Uint8Array;
    if (looksLikeAddress(this.args.address)) {
      address = parseAddress(this.args.address);
    } else {
      const backend = this.clientConfig({ 'keyring-backend': this.flags['keyring-backend'] })['keyring-backend'];
      address = (await (await openCliKeyring(backend, this.home)).record(this.args.address)).address;
    }
    const { addGenesisAccountToFile } = await import('../node/genesis/setup.js');
    return addGenesisAccountToFile(this.home, address, coins);
  }

  protected override async renderText(result: AddGenesisAccountResult): Promise<string> {
    return `Added ${result.address} with ${result.coins} to ${result.genesis_file}`;
  }
}
