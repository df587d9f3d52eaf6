import { BaseCommand } from '../../cli/base.js';

export default class ShowValidator extends BaseCommand<typeof ShowValidator, { '@type': string; key: string }> {
  static override summary = "Show this node's validator info";
  static override description = 'The consensus public key of config/priv_validator_key.json, as a /cosmos.crypto.ed25519.PubKey (what gentx and create-validator take).';
  static override examples = ['<%= config.bin %> tendermint show-validator'];

  async execute(): Promise<{ '@type': string; key: string }> {
    const { loadNodeConfig, homePath } = await import('../../node/config/node.js');
    const { FilePV } = await import('../../node/consensus/privval.js');
    const config = loadNodeConfig(this.home);
    const pv = FilePV.load(homePath(this.home, config.privValidatorKeyFile), homePath(this.home, config.privValidatorStateFile));
    return { '@type': '/cosmos.crypto.ed25519.PubKey', key: Buffer.from(pv.pubKey.bytes).toString('base64') };
  }

  protected override async renderText(result: { '@type': string; key: string }): Promise<string> {
    return JSON.stringify(result);
  }
}
