/** What bech32ibc needs of IBC: whether a channel end exists (ibc-go's ChannelKeeper.GetChannel). */
import type { Channel } from '../../../gen/ibc/core/channel/v1/channel_pb.js';
import type { Context } from '../shared/context.js';

export interface Bech32IbcChannelKeeper {
  getChannel(ctx: Context, portId: string, channelId: string): Channel | undefined;
}

/** The ibc keeper as bech32ibc sees it. */
export interface Bech32IbcIbcKeeper {
  readonly channelState: Bech32IbcChannelKeeper;
}
