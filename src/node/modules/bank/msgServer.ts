/**
 * cosmos.bank.v1beta1.Msg (x/bank/keeper/msg_server.go, SDK 0.50): Send and MultiSend, and the
 * authority's UpdateParams and SetSendEnabled.
 */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgMultiSendResponseSchema, MsgSendResponseSchema, MsgSetSendEnabledResponseSchema, MsgUpdateParamsResponseSchema } from '../../../gen/cosmos/bank/v1beta1/tx_pb.js';
import { checkAuthority } from '../../platform/authority.js';
import { denomError } from '../shared/coins.js';
import { validateBankParams } from './params.js';
import type { Input, Output } from '../../../gen/cosmos/bank/v1beta1/bank_pb.js';
import { parseAccAddress } from '../shared/address.js';
import { addCoins, coinsEqual, coinsFromProto, coinsToString, isValidCoins, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import { BankErrors } from './errors.js';
import { messageSenderEvent } from './events.js';
import { newEvent } from '../shared/events.js';
import type { BankKeeper } from './keeper.js';
import { ATTRIBUTE_KEY_RECIPIENT, EVENT_TYPE_TRANSFER } from './events.js';
import { ATTRIBUTE_KEY_AMOUNT } from '../shared/events.js';

function address(text: string, what: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid ${what} address: ${parsed.error}`);
  return parsed.bytes;
}

/** Valid, sorted and all positive, else ErrInvalidCoins with the coins' text. */
function validAmount(coins: Coin[]): Coin[] {
  if (!isValidCoins(coins)) throw SdkErrors.InvalidCoins.wrap(coinsToString(coins));
  return coins;
}

/** ValidateInputOutputs: each side valid, totals equal. */
function validateInputOutputs(input: Input, outputs: readonly Output[]): { inputCoins: Coin[]; outputCoins: Coin[][] } {
  address(input.address, 'input');
  const inputCoins = validAmount(coinsFromProto(input.coins));
  let total: Coin[] = [];
  const outputCoins = outputs.map((output) => {
    address(output.address, 'output');
    const coins = validAmount(coinsFromProto(output.coins));
    total = addCoins(total, coins);
    return coins;
  });
  if (!coinsEqual(total, inputCoins)) throw BankErrors.InputOutputMismatch.error();
  return { inputCoins, outputCoins };
}

/** `authority`: who may update params and send-enabled flags (the gov module account). */
export function bankMsgRoutes(keeper: BankKeeper, authority: Uint8Array): MsgRoute[] {
  return [
    msgRoute(Msg.method.send, (ctx: Context, msg) => {
      const from = address(msg.fromAddress, 'from');
      const to = address(msg.toAddress, 'to');
      const amount = validAmount(coinsFromProto(msg.amount));
      keeper.checkSendEnabled(ctx, amount);
      if (keeper.blockedAddr(to)) throw SdkErrors.Unauthorized.wrap(`${msg.toAddress} is not allowed to receive funds`);
      keeper.sendCoins(ctx, from, to, amount);
      return create(MsgSendResponseSchema);
    }),

    msgRoute(Msg.method.multiSend, (ctx: Context, msg) => {
      if (msg.inputs.length === 0) throw BankErrors.NoInputs.error();
      if (msg.inputs.length !== 1) throw BankErrors.MultipleSenders.error();
      if (msg.outputs.length === 0) throw BankErrors.NoOutputs.error();
      const input = msg.inputs[0]!;
      const { inputCoins, outputCoins } = validateInputOutputs(input, msg.outputs);
      keeper.checkSendEnabled(ctx, inputCoins);
      for (const output of msg.outputs) {
        if (keeper.blockedAddr(address(output.address, 'output'))) throw SdkErrors.Unauthorized.wrap(`${output.address} is not allowed to receive funds`);
      }
      // InputOutputCoins
      const from = address(input.address, 'input');
      keeper.subUnlockedCoins(ctx, from, inputCoins);
      ctx.events.emit(messageSenderEvent(input.address));
      msg.outputs.forEach((output, i) => {
        const to = address(output.address, 'output');
        keeper.addCoins(ctx, to, outputCoins[i]!);
        ctx.events.emit(newEvent(EVENT_TYPE_TRANSFER, [ATTRIBUTE_KEY_RECIPIENT, output.address], [ATTRIBUTE_KEY_AMOUNT, coinsToString(outputCoins[i]!)]));
        keeper.ensureAccount(ctx, to);
      });
      return create(MsgMultiSendResponseSchema);
    }),
  
    msgRoute(Msg.method.updateParams, (ctx: Context, msg) => {
      checkAuthority(authority, msg.authority);
      if (msg.params === undefined) throw SdkErrors.InvalidRequest.wrap('params cannot be empty');
      if (msg.params.sendEnabled.length > 0) throw SdkErrors.InvalidRequest.wrap('use of send_enabled in params is no longer supported');
      const problems = validateBankParams(msg.params);
      if (problems.length > 0) throw SdkErrors.InvalidRequest.wrap(problems.join('; '));
      keeper.setParams(ctx, msg.params);
      return create(MsgUpdateParamsResponseSchema);
    }),

    msgRoute(Msg.method.setSendEnabled, (ctx: Context, msg) => {
      checkAuthority(authority, msg.authority);
      const seen = new Set<string>();
      for (const entry of msg.sendEnabled) {
        const bad = denomError(entry.denom);
        if (bad !== undefined) throw SdkErrors.InvalidRequest.wrap(`invalid SendEnabled denom ${JSON.stringify(entry.denom)}: ${bad}`);
        if (seen.has(entry.denom)) throw SdkErrors.InvalidRequest.wrap(`duplicate denom entries found for ${JSON.stringify(entry.denom)}`);
        seen.add(entry.denom);
      }
      for (const denom of msg.useDefaultFor) {
        const bad = denomError(denom);
        if (bad !== undefined) throw SdkErrors.InvalidRequest.wrap(`invalid UseDefaultFor denom ${JSON.stringify(denom)}: ${bad}`);
        if (seen.has(denom)) throw SdkErrors.InvalidRequest.wrap(`cannot have the same denom in both send_enabled and use_default_for: ${JSON.stringify(denom)}`);
      }
      for (const entry of msg.sendEnabled) keeper.setSendEnabled(ctx, entry.denom, entry.enabled);
      for (const denom of msg.useDefaultFor) keeper.deleteSendEnabled(ctx, denom);
      return create(MsgSetSendEnabledResponseSchema);
    }),
  ];
}
