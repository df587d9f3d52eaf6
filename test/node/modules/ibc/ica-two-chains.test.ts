/**
 * ICS-27 between two real tokend chains run in-process (app + BFT engine, one validator each),
 * with the app's own module set: clients and connection-0 as in channel-packets.test.ts, then the
 * network's icamauth registers alice's interchain account from A (the controller routes
 * MsgChannelOpenInit on port icacontroller-<alice>, ORDERED, to icahost), the handshake is relayed
 * with real proofs (B creates the InterchainAccount in OpenTry and puts its address into the
 * version; A records it in OpenAck), and a MsgSubmitTx on A carrying a bank send from the
 * interchain account is relayed to B, executed there with exact balances, and its result
 * acknowledgement relayed back to A. A MsgSendTx that times out closes the ORDERED channel; after
 * the host end is closed too, registering again opens a new channel to the same account.
 * Registration passes plain ICS-27 metadata, so the channel is not fee-enabled although the ICA
 * stacks sit under the ICS-29 middleware (ica-fee-two-chains.test.ts covers the fee-enabled case).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { MsgRegisterAccountSchema, MsgSubmitTxSchema } from '../../../../src/gen/aioz/icamauth/v1beta1/tx_pb.js';
import { QueryInterchainAccountRequestSchema as IcamauthRequestSchema, QueryInterchainAccountResponseSchema as IcamauthResponseSchema } from '../../../../src/gen/aioz/icamauth/v1beta1/query_pb.js';
import { QueryAccountRequestSchema, QueryAccountResponseSchema } from '../../../../src/gen/cosmos/auth/v1beta1/query_pb.js';
import { TxMsgDataSchema } from '../../../../src/gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { QueryBalanceRequestSchema, QueryBalanceResponseSchema } from '../../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { MsgSendResponseSchema } from '../../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { QueryInterchainAccountRequestSchema, QueryInterchainAccountResponseSchema } from '../../../../src/gen/ibc/applications/interchain_accounts/controller/v1/query_pb.js';
import { InterchainAccountSchema } from '../../../../src/gen/ibc/applications/interchain_accounts/v1/account_pb.js';
import { ChannelSchema, CounterpartySchema as ChannelCounterpartySchema, Order, PacketSchema, State as ChannelState } from '../../../../src/gen/ibc/core/channel/v1/channel_pb.js';
import { MsgAcknowledgementSchema, MsgChannelCloseConfirmSchema, MsgChannelOpenAckSchema, MsgChannelOpenConfirmSchema, MsgChannelOpenTrySchema, MsgRecvPacketSchema, MsgTimeoutSchema } from '../../../../src/gen/ibc/core/channel/v1/tx_pb.js';
import { MsgSendTxSchema } from '../../../../src/gen/ibc/applications/interchain_accounts/controller/v1/tx_pb.js';
import { CosmosTxSchema, InterchainAccountPacketDataSchema, Type } from '../../../../src/gen/ibc/applications/interchain_accounts/v1/packet_pb.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { QueryFeeEnabledChannelRequestSchema, QueryFeeEnabledChannelResponseSchema } from '../../../../src/gen/ibc/applications/fee/v1/query_pb.js';
import { defaultMetadata, metadataFromVersion, metadataToVersion } from '../../../../src/node/modules/ibc/apps/ica/types.js';
import { parseAccAddress } from '../../../../src/node/modules/shared/address.js';
import { TOKEN, msgSend } from '../../app/helpers.js';
import { alice, bob } from '../../services/helpers.js';
import { height } from '../../../helpers/ibcHeaders.js';
import { CONNECTION, attributeMap as attributes, deliver, heightPast, ok, openConnection, proofHeight, prove, query, startChains, stopChains, updateClient, type Side } from '../../../helpers/ibcChains.js';

const CHAIN_A = 'icaa-1';
const CHAIN_B = 'icab-1';
const CONTROLLER_PORT = `icacontroller-${alice.bech32}`;
const HOST_PORT = 'icahost';
const utf8 = new TextEncoder();
/** Plain ICS-27 metadata (what an empty version defaults to in the controller, but not fee-wrapped). */
const PLAIN_VERSION = metadataToVersion(defaultMetadata(CONNECTION, CONNECTION));

