/** cosmos.slashing.v1beta1.Msg: Unjail (x/slashing/keeper/msg_server.go). */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgUnjailResponseSchema } from '../../../gen/cosmos/slashing/v1beta1/tx_pb.js';
import { parseValAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { newEvent } from '../shared/events.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import type { SlashingKeeper } from './keeper.js';

export function slashingMsgRoutes(keeper: SlashingKeeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.unjail, (ctx: Context, msg) => {
      const parsed = parseValAddress(msg.validatorAddr);
      if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`validator input address: ${parsed.error}`);
      keeper.unjail(ctx, parsed.bytes);
      ctx.events.emit(newEvent('message', ['module', 'slashing'], ['sender', msg.validatorAddr]));
      return create(MsgUnjailResponseSchema);
    }),
  ];
}
