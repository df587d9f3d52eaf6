/**
 * The channel submodule's keys in the "ibc" store are ibc-go's ICS-24 paths (what a counterparty
 * proves and a relayer asks `abci_query /store/ibc/key` for), decode back, iterate by channel,
 * and refuse identifiers that would break the path.
 */
import { create } from '@bufbuild/protobuf';
import { ChannelSchema, CounterpartySchema, Order, State } from '../../../../src/gen/ibc/core/channel/v1/channel_pb.js';
import type { StoreProvider } from '../../../../src/node/collections/index.js';
import {
  Channels,
  NextChannelSequence,
  NextSequenceAck,
  NextSequenceRecv,
  NextSequenceSend,
  PacketAcknowledgements,
  PacketCommitments,
  PacketReceipts,
} from '../../../../src/node/modules/ibc/core/channel/keys.js';
import '../../../../src/node/modules/ibc/keys.js';
import { CacheKVStoreImpl, MemKVStore } from '../../../../src/node/store/index.js';

function fixture(): { ctx: StoreProvider; keys: () => Promise<string[]> } {
  const parent = new MemKVStore();
  const branch = new CacheKVStoreImpl(parent);
  const ctx: StoreProvider = { kv: () => branch };
  const keys = async (): Promise<string[]> => {
    const out: string[] = [];
    for await (const [key] of branch.iterator(undefined, undefined)) out.push(Buffer.from(key).toString());
    return out;
  };
  return { ctx, keys };
}

describe('channel keys', () => {
  test('each collection writes at ibc-go’s path', async () => {
    const { ctx, keys } = fixture();
    NextChannelSequence.set(ctx, 3n);
    Channels.set(ctx, ['transfer', 'channel-0'], create(ChannelSchema, { state: State.OPEN, ordering: Order.UNORDERED, counterparty: create(CounterpartySchema, { portId: 'transfer', channelId: 'channel-4' }), connectionHops: ['connection-0'], version: 'ics20-1' }));
    NextSequenceSend.set(ctx, ['transfer', 'channel-0'], 2n);
    NextSequenceRecv.set(ctx, ['transfer', 'channel-0'], 1n);
    NextSequenceAck.set(ctx, ['transfer', 'channel-0'], 1n);
    PacketCommitments.set(ctx, ['transfer', 'channel-0', 1n], new Uint8Array(32).fill(7));
    PacketReceipts.set(ctx, ['transfer', 'channel-0', 1n], Uint8Array.of(1));
    PacketAcknowledgements.set(ctx, ['transfer', 'channel-0', 1n], new Uint8Array(32).fill(8));
    expect((await keys()).sort()).toEqual(
      [
        'nextChannelSequence',
        'channelEnds/ports/transfer/channels/channel-0',
        'nextSequenceSend/ports/transfer/channels/channel-0',
        'nextSequenceRecv/ports/transfer/channels/channel-0',
        'nextSequenceAck/ports/transfer/channels/channel-0',
        'commitments/ports/transfer/channels/channel-0/sequences/1',
        'receipts/ports/transfer/channels/channel-0/sequences/1',
        'acks/ports/transfer/channels/channel-0/sequences/1',
      ].sort(),
    );
    expect(Channels.get(ctx, ['transfer', 'channel-0'])!.version).toBe('ics20-1');
    expect(NextSequenceSend.get(ctx, ['transfer', 'channel-0'])).toBe(2n);
  });

  test('packet state iterates one channel’s sequences and decodes them', async () => {
    const { ctx } = fixture();
    for (const [channel, sequence] of [['channel-0', 1n], ['channel-0', 2n], ['channel-0', 10n], ['channel-1', 1n], ['channel-10', 5n]] as const) {
      PacketCommitments.set(ctx, ['transfer', channel, sequence], Uint8Array.of(Number(sequence)));
    }
    const seen: string[] = [];
    for await (const [[port, channel, sequence]] of PacketCommitments.iterate(ctx, { prefix: ['transfer', 'channel-0'] })) seen.push(`${port}/${channel}/${sequence}`);
    // The paths' byte order, as upstream's iteration: "10" sorts before "2".
    expect(seen).toEqual(['transfer/channel-0/1', 'transfer/channel-0/10', 'transfer/channel-0/2']);
    const ofPort: string[] = [];
    for await (const [[, channel]] of PacketCommitments.iterate(ctx, { prefix: ['transfer'] })) ofPort.push(channel);
    expect(ofPort).toEqual(['channel-0', 'channel-0', 'channel-0', 'channel-1', 'channel-10']);
  });

  test('identifiers with a separator are refused', () => {
    const { ctx } = fixture();
    expect(() => Channels.set(ctx, ['trans/fer', 'channel-0'], create(ChannelSchema))).toThrow("contains '/'");
    expect(() => PacketReceipts.set(ctx, ['transfer', '', 1n], Uint8Array.of(1))).toThrow('is empty');
  });
});
