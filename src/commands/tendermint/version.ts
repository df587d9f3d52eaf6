import { BaseCommand } from '../../cli/base.js';

interface CometVersion {
  cometbft: string;
  abci: string;
  blockprotocol: number;
  p2pprotocol: number;
}

export default class TendermintVersion extends BaseCommand<typeof TendermintVersion, CometVersion> {
  static override summary = "Print CometBFT libraries' version";
  static override description = 'The CometBFT version, ABCI version and block / p2p protocol versions this node is compatible with.';
  static override examples = ['<%= config.bin %> tendermint version'];

  async execute(): Promise<CometVersion> {
    const { COMPAT_COMETBFT_VERSION } = await import('../../node/version/version.js');
    const { BLOCK_PROTOCOL, P2P_PROTOCOL } = await import('../../node/consensus/types/block.js');
    return { cometbft: COMPAT_COMETBFT_VERSION, abci: '2.0.0', blockprotocol: Number(BLOCK_PROTOCOL), p2pprotocol: Number(P2P_PROTOCOL) };
  }
}
