/**
 * ICS-29 over the real 04-channel keeper, between two tokend chains run in-process (as
 * channel-packets.test.ts, with the driver and mock application of test/helpers/ibcChains.ts):
 * the test application on port "mock" mounted under the fee middleware (`wrapWithFeeMiddleware`
 * over it and the channel keeper). The channel handshake negotiates
 * `{"fee_version":"ics29-1","app_version":"mock-1"}` (the app sees only "mock-1"); the relayer
 * registers a counterparty payee on B and a payee on A; a packet sent on A gets fees escrowed by
 * MsgPayPacketFeeAsync, B's acknowledgement carries the forward relayer, and relaying it back
 * pays the receive fee to the forward relayer, the acknowledgement fee to the payee and refunds
 * the timeout fee, with exact balances; a second packet times out and pays its timeout fee to
 * the payee, refunding the rest.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, fromBinary } from '@bufbuild/protobuf';
import { ChannelSchema, CounterpartySchema as ChannelCounterpartySchema, Order, PacketSchema, State as ChannelState } from '../../../../src/gen/ibc/core/channel/v1/channel_pb.js';
import {
  MsgAcknowledgementResponseSchema,
  MsgAcknowledgementSchema,
  MsgChannelOpenAckSchema,
  MsgChannelOpenConfirmSchema,
  MsgChannelOpenInitResponseSchema,
  MsgChannelOpenInitSchema,
  MsgChannelOpenTrySchema,
  MsgRecvPacketResponseSchema,
  MsgRecvPacketSchema,
  MsgTimeoutResponseSchema,
  MsgTimeoutSchema,
  ResponseResultType,
} from '../../../../src/gen/ibc/core/channel/v1/tx_pb.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import type { FeeKeeper } from '../../../../src/node/modules/ibc/apps/fee/keeper.js';
import { wrapWithFeeMiddleware } from '../../../../src/node/modules/ibc/apps/fee/middleware.js';
import { MsgPayPacketFeeAsyncSchema, MsgRegisterCounterpartyPayeeSchema, MsgRegisterPayeeSchema } from '../../../../src/gen/ibc/applications/fee/v1/tx_pb.js';
import { QueryFeeEnabledChannelRequestSchema, QueryFeeEnabledChannelResponseSchema } from '../../../../src/gen/ibc/applications/fee/v1/query_pb.js';
import { QueryBalanceRequestSchema, QueryBalanceResponseSchema } from '../../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { accString, moduleAddress } from '../../../../src/node/modules/shared/address.js';
import { DENOM, testKey } from '../../app/helpers.js';
import { alice } from '../../services/helpers.js';
import { height } from '../../../helpers/ibcHeaders.js';
import { MOCK_CHANNEL as CHANNEL, MOCK_PORT as PORT, MOCK_VERSION as VERSION, CONNECTION, attributeList as attributes, ok, openConnection, proofHeight, prove, query, response, stopChains, updateClient, type MockSide, type MockStackOptions, sent, startMockChains } from '../../../helpers/ibcChains.js';

const CHAIN_A = 'chaina-1';
const CHAIN_B = 'chainb-1';
const utf8 = new TextEncoder();

// ------------------------------------------------------------------ the test application

/** The mock application's stack: the fee middleware over the mock app and the channel keeper. */
const FEE_STACK: MockStackOptions = {
  requires: ['feeibc'],
  stack: (callbacks, ibc, deps) => {
    const fee = wrapWithFeeMiddleware(callbacks, ibc.channelKeeper, deps.keeper<FeeKeeper>('feeibc'));
    return { ibcModule: fee.ibcModule, ics4: fee.ics4Wrapper };
  },
};

// ------------------------------------------------------------------ two chains

let A: MockSide;
let B: MockSide;

beforeAll(async () => {
  [A, B] = await startMockChains(CHAIN_A, CHAIN_B, FEE_STACK);
  await openConnection(A, B);
}, 120_000);

afterAll(async () => {
  await stopChains(A, B);
});

// ------------------------------------------------------------------ the tests

const FEE_VERSION = `{"fee_version":"ics29-1","app_version":"${VERSION}"}`;
const forward = testKey('fee-forward-relayer');
const payee = testKey('fee-payee');

const feeChannelEnd = (state: ChannelState, counterpartyChannel: string) =>
  create(ChannelSchema, { state, ordering: Order.UNORDERED, counterparty: create(ChannelCounterpartySchema, { portId: PORT, channelId: counterpartyChannel }), connectionHops: [CONNECTION], version: FEE_VERSION });

async function balanceOf(side: MockSide, address: string): Promise<bigint> {
  const answer = await query(side, '/cosmos.bank.v1beta1.Query/Balance', QueryBalanceRequestSchema, { address, denom: DENOM }, QueryBalanceResponseSchema);
  return BigInt(answer.balance?.amount ?? '0');
}

