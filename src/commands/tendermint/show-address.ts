import { BaseCommand } from '../../cli/base.js';

export default class ShowAddress extends BaseCommand<typeof ShowAddress, string> {
  static override summary = "Shows this node's CometBFT validator consensus address";
  static override description = 'The bech32 consensus address (tokenvalcons1…) of config/priv_validator_key.json.';
  static override examples = ['<%= config.bin %> tendermint show-address'];

  async execute(): Promise<string> {
    const { loadNodeConfig, homePath } = await import('../../node/config/node.js');
    const { FilePV } = await import('../../node/consensus/privval.js');
    const { toConsensusAddress } = await import('../../keyring/address.js');
    const config = loadNodeConfig(this.home);
    const pv = FilePV.load(homePath(this.home, config.privValidatorKeyFile), homePath(this.home, config.privValidatorStateFile));
    return toConsensusAddress(pv.address);
  }

  protected override toJson(result: string): unknown {
    return { address: result };
  }
}
