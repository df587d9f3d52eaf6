/**
 * ICS-20 between two tokend chains run in-process (app + BFT engine, one validator each), the
 * relayer's part played by the test with real proofs of the other chain's `ibc` store: clients and
 * connection-0, the transfer channel handshake on port "transfer" (version ics20-1, unordered),
 * then attotoken goes A → B (escrowed on A, arriving on B as ibc/<hash of transfer/channel-0/
 * attotoken> with its trace), comes back B → A (burned on B, unescrowed on A) with exact balances
 * and supplies; a transfer that times out on B and one whose receiver B cannot read (error
 * acknowledgement) are refunded on A.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create } from '@bufbuild/protobuf';
import { type Any } from '@bufbuild/protobuf/wkt';
import { CoinSchema } from '../../../../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { QueryBalanceRequestSchema, QueryBalanceResponseSchema, QuerySupplyOfRequestSchema, QuerySupplyOfResponseSchema } from '../../../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { ChannelSchema, CounterpartySchema as ChannelCounterpartySchema, Order, PacketSchema, State as ChannelState, type Packet } from '../../../../../src/gen/ibc/core/channel/v1/channel_pb.js';
import {
  MsgAcknowledgementSchema,
  MsgChannelOpenAckSchema,
  MsgChannelOpenConfirmSchema,
  MsgChannelOpenInitResponseSchema,
  MsgChannelOpenInitSchema,
  MsgChannelOpenTrySchema,
  MsgRecvPacketSchema,
  MsgTimeoutSchema,
} from '../../../../../src/gen/ibc/core/channel/v1/tx_pb.js';
import { QueryDenomTraceRequestSchema, QueryDenomTraceResponseSchema, QueryEscrowAddressRequestSchema, QueryEscrowAddressResponseSchema } from '../../../../../src/gen/ibc/applications/transfer/v1/query_pb.js';
import { MsgTransferSchema } from '../../../../../src/gen/ibc/applications/transfer/v1/tx_pb.js';
import { anyPack } from '../../../../../src/node/codec/index.js';
import { DENOM, alice } from '../../../services/helpers.js';
import { height } from '../../../../helpers/ibcHeaders.js';
import { CONNECTION, attributeMap as attributes, deliver, ok, openConnection, proofHeight, prove, query, response, startChains, stopChains, updateClient, type Delivered, type Side } from '../../../../helpers/ibcChains.js';

const CHAIN_A = 'chaina-1';
const CHAIN_B = 'chainb-1';
const PORT = 'transfer';
const CHANNEL = 'channel-0';
const VERSION = 'ics20-1';
/** The voucher of A's token on B: ibc/ + upper-case hex sha256 of its trace. */
const VOUCHER = `ibc/${createHash('sha256').update(`transfer/channel-0/${DENOM}`).digest('hex').toUpperCase()}`;
const utf8 = new TextEncoder();

let A: Side;
let B: Side;

async function balance(side: Side, address: string, denom: string): Promise<bigint> {
  return BigInt((await query(side, '/cosmos.bank.v1beta1.Query/Balance', QueryBalanceRequestSchema, { address, denom }, QueryBalanceResponseSchema)).balance?.amount ?? '0');
}

async function supply(side: Side, denom: string): Promise<bigint> {
  return BigInt((await query(side, '/cosmos.bank.v1beta1.Query/SupplyOf', QuerySupplyOfRequestSchema, { denom }, QuerySupplyOfResponseSchema)).amount?.amount ?? '0');
}

const channelEnd = (state: ChannelState, counterpartyChannel: string, version = VERSION) =>
  create(ChannelSchema, { state, ordering: Order.UNORDERED, counterparty: create(ChannelCounterpartySchema, { portId: PORT, channelId: counterpartyChannel }), connectionHops: [CONNECTION], version });