const FEE_MODULE = accString(moduleAddress('feeibc'));
const coins = (amount: bigint) => [{ denom: DENOM, amount: amount.toString() }];
const payFee = (sequence: bigint, recv: bigint, ack: bigint, timeout: bigint) =>
  anyPack(MsgPayPacketFeeAsyncSchema, create(MsgPayPacketFeeAsyncSchema, {
    packetId: { portId: PORT, channelId: CHANNEL, sequence },
    packetFee: { fee: { recvFee: coins(recv), ackFee: coins(ack), timeoutFee: coins(timeout) }, refundAddress: alice.bech32 },
  }));

describe('ICS-29 between two tokend chains over the channel keeper', () => {
  let recvHeight = 0;
  let ackBytes = new Uint8Array(0);
  const packet = create(PacketSchema, { sequence: 1n, sourcePort: PORT, sourceChannel: CHANNEL, destinationPort: PORT, destinationChannel: CHANNEL, data: utf8.encode('hello'), timeoutHeight: height(1n, 1_000_000n), timeoutTimestamp: 0n });

  test('the handshake negotiates the fee version on both ends; the application sees its own', async () => {
    const init = await ok(A, anyPack(MsgChannelOpenInitSchema, create(MsgChannelOpenInitSchema, { portId: PORT, channel: feeChannelEnd(ChannelState.INIT, ''), signer: alice.bech32 })));
    expect(response(init, MsgChannelOpenInitResponseSchema)).toMatchObject({ channelId: CHANNEL, version: FEE_VERSION });
    const path = `channelEnds/ports/${PORT}/channels/${CHANNEL}`;
    const hA = await updateClient(B, A, init.height);
    const initProof = await prove(A, path, hA - 1);
    const tried = await ok(B, anyPack(MsgChannelOpenTrySchema, create(MsgChannelOpenTrySchema, {
      portId: PORT,
      channel: feeChannelEnd(ChannelState.TRYOPEN, CHANNEL),
      counterpartyVersion: FEE_VERSION,
      proofInit: initProof.proof,
      proofHeight: proofHeight(hA),
      signer: alice.bech32,
    })));
    expect(attributes(tried.events, 'channel_open_try')).toContainEqual(['version', FEE_VERSION]);
    const hB = await updateClient(A, B, tried.height);
    const tryProof = await prove(B, path, hB - 1);
    expect(fromBinary(ChannelSchema, tryProof.value).version).toBe(FEE_VERSION);
    const acked = await ok(A, anyPack(MsgChannelOpenAckSchema, create(MsgChannelOpenAckSchema, {
      portId: PORT,
      channelId: CHANNEL,
      counterpartyChannelId: CHANNEL,
      counterpartyVersion: FEE_VERSION,
      proofTry: tryProof.proof,
      proofHeight: proofHeight(hB),
      signer: alice.bech32,
    })));
    const hA2 = await updateClient(B, A, acked.height);
    const ackProof = await prove(A, path, hA2 - 1);
    expect(fromBinary(ChannelSchema, ackProof.value)).toMatchObject({ state: ChannelState.OPEN, version: FEE_VERSION });
    await ok(B, anyPack(MsgChannelOpenConfirmSchema, create(MsgChannelOpenConfirmSchema, { portId: PORT, channelId: CHANNEL, proofAck: ackProof.proof, proofHeight: proofHeight(hA2), signer: alice.bech32 })));
    for (const side of [A, B]) {
      const enabled = await query(side, '/ibc.applications.fee.v1.Query/FeeEnabledChannel', QueryFeeEnabledChannelRequestSchema, { portId: PORT, channelId: CHANNEL }, QueryFeeEnabledChannelResponseSchema);
      expect(enabled.feeEnabled).toBe(true);
    }
  }, 120_000);

  test('payees registered; a packet sent on A is incentivized, received on B with the forward relayer in its acknowledgement', async () => {
    await ok(B, anyPack(MsgRegisterCounterpartyPayeeSchema, create(MsgRegisterCounterpartyPayeeSchema, { portId: PORT, channelId: CHANNEL, relayer: alice.bech32, counterpartyPayee: forward.bech32 })));
    await ok(A, anyPack(MsgRegisterPayeeSchema, create(MsgRegisterPayeeSchema, { portId: PORT, channelId: CHANNEL, relayer: alice.bech32, payee: payee.bech32 })));

    const first = await sent(A, { data: utf8.encode('hello'), timeoutHeight: packet.timeoutHeight!, timeoutTimestamp: 0n });
    expect(first.sequence).toBe(1n);
    const paid = await ok(A, payFee(1n, 1000n, 500n, 250n));
    expect(attributes(paid.events, 'incentivized_ibc_packet')).toEqual([
      ['port_id', PORT],
      ['channel_id', CHANNEL],
      ['packet_sequence', '1'],
      ['recv_fee', `1000${DENOM}`],
      ['ack_fee', `500${DENOM}`],
      ['timeout_fee', `250${DENOM}`],
    ]);
    expect(await balanceOf(A, FEE_MODULE)).toBe(1750n);

    const hA = await updateClient(B, A, paid.height);
    const commitment = await prove(A, `commitments/ports/${PORT}/channels/${CHANNEL}/sequences/1`, hA - 1);
    const received = await ok(B, anyPack(MsgRecvPacketSchema, create(MsgRecvPacketSchema, { packet, proofCommitment: commitment.proof, proofHeight: proofHeight(hA), signer: alice.bech32 })));
    recvHeight = received.height;
    expect(response(received, MsgRecvPacketResponseSchema).result).toBe(ResponseResultType.SUCCESS);
    const appAck = `{"result":"${Buffer.from('got hello').toString('base64')}"}`;
    const ackText = `{"app_acknowledgement":"${Buffer.from(appAck).toString('base64')}","forward_relayer_address":"${forward.bech32}","underlying_app_success":true}`;
    expect(attributes(received.events, 'write_acknowledgement')).toContainEqual(['packet_ack', ackText]);
    ackBytes = utf8.encode(ackText);
  }, 120_000);

  test('the acknowledgement relayed to A pays the forward relayer and the payee, refunds the timeout fee; the app sees its own ack', async () => {
    const aliceBefore = await balanceOf(A, alice.bech32);
    const hB = await updateClient(A, B, recvHeight);
    const afterUpdate = await balanceOf(A, alice.bech32);
    const ackProof = await prove(B, `acks/ports/${PORT}/channels/${CHANNEL}/sequences/1`, hB - 1);
    const acked = await ok(A, anyPack(MsgAcknowledgementSchema, create(MsgAcknowledgementSchema, { packet, acknowledgement: ackBytes, proofAcked: ackProof.proof, proofHeight: proofHeight(hB), signer: alice.bech32 })));
    expect(response(acked, MsgAcknowledgementResponseSchema).result).toBe(ResponseResultType.SUCCESS);
    expect(attributes(acked.events, 'mock_ack')).toEqual([['sequence', '1'], ['ack', `{"result":"${Buffer.from('got hello').toString('base64')}"}`]]);
    expect(acked.events.filter((e) => e.type === 'distribute_fee').map((e) => e.attributes.filter((a) => a.key !== 'msg_index').map((a) => a.value))).toEqual([
      [forward.bech32, `1000${DENOM}`],
      [payee.bech32, `500${DENOM}`],
      [alice.bech32, `250${DENOM}`],
    ]);
    expect([await balanceOf(A, forward.bech32), await balanceOf(A, payee.bech32), await balanceOf(A, FEE_MODULE)]).toEqual([1000n, 500n, 0n]);
    // The relayer paid 20000 for each tx (update, ack) and got the timeout fee back.
    expect(afterUpdate - aliceBefore).toBe(-20_000n);
    expect((await balanceOf(A, alice.bech32)) - afterUpdate).toBe(-20_000n + 250n);
  }, 120_000);

  test('a packet that times out pays its timeout fee to the payee and refunds the rest', async () => {
    const bHeight = B.node.consensus.blockStore.height();
    const timeoutHeight = height(1n, BigInt(bHeight + 8));
    const second = await sent(A, { data: utf8.encode('late'), timeoutHeight, timeoutTimestamp: 0n });
    expect(second.sequence).toBe(2n);
    await ok(A, payFee(2n, 10n, 20n, 30n));
    const proofAt = await updateClient(A, B, bHeight + 8);
    const absence = await prove(B, `receipts/ports/${PORT}/channels/${CHANNEL}/sequences/2`, proofAt - 1);
    const before = await balanceOf(A, alice.bech32);
    const payeeBefore = await balanceOf(A, payee.bech32);
    const timedOut = await ok(A, anyPack(MsgTimeoutSchema, create(MsgTimeoutSchema, {
      packet: create(PacketSchema, { sequence: 2n, sourcePort: PORT, sourceChannel: CHANNEL, destinationPort: PORT, destinationChannel: CHANNEL, data: utf8.encode('late'), timeoutHeight, timeoutTimestamp: 0n }),
      proofUnreceived: absence.proof,
      proofHeight: proofHeight(proofAt),
      nextSequenceRecv: 2n,
      signer: alice.bech32,
    })));
    expect(response(timedOut, MsgTimeoutResponseSchema).result).toBe(ResponseResultType.SUCCESS);
    expect(attributes(timedOut.events, 'mock_timeout')).toEqual([['sequence', '2']]);
    expect([(await balanceOf(A, payee.bech32)) - payeeBefore, (await balanceOf(A, alice.bech32)) - before, await balanceOf(A, FEE_MODULE)]).toEqual([30n, -20_000n + 30n, 0n]);
  }, 120_000);
});

