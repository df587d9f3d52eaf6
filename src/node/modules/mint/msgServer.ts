/** aioz.mint.v1.Msg (aioz 1.5): UpdateParams, by the gov authority only. */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgUpdateParamsResponseSchema } from '../../../gen/aioz/mint/v1/tx_pb.js';
import { checkAuthority } from '../../platform/authority.js';
import { SdkErrors } from '../shared/errors.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import type { MintKeeper } from './keeper.js';
import { validateMintParams } from './params.js';

export function mintMsgRoutes(keeper: MintKeeper, authority: Uint8Array, blocked: (address: Uint8Array) => boolean): MsgRoute[] {
  return [
    msgRoute(Msg.method.updateParams, (ctx, msg) => {
      checkAuthority(authority, msg.authority);
      if (msg.params === undefined) throw SdkErrors.InvalidRequest.wrap('params cannot be empty');
      const problems = validateMintParams(msg.params, blocked);
      if (problems.length > 0) throw SdkErrors.InvalidRequest.wrap(problems.join('; '));
      keeper.setParams(ctx, msg.params);
      return create(MsgUpdateParamsResponseSchema);
    }),
  ];
}
