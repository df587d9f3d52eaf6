/** aioz.bonus.v1.Msg (aioz 1.5): UpdateParams, by the gov authority only. */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgUpdateParamsResponseSchema } from '../../../gen/aioz/bonus/v1/tx_pb.js';
import { checkAuthority } from '../../platform/authority.js';
import { SdkErrors } from '../shared/errors.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import type { BonusKeeper } from './keeper.js';
import { validateBonusParams } from './params.js';

export function bonusMsgRoutes(keeper: BonusKeeper, authority: Uint8Array): MsgRoute[] {
  return [
    msgRoute(Msg.method.updateParams, (ctx, msg) => {
      checkAuthority(authority, msg.authority);
      if (msg.params === undefined) throw SdkErrors.InvalidRequest.wrap('params cannot be empty');
      const problems = validateBonusParams(msg.params);
      if (problems.length > 0) throw SdkErrors.InvalidRequest.wrap(problems.join('; '));
      keeper.setParams(ctx, msg.params);
      return create(MsgUpdateParamsResponseSchema);
    }),
  ];
}
