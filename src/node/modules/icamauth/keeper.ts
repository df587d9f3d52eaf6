/**
 * The network's ICA authentication module (Gaia v8 x/icamauth, as aioz.icamauth.v1beta1): an
 * owner registers an interchain account on a connection and submits one message at a time for
 * it to execute on the host chain.
 *
 * The packet's timeout is the block time plus one minute. Gaia took the validator's wall clock
 * (`time.Now()`), which differs between validators and makes the packet commitment — and so the
 * app hash — non-deterministic; the block time is what every validator agrees on.
 */
import { create } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { CosmosTxSchema, InterchainAccountPacketDataSchema, Type } from '../../../gen/ibc/applications/interchain_accounts/v1/packet_pb.js';
import { toBinary } from '@bufbuild/protobuf';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { IcamauthErrors } from './errors.js';
import type { IcamauthControllerKeeper } from './expectedKeepers.js';

/** One minute in nanoseconds: the relative timeout of a submitted message. */
export const SUBMIT_TX_TIMEOUT_NS = 60_000_000_000n;
const CONTROLLER_PORT_PREFIX = 'icacontroller-';

/** `icacontroller-<owner>` (icatypes.NewControllerPortID). */
export function controllerPortId(owner: string): string {
  if (owner.trim() === '') throw IcamauthErrors.InvalidAccountAddress.wrap('owner address cannot be empty');
  return `${CONTROLLER_PORT_PREFIX}${owner}`;
}

export class IcamauthKeeper {
  constructor(private readonly controller: IcamauthControllerKeeper) {}

  registerAccount(ctx: Context, owner: string, connectionId: string, version: string): Promise<void> {
    return this.controller.registerInterchainAccount(ctx, connectionId, owner, version);
  }

  /** Sends `msg` as a one-message CosmosTx on the owner's active channel; returns the packet sequence. */
  submitTx(ctx: Context, owner: string, connectionId: string, msg: Any | undefined): bigint {
    const portId = controllerPortId(owner);
    if (this.controller.getActiveChannelId(ctx, connectionId, portId) === undefined) {
      throw IcamauthErrors.ActiveChannelNotFound.wrap(`failed to retrieve active channel for port ${portId}`);
    }
    if (msg === undefined || msg.typeUrl === '') throw SdkErrors.InvalidRequest.wrap('msg cannot be empty');
    const packetData = create(InterchainAccountPacketDataSchema, {
      type: Type.EXECUTE_TX,
      data: toBinary(CosmosTxSchema, create(CosmosTxSchema, { messages: [msg] })),
    });
    const timeout = BigInt(ctx.header.time.getTime()) * 1_000_000n + SUBMIT_TX_TIMEOUT_NS;
    return this.controller.sendTx(ctx, connectionId, portId, packetData, timeout);
  }

  interchainAccountAddress(ctx: Context, owner: string, connectionId: string): { portId: string; address: string | undefined } {
    const portId = controllerPortId(owner);
    return { portId, address: this.controller.getInterchainAccountAddress(ctx, connectionId, portId) };
  }
}
