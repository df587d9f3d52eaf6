/**
 * The controller's Msg service (ibc-go v6 controller/keeper/msg_server.go): RegisterInterchainAccount
 * (callbacks stop at the controller) and SendTx with a timeout relative to the block time.
 */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgRegisterInterchainAccountResponseSchema, MsgSendTxResponseSchema } from '../../../../../gen/ibc/applications/interchain_accounts/controller/v1/tx_pb.js';
import { InterchainAccountPacketDataSchema } from '../../../../../gen/ibc/applications/interchain_accounts/v1/packet_pb.js';
import { SdkErrors } from '../../../shared/errors.js';
import { msgRoute, type MsgRoute } from '../../../shared/module.js';
import { connectionIdentifierError } from '../../core/host/identifiers.js';
import { blockTimeNanos, type ControllerKeeper } from './controller/keeper.js';
import { controllerPortId, packetDataError } from './types.js';

function checkConnectionAndOwner(connectionId: string, owner: string): void {
  const invalid = connectionIdentifierError(connectionId);
  if (invalid !== undefined) throw invalid.wrap('invalid connection ID');
  if (owner.trim() === '') throw SdkErrors.InvalidAddress.wrap('owner address cannot be empty');
}

export function icaControllerMsgRoutes(keeper: ControllerKeeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.registerInterchainAccount, async (ctx, msg) => {
      checkConnectionAndOwner(msg.connectionId, msg.owner);
      const channelId = await keeper.registerWithoutMiddleware(ctx, msg.connectionId, msg.owner, msg.version);
      return create(MsgRegisterInterchainAccountResponseSchema, { channelId });
    }),
    msgRoute(Msg.method.sendTx, (ctx, msg) => {
      checkConnectionAndOwner(msg.connectionId, msg.owner);
      const packetData = msg.packetData ?? create(InterchainAccountPacketDataSchema);
      const problem = packetDataError(packetData);
      if (problem !== undefined) throw problem.wrap('invalid interchain account packet data');
      if (msg.relativeTimeout === 0n) throw SdkErrors.InvalidRequest.wrap('relative timeout cannot be zero');
      const portId = controllerPortId(msg.owner);
      const sequence = keeper.sendTx(ctx, msg.connectionId, portId, packetData, blockTimeNanos(ctx) + msg.relativeTimeout);
      return create(MsgSendTxResponseSchema, { sequence });
    }),
  ];
}