let A: Side;
let B: Side;

// ------------------------------------------------------------------ two chains (relaying: test/helpers/ibcChains.ts)

async function balance(side: Side, address: string): Promise<bigint> {
  const answer = await query(side, '/cosmos.bank.v1beta1.Query/Balance', QueryBalanceRequestSchema, { address, denom: 'attotoken' }, QueryBalanceResponseSchema);
  return BigInt(answer.balance?.amount ?? '0');
}

beforeAll(async () => {
  [A, B] = await startChains({ chainId: CHAIN_A }, { chainId: CHAIN_B });
  await openConnection(A, B);
}, 120_000);

afterAll(async () => {
  await stopChains(A, B);
});

// ------------------------------------------------------------------ the tests

describe('an interchain account registered from A executes a bank send on B', () => {
  let controllerChannel = '';
  let hostChannel = '';
  let ica = '';

  test('icamauth register on A, the handshake relayed: B creates the InterchainAccount, A records its address', async () => {
    const registered = await ok(A, anyPack(MsgRegisterAccountSchema, create(MsgRegisterAccountSchema, { owner: alice.bech32, connectionId: CONNECTION, version: PLAIN_VERSION })));
    const init = attributes(registered.events, 'channel_open_init');
    expect([init['port_id'], init['counterparty_port_id'], init['connection_id']]).toEqual([CONTROLLER_PORT, HOST_PORT, CONNECTION]);
    controllerChannel = init['channel_id']!;
    const initVersion = init['version']!;
    expect(JSON.parse(initVersion)).toEqual({ version: 'ics27-1', controller_connection_id: CONNECTION, host_connection_id: CONNECTION, address: '', encoding: 'proto3', tx_type: 'sdk_multi_msg' });

    const path = (port: string, channel: string) => `channelEnds/ports/${port}/channels/${channel}`;
    const hA = await updateClient(B, A, registered.height);
    const initProof = await prove(A, path(CONTROLLER_PORT, controllerChannel), hA - 1);
    expect(fromBinary(ChannelSchema, initProof.value)).toMatchObject({ state: ChannelState.INIT, ordering: Order.ORDERED });
    const tried = await ok(B, anyPack(MsgChannelOpenTrySchema, create(MsgChannelOpenTrySchema, {
      portId: HOST_PORT,
      channel: create(ChannelSchema, { state: ChannelState.TRYOPEN, ordering: Order.ORDERED, counterparty: create(ChannelCounterpartySchema, { portId: CONTROLLER_PORT, channelId: controllerChannel }), connectionHops: [CONNECTION], version: '' }),
      counterpartyVersion: initVersion,
      proofInit: initProof.proof,
      proofHeight: proofHeight(hA),
      signer: alice.bech32,
    })));
    const tryEvent = attributes(tried.events, 'channel_open_try');
    hostChannel = tryEvent['channel_id']!;
    const hostVersion = metadataFromVersion(tryEvent['version']!);
    ica = hostVersion.address;
    expect(ica).toMatch(/^token1/);
    const account = await query(B, '/cosmos.auth.v1beta1.Query/Account', QueryAccountRequestSchema, { address: ica }, QueryAccountResponseSchema);
    expect(account.account!.typeUrl).toBe('/ibc.applications.interchain_accounts.v1.InterchainAccount');
    expect(fromBinary(InterchainAccountSchema, account.account!.value).accountOwner).toBe(CONTROLLER_PORT);

    const hB = await updateClient(A, B, tried.height);
    const tryProof = await prove(B, path(HOST_PORT, hostChannel), hB - 1);
    const acked = await ok(A, anyPack(MsgChannelOpenAckSchema, create(MsgChannelOpenAckSchema, {
      portId: CONTROLLER_PORT,
      channelId: controllerChannel,
      counterpartyChannelId: hostChannel,
      counterpartyVersion: tryEvent['version']!,
      proofTry: tryProof.proof,
      proofHeight: proofHeight(hB),
      signer: alice.bech32,
    })));
    const hA2 = await updateClient(B, A, acked.height);
    const ackProof = await prove(A, path(CONTROLLER_PORT, controllerChannel), hA2 - 1);
    await ok(B, anyPack(MsgChannelOpenConfirmSchema, create(MsgChannelOpenConfirmSchema, { portId: HOST_PORT, channelId: hostChannel, proofAck: ackProof.proof, proofHeight: proofHeight(hA2), signer: alice.bech32 })));
    for (const [side, port, channel] of [[A, CONTROLLER_PORT, controllerChannel], [B, HOST_PORT, hostChannel]] as const) {
      const enabled = await query(side, '/ibc.applications.fee.v1.Query/FeeEnabledChannel', QueryFeeEnabledChannelRequestSchema, { portId: port, channelId: channel }, QueryFeeEnabledChannelResponseSchema);
      expect(enabled.feeEnabled).toBe(false);
    }

    const fromIcamauth = await query(A, '/aioz.icamauth.v1beta1.Query/InterchainAccount', IcamauthRequestSchema, { owner: alice.bech32, connectionId: CONNECTION }, IcamauthResponseSchema);
    const fromController = await query(A, '/ibc.applications.interchain_accounts.controller.v1.Query/InterchainAccount', QueryInterchainAccountRequestSchema, { owner: alice.bech32, connectionId: CONNECTION }, QueryInterchainAccountResponseSchema);
    expect([fromIcamauth.interchainAccountAddress, fromController.address]).toEqual([ica, ica]);

    const again = await deliver(A, [anyPack(MsgRegisterAccountSchema, create(MsgRegisterAccountSchema, { owner: alice.bech32, connectionId: CONNECTION, version: PLAIN_VERSION }))]);
    expect([again.codespace, again.code]).toEqual(['interchainaccounts', 10]);
  }, 240_000);

  test('icamauth submit on A: B executes the send from the interchain account; the result ack goes back to A', async () => {
    const parsed = parseAccAddress(ica);
    expect(parsed.ok).toBe(true);
    await ok(B, msgSend(alice.bech32, ica, 100n * TOKEN));
    expect(await balance(B, ica)).toBe(100n * TOKEN);

    const submitted = await ok(A, anyPack(MsgSubmitTxSchema, create(MsgSubmitTxSchema, { owner: alice.bech32, connectionId: CONNECTION, msg: msgSend(ica, bob.bech32, 40n * TOKEN) })));
    const sendEvent = attributes(submitted.events, 'send_packet');
    expect([sendEvent['packet_src_port'], sendEvent['packet_src_channel'], sendEvent['packet_dst_port'], sendEvent['packet_dst_channel'], sendEvent['packet_sequence'], sendEvent['packet_timeout_height']]).toEqual([CONTROLLER_PORT, controllerChannel, HOST_PORT, hostChannel, '1', '0-0']);
    const blockTime = A.node.consensus.blockStore.loadBlock(submitted.height)!.header.time;
    const blockNanos = BigInt(blockTime.seconds) * 1_000_000_000n + BigInt(blockTime.nanos);
    expect(BigInt(sendEvent['packet_timeout_timestamp']!) - blockNanos).toBeLessThanOrEqual(60_000_000_000n);
    expect(BigInt(sendEvent['packet_timeout_timestamp']!) - blockNanos).toBeGreaterThan(59_000_000_000n);
    const packetData = JSON.parse(sendEvent['packet_data']!) as Record<string, string>;
    expect(Object.keys(packetData)).toEqual(['data', 'memo', 'type']);
    expect(packetData['type']).toBe('TYPE_EXECUTE_TX');

    const packet = create(PacketSchema, {
      sequence: 1n,
      sourcePort: CONTROLLER_PORT,
      sourceChannel: controllerChannel,
      destinationPort: HOST_PORT,
      destinationChannel: hostChannel,
      data: utf8.encode(sendEvent['packet_data']!),
      timeoutHeight: height(0n, 0n),
      timeoutTimestamp: BigInt(sendEvent['packet_timeout_timestamp']!),
    });
    const hA = await updateClient(B, A, submitted.height);
    const commitment = await prove(A, `commitments/ports/${CONTROLLER_PORT}/channels/${controllerChannel}/sequences/1`, hA - 1);
    const received = await ok(B, anyPack(MsgRecvPacketSchema, create(MsgRecvPacketSchema, { packet, proofCommitment: commitment.proof, proofHeight: proofHeight(hA), signer: alice.bech32 })));
    expect(attributes(received.events, 'ics27_packet')).toEqual({ module: 'interchainaccounts', host_channel_id: hostChannel, success: 'true' });
    const ack = attributes(received.events, 'write_acknowledgement')['packet_ack']!;
    const result = fromBinary(TxMsgDataSchema, Buffer.from((JSON.parse(ack) as { result: string }).result, 'base64'));
    expect(result.msgResponses.map((any) => any.typeUrl)).toEqual([`/${MsgSendResponseSchema.typeName}`]);
    expect([await balance(B, ica), await balance(B, bob.bech32)]).toEqual([60n * TOKEN, 40n * TOKEN]);

    const hB = await updateClient(A, B, received.height);
    const ackProof = await prove(B, `acks/ports/${HOST_PORT}/channels/${hostChannel}/sequences/1`, hB - 1);
    const acknowledged = await ok(A, anyPack(MsgAcknowledgementSchema, create(MsgAcknowledgementSchema, { packet, acknowledgement: utf8.encode(ack), proofAcked: ackProof.proof, proofHeight: proofHeight(hB), signer: alice.bech32 })));
    expect(attributes(acknowledged.events, 'acknowledge_packet')['packet_sequence']).toBe('1');
  }, 240_000);

  test('a MsgSendTx that times out closes the ORDERED channel; after the host end is closed, icamauth registers again on a new channel with the same account', async () => {
    const data = create(InterchainAccountPacketDataSchema, { type: Type.EXECUTE_TX, data: toBinary(CosmosTxSchema, create(CosmosTxSchema, { messages: [msgSend(ica, bob.bech32, 1n)] })) });
    const sentTx = await ok(A, anyPack(MsgSendTxSchema, create(MsgSendTxSchema, { owner: alice.bech32, connectionId: CONNECTION, packetData: data, relativeTimeout: 2_000_000_000n })));
    const sendEvent = attributes(sentTx.events, 'send_packet');
    expect(sendEvent['packet_sequence']).toBe('2');
    const deadline = BigInt(sendEvent['packet_timeout_timestamp']!);
    const packet = create(PacketSchema, { sequence: 2n, sourcePort: CONTROLLER_PORT, sourceChannel: controllerChannel, destinationPort: HOST_PORT, destinationChannel: hostChannel, data: utf8.encode(sendEvent['packet_data']!), timeoutHeight: height(0n, 0n), timeoutTimestamp: deadline });
    const past = await heightPast(B, deadline);
    const hB = await updateClient(A, B, past - 1);
    const nextRecv = await prove(B, `nextSequenceRecv/ports/${HOST_PORT}/channels/${hostChannel}`, hB - 1);
    const timedOut = await ok(A, anyPack(MsgTimeoutSchema, create(MsgTimeoutSchema, { packet, proofUnreceived: nextRecv.proof, proofHeight: proofHeight(hB), nextSequenceRecv: 2n, signer: alice.bech32 })));
    expect(timedOut.events.some((e) => e.type === 'channel_close')).toBe(true);

    // The channel is closed: nothing more goes out on it.
    const refused = await deliver(A, [anyPack(MsgSubmitTxSchema, create(MsgSubmitTxSchema, { owner: alice.bech32, connectionId: CONNECTION, msg: msgSend(ica, bob.bech32, 1n) }))]);
    expect([refused.codespace, refused.code]).toEqual(['interchainaccounts', 11]);

    // The relayer closes the host end (CloseConfirm with the proof of A's CLOSED end).
    const hA = await updateClient(B, A, timedOut.height);
    const closedProof = await prove(A, `channelEnds/ports/${CONTROLLER_PORT}/channels/${controllerChannel}`, hA - 1);
    expect(fromBinary(ChannelSchema, closedProof.value).state).toBe(ChannelState.CLOSED);
    await ok(B, anyPack(MsgChannelCloseConfirmSchema, create(MsgChannelCloseConfirmSchema, { portId: HOST_PORT, channelId: hostChannel, proofInit: closedProof.proof, proofHeight: proofHeight(hA), signer: alice.bech32 })));

    // Registering again: a new channel; B finds the existing account and reports the same address.
    const registered = await ok(A, anyPack(MsgRegisterAccountSchema, create(MsgRegisterAccountSchema, { owner: alice.bech32, connectionId: CONNECTION, version: PLAIN_VERSION })));
    const init = attributes(registered.events, 'channel_open_init');
    const newControllerChannel = init['channel_id']!;
    expect(newControllerChannel).not.toBe(controllerChannel);
    const path = (port: string, channel: string) => `channelEnds/ports/${port}/channels/${channel}`;
    const hA2 = await updateClient(B, A, registered.height);
    const initProof = await prove(A, path(CONTROLLER_PORT, newControllerChannel), hA2 - 1);
    const tried = await ok(B, anyPack(MsgChannelOpenTrySchema, create(MsgChannelOpenTrySchema, {
      portId: HOST_PORT,
      channel: create(ChannelSchema, { state: ChannelState.TRYOPEN, ordering: Order.ORDERED, counterparty: create(ChannelCounterpartySchema, { portId: CONTROLLER_PORT, channelId: newControllerChannel }), connectionHops: [CONNECTION], version: '' }),
      counterpartyVersion: init['version']!,
      proofInit: initProof.proof,
      proofHeight: proofHeight(hA2),
      signer: alice.bech32,
    })));
    const tryEvent = attributes(tried.events, 'channel_open_try');
    const newHostChannel = tryEvent['channel_id']!;
    expect(metadataFromVersion(tryEvent['version']!).address).toBe(ica);
    const hB2 = await updateClient(A, B, tried.height);
    const tryProof = await prove(B, path(HOST_PORT, newHostChannel), hB2 - 1);
    await ok(A, anyPack(MsgChannelOpenAckSchema, create(MsgChannelOpenAckSchema, {
      portId: CONTROLLER_PORT,
      channelId: newControllerChannel,
      counterpartyChannelId: newHostChannel,
      counterpartyVersion: tryEvent['version']!,
      proofTry: tryProof.proof,
      proofHeight: proofHeight(hB2),
      signer: alice.bech32,
    })));
    const resubmitted = await ok(A, anyPack(MsgSubmitTxSchema, create(MsgSubmitTxSchema, { owner: alice.bech32, connectionId: CONNECTION, msg: msgSend(ica, bob.bech32, 1n) })));
    expect([attributes(resubmitted.events, 'send_packet')['packet_src_channel'], attributes(resubmitted.events, 'send_packet')['packet_sequence']]).toEqual([newControllerChannel, '1']);
  }, 240_000);
});
