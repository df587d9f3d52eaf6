/** cosmos.distribution.v1beta1.Msg (x/distribution/keeper/msg_server.go, SDK 0.46). */
import { checkAuthority } from '../../platform/authority.js';
import { create } from '@bufbuild/protobuf';
import {
  Msg,
  MsgCommunityPoolSpendResponseSchema,
  MsgFundCommunityPoolResponseSchema,
  MsgSetWithdrawAddressResponseSchema,
  MsgWithdrawDelegatorRewardResponseSchema,
  MsgWithdrawValidatorCommissionResponseSchema,
} from '../../../gen/cosmos/distribution/v1beta1/tx_pb.js';
import { accString, parseAccAddress, parseValAddress } from '../shared/address.js';
import { checkCoins, coinsFromProto, coinsToProto } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { newEvent } from '../shared/events.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import { decCoinsFromCoins } from './decCoins.js';
import { DistributionErrors } from './errors.js';
import type { DistributionKeeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';

function acc(text: string, empty: () => Error, what: string): Uint8Array {
  if (text === '') throw empty();
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid ${what} address: ${parsed.error}`);
  return parsed.bytes;
}

function val(text: string): Uint8Array {
  if (text === '') throw DistributionErrors.EmptyValidatorAddr.error();
  const parsed = parseValAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid validator address: ${parsed.error}`);
  return parsed.bytes;
}

/** CommunityPoolSpendProposal / MsgCommunityPoolSpend: valid recipient and positive coins, then the pool pays. */
export function communityPoolSpend(keeper: DistributionKeeper, ctx: Context, recipientText: string, amountProto: readonly { denom: string; amount: string }[]): void {
  const recipient = parseAccAddress(recipientText);
  if (!recipient.ok) throw DistributionErrors.EmptyProposalRecipient.wrap(recipientText);
  let amount;
  try {
    amount = coinsFromProto(amountProto);
  } catch {
    throw DistributionErrors.InvalidProposalAmount.error();
  }
  if (amount.length === 0 || checkCoins(amount) !== undefined) throw DistributionErrors.InvalidProposalAmount.error();
  keeper.distributeFromFeePool(ctx, amount, recipient.bytes);
}

/** `authority`: who may spend from the community pool (the gov module account). */
export function distributionMsgRoutes(keeper: DistributionKeeper, authority: Uint8Array): MsgRoute[] {
  return [
    msgRoute(Msg.method.setWithdrawAddress, (ctx: Context, msg) => {
      const delAddr = acc(msg.delegatorAddress, () => DistributionErrors.EmptyDelegatorAddr.error(), 'delegator');
      const withdrawAddr = acc(msg.withdrawAddress, () => DistributionErrors.EmptyWithdrawAddr.error(), 'withdraw');
      if (keeper.bankKeeper.blockedAddr(withdrawAddr)) throw SdkErrors.Unauthorized.wrap(`${msg.withdrawAddress} is not allowed to receive external funds`);
      if (!keeper.getParams(ctx).withdrawAddrEnabled) throw DistributionErrors.SetWithdrawAddrDisabled.error();
      keeper.setWithdrawAddress(ctx, delAddr, withdrawAddr);
      ctx.events.emit(newEvent('set_withdraw_address', ['withdraw_address', accString(withdrawAddr)]));
      return create(MsgSetWithdrawAddressResponseSchema);
    }),

    msgRoute(Msg.method.withdrawDelegatorReward, async (ctx: Context, msg) => {
      const delAddr = acc(msg.delegatorAddress, () => DistributionErrors.EmptyDelegatorAddr.error(), 'delegator');
      const valAddr = val(msg.validatorAddress);
      const amount = await keeper.withdrawRewards(ctx, delAddr, valAddr);
      return create(MsgWithdrawDelegatorRewardResponseSchema, { amount: coinsToProto(amount) });
    }),

    msgRoute(Msg.method.withdrawValidatorCommission, (ctx: Context, msg) => {
      const valAddr = val(msg.validatorAddress);
      const amount = keeper.withdrawCommission(ctx, valAddr);
      return create(MsgWithdrawValidatorCommissionResponseSchema, { amount: coinsToProto(amount) });
    }),

    msgRoute(Msg.method.fundCommunityPool, (ctx: Context, msg) => {
      const depositor = acc(msg.depositor, () => SdkErrors.InvalidAddress.wrap('empty address string is not allowed'), 'depositor');
      let amount;
      try {
        amount = coinsFromProto(msg.amount);
      } catch {
        throw SdkErrors.InvalidCoins.wrap(msg.amount.map((coin) => `${coin.amount}${coin.denom}`).join(','));
      }
      const bad = checkCoins(amount);
      if (bad !== undefined || amount.length === 0) throw SdkErrors.InvalidCoins.wrap(msg.amount.map((coin) => `${coin.amount}${coin.denom}`).join(','));
      keeper.bankKeeper.sendCoinsFromAccountToModule(ctx, depositor, MODULE_NAME, amount);
      keeper.addToCommunityPool(ctx, decCoinsFromCoins(amount));
      return create(MsgFundCommunityPoolResponseSchema);
    }),

    msgRoute(Msg.method.communityPoolSpend, (ctx: Context, msg) => {
      checkAuthority(authority, msg.authority);
      communityPoolSpend(keeper, ctx, msg.recipient, msg.amount);
      return create(MsgCommunityPoolSpendResponseSchema);
    }),
  ];
}
