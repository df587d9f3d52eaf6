import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';
import type { TestnetResult } from '../../node/genesis/testnet.js';

export default class TestnetInitFiles extends BaseCommand<typeof TestnetInitFiles, TestnetResult> {
  static override summary = 'Initialize config directories & files for a multi-validator testnet running locally via separate processes';
  static override description =
    'Creates --v node homes under --output-dir (node0/tokend, node1/tokend, …), each with its validator key, node key and a funded ' +
    'account key (test keyring; mnemonic in key_seed.json), one shared genesis built from every gentx (copies in output-dir/gentxs), ' +
    'and config files with distinct ports and persistent_peers listing every other node. Strict address routability is off.\n' +
    'Ports of node i: p2p base+10i, RPC base+1+10i, REST base+2+10i, gRPC base+3+10i, JSON-RPC base+4+10i (--base-port, default 26656).\n' +
    'With a 127.x starting address every node listens on that address; otherwise each node gets the next address.';
  static override examples = [
    '<%= config.bin %> testnet init-files --v 4 --output-dir ./.testnets --chain-id testnet --starting-ip-address 127.0.0.1',
    'for i in 0 1 2 3; do <%= config.bin %> start --home ./.testnets/node$i/tokend & done',
  ];
  static override flags = {
    v: Flags.integer({ description: 'Number of validators to initialize the testnet with', default: 4, min: 1 }),
    'output-dir': Flags.string({ description: 'Directory to store initialization data for the testnet', default: './.testnets' }),
    'chain-id': Flags.string({ description: 'Genesis file chain-id (default: a random one)' }),
    'starting-ip-address': Flags.string({ description: 'Starting IP address (127.0.0.1: every node on it, distinct ports)', default: '127.0.0.1' }),
    'node-dir-prefix': Flags.string({ description: 'Prefix the directory name for each node with (node results in node0, node1, ...)', default: 'node' }),
    'node-daemon-home': Flags.string({ description: "Home directory of the node's daemon configuration", default: 'tokend' }),
    'keyring-backend': Flags.string({ description: "Select keyring's backend (os|file|test)", default: 'test' }),
    'minimum-gas-prices': Flags.string({ description: 'Minimum gas prices to accept for transactions', default: '0attotoken' }),
    'base-port': Flags.integer({ description: 'First port of node0 (each node uses 10 ports)', default: 26656, min: 1, max: 65535 }),
  };

  async execute(): Promise<TestnetResult> {
    const { resolve } = await import('node:path');
    const { initTestnetFiles } = await import('../../node/genesis/testnet.js');
    const { parseKeyringBackend } = await import('../../keyring/open.js');
    return initTestnetFiles({
      outputDir: resolve(this.flags['output-dir']),
      validators: this.flags.v,
      chainId: this.flags['chain-id'],
      startingIpAddress: this.flags['starting-ip-address'],
      nodeDirPrefix: this.flags['node-dir-prefix'],
      nodeDaemonHome: this.flags['node-daemon-home'],
      keyringBackend: parseKeyringBackend(this.flags['keyring-backend']),
      minimumGasPrices: this.flags['minimum-gas-prices'],
      basePort: this.flags['base-port'],
    });
  }

  protected override async renderText(result: TestnetResult): Promise<string> {
    const lines = [`Successfully initialized ${result.nodes.length} node directories (chain id ${result.chain_id}) in ${result.output_dir}`];
    for (const node of result.nodes) lines.push(`  ${node.moniker}: home ${node.home}  p2p ${node.p2p}  rpc ${node.rpc}  api ${node.api}  grpc ${node.grpc}`);
    return lines.join('\n');
  }
}
