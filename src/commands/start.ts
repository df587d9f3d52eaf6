import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { TokendError } from '../util/errors.js';

/** "1000,2000" → [1000, 2000]; anything else is one usage error naming the bad part. */
export function parseSkipHeights(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const height = /^[0-9]+$/.test(part) ? Number(part) : NaN;
      if (!Number.isSafeInteger(height) || height <= 0) {
        throw new TokendError('INVALID_ARGUMENT', `invalid --unsafe-skip-upgrades height "${part}": expected comma-separated positive integers, e.g. 1000,2000`);
      }
      return height;
    });
}

export default class Start extends BaseCommand<typeof Start, void> {
  static override summary = 'Run the full node';
  static override description =
    'Opens the home (one node per home), recovers from any crash by replaying the WAL and the block store, starts consensus and the consensus RPC, and runs until SIGINT/SIGTERM. A storage fault (disk full, read-only home, out of file descriptors) or a consensus failure stops it with exit code 1: run it under a supervisor that restarts it (GET /ready on the RPC tells a load balancer whether it commits).';
  static override examples = ['<%= config.bin %> start', '<%= config.bin %> start --home ./node1 --rpc.laddr tcp://127.0.0.1:36657 --log_format json'];
  static override flags = {
    'rpc.laddr': Flags.string({ description: 'Consensus RPC listen address (default from config.toml, tcp://127.0.0.1:26657)' }),
    'api.address': Flags.string({ description: 'REST gateway listen address (default from app.toml, tcp://localhost:1317)' }),
    'grpc.address': Flags.string({ description: 'gRPC listen address (default from app.toml, localhost:9090)' }),
    'json-rpc.enable': Flags.boolean({ description: 'Serve the Ethereum JSON-RPC (default from app.toml [json-rpc] enable)', allowNo: true }),
    'json-rpc.address': Flags.string({ description: 'Ethereum JSON-RPC listen address (default from app.toml, 127.0.0.1:8545)' }),
    'json-rpc.ws-address': Flags.string({ description: 'Ethereum JSON-RPC websocket listen address (default from app.toml, 127.0.0.1:8546)' }),
    'json-rpc.api': Flags.string({ description: 'Ethereum JSON-RPC namespaces, comma-separated: eth,net,web3,txpool,debug,personal (default from app.toml, eth,net,web3)' }),
    'keyring-backend': Flags.option({ options: ['os', 'file', 'test', 'memory'] as const, description: 'Keyring behind the personal JSON-RPC namespace (default from client.toml)' })(),
    'minimum-gas-prices': Flags.string({ description: 'Minimum gas prices accepted in CheckTx, e.g. 0.1attotoken (default from app.toml)' }),
    'halt-height': Flags.integer({ description: 'Stop after committing this height', min: 0 }),
    'unsafe-skip-upgrades': Flags.string({
      description: 'Comma-separated heights whose due upgrade plans are skipped (cleared without running) so this binary continues, e.g. 1000,2000',
    }),
    'p2p.laddr': Flags.string({ description: 'P2P listen address (default from config.toml, tcp://0.0.0.0:26656)' }),
    'p2p.persistent_peers': Flags.string({ description: 'Comma-separated id@host:port nodes to stay connected to (default from config.toml)' }),
    'p2p.seeds': Flags.string({ description: 'Comma-separated id@host:port seed nodes (default from config.toml)' }),
  };

  async execute(): Promise<void> {
    // The servers' front thread loads on the second core while this one loads the node.
    (await import('../node/threads/frontHost.js')).prewarmFrontHost();
    const { startNode } = await import('../node/node.js');
    const argv = this.argv;
    const node = await startNode(this.home, {
      logLevel: argv.some((a) => a.startsWith('--log_level')) ? this.flags.log_level : undefined,
      logFormat: argv.some((a) => a.startsWith('--log_format')) ? this.flags.log_format : undefined,
      rpcLaddr: this.flags['rpc.laddr'],
      apiAddress: this.flags['api.address'],
      grpcAddress: this.flags['grpc.address'],
      jsonRpcEnable: this.flags['json-rpc.enable'],
      jsonRpcAddress: this.flags['json-rpc.address'],
      jsonRpcWsAddress: this.flags['json-rpc.ws-address'],
      jsonRpcApi: this.flags['json-rpc.api'],
      keyringBackend: this.flags['keyring-backend'],
      minimumGasPrices: this.flags['minimum-gas-prices'],
      haltHeight: this.flags['halt-height'],
      releaseMemory: true,
      unsafeSkipUpgrades: parseSkipHeights(this.flags['unsafe-skip-upgrades']),
      p2pLaddr: this.flags['p2p.laddr'],
      persistentPeers: this.flags['p2p.persistent_peers'],
      seeds: this.flags['p2p.seeds'],
    });
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
    const reason = await new Promise<string>((resolve) => {
      for (const signal of signals) process.once(signal, () => resolve(`received ${signal}`));
      void node.stopped.then(resolve);
    });
    node.logger.info('shutting down', { reason });
    await node.stop();
    node.logger.info('stopped');
    // A supervisor restarts the node after these (see docs/ARCHITECTURE.md, operating under faults).
    if (reason.startsWith('consensus failure') || reason.startsWith('storage failure')) process.exitCode = 1;
  }
}