/** The packet a MsgTransfer sent, from its send_packet event. */
function sentPacket(result: Delivered): Packet {
  const attrs = attributes(result.events, 'send_packet');
  const [revision, h] = attrs['packet_timeout_height']!.split('-');
  return create(PacketSchema, {
    sequence: BigInt(attrs['packet_sequence']!),
    sourcePort: attrs['packet_src_port']!,
    sourceChannel: attrs['packet_src_channel']!,
    destinationPort: attrs['packet_dst_port']!,
    destinationChannel: attrs['packet_dst_channel']!,
    data: utf8.encode(attrs['packet_data']!),
    timeoutHeight: height(BigInt(revision!), BigInt(h!)),
    timeoutTimestamp: BigInt(attrs['packet_timeout_timestamp']!),
  });
}

/** Relays `packet` from `from` to `to` and its acknowledgement back; returns the recv result. */
async function relay(from: Side, to: Side, packet: Packet, sentAt: number): Promise<Delivered> {
  const path = (kind: string) => `${kind}/ports/${packet.sourcePort}/channels/${packet.sourceChannel}/sequences/${packet.sequence}`;
  const h = await updateClient(to, from, sentAt);
  const commitment = await prove(from, path('commitments'), h - 1);
  const received = await ok(to, anyPack(MsgRecvPacketSchema, create(MsgRecvPacketSchema, { packet, proofCommitment: commitment.proof, proofHeight: proofHeight(h), signer: alice.bech32 })));
  const ack = attributes(received.events, 'write_acknowledgement')['packet_ack']!;
  const h2 = await updateClient(from, to, received.height);
  const ackProof = await prove(to, `acks/ports/${packet.destinationPort}/channels/${packet.destinationChannel}/sequences/${packet.sequence}`, h2 - 1);
  await ok(from, anyPack(MsgAcknowledgementSchema, create(MsgAcknowledgementSchema, { packet, acknowledgement: utf8.encode(ack), proofAcked: ackProof.proof, proofHeight: proofHeight(h2), signer: alice.bech32 })));
  return received;
}

const transferMsg = (sender: string, receiver: string, denom: string, amount: bigint, timeoutHeight = height(1n, 1_000_000n), timeoutTimestamp = 0n) =>
  anyPack(MsgTransferSchema, create(MsgTransferSchema, { sourcePort: PORT, sourceChannel: CHANNEL, token: create(CoinSchema, { denom, amount: amount.toString() }), sender, receiver, timeoutHeight, timeoutTimestamp }));

beforeAll(async () => {
  [A, B] = await startChains({ chainId: CHAIN_A }, { chainId: CHAIN_B });
  await openConnection(A, B);
}, 180_000);

afterAll(async () => {
  await stopChains(A, B);
});

