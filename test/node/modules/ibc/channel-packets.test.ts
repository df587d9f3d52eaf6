/**
 * 04-channel between two real tokend chains run in-process (app + BFT engine, one validator
 * each), each with a small test-only application module "mock" bound to port "mock": the clients
 * and the connection are opened as in connection-handshake.test.ts, then the channel handshake
 * (INIT on A → TRY on B → ACK on A → CONFIRM on B) and the packet lifecycle run with real proofs of
 * the other chain's `ibc` store (`abci_query /store/ibc/key prove=true` at height H−1 of the header
 * H a client was just updated to): a packet sent on A is received on B (receipt, acknowledgement,
 * the application's callback), its acknowledgement is relayed back to A (commitment deleted), a
 * second packet times out by height (receipt absence proven), a third gets a failed
 * acknowledgement. Refused messages answer ibc-go's errors and change nothing; redundant ones NOOP.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, fromBinary } from '@bufbuild/protobuf';
import { ChannelSchema, CounterpartySchema as ChannelCounterpartySchema, Order, PacketSchema, State as ChannelState, type Packet } from '../../../../src/gen/ibc/core/channel/v1/channel_pb.js';
import {
  QueryNextSequenceReceiveRequestSchema,
  QueryNextSequenceReceiveResponseSchema,
  QueryPacketCommitmentsRequestSchema,
  QueryPacketCommitmentsResponseSchema,
  QueryUnreceivedAcksRequestSchema,
  QueryUnreceivedAcksResponseSchema,
  QueryUnreceivedPacketsRequestSchema,
  QueryUnreceivedPacketsResponseSchema,
} from '../../../../src/gen/ibc/core/channel/v1/query_pb.js';
import {
  MsgAcknowledgementResponseSchema,
  MsgAcknowledgementSchema,
  MsgChannelCloseConfirmSchema,
  MsgChannelCloseInitSchema,
  MsgChannelOpenAckSchema,
  MsgChannelOpenConfirmSchema,
  MsgChannelOpenInitResponseSchema,
  MsgChannelOpenInitSchema,
  MsgChannelOpenTrySchema,
  MsgRecvPacketResponseSchema,
  MsgRecvPacketSchema,
  MsgTimeoutOnCloseResponseSchema,
  MsgTimeoutOnCloseSchema,
  MsgTimeoutResponseSchema,
  MsgTimeoutSchema,
  ResponseResultType,
} from '../../../../src/gen/ibc/core/channel/v1/tx_pb.js';
import { exportAppState } from '../../../../src/node/app/genesis.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { validateCapabilityGenesis } from '../../../../src/node/modules/capability/genesis.js';
import { commitPacket } from '../../../../src/node/modules/ibc/core/channel/keeper.js';
import { validateIbcGenesis } from '../../../../src/node/modules/ibc/genesis.js';
import { TOKEN, buildAppState, msgSend, signTx, startChain } from '../../app/helpers.js';
import type { Any } from '@bufbuild/protobuf/wkt';
import { TxMsgDataSchema } from '../../../../src/gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { MsgUpdateClientSchema } from '../../../../src/gen/ibc/core/client/v1/tx_pb.js';
import { HeaderSchema } from '../../../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import type { ExecTxResult } from '../../../../src/node/abci/types.js';
import { txHash } from '../../../../src/node/consensus/types/block.js';
import { alice, waitFor } from '../../services/helpers.js';
import { height } from '../../../helpers/ibcHeaders.js';
import { MOCK_CHANNEL as CHANNEL, MOCK_PORT as PORT, MOCK_VERSION as VERSION, CLIENT, CONNECTION, attributeList as attributes, attempt, blockTimeNs, deliver, headerOf, heightPast, ok, openConnection, proofHeight, prove, query, response, stopChains, updateClient, mockModuleSet, type MockSide, type SendRequest, send, sent, startMockChains } from '../../../helpers/ibcChains.js';

const CHAIN_A = 'chaina-1';
const CHAIN_B = 'chainb-1';
const utf8 = new TextEncoder();
const text = new TextDecoder();

// ------------------------------------------------------------------ two chains

let A: MockSide;
let B: MockSide;

beforeAll(async () => {
  [A, B] = await startMockChains(CHAIN_A, CHAIN_B);
  await openConnection(A, B);
}, 120_000);

afterAll(async () => {
  await stopChains(A, B);
});

// ------------------------------------------------------------------ the tests

const channelEnd = (state: ChannelState, counterpartyChannel: string, ordering = Order.UNORDERED) =>
  create(ChannelSchema, { state, ordering, counterparty: create(ChannelCounterpartySchema, { portId: PORT, channelId: counterpartyChannel }), connectionHops: [CONNECTION], version: VERSION });

/** The four handshake steps for a channel on port mock; its id (the same on both chains here). */
async function openChannel(ordering: Order): Promise<string> {
  const init = await ok(A, anyPack(MsgChannelOpenInitSchema, create(MsgChannelOpenInitSchema, { portId: PORT, channel: channelEnd(ChannelState.INIT, '', ordering), signer: alice.bech32 })));
  const channelId = response(init, MsgChannelOpenInitResponseSchema).channelId;
  const path = `channelEnds/ports/${PORT}/channels/${channelId}`;
  const hA = await updateClient(B, A, init.height);
  const initProof = await prove(A, path, hA - 1);
  const tried = await ok(B, anyPack(MsgChannelOpenTrySchema, create(MsgChannelOpenTrySchema, {
    portId: PORT,
    channel: channelEnd(ChannelState.TRYOPEN, channelId, ordering),
    counterpartyVersion: VERSION,
    proofInit: initProof.proof,
    proofHeight: proofHeight(hA),
    signer: alice.bech32,
  })));
  const hB = await updateClient(A, B, tried.height);
  const tryProof = await prove(B, path, hB - 1);
  const acked = await ok(A, anyPack(MsgChannelOpenAckSchema, create(MsgChannelOpenAckSchema, {
    portId: PORT,
    channelId,
    counterpartyChannelId: channelId,
    counterpartyVersion: VERSION,
    proofTry: tryProof.proof,
    proofHeight: proofHeight(hB),
    signer: alice.bech32,
  })));
  const hA2 = await updateClient(B, A, acked.height);
  const ackProof = await prove(A, path, hA2 - 1);
  await ok(B, anyPack(MsgChannelOpenConfirmSchema, create(MsgChannelOpenConfirmSchema, { portId: PORT, channelId, proofAck: ackProof.proof, proofHeight: proofHeight(hA2), signer: alice.bech32 })));
  return channelId;
}

