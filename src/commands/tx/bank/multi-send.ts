import { Args, Flags } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import { TokendError } from '../../../util/errors.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxBankMultiSend extends TxCommand<typeof TxBankMultiSend> {
  static override summary = 'Send the same amount from one key to several addresses in one MsgMultiSend';
  static override examples = ['<%= config.bin %> tx bank multi-send alice token1aaa… token1bbb… 1000attotoken --yes', '<%= config.bin %> tx bank multi-send alice token1aaa… token1bbb… 1000attotoken --split --yes'];
  static override strict = false;
  static override args = {
    from: Args.string({ required: true, description: 'Key name or address that sends and signs' }),
    to: Args.string({ required: true, description: 'Recipient addresses…, then the amount last' }),
  };
  static override flags = {
    ...txFlags,
    split: Flags.boolean({ description: 'Split the amount evenly between the recipients instead of sending it to each' }),
  };

  async execute(): Promise<TxOutcome> {
    const { argv } = await this.parse(TxBankMultiSend);
    const rest = (argv as string[]).slice(1);
    if (rest.length < 2) throw new TokendError('INVALID_ARGUMENT', 'give at least one recipient and an amount', { exitCode: 2 });
    const amountText = rest[rest.length - 1]!;
    const recipients = rest.slice(0, -1);
    const { parseCoins } = await import('../../../node/client/coins.js');
    const { parseAddress, toAccountAddress } = await import('../../../keyring/address.js');
    const amount = parseCoins(amountText);
    const to = recipients.map((r) => toAccountAddress(parseAddress(r)));
    const each = amount.map((coin) => {
      if (!this.flags.split) return coin;
      const share = coin.amount / BigInt(to.length);
      if (share === 0n) throw new TokendError('INVALID_ARGUMENT', `${coin.amount}${coin.denom} cannot be split between ${to.length} recipients`);
      return { denom: coin.denom, amount: share };
    });
    const total = each.map((coin) => ({ denom: coin.denom, amount: coin.amount * BigInt(to.length) }));
    const key = await this.signingKey(this.args.from);
    const { create } = await import('@bufbuild/protobuf');
    const { MsgMultiSendSchema } = await import('../../../gen/cosmos/bank/v1beta1/tx_pb.js');
    const { InputSchema, OutputSchema } = await import('../../../gen/cosmos/bank/v1beta1/bank_pb.js');
    const { CoinSchema } = await import('../../../gen/cosmos/base/v1beta1/coin_pb.js');
    const { packMessage } = await import('../../../node/client/tx.js');
    const coins = (list: { denom: string; amount: bigint }[]): ReturnType<typeof create<typeof CoinSchema>>[] =>
      list.map((coin) => create(CoinSchema, { denom: coin.denom, amount: coin.amount.toString() }));
    const msg = create(MsgMultiSendSchema, {
      inputs: [create(InputSchema, { address: toAccountAddress(key.address), coins: coins(total) })],
      outputs: to.map((address) => create(OutputSchema, { address, coins: coins(each) })),
    });
    return this.submit(key, [packMessage(MsgMultiSendSchema, msg)]);
  }
}
