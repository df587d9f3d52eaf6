/** aioz.icamauth.v1beta1.Msg: RegisterAccount, SubmitTx (Gaia v8 x/icamauth/keeper/msg_server.go). */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgRegisterAccountResponseSchema, MsgSubmitTxResponseSchema } from '../../../gen/aioz/icamauth/v1beta1/tx_pb.js';
import { parseAccAddress } from '../shared/address.js';
import { SdkErrors } from '../shared/errors.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import type { IcamauthKeeper } from './keeper.js';

function checkOwner(owner: string): void {
  if (owner.trim() === '') throw SdkErrors.InvalidAddress.wrap('missing sender address');
  if (!parseAccAddress(owner).ok) throw SdkErrors.InvalidAddress.wrap(`failed to parse address: ${owner}`);
}

export function icamauthMsgRoutes(keeper: IcamauthKeeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.registerAccount, async (ctx, msg) => {
      checkOwner(msg.owner);
      await keeper.registerAccount(ctx, msg.owner, msg.connectionId, msg.version);
      return create(MsgRegisterAccountResponseSchema);
    }),
    msgRoute(Msg.method.submitTx, (ctx, msg) => {
      checkOwner(msg.owner);
      keeper.submitTx(ctx, msg.owner, msg.connectionId, msg.msg);
      return create(MsgSubmitTxResponseSchema);
    }),
  ];
}
