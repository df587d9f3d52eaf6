import { BaseCommand } from '../cli/base.js';

export default class Devnet extends BaseCommand<typeof Devnet, void> {
  static override summary = 'Run a one-validator development chain (created on first run in an empty home)';
  static override description =
    'On an empty --home: init (chain id testnet), a key "dev" in the test keyring funded with 1,000,000,000 token, a gentx and collect-gentxs. Then starts the node like `start`.\n' +
    'This is what `npm start` runs.';
  static override examples = ['<%= config.bin %> devnet', '<%= config.bin %> devnet --home /tmp/devnet'];

  async execute(): Promise<void> {
    // The servers' front thread loads on the second core meanwhile (as `start`).
    (await import('../node/threads/frontHost.js')).prewarmFrontHost();
    const { ensureDevnet } = await import('../node/genesis/devnet.js');
    const info = await ensureDevnet(this.home);
    const { startNode } = await import('../node/node.js');
    const node = await startNode(this.home, {
      logLevel: this.argv.some((a) => a.startsWith('--log_level')) ? this.flags.log_level : undefined,
      logFormat: this.argv.some((a) => a.startsWith('--log_format')) ? this.flags.log_format : undefined,
      releaseMemory: true,
    });
    const summary = {
      home: info.home,
      chain_id: info.chain_id,
      rpc: node.rpcAddress.url,
      api: node.apiAddress?.url ?? null,
      grpc: node.grpcAddress?.target ?? null,
      funded_key: info.key_name,
      funded_address: info.key_address,
      funded_address_hex: info.key_address_hex,
      keyring_backend: 'test',
      ...(info.mnemonic ? { mnemonic: info.mnemonic } : {}),
    };
    if (this.outputFormat === 'json') process.stdout.write(`${JSON.stringify(summary)}\n`);
    else {
      process.stdout.write(
        [
          `tokend devnet ${info.created ? 'created' : 'resumed'} in ${info.home} (chain id ${info.chain_id})`,
          `  consensus RPC:  ${node.rpcAddress.url}`,
          ...(node.apiAddress ? [`  REST gateway:   ${node.apiAddress.url}`] : []),
          ...(node.grpcAddress ? [`  gRPC:           ${node.grpcAddress.target}`] : []),
          `  funded key:     ${info.key_name} = ${info.key_address} (${info.key_address_hex}), keyring-backend test`,
          ...(info.mnemonic ? [`  its mnemonic:   ${info.mnemonic}`] : []),
          `  try:            tokend q bank balances ${info.key_address} --home ${info.home}`,
          '',
        ].join('\n'),
      );
    }
    const reason = await new Promise<string>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(`received ${signal}`));
      void node.stopped.then(resolve);
    });
    node.logger.info('shutting down', { reason });
    await node.stop();
    if (reason.startsWith('consensus failure') || reason.startsWith('storage failure')) process.exitCode = 1;
  }

  protected override async print(): Promise<void> {}
}
