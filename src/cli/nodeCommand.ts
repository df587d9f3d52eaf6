/**
 * Commands that talk to a node over its consensus RPC (`--node`). The RPC client is created
 * lazily and closed after the command.
 */
import type { Command } from '@oclif/core';
import { BaseCommand } from './base.js';
import type { RpcClient } from '../node/client/rpc.js';

export abstract class NodeCommand<T extends typeof Command, R = unknown> extends BaseCommand<T, R> {
  private rpcClient?: RpcClient;

  /** The node address: --node > $TOKEND_NODE > client.toml > tcp://localhost:26657. */
  protected nodeAddress(): string {
    const flags = this.flags as { node?: string };
    return this.clientConfig({ node: flags.node }).node;
  }

  protected async rpc(): Promise<RpcClient> {
    if (!this.rpcClient) {
      const { RpcClient: Client } = await import('../node/client/rpc.js');
      this.rpcClient = new Client(this.nodeAddress());
    }
    return this.rpcClient;
  }

  protected override async finally(err: Error | undefined): Promise<void> {
    await this.rpcClient?.close().catch(() => undefined);
    await super.finally(err);
  }
}
