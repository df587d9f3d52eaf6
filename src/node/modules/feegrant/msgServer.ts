/**
 * cosmos.feegrant.v1beta1.Msg (x/feegrant/keeper/msg_server.go with the messages' ValidateBasic,
 * SDK 0.47): GrantAllowance, RevokeAllowance and PruneAllowances.
 */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgGrantAllowanceResponseSchema, MsgPruneAllowancesResponseSchema, MsgRevokeAllowanceResponseSchema } from '../../../gen/cosmos/feegrant/v1beta1/tx_pb.js';
import { parseAccAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { newEvent } from '../shared/events.js';
import { bytesEqual } from '../shared/keys.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import { decodeAllowance } from './allowances.js';
import { EVENT_TYPE_PRUNE_FEEGRANT, MSG_PRUNE_LIMIT, type FeegrantKeeper } from './keeper.js';

function address(text: string, what: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid ${what} address: ${parsed.error}`);
  return parsed.bytes;
}

export function feegrantMsgRoutes(keeper: FeegrantKeeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.grantAllowance, (ctx: Context, msg) => {
      const granter = address(msg.granter, 'granter');
      const grantee = address(msg.grantee, 'grantee');
      if (bytesEqual(granter, grantee)) throw SdkErrors.InvalidAddress.wrap('cannot self-grant fee authorization');
      if (keeper.getGrant(ctx, granter, grantee) !== undefined) throw SdkErrors.InvalidRequest.wrap('fee allowance already exists');
      decodeAllowance(msg.allowance).validateBasic();
      keeper.grantAllowance(ctx, granter, grantee, msg.allowance!);
      return create(MsgGrantAllowanceResponseSchema);
    }),

    msgRoute(Msg.method.revokeAllowance, (ctx: Context, msg) => {
      const granter = address(msg.granter, 'granter');
      const grantee = address(msg.grantee, 'grantee');
      if (bytesEqual(granter, grantee)) throw SdkErrors.InvalidAddress.wrap('addresses must be different');
      keeper.revokeAllowance(ctx, granter, grantee);
      return create(MsgRevokeAllowanceResponseSchema);
    }),

    msgRoute(Msg.method.pruneAllowances, async (ctx: Context, msg) => {
      address(msg.pruner, 'pruner');
      await keeper.removeExpiredAllowances(ctx, MSG_PRUNE_LIMIT);
      ctx.events.emit(newEvent(EVENT_TYPE_PRUNE_FEEGRANT, ['pruner', msg.pruner]));
      return create(MsgPruneAllowancesResponseSchema);
    }),
  ];
}