describe('a channel and its packets between two tokend chains', () => {
  const packets: Packet[] = [];
  let recvHeight = 0;
  let ackBytes = new Uint8Array(0);

  test('the channel handshake: INIT on A, TRY on B (a bad proof refused first), ACK on A, CONFIRM on B', async () => {
    const init = await ok(A, anyPack(MsgChannelOpenInitSchema, create(MsgChannelOpenInitSchema, { portId: PORT, channel: channelEnd(ChannelState.INIT, ''), signer: alice.bech32 })));
    expect(response(init, MsgChannelOpenInitResponseSchema)).toMatchObject({ channelId: CHANNEL, version: VERSION });
    expect(attributes(init.events, 'channel_open_init')).toEqual([
      ['port_id', PORT],
      ['channel_id', CHANNEL],
      ['counterparty_port_id', PORT],
      ['counterparty_channel_id', ''],
      ['connection_id', CONNECTION],
      ['version', VERSION],
    ]);
    expect(init.events.some((e) => e.type === 'message' && e.attributes.some((a) => a.key === 'module' && a.value === 'ibc_channel'))).toBe(true);

    const hA = await updateClient(B, A, init.height);
    const initProof = await prove(A, `channelEnds/ports/${PORT}/channels/${CHANNEL}`, hA - 1);
    expect(fromBinary(ChannelSchema, initProof.value).state).toBe(ChannelState.INIT);
    const tryMsg = create(MsgChannelOpenTrySchema, {
      portId: PORT,
      channel: channelEnd(ChannelState.TRYOPEN, CHANNEL),
      counterpartyVersion: VERSION,
      proofInit: initProof.proof,
      proofHeight: proofHeight(hA),
      signer: alice.bech32,
    });
    // A proof of another key does not verify: ibc-go's error, no channel on B.
    const wrongProof = await prove(A, `connections/${CONNECTION}`, hA - 1);
    const bad = await deliver(B, [anyPack(MsgChannelOpenTrySchema, { ...tryMsg, proofInit: wrongProof.proof })]);
    expect([bad.codespace, bad.code]).toEqual(['commitment', 2]);
    expect(bad.log).toContain('channel handshake open try failed');
    expect(bad.log).toContain(`failed channel state verification for client (${CLIENT})`);
    const tried = await ok(B, anyPack(MsgChannelOpenTrySchema, tryMsg));
    expect(attributes(tried.events, 'channel_open_try')).toEqual([
      ['port_id', PORT],
      ['channel_id', CHANNEL],
      ['counterparty_port_id', PORT],
      ['counterparty_channel_id', CHANNEL],
      ['connection_id', CONNECTION],
      ['version', VERSION],
    ]);

    const hB = await updateClient(A, B, tried.height);
    const tryProof = await prove(B, `channelEnds/ports/${PORT}/channels/${CHANNEL}`, hB - 1);
    const acked = await ok(A, anyPack(MsgChannelOpenAckSchema, create(MsgChannelOpenAckSchema, {
      portId: PORT,
      channelId: CHANNEL,
      counterpartyChannelId: CHANNEL,
      counterpartyVersion: VERSION,
      proofTry: tryProof.proof,
      proofHeight: proofHeight(hB),
      signer: alice.bech32,
    })));
    expect(attributes(acked.events, 'channel_open_ack')).toEqual([
      ['port_id', PORT],
      ['channel_id', CHANNEL],
      ['counterparty_port_id', PORT],
      ['counterparty_channel_id', CHANNEL],
      ['connection_id', CONNECTION],
    ]);

    const hA2 = await updateClient(B, A, acked.height);
    const ackProof = await prove(A, `channelEnds/ports/${PORT}/channels/${CHANNEL}`, hA2 - 1);
    expect(fromBinary(ChannelSchema, ackProof.value).state).toBe(ChannelState.OPEN);
    const confirmed = await ok(B, anyPack(MsgChannelOpenConfirmSchema, create(MsgChannelOpenConfirmSchema, { portId: PORT, channelId: CHANNEL, proofAck: ackProof.proof, proofHeight: proofHeight(hA2), signer: alice.bech32 })));
    expect(confirmed.events.some((e) => e.type === 'channel_open_confirm')).toBe(true);
  }, 120_000);

  test('send on A (a forged capability refused), receive on B with events as ibc-go; received twice is a NOOP', async () => {
    const forged = await send(A, { data: utf8.encode('x'), timeoutHeight: height(1n, 1_000_000n), timeoutTimestamp: 0n, forged: true });
    expect('error' in forged && forged.error.message).toContain('caller does not own capability for channel, port ID (mock) channel ID (channel-0)');

    const timeoutHeight = height(1n, 1_000_000n);
    const first = await sent(A, { data: utf8.encode('hello'), timeoutHeight, timeoutTimestamp: 0n });
    expect(first.sequence).toBe(1n);
    const packet = create(PacketSchema, { sequence: 1n, sourcePort: PORT, sourceChannel: CHANNEL, destinationPort: PORT, destinationChannel: CHANNEL, data: utf8.encode('hello'), timeoutHeight, timeoutTimestamp: 0n });
    packets.push(packet);
    const commitments = await query(A, '/ibc.core.channel.v1.Query/PacketCommitments', QueryPacketCommitmentsRequestSchema, { portId: PORT, channelId: CHANNEL }, QueryPacketCommitmentsResponseSchema);
    expect(commitments.commitments.map((c) => [c.sequence, Buffer.from(c.data).toString('hex')])).toEqual([[1n, Buffer.from(commitPacket(packet)).toString('hex')]]);

    const hA = await updateClient(B, A, first.height);
    const commitment = await prove(A, `commitments/ports/${PORT}/channels/${CHANNEL}/sequences/1`, hA - 1);
    expect(commitment.value).toEqual(commitPacket(packet));
    const recv = create(MsgRecvPacketSchema, { packet, proofCommitment: commitment.proof, proofHeight: proofHeight(hA), signer: alice.bech32 });
    // A packet whose data differs from what A committed to: the proof does not verify.
    const tampered = await attempt(B, [anyPack(MsgRecvPacketSchema, { ...recv, packet: { ...packet, data: utf8.encode('hellO') } })]);
    expect([tampered.codespace, tampered.code]).toEqual(['commitment', 2]);
    expect(tampered.log).toContain("receive packet verification failed: couldn't verify counterparty packet commitment: failed packet commitment verification for client (07-tendermint-0)");

    const received = await ok(B, anyPack(MsgRecvPacketSchema, recv));
    recvHeight = received.height;
    expect(response(received, MsgRecvPacketResponseSchema).result).toBe(ResponseResultType.SUCCESS);
    const addresses: [string, string][] = [
      ['packet_sequence', '1'],
      ['packet_src_port', PORT],
      ['packet_src_channel', CHANNEL],
      ['packet_dst_port', PORT],
      ['packet_dst_channel', CHANNEL],
    ];
    expect(attributes(received.events, 'recv_packet')).toEqual([
      ['packet_data', 'hello'],
      ['packet_data_hex', Buffer.from('hello').toString('hex')],
      ['packet_timeout_height', '1-1000000'],
      ['packet_timeout_timestamp', '0'],
      ...addresses,
      ['packet_channel_ordering', 'ORDER_UNORDERED'],
      ['packet_connection', CONNECTION],
    ]);
    const ackText = `{"result":"${Buffer.from('got hello').toString('base64')}"}`;
    expect(attributes(received.events, 'write_acknowledgement')).toEqual([
      ['packet_data', 'hello'],
      ['packet_data_hex', Buffer.from('hello').toString('hex')],
      ['packet_timeout_height', '1-1000000'],
      ['packet_timeout_timestamp', '0'],
      ...addresses,
      ['packet_ack', ackText],
      ['packet_ack_hex', Buffer.from(ackText).toString('hex')],
      ['packet_connection', CONNECTION],
    ]);
    expect(attributes(received.events, 'mock_recv')).toEqual([['data', 'hello']]);
    ackBytes = utf8.encode(ackText);

    // The same packet again, alone: refused in CheckTx by the redundant-relay check (ibc-go's ante
    // decorator), so a relayer that lost the race pays nothing.
    const redundant = await attempt(B, [anyPack(MsgRecvPacketSchema, recv)]);
    expect([redundant.stage, redundant.codespace, redundant.code, redundant.log]).toEqual(['check', 'channel', 22, 'packet messages are redundant']);
    // With another kind of message in the tx the check stands aside: delivered, the receive is a
    // NOOP — no events of the packet, nothing written.
    const selfSend = msgSend(alice.bech32, alice.bech32, 1n);
    const again = await deliver(B, [anyPack(MsgRecvPacketSchema, recv), selfSend]);
    expect([again.code, again.log]).toEqual([0, '']);
    expect(response(again, MsgRecvPacketResponseSchema).result).toBe(ResponseResultType.NOOP);
    expect(again.events.some((e) => e.type === 'recv_packet' || e.type === 'write_acknowledgement' || e.type === 'mock_recv')).toBe(false);
    const unreceived = await query(B, '/ibc.core.channel.v1.Query/UnreceivedPackets', QueryUnreceivedPacketsRequestSchema, { portId: PORT, channelId: CHANNEL, packetCommitmentSequences: [1n, 2n] }, QueryUnreceivedPacketsResponseSchema);
    expect(unreceived.sequences).toEqual([2n]);
    const next = await query(B, '/ibc.core.channel.v1.Query/NextSequenceReceive', QueryNextSequenceReceiveRequestSchema, { portId: PORT, channelId: CHANNEL }, QueryNextSequenceReceiveResponseSchema);
    expect(next.nextSequenceReceive).toBe(1n);
  }, 120_000);

  test('the acknowledgement relayed to A deletes the commitment; an ack for an unknown packet is a NOOP', async () => {
    const packet = packets[0]!;
    const hB = await updateClient(A, B, recvHeight);
    const ackProof = await prove(B, `acks/ports/${PORT}/channels/${CHANNEL}/sequences/1`, hB - 1);
    const ack = create(MsgAcknowledgementSchema, { packet, acknowledgement: ackBytes, proofAcked: ackProof.proof, proofHeight: proofHeight(hB), signer: alice.bech32 });
    // Another acknowledgement than B wrote: the proof does not verify.
    const forgedAck = await attempt(A, [anyPack(MsgAcknowledgementSchema, { ...ack, acknowledgement: utf8.encode('{"result":"AQ=="}') })]);
    expect([forgedAck.codespace, forgedAck.code]).toEqual(['commitment', 2]);
    expect(forgedAck.log).toContain('acknowledge packet verification failed: failed packet acknowledgement verification for client (07-tendermint-0)');

    const pending = await query(A, '/ibc.core.channel.v1.Query/UnreceivedAcks', QueryUnreceivedAcksRequestSchema, { portId: PORT, channelId: CHANNEL, packetAckSequences: [1n] }, QueryUnreceivedAcksResponseSchema);
    expect(pending.sequences).toEqual([1n]);
    const acked = await ok(A, anyPack(MsgAcknowledgementSchema, ack));
    expect(response(acked, MsgAcknowledgementResponseSchema).result).toBe(ResponseResultType.SUCCESS);
    expect(attributes(acked.events, 'acknowledge_packet')).toEqual([
      ['packet_timeout_height', '1-1000000'],
      ['packet_timeout_timestamp', '0'],
      ['packet_sequence', '1'],
      ['packet_src_port', PORT],
      ['packet_src_channel', CHANNEL],
      ['packet_dst_port', PORT],
      ['packet_dst_channel', CHANNEL],
      ['packet_channel_ordering', 'ORDER_UNORDERED'],
      ['packet_connection', CONNECTION],
    ]);
    expect(attributes(acked.events, 'mock_ack')).toEqual([['sequence', '1'], ['ack', text.decode(ackBytes)]]);
    const none = await query(A, '/ibc.core.channel.v1.Query/UnreceivedAcks', QueryUnreceivedAcksRequestSchema, { portId: PORT, channelId: CHANNEL, packetAckSequences: [1n] }, QueryUnreceivedAcksResponseSchema);
    expect(none.sequences).toEqual([]);

    // An ack for a packet A never sent (or already acknowledged): refused in CheckTx as redundant;
    // in a block (here beside another message) ibc-go v6 answers NOOP and changes nothing.
    const unknownAck = anyPack(MsgAcknowledgementSchema, { ...ack, packet: { ...packet, sequence: 9n } });
    const redundant = await attempt(A, [unknownAck]);
    expect([redundant.stage, redundant.codespace, redundant.code]).toEqual(['check', 'channel', 22]);
    const selfSend = msgSend(alice.bech32, alice.bech32, 1n);
    const unknown = await deliver(A, [unknownAck, selfSend]);
    expect([unknown.code, unknown.log]).toEqual([0, '']);
    expect(response(unknown, MsgAcknowledgementResponseSchema).result).toBe(ResponseResultType.NOOP);
    expect(unknown.events.some((e) => e.type === 'acknowledge_packet' || e.type === 'mock_ack')).toBe(false);
  }, 120_000);

  test('a packet times out on B by height: refused before the timeout, then the commitment goes', async () => {
    const bHeight = B.node.consensus.blockStore.height();
    const timeoutHeight = height(1n, BigInt(bHeight + 12));
    const second = await sent(A, { data: utf8.encode('late'), timeoutHeight, timeoutTimestamp: 0n });
    expect(second.sequence).toBe(2n);
    const packet = create(PacketSchema, { sequence: 2n, sourcePort: PORT, sourceChannel: CHANNEL, destinationPort: PORT, destinationChannel: CHANNEL, data: utf8.encode('late'), timeoutHeight, timeoutTimestamp: 0n });

    // An ack for it with other data than committed: the commitment does not match.
    const early = await updateClient(A, B, A.clientHeight);
    expect(early).toBeLessThan(bHeight + 12);
    const absence = await prove(B, `receipts/ports/${PORT}/channels/${CHANNEL}/sequences/2`, early - 1);
    expect(absence.value.length).toBe(0);
    const wrongData = await attempt(A, [anyPack(MsgAcknowledgementSchema, create(MsgAcknowledgementSchema, { packet: { ...packet, data: utf8.encode('LATE') }, acknowledgement: ackBytes, proofAcked: absence.proof, proofHeight: proofHeight(early), signer: alice.bech32 }))]);
    expect([wrongData.codespace, wrongData.code]).toEqual(['channel', 13]);
    expect(wrongData.log).toContain('commitment bytes are not equal');

    // The timeout not reached at the proof height: ibc-go's error, the commitment stays.
    const timeout = create(MsgTimeoutSchema, { packet, proofUnreceived: absence.proof, proofHeight: proofHeight(early), nextSequenceRecv: 1n, signer: alice.bech32 });
    const notYet = await attempt(A, [anyPack(MsgTimeoutSchema, timeout)]);
    expect([notYet.codespace, notYet.code]).toEqual(['channel', 14]);
    expect(notYet.log).toContain('timeout packet verification failed: packet timeout has not been reached for height or timestamp');

    // Past the timeout height on B: the receipt's absence there is proven, the packet times out.
    const late = await updateClient(A, B, bHeight + 12);
    const lateAbsence = await prove(B, `receipts/ports/${PORT}/channels/${CHANNEL}/sequences/2`, late - 1);
    const timedOut = await ok(A, anyPack(MsgTimeoutSchema, { ...timeout, proofUnreceived: lateAbsence.proof, proofHeight: proofHeight(late) }));
    expect(response(timedOut, MsgTimeoutResponseSchema).result).toBe(ResponseResultType.SUCCESS);
    expect(attributes(timedOut.events, 'timeout_packet')).toEqual([
      ['packet_timeout_height', `1-${bHeight + 12}`],
      ['packet_timeout_timestamp', '0'],
      ['packet_sequence', '2'],
      ['packet_src_port', PORT],
      ['packet_src_channel', CHANNEL],
      ['packet_dst_port', PORT],
      ['packet_dst_channel', CHANNEL],
      ['packet_channel_ordering', 'ORDER_UNORDERED'],
    ]);
    expect(attributes(timedOut.events, 'mock_timeout')).toEqual([['sequence', '2']]);
    const commitments = await query(A, '/ibc.core.channel.v1.Query/PacketCommitments', QueryPacketCommitmentsRequestSchema, { portId: PORT, channelId: CHANNEL }, QueryPacketCommitmentsResponseSchema);
    expect(commitments.commitments).toEqual([]);
    // Relayed again: refused in CheckTx as redundant; in a block beside another message, NOOP.
    const timeoutAgain = anyPack(MsgTimeoutSchema, { ...timeout, proofUnreceived: lateAbsence.proof, proofHeight: proofHeight(late) });
    const redundant = await attempt(A, [timeoutAgain]);
    expect([redundant.stage, redundant.codespace, redundant.code]).toEqual(['check', 'channel', 22]);
    const selfSend = msgSend(alice.bech32, alice.bech32, 1n);
    const again = await deliver(A, [timeoutAgain, selfSend]);
    expect(response(again, MsgTimeoutResponseSchema).result).toBe(ResponseResultType.NOOP);
  }, 120_000);

  test('a timeout already passed on B is refused at send; a packet times out by B’s block time', async () => {
    const pastHeight = await send(A, { data: utf8.encode('x'), timeoutHeight: height(1n, 1n), timeoutTimestamp: 0n });
    expect('error' in pastHeight && pastHeight.error.message).toMatch(/^receiving chain block height >= packet timeout height \(1-\d+ >= 1-1\): packet timeout$/);
    const pastTime = await send(A, { data: utf8.encode('x'), timeoutHeight: height(0n, 0n), timeoutTimestamp: 1n });
    expect('error' in pastTime && pastTime.error.message).toContain('receiving chain block timestamp >= packet timeout timestamp');

    const deadline = blockTimeNs(B, B.node.consensus.blockStore.height()) + 3_000_000_000n;
    const packetSent = await sent(A, { data: utf8.encode('slow'), timeoutHeight: height(0n, 0n), timeoutTimestamp: deadline });
    const packet = create(PacketSchema, { sequence: packetSent.sequence, sourcePort: PORT, sourceChannel: CHANNEL, destinationPort: PORT, destinationChannel: CHANNEL, data: utf8.encode('slow'), timeoutTimestamp: deadline });
    const past = await heightPast(B, deadline);
    const hB = await updateClient(A, B, past - 1);
    const absence = await prove(B, `receipts/ports/${PORT}/channels/${CHANNEL}/sequences/${packet.sequence}`, hB - 1);
    const timedOut = await ok(A, anyPack(MsgTimeoutSchema, create(MsgTimeoutSchema, { packet, proofUnreceived: absence.proof, proofHeight: proofHeight(hB), nextSequenceRecv: 1n, signer: alice.bech32 })));
    expect(response(timedOut, MsgTimeoutResponseSchema).result).toBe(ResponseResultType.SUCCESS);
    expect(attributes(timedOut.events, 'timeout_packet')).toContainEqual(['packet_timeout_timestamp', deadline.toString()]);
  }, 120_000);

  test('a failed acknowledgement keeps the receipt and the ack but drops the application’s writes (its events stay, as ibc-go v6.1)', async () => {
    const fourth = await sent(A, { data: utf8.encode('fail'), timeoutHeight: height(1n, 1_000_000n), timeoutTimestamp: 0n });
    expect(fourth.sequence).toBe(4n);
    const packet = create(PacketSchema, { sequence: 4n, sourcePort: PORT, sourceChannel: CHANNEL, destinationPort: PORT, destinationChannel: CHANNEL, data: utf8.encode('fail'), timeoutHeight: height(1n, 1_000_000n) });
    const hA = await updateClient(B, A, fourth.height);
    const commitment = await prove(A, `commitments/ports/${PORT}/channels/${CHANNEL}/sequences/4`, hA - 1);
    const received = await ok(B, anyPack(MsgRecvPacketSchema, create(MsgRecvPacketSchema, { packet, proofCommitment: commitment.proof, proofHeight: proofHeight(hA), signer: alice.bech32 })));
    expect(response(received, MsgRecvPacketResponseSchema).result).toBe(ResponseResultType.SUCCESS);
    // ibc-go v6.1 core/keeper RecvPacket: "Events should still be emitted from failed acks"; the writes are dropped (below).
    expect(received.events.some((e) => e.type === 'mock_recv')).toBe(true);
    expect(attributes(received.events, 'write_acknowledgement')).toContainEqual(['packet_ack', '{"error":"mock refused the packet"}']);
    const unreceived = await query(B, '/ibc.core.channel.v1.Query/UnreceivedPackets', QueryUnreceivedPacketsRequestSchema, { portId: PORT, channelId: CHANNEL, packetCommitmentSequences: [1n, 2n, 3n, 4n] }, QueryUnreceivedPacketsResponseSchema);
    expect(unreceived.sequences).toEqual([2n, 3n]);
  }, 120_000);

  test('an ordered channel: packets in order only; closed on B, close confirmed on A, the packet in flight times out on close', async () => {
    const refused = await deliver(A, [anyPack(MsgChannelCloseInitSchema, create(MsgChannelCloseInitSchema, { portId: PORT, channelId: CHANNEL, signer: alice.bech32 }))]);
    expect(refused.code).not.toBe(0);
    expect(refused.log).toContain('channel close init callback failed for port ID: mock, channel ID: channel-0: user cannot close channel');

    const ordered = await openChannel(Order.ORDERED);
    expect(ordered).toBe('channel-1');
    const far = height(1n, 1_000_000n);
    const first = await sent(A, { data: utf8.encode('one'), timeoutHeight: far, timeoutTimestamp: 0n, channel: ordered });
    const second = await sent(A, { data: utf8.encode('two'), timeoutHeight: far, timeoutTimestamp: 0n, channel: ordered });
    expect([first.sequence, second.sequence]).toEqual([1n, 2n]);
    const packet = (sequence: bigint, data: string) => create(PacketSchema, { sequence, sourcePort: PORT, sourceChannel: ordered, destinationPort: PORT, destinationChannel: ordered, data: utf8.encode(data), timeoutHeight: far });
    const hA = await updateClient(B, A, second.height);
    const recv = async (p: Packet) => {
      const proof = await prove(A, `commitments/ports/${PORT}/channels/${ordered}/sequences/${p.sequence}`, hA - 1);
      return attempt(B, [anyPack(MsgRecvPacketSchema, create(MsgRecvPacketSchema, { packet: p, proofCommitment: proof.proof, proofHeight: proofHeight(hA), signer: alice.bech32 }))]);
    };
    const outOfOrder = await recv(packet(2n, 'two'));
    expect([outOfOrder.codespace, outOfOrder.code]).toEqual(['channel', 21]);
    expect(outOfOrder.log).toContain('packet sequence ≠ next receive sequence (2 ≠ 1)');
    const inOrder = await recv(packet(1n, 'one'));
    expect(inOrder.code).toBe(0);
    expect(attributes(inOrder.events, 'recv_packet')).toContainEqual(['packet_channel_ordering', 'ORDER_ORDERED']);
    const next = await query(B, '/ibc.core.channel.v1.Query/NextSequenceReceive', QueryNextSequenceReceiveRequestSchema, { portId: PORT, channelId: ordered }, QueryNextSequenceReceiveResponseSchema);
    expect(next.nextSequenceReceive).toBe(2n);

    const closed = await ok(B, anyPack(MsgChannelCloseInitSchema, create(MsgChannelCloseInitSchema, { portId: PORT, channelId: ordered, signer: alice.bech32 })));
    expect(attributes(closed.events, 'channel_close_init')).toEqual([
      ['port_id', PORT],
      ['channel_id', ordered],
      ['counterparty_port_id', PORT],
      ['counterparty_channel_id', ordered],
      ['connection_id', CONNECTION],
    ]);
    const hB = await updateClient(A, B, closed.height);
    const closedProof = await prove(B, `channelEnds/ports/${PORT}/channels/${ordered}`, hB - 1);
    expect(fromBinary(ChannelSchema, closedProof.value).state).toBe(ChannelState.CLOSED);
    const confirmed = await ok(A, anyPack(MsgChannelCloseConfirmSchema, create(MsgChannelCloseConfirmSchema, { portId: PORT, channelId: ordered, proofInit: closedProof.proof, proofHeight: proofHeight(hB), signer: alice.bech32 })));
    expect(confirmed.events.some((e) => e.type === 'channel_close_confirm')).toBe(true);

    // Packet 2 never reached B: B's next receive sequence (2) and its closed end are proven.
    const nextRecv = await prove(B, `nextSequenceRecv/ports/${PORT}/channels/${ordered}`, hB - 1);
    const onClose = create(MsgTimeoutOnCloseSchema, { packet: packet(2n, 'two'), proofUnreceived: nextRecv.proof, proofClose: closedProof.proof, proofHeight: proofHeight(hB), nextSequenceRecv: 2n, signer: alice.bech32 });
    const lying = await attempt(A, [anyPack(MsgTimeoutOnCloseSchema, { ...onClose, nextSequenceRecv: 1n })]);
    expect([lying.codespace, lying.code]).toEqual(['commitment', 2]);
    expect(lying.log).toContain('failed next sequence receive verification for client (07-tendermint-0)');
    const timedOut = await ok(A, anyPack(MsgTimeoutOnCloseSchema, onClose));
    expect(response(timedOut, MsgTimeoutOnCloseResponseSchema).result).toBe(ResponseResultType.SUCCESS);
    expect(attributes(timedOut.events, 'timeout_packet')).toContainEqual(['packet_channel_ordering', 'ORDER_ORDERED']);
    expect(attributes(timedOut.events, 'channel_close')).toEqual([
      ['port_id', PORT],
      ['channel_id', ordered],
      ['counterparty_port_id', PORT],
      ['counterparty_channel_id', ordered],
      ['connection_id', CONNECTION],
      ['packet_channel_ordering', 'ORDER_ORDERED'],
    ]);
    expect(attributes(timedOut.events, 'mock_timeout')).toEqual([['sequence', '2']]);
  }, 120_000);

  test('the genesis export carries the capabilities, the channel and its packet state, and validates', async () => {
    for (const side of [A, B]) {
      const exported = (await exportAppState(side.node.app.store)) as Record<string, any>;
      expect(validateCapabilityGenesis(exported['capability'])).toEqual([]);
      const owners = exported['capability'].owners.map((o: any) => o.index_owners.owners.map((w: any) => `${w.module}:${w.name}`));
      expect(owners).toEqual([
        // The transfer and ICA host applications bind their ports at genesis, before the mock module.
        ['ibc:ports/transfer', 'transfer:ports/transfer'],
        ['ibc:ports/icahost', 'icahost:ports/icahost'],
        ['ibc:ports/mock', 'mock:ports/mock'],
        [`ibc:capabilities/ports/mock/channels/${CHANNEL}`, `mock:capabilities/ports/mock/channels/${CHANNEL}`],
        ['ibc:capabilities/ports/mock/channels/channel-1', 'mock:capabilities/ports/mock/channels/channel-1'],
      ]);
      expect(exported['capability'].index).toBe('6');
      expect(validateIbcGenesis(exported['ibc'])).toEqual([]);
      const channels = exported['ibc'].channel_genesis;
      expect(channels.channels.map((c: any) => [c.port_id, c.channel_id, c.ordering, c.state, c.version])).toEqual([
        [PORT, CHANNEL, 'ORDER_UNORDERED', 'STATE_OPEN', VERSION],
        [PORT, 'channel-1', 'ORDER_ORDERED', 'STATE_CLOSED', VERSION],
      ]);
      expect(channels.next_channel_sequence).toBe('2');
      if (side === B) {
        expect(channels.receipts.map((r: any) => [r.channel_id, r.sequence])).toEqual([[CHANNEL, '1'], [CHANNEL, '4']]);
        continue;
      }
      expect(channels.send_sequences).toEqual([{ port_id: PORT, channel_id: CHANNEL, sequence: '5' }, { port_id: PORT, channel_id: 'channel-1', sequence: '3' }]);
      // A new chain from A's capability and ibc sections: the port stays bound, the mock finds its
      // channel capability in the rebuilt lookups and sends the next packet with it.
      const queue: SendRequest[] = [];
      const second = await startChain(
        { ...buildAppState({ accounts: [[alice, 1000n * TOKEN]], validator: alice, selfDelegation: 100n * TOKEN, chainId: side.id }), capability: exported['capability'], ibc: exported['ibc'] },
        { chainId: side.id, appOptions: { moduleSet: mockModuleSet(queue) } },
      );
      try {
        const result = send({ ...side, queue }, { data: utf8.encode('after import'), timeoutHeight: height(1n, 1_000_000n), timeoutTimestamp: 0n });
        await second.block([]);
        const outcome = await result;
        expect('error' in outcome ? outcome.error.message : outcome.sequence).toBe(5n);
        const again = (await exportAppState(second.store)) as Record<string, any>;
        expect(again['capability']).toEqual(exported['capability']);
      } finally {
        await second.close();
      }
    }
  }, 60_000);

  test('the redundant-relay check: a second relay of the same packet is refused before a block; simulated gas is delivered gas; an update with a new packet passes', async () => {
    const far = height(1n, 1_000_000n);
    const race = await sent(A, { data: utf8.encode('race'), timeoutHeight: far, timeoutTimestamp: 0n });
    const packetOf = (sequence: bigint, data: string) => create(PacketSchema, { sequence, sourcePort: PORT, sourceChannel: CHANNEL, destinationPort: PORT, destinationChannel: CHANNEL, data: utf8.encode(data), timeoutHeight: far });
    const hA = await updateClient(B, A, race.height);
    const proof = await prove(A, `commitments/ports/${PORT}/channels/${CHANNEL}/sequences/${race.sequence}`, hA - 1);
    const recvRace = anyPack(MsgRecvPacketSchema, create(MsgRecvPacketSchema, { packet: packetOf(race.sequence, 'race'), proofCommitment: proof.proof, proofHeight: proofHeight(hA), signer: alice.bech32 }));
    const signed = (msgs: Any[], sequence: bigint) => signTx({ signer: alice, msgs, sequence, accountNumber: 0n, fee: 20_000n, gas: 4_000_000n, chainId: B.id });

    // A relayer's simulation runs the messages in full: its gas is what the block charges.
    const first = signed([recvRace], B.sequence);
    const simulated = await B.node.app.simulate(first);
    expect([simulated.ok, simulated.log]).toEqual([true, '']);
    // Two relayers race with the same packet before the next block: the first is accepted (its
    // receipt is in the mempool's check state), the second refused in CheckTx.
    const firstCheck = await B.node.consensus.mempool.checkTx(first);
    expect(firstCheck.code).toBe(0);
    const second = await B.node.consensus.mempool.checkTx(signed([recvRace], B.sequence + 1n));
    expect([second.code, second.codespace, second.log]).toEqual([22, 'channel', 'packet messages are redundant']);
    B.sequence++;
    const hash = Buffer.from(txHash(first)).toString('hex');
    let delivered: ExecTxResult | undefined;
    await waitFor(() => {
      const store = B.node.consensus.blockStore;
      for (let h = store.height(); h > 0 && delivered === undefined; h--) {
        const index = store.loadBlock(h)!.data.txs.findIndex((t) => Buffer.from(txHash(t)).toString('hex') === hash);
        if (index >= 0 && B.node.consensus.stateStore.loadFinalizeBlockResponse(h) !== undefined) delivered = B.node.consensus.stateStore.loadFinalizeBlockResponse(h)!.txResults[index]!;
        if (index >= 0) break;
      }
      return delivered !== undefined;
    }, 30_000, 'the first relay in a block');
    expect(delivered!.code).toBe(0);
    // Equal up to the fee collector's balance, present in the check state and emptied by the
    // block's distribution before delivery (~2,950 gas; test/node/modules/ibc/simulate-gas.test.ts)
    // — had the simulation kept the check's receipt, the receive would have been a cheap NOOP.
    const gap = delivered!.gasUsed - simulated.gasUsed;
    expect(gap >= 0n && gap <= 3_000n).toBe(true);
    // CheckTx ran the relay on the tx's own gas meter (its gas limit bounds that work): its gas
    // is the delivery's, up to the same fee-collector difference.
    expect(delivered!.gasUsed - firstCheck.gasUsed <= 3_000n && firstCheck.gasUsed - delivered!.gasUsed <= 3_000n).toBe(true);
    // Simulating the relay now that it is in a block: refused as redundant too.
    const late = await B.node.app.simulate(signed([recvRace], B.sequence));
    expect([late.ok, late.log]).toEqual([false, 'packet messages are redundant']);

    // A client update, the packet already received and a new one in one tx: not every packet
    // message is redundant, so it passes; the update runs first, so the new packet's proof at the
    // new height verifies in CheckTx too.
    const next = await sent(A, { data: utf8.encode('next'), timeoutHeight: far, timeoutTimestamp: 0n });
    const target = next.height + 1;
    await A.node.waitForHeight(target + 1);
    const update = anyPack(MsgUpdateClientSchema, create(MsgUpdateClientSchema, { clientId: CLIENT, header: anyPack(HeaderSchema, headerOf(A, target, B.clientHeight)), signer: alice.bech32 }));
    const nextProof = await prove(A, `commitments/ports/${PORT}/channels/${CHANNEL}/sequences/${next.sequence}`, target - 1);
    const recvNext = anyPack(MsgRecvPacketSchema, create(MsgRecvPacketSchema, { packet: packetOf(next.sequence, 'next'), proofCommitment: nextProof.proof, proofHeight: proofHeight(target), signer: alice.bech32 }));
    const mixed = await deliver(B, [update, recvRace, recvNext]);
    B.clientHeight = target;
    expect([mixed.code, mixed.log]).toEqual([0, '']);
    const results = fromBinary(TxMsgDataSchema, mixed.data).msgResponses.slice(1).map((r) => fromBinary(MsgRecvPacketResponseSchema, r.value).result);
    expect(results).toEqual([ResponseResultType.NOOP, ResponseResultType.SUCCESS]);
  }, 120_000);
});
