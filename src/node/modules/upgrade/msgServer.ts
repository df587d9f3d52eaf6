/** cosmos.upgrade.v1beta1.Msg (SDK 0.46+): SoftwareUpgrade and CancelUpgrade, by the authority only. */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgCancelUpgradeResponseSchema, MsgSoftwareUpgradeResponseSchema } from '../../../gen/cosmos/upgrade/v1beta1/tx_pb.js';
import { ErrInvalidSigner } from '../../platform/authority.js';
import { accString, parseAccAddress } from '../shared/address.js';
import { SdkErrors } from '../shared/errors.js';
import { bytesEqual } from '../shared/keys.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import type { UpgradeKeeper } from './keeper.js';
import { planError } from './plan.js';

/** gov/13 with x/upgrade's text ("expected <authority> got <claimed>") unless `claimed` is the authority. */
function checkUpgradeAuthority(authority: Uint8Array, claimed: string): void {
  const parsed = parseAccAddress(claimed);
  if (!parsed.ok || !bytesEqual(parsed.bytes, authority)) throw ErrInvalidSigner.wrap(`expected ${accString(authority)} got ${claimed}`);
}

export function upgradeMsgRoutes(keeper: UpgradeKeeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.softwareUpgrade, async (ctx, msg) => {
      checkUpgradeAuthority(keeper.authority, msg.authority);
      if (msg.plan === undefined) throw SdkErrors.InvalidRequest.wrap('plan: name cannot be empty');
      const invalid = planError(msg.plan);
      if (invalid !== undefined) throw invalid.wrap('plan');
      await keeper.scheduleUpgrade(ctx, msg.plan);
      return create(MsgSoftwareUpgradeResponseSchema);
    }),
    msgRoute(Msg.method.cancelUpgrade, (ctx, msg) => {
      checkUpgradeAuthority(keeper.authority, msg.authority);
      keeper.clearUpgradePlan(ctx);
      return create(MsgCancelUpgradeResponseSchema);
    }),
  ];
}
