/**
 * ibc.core.channel.v1.Query over channel state imported from genesis (the handshake and packet
 * messages come later): channel ends, connection channels, packet commitments, receipts and
 * acknowledgements, the unreceived packets / acks a relayer asks for (unordered by receipts,
 * ordered by the next receive sequence), the next receive sequence, and ibc-go's errors.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { Order, State } from '../../../../src/gen/ibc/core/channel/v1/channel_pb.js';
import * as q from '../../../../src/gen/ibc/core/channel/v1/query_pb.js';
import { defaultIbcGenesis } from '../../../../src/node/modules/ibc/genesis.js';
import { TOKEN, abciQuery, buildAppState, startChain, testKey, type Chain } from '../../app/helpers.js';

const key = testKey('relayer');
let chain: Chain;

const channel = (channelId: string, ordering: string, connection = 'connection-0') => ({
  state: 'STATE_OPEN',
  ordering,
  counterparty: { port_id: 'transfer', channel_id: 'channel-7' },
  connection_hops: [connection],
  version: 'ics20-1',
  port_id: 'transfer',
  channel_id: channelId,
});
const b64 = (byte: number, length = 32) => Buffer.alloc(length, byte).toString('base64');
const state = (channelId: string, sequence: string, data: string) => ({ port_id: 'transfer', channel_id: channelId, sequence, data });
const seq = (channelId: string, sequence: string) => ({ port_id: 'transfer', channel_id: channelId, sequence });

beforeAll(async () => {
  const ibc = defaultIbcGenesis() as Record<string, any>;
  ibc['channel_genesis'] = {
    channels: [channel('channel-0', 'ORDER_UNORDERED'), channel('channel-1', 'ORDER_ORDERED'), channel('channel-2', 'ORDER_UNORDERED', 'connection-5')],
    commitments: [state('channel-0', '1', b64(1)), state('channel-0', '2', b64(2)), state('channel-0', '3', b64(3))],
    receipts: [state('channel-0', '4', 'AQ==')],
    acknowledgements: [state('channel-0', '4', b64(4))],
    send_sequences: [seq('channel-0', '4'), seq('channel-1', '1')],
    recv_sequences: [seq('channel-0', '1'), seq('channel-1', '5')],
    ack_sequences: [seq('channel-0', '1'), seq('channel-1', '1')],
    next_channel_sequence: '3',
  };
  chain = await startChain({ ...buildAppState({ accounts: [[key, 1000n * TOKEN]], validator: key, selfDelegation: 100n * TOKEN }), ibc });
  await chain.block([]);
});

afterAll(async () => {
  await chain?.close();
});

async function query<Req extends DescMessage, Res extends DescMessage>(method: string, req: Req, init: Record<string, unknown>, res: Res): Promise<{ code: number; log: string; value: MessageShape<Res> | undefined }> {
  const { response, value } = await abciQuery(chain.app, `/ibc.core.channel.v1.Query/${method}`, toBinary(req, create(req, init as never)), res);
  return { code: response.code, log: response.log, value };
}

describe('channel queries', () => {
  test('channel ends: one, all, those over a connection', async () => {
    const one = await query('Channel', q.QueryChannelRequestSchema, { portId: 'transfer', channelId: 'channel-1' }, q.QueryChannelResponseSchema);
    expect([one.value!.channel!.state, one.value!.channel!.ordering, one.value!.channel!.connectionHops]).toEqual([State.OPEN, Order.ORDERED, ['connection-0']]);
    const all = await query('Channels', q.QueryChannelsRequestSchema, {}, q.QueryChannelsResponseSchema);
    expect(all.value!.channels.map((c) => c.channelId)).toEqual(['channel-0', 'channel-1', 'channel-2']);
    const over = await query('ConnectionChannels', q.QueryConnectionChannelsRequestSchema, { connection: 'connection-5' }, q.QueryConnectionChannelsResponseSchema);
    expect(over.value!.channels.map((c) => c.channelId)).toEqual(['channel-2']);
  });

  test('packet state: commitments, receipts, acknowledgements, sequences', async () => {
    const commitment = await query('PacketCommitment', q.QueryPacketCommitmentRequestSchema, { portId: 'transfer', channelId: 'channel-0', sequence: 2n }, q.QueryPacketCommitmentResponseSchema);
    expect(Buffer.from(commitment.value!.commitment).toString('base64')).toBe(b64(2));
    const commitments = await query('PacketCommitments', q.QueryPacketCommitmentsRequestSchema, { portId: 'transfer', channelId: 'channel-0' }, q.QueryPacketCommitmentsResponseSchema);
    expect(commitments.value!.commitments.map((c) => c.sequence)).toEqual([1n, 2n, 3n]);
    const receipt = await query('PacketReceipt', q.QueryPacketReceiptRequestSchema, { portId: 'transfer', channelId: 'channel-0', sequence: 4n }, q.QueryPacketReceiptResponseSchema);
    expect(receipt.value!.received).toBe(true);
    const none = await query('PacketReceipt', q.QueryPacketReceiptRequestSchema, { portId: 'transfer', channelId: 'channel-0', sequence: 5n }, q.QueryPacketReceiptResponseSchema);
    expect(none.value!.received).toBe(false);
    const ack = await query('PacketAcknowledgement', q.QueryPacketAcknowledgementRequestSchema, { portId: 'transfer', channelId: 'channel-0', sequence: 4n }, q.QueryPacketAcknowledgementResponseSchema);
    expect(Buffer.from(ack.value!.acknowledgement).toString('base64')).toBe(b64(4));
    const acks = await query('PacketAcknowledgements', q.QueryPacketAcknowledgementsRequestSchema, { portId: 'transfer', channelId: 'channel-0', packetCommitmentSequences: [3n, 4n] }, q.QueryPacketAcknowledgementsResponseSchema);
    expect(acks.value!.acknowledgements.map((a) => a.sequence)).toEqual([4n]);
    const next = await query('NextSequenceReceive', q.QueryNextSequenceReceiveRequestSchema, { portId: 'transfer', channelId: 'channel-1' }, q.QueryNextSequenceReceiveResponseSchema);
    expect(next.value!.nextSequenceReceive).toBe(5n);
  });

  test('what a relayer still has to relay: unordered by receipt, ordered by the next receive sequence; acks by commitment', async () => {
    const unordered = await query('UnreceivedPackets', q.QueryUnreceivedPacketsRequestSchema, { portId: 'transfer', channelId: 'channel-0', packetCommitmentSequences: [3n, 4n, 5n] }, q.QueryUnreceivedPacketsResponseSchema);
    expect(unordered.value!.sequences).toEqual([3n, 5n]);
    const ordered = await query('UnreceivedPackets', q.QueryUnreceivedPacketsRequestSchema, { portId: 'transfer', channelId: 'channel-1', packetCommitmentSequences: [3n, 4n, 5n, 6n] }, q.QueryUnreceivedPacketsResponseSchema);
    expect(ordered.value!.sequences).toEqual([5n, 6n]);
    const acks = await query('UnreceivedAcks', q.QueryUnreceivedAcksRequestSchema, { portId: 'transfer', channelId: 'channel-0', packetAckSequences: [1n, 3n, 4n] }, q.QueryUnreceivedAcksResponseSchema);
    expect(acks.value!.sequences).toEqual([1n, 3n]);
  });

  test('bad input: unknown channel, no connection behind it, zero sequence, malformed ids', async () => {
    const missing = await query('Channel', q.QueryChannelRequestSchema, { portId: 'transfer', channelId: 'channel-9' }, q.QueryChannelResponseSchema);
    expect(missing.log).toContain('port-id: transfer, channel-id channel-9: channel not found');
    const noConnection = await query('ChannelClientState', q.QueryChannelClientStateRequestSchema, { portId: 'transfer', channelId: 'channel-0' }, q.QueryChannelClientStateResponseSchema);
    expect(noConnection.log).toContain('connection-id: connection-0: connection not found');
    const zero = await query('PacketCommitment', q.QueryPacketCommitmentRequestSchema, { portId: 'transfer', channelId: 'channel-0', sequence: 0n }, q.QueryPacketCommitmentResponseSchema);
    expect(zero.log).toContain('packet sequence cannot be 0');
    const gone = await query('PacketCommitment', q.QueryPacketCommitmentRequestSchema, { portId: 'transfer', channelId: 'channel-0', sequence: 9n }, q.QueryPacketCommitmentResponseSchema);
    expect(gone.log).toContain('packet commitment hash not found');
    const malformed = await query('Channel', q.QueryChannelRequestSchema, { portId: 'x', channelId: 'channel-0' }, q.QueryChannelResponseSchema);
    expect(malformed.log).toContain('has invalid length');
    for (const result of [missing, noConnection, zero, gone, malformed]) expect(result.code).not.toBe(0);
  });
});
