/**
 * Read access to 04-channel's state for the applications and other modules (ibc-go's
 * ChannelKeeper getters the apps' expected keepers name: GetChannel, GetNextSequenceSend,
 * GetPacketCommitment). Exposed on the ibc keeper as `channelState`, so modules reach it through
 * their expectedKeepers interfaces rather than the "ibc" store's collections.
 */
import type { Channel } from '../../../../../gen/ibc/core/channel/v1/channel_pb.js';
import type { Context } from '../../../shared/context.js';
import { Channels, NextSequenceSend, PacketCommitments } from './keys.js';

export class ChannelStateReader {
  getChannel(ctx: Context, portId: string, channelId: string): Channel | undefined {
    return Channels.get(ctx, [portId, channelId]);
  }

  getNextSequenceSend(ctx: Context, portId: string, channelId: string): bigint | undefined {
    return NextSequenceSend.get(ctx, [portId, channelId]);
  }

  getPacketCommitment(ctx: Context, portId: string, channelId: string, sequence: bigint): Uint8Array | undefined {
    return PacketCommitments.get(ctx, [portId, channelId, sequence]);
  }
}
