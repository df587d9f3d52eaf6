import { Args, Flags } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxIbcFeePayPacketFee extends TxCommand<typeof TxIbcFeePayPacketFee> {
  static override summary = 'Escrow relayer fees for a packet (MsgPayPacketFeeAsync), or for the next one sent without a sequence (MsgPayPacketFee); refunded to --from when unspent';
  static override description =
    'ibc-go\'s `tx ibc-fee pay-packet-fee`: the packet is <src-port> <src-channel> <sequence> on this chain; --recv-fee pays the relayer ' +
    'that delivers it (its counterparty payee), --ack-fee the relayer that brings the acknowledgement back, --timeout-fee the relayer ' +
    'that brings a timeout back. At least one fee must be given; the channel must be fee-enabled and the packet still in flight. Without ' +
    '<sequence> the fees go to the next packet sent on the channel (MsgPayPacketFee, which ibc-go\'s CLI does not offer).';
  static override examples = ['<%= config.bin %> tx ibc-fee pay-packet-fee transfer channel-0 1 --recv-fee 10attotoken --ack-fee 10attotoken --timeout-fee 10attotoken --from alice'];
  static override args = {
    'src-port': Args.string({ required: true, description: 'The source port of the packet' }),
    'src-channel': Args.string({ required: true, description: 'The source channel of the packet' }),
    sequence: Args.string({ required: false, description: 'The packet sequence (omit: the next packet sent on the channel)' }),
  };
  static override flags = {
    ...txFlags,
    'recv-fee': Flags.string({ description: 'Fee paid to a relayer for relaying a packet receive', default: '' }),
    'ack-fee': Flags.string({ description: 'Fee paid to a relayer for relaying a packet acknowledgement', default: '' }),
    'timeout-fee': Flags.string({ description: 'Fee paid to a relayer for relaying a packet timeout', default: '' }),
  };

  async execute(): Promise<TxOutcome> {
    const { create } = await import('@bufbuild/protobuf');
    const { packetIdArgs } = await import('../../../cli/ibcFee.js');
    const { MsgPayPacketFeeAsyncSchema, MsgPayPacketFeeSchema } = await import('../../../gen/ibc/applications/fee/v1/tx_pb.js');
    const { packMessage } = await import('../../../node/client/tx.js');
    const { coinsToProto, parseCoins } = await import('../../../node/modules/shared/coins.js');
    const { toAccountAddress } = await import('../../../keyring/address.js');
    const { TokendError } = await import('../../../util/errors.js');
    const bad = (message: string, hint?: string): Error => new TokendError('INVALID_ARGUMENT', message, { hint, exitCode: 2 });

    const id = await packetIdArgs(this.args['src-port'], this.args['src-channel'], this.args.sequence ?? '1');
    const fee = (flag: 'recv-fee' | 'ack-fee' | 'timeout-fee') => {
      try {
        return coinsToProto(parseCoins(this.flags[flag], { allowEmpty: true }));
      } catch (err) {
        throw bad(`invalid --${flag} ${JSON.stringify(this.flags[flag])}: ${err instanceof Error ? err.message : String(err)}`, 'coins look like 10attotoken');
      }
    };
    const recvFee = fee('recv-fee');
    const ackFee = fee('ack-fee');
    const timeoutFee = fee('timeout-fee');
    if (recvFee.length === 0 && ackFee.length === 0 && timeoutFee.length === 0) throw bad('all fees are zero', 'pass --recv-fee, --ack-fee and/or --timeout-fee');
    const key = await this.signingKey();
    if (this.args.sequence === undefined) {
      const next = create(MsgPayPacketFeeSchema, { fee: { recvFee, ackFee, timeoutFee }, sourcePortId: id.port_id, sourceChannelId: id.channel_id, signer: toAccountAddress(key.address), relayers: [] });
      return this.submit(key, [packMessage(MsgPayPacketFeeSchema, next)]);
    }
    const msg = create(MsgPayPacketFeeAsyncSchema, {
      packetId: { portId: id.port_id, channelId: id.channel_id, sequence: BigInt(id.sequence) },
      packetFee: { fee: { recvFee, ackFee, timeoutFee }, refundAddress: toAccountAddress(key.address), relayers: [] },
    });
    return this.submit(key, [packMessage(MsgPayPacketFeeAsyncSchema, msg)]);
  }
}
