/**
 * cosmos.bank.v1beta1.Msg: Send and MultiSend (x/bank/keeper/msg_server.go, SDK 0.50).
 * UpdateParams and SetSendEnabled need the gov authority and are not routed yet.
 */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgMultiSendResponseSchema, MsgSendResponseSchema } from '../../../gen/cosmos/bank/v1beta1/tx_pb.js';
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

export function bankMsgRoutes(keeper: BankKeeper): MsgRoute[] {
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
  ];
}
