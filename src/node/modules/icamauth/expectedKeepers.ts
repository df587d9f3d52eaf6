/** What icamauth needs of the interchain accounts controller (ibc-go v6's legacy controller API). */
import type { InterchainAccountPacketData } from '../../../gen/ibc/applications/interchain_accounts/v1/packet_pb.js';
import type { Context } from '../shared/context.js';

export interface IcamauthControllerKeeper {
  /** Binds the owner's port and starts the handshake, callbacks going on to the authentication module. */
  registerInterchainAccount(ctx: Context, connectionId: string, owner: string, version: string): Promise<void>;
  getActiveChannelId(ctx: Context, connectionId: string, portId: string): string | undefined;
  /** Sends on the active channel; returns the packet sequence. */
  sendTx(ctx: Context, connectionId: string, portId: string, packetData: InterchainAccountPacketData, timeoutTimestamp: bigint): bigint;
  getInterchainAccountAddress(ctx: Context, connectionId: string, portId: string): string | undefined;
}

/** The interchainaccounts module's keeper as icamauth sees it. */
export interface IcamauthIcaKeeper {
  readonly controller: IcamauthControllerKeeper;
}
