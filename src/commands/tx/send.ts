import { Args } from '@oclif/core';
import { TxCommand, txFlags } from '../../cli/txCommand.js';
import type { TxOutcome } from '../../node/client/broadcast.js';

export default class TxSend extends TxCommand<typeof TxSend> {
  static override summary = 'Send tokens from a key to an address';
  static override aliases = ['tx:bank:send'];
  static override description = 'Signs a /cosmos.bank.v1beta1.MsgSend with <from_key_or_address> and broadcasts it (-b sync by default).';
  static override examples = [
    '<%= config.bin %> tx send alice token1… 1000attotoken --chain-id testnet --fees 200000attotoken --yes',
    '<%= config.bin %> tx send alice 0xAbC… 5attotoken --gas auto --gas-adjustment 1.3 --gas-prices 1attotoken -b block --yes -o json',
  ];
  static override args = {
    from: Args.string({ required: true, description: 'Key name or address that sends and signs' }),
    to: Args.string({ required: true, description: 'Recipient address (bech32 or hex)' }),
    amount: Args.string({ required: true, description: 'Amount, e.g. 1000attotoken or 1000attotoken,5stake' }),
  };
  static override flags = { ...txFlags };

  async execute(): Promise<TxOutcome> {
    const { parseCoins } = await import('../../node/client/coins.js');
    const { parseAddress, toAccountAddress } = await import('../../keyring/address.js');
    const amount = parseCoins(this.args.amount);
    const to = toAccountAddress(parseAddress(this.args.to));
    const key = await this.signingKey(this.args.from);
    const { create } = await import('@bufbuild/protobuf');
    const { MsgSendSchema } = await import('../../gen/cosmos/bank/v1beta1/tx_pb.js');
    const { CoinSchema } = await import('../../gen/cosmos/base/v1beta1/coin_pb.js');
    const { packMessage } = await import('../../node/client/tx.js');
    const msg = create(MsgSendSchema, {
      fromAddress: toAccountAddress(key.address),
      toAddress: to,
      amount: amount.map((coin) => create(CoinSchema, { denom: coin.denom, amount: coin.amount.toString() })),
    });
    return this.submit(key, [packMessage(MsgSendSchema, msg)]);
  }
}
