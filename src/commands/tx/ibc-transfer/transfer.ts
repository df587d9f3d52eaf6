import { Args, Flags } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxIbcTransferTransfer extends TxCommand<typeof TxIbcTransferTransfer> {
  static override summary = 'Transfer a fungible token through IBC';
  static override description =
    'Signs /ibc.applications.transfer.v1.MsgTransfer from --from. Timeouts are relative by default: the height is added to the ' +
    "latest height of the channel's counterparty client and the timestamp to the later of the local clock and that client's " +
    'latest consensus time; with --absolute-timeouts they are used as given. Relative timeouts need that client, so --offline ' +
    'requires --absolute-timeouts. A timeout of 0 (0-0 for the height) is disabled, ' +
    'but not both. A denom given as a trace path (transfer/channel-0/uatom) is sent as its ibc/<hash> voucher.';
  static override examples = [
    '<%= config.bin %> tx ibc-transfer transfer transfer channel-0 cosmos1… 1000attotoken --from alice --yes',
    '<%= config.bin %> tx ibc-transfer transfer transfer channel-0 token1… 5ibc/27A6394C3F9FF9C9DCF5DFFADF9BB5FE9A37C7E92B006199894CF1824DF9AC7C --from alice --yes',
    '<%= config.bin %> tx ibc-transfer transfer transfer channel-0 cosmos1… 1000attotoken --packet-timeout-height 0-0 --packet-timeout-timestamp 3600000000000 --from alice',
    '<%= config.bin %> tx ibc-transfer transfer transfer channel-0 cosmos1… 1000attotoken --absolute-timeouts --packet-timeout-height 1-52000 --packet-timeout-timestamp 0 --offline --account-number 7 --sequence 3 --from alice',
  ];
  static override args = {
    'src-port': Args.string({ required: true, description: 'Port the packet leaves from (transfer)' }),
    'src-channel': Args.string({ required: true, description: 'Channel the packet leaves on (channel-N)' }),
    receiver: Args.string({ required: true, description: 'Receiver on the destination chain, in its address format' }),
    amount: Args.string({ required: true, description: 'One coin, e.g. 1000attotoken or 5ibc/<hash>' }),
  };
  static override flags = {
    ...txFlags,
    'packet-timeout-height': Flags.string({ description: 'Packet timeout block height {revision}-{height}; 0-0 disables it', default: '0-1000' }),
    'packet-timeout-timestamp': Flags.string({ description: 'Packet timeout timestamp in nanoseconds (default 10 minutes from now); 0 disables it', default: '600000000000' }),
    'absolute-timeouts': Flags.boolean({ description: 'Use the timeout flags as absolute values instead of relative to the counterparty (required with --offline)' }),
    memo: Flags.string({ description: 'Memo carried in the packet (the tx memo is --note)', default: '' }),
  };

  async execute(): Promise<TxOutcome> {
    const { buildMsgTransfer, checkTransferInput, queryCounterpartyClient } = await import('../../../node/client/ibcTransfer.js');
    const { packMessage } = await import('../../../node/client/tx.js');
    const { MsgTransferSchema } = await import('../../../gen/ibc/applications/transfer/v1/tx_pb.js');
    const { toAccountAddress } = await import('../../../keyring/address.js');
    // Refuse malformed input before touching the keyring or the node.
    const checked = checkTransferInput({
      sourcePort: this.args['src-port'],
      sourceChannel: this.args['src-channel'],
      receiver: this.args.receiver,
      amount: this.args.amount,
      timeoutHeight: this.flags['packet-timeout-height'],
      timeoutTimestamp: this.flags['packet-timeout-timestamp'],
      absoluteTimeouts: this.flags['absolute-timeouts'],
      memo: this.flags.memo,
      offline: this.flags.offline === true,
    });
    const key = await this.signingKey();
    const view = checked.input.offline ? undefined : await queryCounterpartyClient(await this.rpc(), checked.input.sourcePort, checked.input.sourceChannel);
    const msg = buildMsgTransfer(checked, toAccountAddress(key.address), view, BigInt(Date.now()) * 1_000_000n);
    return this.submit(key, [packMessage(MsgTransferSchema, msg)]);
  }
}
