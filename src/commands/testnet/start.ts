import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base.js';

export default class TestnetStart extends BaseCommand<typeof TestnetStart, void> {
  static override summary = 'Launch an in-process multi-validator testnet';
  static override description =
    'Creates --v validator homes under --output-dir (as `testnet init-files` does) unless they exist, then runs every node in this ' +
    'process, connected over loopback TCP, until SIGINT/SIGTERM. For development: each node is a full node with its own RPC, REST and gRPC.';
  static override examples = ['<%= config.bin %> testnet start --v 4 --output-dir ./.testnets'];
  static override flags = {
    v: Flags.integer({ description: 'Number of validators', default: 4, min: 1 }),
    'output-dir': Flags.string({ description: 'Directory of the node homes', default: './.testnets' }),
    'chain-id': Flags.string({ description: 'Genesis chain-id when the homes are created (default: a random one)' }),
    'minimum-gas-prices': Flags.string({ description: 'Minimum gas prices to accept for transactions', default: '0attotoken' }),
    'base-port': Flags.integer({ description: 'First port of node0 (each node uses 10 ports)', default: 26656, min: 1, max: 65535 }),
    'enable-logging': Flags.boolean({ description: 'Log at info level from every node (default: errors only)' }),
  };

  async execute(): Promise<void> {
    const { resolve, join } = await import('node:path');
    const { existsSync } = await import('node:fs');
    const { initTestnetFiles } = await import('../../node/genesis/testnet.js');
    const { startNode } = await import('../../node/node.js');
    const outputDir = resolve(this.flags['output-dir']);
    const homes = Array.from({ length: this.flags.v }, (_, i) => join(outputDir, `node${i}`, 'tokend'));
    if (!homes.every((home) => existsSync(join(home, 'config', 'genesis.json')))) {
      const result = await initTestnetFiles({
        outputDir,
        validators: this.flags.v,
        chainId: this.flags['chain-id'],
        startingIpAddress: '127.0.0.1',
        nodeDirPrefix: 'node',
        nodeDaemonHome: 'tokend',
        keyringBackend: 'test',
        minimumGasPrices: this.flags['minimum-gas-prices'],
        basePort: this.flags['base-port'],
      });
      process.stderr.write(`initialized ${result.nodes.length} validators (chain id ${result.chain_id}) in ${outputDir}\n`);
    }
    const nodes: Awaited<ReturnType<typeof startNode>>[] = [];
    try {
      for (const home of homes) {
        // One releaser per process: the first node's (every validator commits the same txs).
        const node = await startNode(home, { logLevel: this.flags['enable-logging'] ? 'info' : 'error', logFormat: this.flags.log_format, releaseMemory: nodes.length === 0 });
        nodes.push(node);
        process.stdout.write(`${home}: rpc ${node.rpcAddress.url}  api ${node.apiAddress?.url ?? '-'}  grpc ${node.grpcAddress?.target ?? '-'}  p2p ${node.p2p.dialAddress()}\n`);
      }
      const reason = await new Promise<string>((resolveReason) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolveReason(`received ${signal}`));
        for (const node of nodes) void node.stopped.then(resolveReason);
      });
      process.stderr.write(`shutting down: ${reason}\n`);
    } finally {
      for (const node of nodes.reverse()) await node.stop();
    }
  }
}