describe('ICS-20 between two tokend chains', () => {
  let escrowA = '';

  test('the transfer channel opens on port transfer with version ics20-1; another version is refused', async () => {
    const wrong = await deliver(A, [anyPack(MsgChannelOpenInitSchema, create(MsgChannelOpenInitSchema, { portId: PORT, channel: channelEnd(ChannelState.INIT, '', 'ics20-2'), signer: alice.bech32 }))]);
    expect([wrong.codespace, wrong.code]).toEqual(['transfer', 4]);
    expect(wrong.log).toContain('got ics20-2, expected ics20-1');

    // Proposed as relayers do: transfer sits under the fee middleware, and an empty version there
    // opens a fee-enabled channel (ibc-go v6's default), version {"fee_version":"ics29-1",…}.
    const init = await ok(A, anyPack(MsgChannelOpenInitSchema, create(MsgChannelOpenInitSchema, { portId: PORT, channel: channelEnd(ChannelState.INIT, ''), signer: alice.bech32 })));
    expect(response(init, MsgChannelOpenInitResponseSchema)).toMatchObject({ channelId: CHANNEL, version: VERSION });
    const path = `channelEnds/ports/${PORT}/channels/${CHANNEL}`;
    const hA = await updateClient(B, A, init.height);
    const initProof = await prove(A, path, hA - 1);
    const tried = await ok(B, anyPack(MsgChannelOpenTrySchema, create(MsgChannelOpenTrySchema, { portId: PORT, channel: channelEnd(ChannelState.TRYOPEN, CHANNEL), counterpartyVersion: VERSION, proofInit: initProof.proof, proofHeight: proofHeight(hA), signer: alice.bech32 })));
    const hB = await updateClient(A, B, tried.height);
    const tryProof = await prove(B, path, hB - 1);
    const acked = await ok(A, anyPack(MsgChannelOpenAckSchema, create(MsgChannelOpenAckSchema, { portId: PORT, channelId: CHANNEL, counterpartyChannelId: CHANNEL, counterpartyVersion: VERSION, proofTry: tryProof.proof, proofHeight: proofHeight(hB), signer: alice.bech32 })));
    const hA2 = await updateClient(B, A, acked.height);
    const ackProof = await prove(A, path, hA2 - 1);
    await ok(B, anyPack(MsgChannelOpenConfirmSchema, create(MsgChannelOpenConfirmSchema, { portId: PORT, channelId: CHANNEL, proofAck: ackProof.proof, proofHeight: proofHeight(hA2), signer: alice.bech32 })));
    escrowA = (await query(A, '/ibc.applications.transfer.v1.Query/EscrowAddress', QueryEscrowAddressRequestSchema, { portId: PORT, channelId: CHANNEL }, QueryEscrowAddressResponseSchema)).escrowAddress;
  }, 180_000);

  test('A → B: escrowed on A, a voucher with its trace on B; B → A: burned on B, unescrowed on A (exact balances)', async () => {
    const aliceA = await balance(A, alice.bech32, DENOM);
    const sent = await ok(A, transferMsg(alice.bech32, alice.bech32, DENOM, 1_000n));
    expect(attributes(sent.events, 'ibc_transfer')).toEqual({ sender: alice.bech32, receiver: alice.bech32 });
    const packet = sentPacket(sent);
    expect(new TextDecoder().decode(packet.data)).toBe(`{"amount":"1000","denom":"${DENOM}","receiver":"${alice.bech32}","sender":"${alice.bech32}"}`);
    expect(await balance(A, alice.bech32, DENOM)).toBe(aliceA - 1_000n - 20_000n);
    expect(await balance(A, escrowA, DENOM)).toBe(1_000n);

    const received = await relay(A, B, packet, sent.height);
    expect(attributes(received.events, 'write_acknowledgement')['packet_ack']).toBe('{"result":"AQ=="}');
    expect(attributes(received.events, 'fungible_token_packet')).toMatchObject({ module: 'transfer', success: 'true', amount: '1000', denom: DENOM, receiver: alice.bech32 });
    expect(attributes(received.events, 'denomination_trace')).toEqual({ trace_hash: VOUCHER.slice(4), denom: VOUCHER });
    expect(await balance(B, alice.bech32, VOUCHER)).toBe(1_000n);
    expect(await supply(B, VOUCHER)).toBe(1_000n);
    const trace = await query(B, '/ibc.applications.transfer.v1.Query/DenomTrace', QueryDenomTraceRequestSchema, { hash: VOUCHER }, QueryDenomTraceResponseSchema);
    expect([trace.denomTrace?.path, trace.denomTrace?.baseDenom]).toEqual([`${PORT}/${CHANNEL}`, DENOM]);

    // 400 go home: burned on B, the packet names the full trace, unescrowed on A.
    const aliceA2 = await balance(A, alice.bech32, DENOM);
    const back = await ok(B, transferMsg(alice.bech32, alice.bech32, VOUCHER, 400n));
    const backPacket = sentPacket(back);
    expect(JSON.parse(new TextDecoder().decode(backPacket.data)).denom).toBe(`${PORT}/${CHANNEL}/${DENOM}`);
    expect(await balance(B, alice.bech32, VOUCHER)).toBe(600n);
    expect(await supply(B, VOUCHER)).toBe(600n);
    const home = await relay(B, A, backPacket, back.height);
    expect(attributes(home.events, 'write_acknowledgement')['packet_ack']).toBe('{"result":"AQ=="}');
    expect(await balance(A, alice.bech32, DENOM)).toBe(aliceA2 + 400n - 20_000n * 2n); // + 400, minus the fees of A's two relay txs (client update, recv)
    expect(await balance(A, escrowA, DENOM)).toBe(600n);
  }, 180_000);

  test('a transfer that times out on B is refunded on A', async () => {
    const bHeight = B.node.consensus.blockStore.height();
    const timeoutHeight = height(1n, BigInt(bHeight + 6));
    const aliceA = await balance(A, alice.bech32, DENOM);
    const sent = await ok(A, transferMsg(alice.bech32, alice.bech32, DENOM, 250n, timeoutHeight));
    const packet = sentPacket(sent);
    expect(await balance(A, escrowA, DENOM)).toBe(850n);
    await B.node.waitForHeight(bHeight + 7);
    const h = await updateClient(A, B, bHeight + 6);
    const absence = await prove(B, `receipts/ports/${PORT}/channels/${CHANNEL}/sequences/${packet.sequence}`, h - 1);
    expect(absence.value.length).toBe(0);
    const timedOut = await ok(A, anyPack(MsgTimeoutSchema, create(MsgTimeoutSchema, { packet, proofUnreceived: absence.proof, proofHeight: proofHeight(h), nextSequenceRecv: 1n, signer: alice.bech32 })));
    expect(attributes(timedOut.events, 'timeout')).toEqual({ module: 'transfer', refund_receiver: alice.bech32, refund_denom: DENOM, refund_amount: '250', memo: '' });
    expect(await balance(A, escrowA, DENOM)).toBe(600n);
    expect(await balance(A, alice.bech32, DENOM)).toBe(aliceA - 20_000n * 3n); // the 250 are back; three txs paid fees
  }, 180_000);

  test('a receiver B cannot read: B acknowledges with an error (ABCI code 1), A refunds the sender', async () => {
    const aliceA = await balance(A, alice.bech32, DENOM);
    const sent = await ok(A, transferMsg(alice.bech32, 'cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu', DENOM, 70n));
    expect(await balance(A, escrowA, DENOM)).toBe(670n);
    const received = await relay(A, B, sentPacket(sent), sent.height);
    expect(attributes(received.events, 'write_acknowledgement')['packet_ack']).toBe('{"error":"ABCI code: 1: error handling packet: see events for details"}');
    expect(await supply(B, VOUCHER)).toBe(600n); // nothing minted on B
    expect(await balance(A, escrowA, DENOM)).toBe(600n);
    // The 70 are back; A paid for the transfer, a client update and the acknowledgement.
    expect(await balance(A, alice.bech32, DENOM)).toBe(aliceA - 20_000n * 3n);
  }, 180_000);

  test('a zero amount and an unknown voucher are refused with ibc-go\'s errors, nothing moved', async () => {
    const before = await balance(A, alice.bech32, DENOM);
    let fees = 0n;
    const attempt = async (msg: Any): Promise<[string, number, string]> => {
      try {
        const result = await deliver(A, [msg]);
        fees += 20_000n;
        return [result.codespace, result.code, result.log];
      } catch (err) {
        const { checked } = err as { checked?: { codespace: string; code: number; log: string } };
        if (checked === undefined) throw err;
        return [checked.codespace, checked.code, checked.log];
      }
    };
    const zero = await attempt(transferMsg(alice.bech32, alice.bech32, DENOM, 0n));
    expect(zero.slice(0, 2)).toEqual(['sdk', 5]);
    expect(zero[2]).toContain('0attotoken: insufficient funds');
    const unknown = await attempt(transferMsg(alice.bech32, alice.bech32, `ibc/${'AB'.repeat(32)}`, 5n));
    expect(unknown.slice(0, 2)).toEqual(['transfer', 6]);
    expect(unknown[2]).toContain(`${'AB'.repeat(32)}: denomination trace not found`);
    expect(await balance(A, alice.bech32, DENOM)).toBe(before - fees);
    expect(await balance(A, escrowA, DENOM)).toBe(600n);
  }, 60_000);
});
