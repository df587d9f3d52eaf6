/** aioz.aiozrc20.v1.Msg: ConvertCoin and ConvertAIOZRC20 (their ValidateBasic checks first). */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgConvertAIOZRC20ResponseSchema, MsgConvertCoinResponseSchema } from '../../../gen/aioz/aiozrc20/v1/tx_pb.js';
import { parseAccAddress } from '../shared/address.js';
import { denomError } from '../shared/coins.js';
import { SdkErrors } from '../shared/errors.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import { hexBytes } from './erc20.js';
import { HEX_ADDRESS, type Aiozrc20Keeper } from './keeper.js';

function positiveAmount(text: string): bigint {
  if (!/^-?\d+$/.test(text)) throw SdkErrors.InvalidCoins.wrap(`invalid amount ${JSON.stringify(text)}`);
  const amount = BigInt(text);
  if (amount <= 0n) throw SdkErrors.InvalidCoins.wrap('cannot mint a non-positive amount');
  return amount;
}

function bech32(text: string, what: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid ${what} address: ${parsed.error}`);
  return parsed.bytes;
}

function hex(text: string, what: string): Uint8Array {
  if (!HEX_ADDRESS.test(text)) throw SdkErrors.InvalidAddress.wrap(`invalid ${what} hex address ${text}`);
  return hexBytes(text);
}

export function aiozrc20MsgRoutes(keeper: Aiozrc20Keeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.convertCoin, async (ctx, msg) => {
      const denom = msg.coin?.denom ?? '';
      const problem = denomError(denom);
      if (problem !== undefined) throw SdkErrors.InvalidCoins.wrap(problem);
      const amount = positiveAmount(msg.coin?.amount ?? '0');
      const receiver = hex(msg.receiver, 'receiver');
      const sender = bech32(msg.sender, 'sender');
      await keeper.convertCoin(ctx, sender, receiver, denom, amount);
      return create(MsgConvertCoinResponseSchema);
    }),
    msgRoute(Msg.method.convertAIOZRC20, async (ctx, msg) => {
      hex(msg.contractAddress, 'contract');
      const amount = positiveAmount(msg.amount);
      const receiver = bech32(msg.receiver, 'receiver');
      const sender = hex(msg.sender, 'sender');
      await keeper.convertErc20(ctx, sender, receiver, msg.contractAddress, amount);
      return create(MsgConvertAIOZRC20ResponseSchema);
    }),
  ];
}
