/**
 * The `query ibc-fee` commands that take a packet as `<port-id> <channel-id> <sequence>` (ibc-go's
 * argument order; the request's packet_id is a message, which derived commands take as JSON).
 */
import { Args, type Command } from '@oclif/core';
import { NodeCommand } from './nodeCommand.js';
import { queryFlags } from './nodeFlags.js';
import type { JsonValue } from '../node/client/query.js';

export type PacketQuery = 'incentivizedPacket' | 'totalRecvFees' | 'totalAckFees' | 'totalTimeoutFees';

/** The packet identifier's arguments checked as PacketId.Validate, each failure one line and exit 2. */
export async function packetIdArgs(port: string, channel: string, sequence: string): Promise<{ port_id: string; channel_id: string; sequence: string }> {
  const { TokendError } = await import('../util/errors.js');
  const { channelIdentifierError, portIdentifierError } = await import('../node/modules/ibc/core/host/identifiers.js');
  const bad = (message: string, hint?: string) => new TokendError('INVALID_ARGUMENT', message, { hint, exitCode: 2 });
  const port_ = portIdentifierError(port);
  if (port_ !== undefined) throw bad(`invalid port ID ${JSON.stringify(port)}: ${port_.message}`);
  const channel_ = channelIdentifierError(channel);
  if (channel_ !== undefined) throw bad(`invalid channel ID ${JSON.stringify(channel)}: ${channel_.message}`, 'channels look like channel-0');
  if (!/^[1-9][0-9]*$/.test(sequence) || BigInt(sequence) >= 1n << 64n) throw bad(`invalid sequence ${JSON.stringify(sequence)}: expected a packet sequence (1 or more)`);
  return { port_id: port, channel_id: channel, sequence };
}

export function packetQueryCommand(method: PacketQuery, summary: string, example: string): typeof Command {
  class PacketQueryCommand extends NodeCommand<typeof PacketQueryCommand, JsonValue> {
    static override summary = summary;
    static override examples = [`<%= config.bin %> query ibc-fee ${example}`];
    static override args = {
      port: Args.string({ required: true, description: 'The source port of the packet' }),
      channel: Args.string({ required: true, description: 'The source channel of the packet' }),
      sequence: Args.string({ required: true, description: 'The packet sequence' }),
    };
    static override flags = { ...queryFlags };

    async execute(): Promise<JsonValue> {
      const packetId = await packetIdArgs(this.args.port, this.args.channel, this.args.sequence);
      const { queryMethod } = await import('../node/client/query.js');
      const { Query } = await import('../gen/ibc/applications/fee/v1/query_pb.js');
      return (await queryMethod(await this.rpc(), Query.method[method], { packet_id: packetId }, this.flags.height)).value;
    }
  }
  return PacketQueryCommand;
}
