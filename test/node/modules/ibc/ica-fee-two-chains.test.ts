/**
 * ICS-27 under ICS-29 between two real tokend chains run in-process (the app's own module set,
 * clients and connection-0 as in ica-two-chains.test.ts): icamauth registers alice's interchain
 * account from A with the fee-wrapped version `{"fee_version":"ics29-1","app_version":"<ICS-27
 * metadata>"}`; the handshake relayed with real proofs makes the channel fee-enabled on both ends
 * while ICS-27's own negotiation (the host's address in TRY) works inside the wrapping. A
 * MsgSubmitTx paid for by MsgPayPacketFee in the same tx is relayed to B and executed there; B's
 * acknowledgement is an IncentivizedAcknowledgement carrying the forward relayer; relaying it to
 * A pays the receive fee to the counterparty payee, the ack fee to the payee and refunds the
 * timeout fee. A paid packet that times out pays its timeout fee and closes the ORDERED channel;
 * registering again with the fee version reopens to the same account (both ends compare against
 * the closed channel's unwrapped version). An empty version through MsgRegisterInterchainAccount
 * is fee-wrapped as well (the middleware's default), and a wrong fee version is refused with
 * nothing written.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { MsgRegisterAccountSchema, MsgSubmitTxSchema } from '../../../../src/gen/aioz/icamauth/v1beta1/tx_pb.js';
import { QueryAccountInfoRequestSchema, QueryAccountInfoResponseSchema } from '../../../../src/gen/cosmos/auth/v1beta1/query_pb.js';
import { TxMsgDataSchema } from '../../../../src/gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { QueryBalanceRequestSchema, QueryBalanceResponseSchema } from '../../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { MsgSendResponseSchema } from '../../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { QueryFeeEnabledChannelRequestSchema, QueryFeeEnabledChannelResponseSchema } from '../../../../src/gen/ibc/applications/fee/v1/query_pb.js';
import { MsgPayPacketFeeSchema, MsgRegisterCounterpartyPayeeSchema, MsgRegisterPayeeSchema } from '../../../../src/gen/ibc/applications/fee/v1/tx_pb.js';
import { MsgRegisterInterchainAccountResponseSchema, MsgRegisterInterchainAccountSchema } from '../../../../src/gen/ibc/applications/interchain_accounts/controller/v1/tx_pb.js';
import { QueryInterchainAccountRequestSchema, QueryInterchainAccountResponseSchema } from '../../../../src/gen/ibc/applications/interchain_accounts/controller/v1/query_pb.js';
import { ChannelSchema, CounterpartySchema as ChannelCounterpartySchema, Order, PacketSchema, State as ChannelState } from '../../../../src/gen/ibc/core/channel/v1/channel_pb.js';
import { MsgAcknowledgementSchema, MsgChannelCloseConfirmSchema, MsgChannelOpenAckSchema, MsgChannelOpenConfirmSchema, MsgChannelOpenTrySchema, MsgRecvPacketSchema, MsgTimeoutSchema } from '../../../../src/gen/ibc/core/channel/v1/tx_pb.js';
import { MsgSendTxSchema } from '../../../../src/gen/ibc/applications/interchain_accounts/controller/v1/tx_pb.js';
import { CosmosTxSchema, InterchainAccountPacketDataSchema, Type } from '../../../../src/gen/ibc/applications/interchain_accounts/v1/packet_pb.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { defaultMetadata, metadataFromVersion, metadataToVersion } from '../../../../src/node/modules/ibc/apps/ica/types.js';
import { accString, moduleAddress } from '../../../../src/node/modules/shared/address.js';
import { DENOM, TOKEN, msgSend, testKey } from '../../app/helpers.js';
import { alice, bob } from '../../services/helpers.js';
import { height } from '../../../helpers/ibcHeaders.js';
import { CONNECTION, attributeMap as attributes, deliver, heightPast, ok, openConnection, proofHeight, prove, query, response, startChains, stopChains, updateClient, type Side } from '../../../helpers/ibcChains.js';

const CONTROLLER_PORT = `icacontroller-${alice.bech32}`;
const HOST_PORT = 'icahost';
const ICS27_VERSION = metadataToVersion(defaultMetadata(CONNECTION, CONNECTION));
const FEE_VERSION = JSON.stringify({ fee_version: 'ics29-1', app_version: ICS27_VERSION });
const FEE_MODULE = accString(moduleAddress('feeibc'));
const forward = testKey('ica-fee-forward-relayer');
const payee = testKey('ica-fee-payee');
const carol = testKey('ica-fee-carol');
const utf8 = new TextEncoder();

let A: Side;
let B: Side;

async function balance(side: Side, address: string): Promise<bigint> {
  const answer = await query(side, '/cosmos.bank.v1beta1.Query/Balance', QueryBalanceRequestSchema, { address, denom: DENOM }, QueryBalanceResponseSchema);
  return BigInt(answer.balance?.amount ?? '0');
}

async function feeEnabled(side: Side, portId: string, channelId: string): Promise<boolean> {
  return (await query(side, '/ibc.applications.fee.v1.Query/FeeEnabledChannel', QueryFeeEnabledChannelRequestSchema, { portId, channelId }, QueryFeeEnabledChannelResponseSchema)).feeEnabled;
}

/** The fee metadata of a version, and the ICS-27 metadata inside it. */
function unwrap(version: string): { feeVersion: string; ica: ReturnType<typeof metadataFromVersion> } {
  const fee = JSON.parse(version) as { fee_version: string; app_version: string };
  expect(Object.keys(fee)).toEqual(['fee_version', 'app_version']);
  return { feeVersion: fee.fee_version, ica: metadataFromVersion(fee.app_version) };
}

beforeAll(async () => {
  [A, B] = await startChains({ chainId: 'icafeea-1' }, { chainId: 'icafeeb-1' });
  await openConnection(A, B);
}, 120_000);

afterAll(async () => {
  await stopChains(A, B);
});

describe('an interchain account on a fee-enabled channel', () => {
  let controllerChannel = '';
  let hostChannel = '';
  let ica = '';

  test('a wrong fee version is refused by the middleware with the ICS-29 error; nothing is registered', async () => {
    const wrong = JSON.stringify({ fee_version: 'ics29-2', app_version: ICS27_VERSION });
    const refused = await deliver(A, [anyPack(MsgRegisterAccountSchema, create(MsgRegisterAccountSchema, { owner: alice.bech32, connectionId: CONNECTION, version: wrong }))]);
    expect([refused.codespace, refused.code]).toEqual(['feeibc', 2]);
    expect(refused.log).toContain('expected ics29-1, got ics29-2');
    const registered = await query(A, '/ibc.applications.interchain_accounts.controller.v1.Query/InterchainAccount', QueryInterchainAccountRequestSchema, { owner: alice.bech32, connectionId: CONNECTION }, QueryInterchainAccountResponseSchema).catch((err: Error) => err);
    expect(registered).toBeInstanceOf(Error);
  }, 120_000);

  test('icamauth register with the fee-wrapped version: the handshake keeps the wrapping, B fills the address inside it, both ends are fee-enabled', async () => {
    const registered = await ok(A, anyPack(MsgRegisterAccountSchema, create(MsgRegisterAccountSchema, { owner: alice.bech32, connectionId: CONNECTION, version: FEE_VERSION })));
    const init = attributes(registered.events, 'channel_open_init');
    controllerChannel = init['channel_id']!;
    expect(init['version']).toBe(FEE_VERSION);

    const path = (port: string, channel: string) => `channelEnds/ports/${port}/channels/${channel}`;
    const hA = await updateClient(B, A, registered.height);
    const initProof = await prove(A, path(CONTROLLER_PORT, controllerChannel), hA - 1);
    const tried = await ok(B, anyPack(MsgChannelOpenTrySchema, create(MsgChannelOpenTrySchema, {
      portId: HOST_PORT,
      channel: create(ChannelSchema, { state: ChannelState.TRYOPEN, ordering: Order.ORDERED, counterparty: create(ChannelCounterpartySchema, { portId: CONTROLLER_PORT, channelId: controllerChannel }), connectionHops: [CONNECTION], version: '' }),
      counterpartyVersion: FEE_VERSION,
      proofInit: initProof.proof,
      proofHeight: proofHeight(hA),
      signer: alice.bech32,
    })));
    const tryEvent = attributes(tried.events, 'channel_open_try');
    hostChannel = tryEvent['channel_id']!;
    const hostVersion = tryEvent['version']!;
    const { feeVersion, ica: hostMetadata } = unwrap(hostVersion);
    expect(feeVersion).toBe('ics29-1');
    ica = hostMetadata.address;
    expect(ica).toMatch(/^token1/);
    expect(metadataToVersion({ ...hostMetadata, address: '' })).toBe(ICS27_VERSION);

    const hB = await updateClient(A, B, tried.height);
    const tryProof = await prove(B, path(HOST_PORT, hostChannel), hB - 1);
    const acked = await ok(A, anyPack(MsgChannelOpenAckSchema, create(MsgChannelOpenAckSchema, {
      portId: CONTROLLER_PORT,
      channelId: controllerChannel,
      counterpartyChannelId: hostChannel,
      counterpartyVersion: hostVersion,
      proofTry: tryProof.proof,
      proofHeight: proofHeight(hB),
      signer: alice.bech32,
    })));
    const hA2 = await updateClient(B, A, acked.height);
    const ackProof = await prove(A, path(CONTROLLER_PORT, controllerChannel), hA2 - 1);
    expect(fromBinary(ChannelSchema, ackProof.value)).toMatchObject({ state: ChannelState.OPEN, version: hostVersion });
    await ok(B, anyPack(MsgChannelOpenConfirmSchema, create(MsgChannelOpenConfirmSchema, { portId: HOST_PORT, channelId: hostChannel, proofAck: ackProof.proof, proofHeight: proofHeight(hA2), signer: alice.bech32 })));

    // The controller recorded the address it read inside the fee version in OpenAck.
    const fromController = await query(A, '/ibc.applications.interchain_accounts.controller.v1.Query/InterchainAccount', QueryInterchainAccountRequestSchema, { owner: alice.bech32, connectionId: CONNECTION }, QueryInterchainAccountResponseSchema);
    expect(fromController.address).toBe(ica);
    expect([await feeEnabled(A, CONTROLLER_PORT, controllerChannel), await feeEnabled(B, HOST_PORT, hostChannel)]).toEqual([true, true]);
  }, 240_000);

  test('a paid MsgSubmitTx is executed on B; its incentivized acknowledgement pays the relayers on A', async () => {
    await ok(B, msgSend(alice.bech32, ica, 100n * TOKEN));
    // The relayer (alice) registers where its fees go: the receive fee's address on B's channel end, the ack fee's on A's.
    await ok(B, anyPack(MsgRegisterCounterpartyPayeeSchema, create(MsgRegisterCounterpartyPayeeSchema, { portId: HOST_PORT, channelId: hostChannel, relayer: alice.bech32, counterpartyPayee: forward.bech32 })));
    await ok(A, anyPack(MsgRegisterPayeeSchema, create(MsgRegisterPayeeSchema, { portId: CONTROLLER_PORT, channelId: controllerChannel, relayer: alice.bech32, payee: payee.bech32 })));

    const coins = (amount: bigint) => [{ denom: DENOM, amount: amount.toString() }];
    const payFee = anyPack(MsgPayPacketFeeSchema, create(MsgPayPacketFeeSchema, { fee: { recvFee: coins(1000n), ackFee: coins(500n), timeoutFee: coins(250n) }, sourcePortId: CONTROLLER_PORT, sourceChannelId: controllerChannel, signer: alice.bech32, relayers: [] }));
    const submit = anyPack(MsgSubmitTxSchema, create(MsgSubmitTxSchema, { owner: alice.bech32, connectionId: CONNECTION, msg: msgSend(ica, bob.bech32, 40n * TOKEN) }));
    const submitted = await deliver(A, [payFee, submit]);
    expect([submitted.code, submitted.log]).toEqual([0, '']);
    expect(attributes(submitted.events, 'incentivized_ibc_packet')).toMatchObject({ port_id: CONTROLLER_PORT, channel_id: controllerChannel, packet_sequence: '1', recv_fee: `1000${DENOM}`, ack_fee: `500${DENOM}`, timeout_fee: `250${DENOM}` });
    expect(await balance(A, FEE_MODULE)).toBe(1750n);
    const sendEvent = attributes(submitted.events, 'send_packet');
    expect([sendEvent['packet_src_port'], sendEvent['packet_src_channel'], sendEvent['packet_sequence']]).toEqual([CONTROLLER_PORT, controllerChannel, '1']);

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
    const bobBefore = await balance(B, bob.bech32);
    const hA = await updateClient(B, A, submitted.height);
    const commitment = await prove(A, `commitments/ports/${CONTROLLER_PORT}/channels/${controllerChannel}/sequences/1`, hA - 1);
    const received = await ok(B, anyPack(MsgRecvPacketSchema, create(MsgRecvPacketSchema, { packet, proofCommitment: commitment.proof, proofHeight: proofHeight(hA), signer: alice.bech32 })));
    expect(attributes(received.events, 'ics27_packet')).toEqual({ module: 'interchainaccounts', host_channel_id: hostChannel, success: 'true' });
    expect([await balance(B, ica), (await balance(B, bob.bech32)) - bobBefore]).toEqual([60n * TOKEN, 40n * TOKEN]);

    // B's acknowledgement: the IncentivizedAcknowledgement around ICS-27's result.
    const ackText = attributes(received.events, 'write_acknowledgement')['packet_ack']!;
    const incentivized = JSON.parse(ackText) as { app_acknowledgement: string; forward_relayer_address: string; underlying_app_success: boolean };
    expect(Object.keys(incentivized)).toEqual(['app_acknowledgement', 'forward_relayer_address', 'underlying_app_success']);
    expect([incentivized.forward_relayer_address, incentivized.underlying_app_success]).toEqual([forward.bech32, true]);
    const appAck = JSON.parse(Buffer.from(incentivized.app_acknowledgement, 'base64').toString()) as { result: string };
    const result = fromBinary(TxMsgDataSchema, Buffer.from(appAck.result, 'base64'));
    expect(result.msgResponses.map((any) => any.typeUrl)).toEqual([`/${MsgSendResponseSchema.typeName}`]);

    const aliceBefore = await balance(A, alice.bech32);
    const hB = await updateClient(A, B, received.height);
    const afterUpdate = await balance(A, alice.bech32);
    const ackProof = await prove(B, `acks/ports/${HOST_PORT}/channels/${hostChannel}/sequences/1`, hB - 1);
    const acknowledged = await ok(A, anyPack(MsgAcknowledgementSchema, create(MsgAcknowledgementSchema, { packet, acknowledgement: utf8.encode(ackText), proofAcked: ackProof.proof, proofHeight: proofHeight(hB), signer: alice.bech32 })));
    expect(attributes(acknowledged.events, 'acknowledge_packet')['packet_sequence']).toBe('1');
    expect(acknowledged.events.filter((e) => e.type === 'distribute_fee').map((e) => e.attributes.filter((a) => a.key !== 'msg_index').map((a) => a.value))).toEqual([
      [forward.bech32, `1000${DENOM}`],
      [payee.bech32, `500${DENOM}`],
      [alice.bech32, `250${DENOM}`],
    ]);
    expect([await balance(A, forward.bech32), await balance(A, payee.bech32), await balance(A, FEE_MODULE)]).toEqual([1000n, 500n, 0n]);
    // alice paid 20000 for each tx (update, ack) and got the timeout fee back as the payer.
    expect(afterUpdate - aliceBefore).toBe(-20_000n);
    expect((await balance(A, alice.bech32)) - afterUpdate).toBe(-20_000n + 250n);
  }, 240_000);

  test('a paid packet that times out pays its timeout fee and closes the channel; registering again with the fee version reopens to the same account', async () => {
    const data = create(InterchainAccountPacketDataSchema, { type: Type.EXECUTE_TX, data: toBinary(CosmosTxSchema, create(CosmosTxSchema, { messages: [msgSend(ica, bob.bech32, 1n)] })) });
    const coins = (amount: bigint) => [{ denom: DENOM, amount: amount.toString() }];
    const payFee = anyPack(MsgPayPacketFeeSchema, create(MsgPayPacketFeeSchema, { fee: { recvFee: coins(10n), ackFee: coins(20n), timeoutFee: coins(30n) }, sourcePortId: CONTROLLER_PORT, sourceChannelId: controllerChannel, signer: alice.bech32, relayers: [] }));
    const sentTx = await deliver(A, [payFee, anyPack(MsgSendTxSchema, create(MsgSendTxSchema, { owner: alice.bech32, connectionId: CONNECTION, packetData: data, relativeTimeout: 2_000_000_000n }))]);
    expect([sentTx.code, sentTx.log]).toEqual([0, '']);
    const sendEvent = attributes(sentTx.events, 'send_packet');
    expect(sendEvent['packet_sequence']).toBe('2');
    const deadline = BigInt(sendEvent['packet_timeout_timestamp']!);
    const packet = create(PacketSchema, { sequence: 2n, sourcePort: CONTROLLER_PORT, sourceChannel: controllerChannel, destinationPort: HOST_PORT, destinationChannel: hostChannel, data: utf8.encode(sendEvent['packet_data']!), timeoutHeight: height(0n, 0n), timeoutTimestamp: deadline });
    const past = await heightPast(B, deadline);
    const hB = await updateClient(A, B, past - 1);
    const nextRecv = await prove(B, `nextSequenceRecv/ports/${HOST_PORT}/channels/${hostChannel}`, hB - 1);
    const payeeBefore = await balance(A, payee.bech32);
    const timedOut = await ok(A, anyPack(MsgTimeoutSchema, create(MsgTimeoutSchema, { packet, proofUnreceived: nextRecv.proof, proofHeight: proofHeight(hB), nextSequenceRecv: 2n, signer: alice.bech32 })));
    expect(timedOut.events.some((e) => e.type === 'channel_close')).toBe(true);
    expect([(await balance(A, payee.bech32)) - payeeBefore, await balance(A, FEE_MODULE)]).toEqual([30n, 0n]);

    const hA = await updateClient(B, A, timedOut.height);
    const closedProof = await prove(A, `channelEnds/ports/${CONTROLLER_PORT}/channels/${controllerChannel}`, hA - 1);
    await ok(B, anyPack(MsgChannelCloseConfirmSchema, create(MsgChannelCloseConfirmSchema, { portId: HOST_PORT, channelId: hostChannel, proofInit: closedProof.proof, proofHeight: proofHeight(hA), signer: alice.bech32 })));

    // Both ends compare the new metadata with the closed channel's unwrapped version.
    const registered = await ok(A, anyPack(MsgRegisterAccountSchema, create(MsgRegisterAccountSchema, { owner: alice.bech32, connectionId: CONNECTION, version: FEE_VERSION })));
    const init = attributes(registered.events, 'channel_open_init');
    const newControllerChannel = init['channel_id']!;
    expect(newControllerChannel).not.toBe(controllerChannel);
    const hA2 = await updateClient(B, A, registered.height);
    const initProof = await prove(A, `channelEnds/ports/${CONTROLLER_PORT}/channels/${newControllerChannel}`, hA2 - 1);
    const tried = await ok(B, anyPack(MsgChannelOpenTrySchema, create(MsgChannelOpenTrySchema, {
      portId: HOST_PORT,
      channel: create(ChannelSchema, { state: ChannelState.TRYOPEN, ordering: Order.ORDERED, counterparty: create(ChannelCounterpartySchema, { portId: CONTROLLER_PORT, channelId: newControllerChannel }), connectionHops: [CONNECTION], version: '' }),
      counterpartyVersion: init['version']!,
      proofInit: initProof.proof,
      proofHeight: proofHeight(hA2),
      signer: alice.bech32,
    })));
    const tryEvent = attributes(tried.events, 'channel_open_try');
    expect(unwrap(tryEvent['version']!).ica.address).toBe(ica);
    expect(await feeEnabled(B, HOST_PORT, tryEvent['channel_id']!)).toBe(true);
  }, 240_000);

  test('MsgRegisterInterchainAccount with an empty version opens a fee-enabled channel with the default ICS-27 metadata inside', async () => {
    await ok(A, msgSend(alice.bech32, carol.bech32, 10n * TOKEN));
    const info = await query(A, '/cosmos.auth.v1beta1.Query/AccountInfo', QueryAccountInfoRequestSchema, { address: carol.bech32 }, QueryAccountInfoResponseSchema);
    const registered = await deliver(A, [anyPack(MsgRegisterInterchainAccountSchema, create(MsgRegisterInterchainAccountSchema, { owner: carol.bech32, connectionId: CONNECTION, version: '' }))], { signer: carol, sequence: 0n, accountNumber: info.info!.accountNumber });
    expect([registered.code, registered.log]).toEqual([0, '']);
    const channelId = response(registered, MsgRegisterInterchainAccountResponseSchema).channelId;
    const init = attributes(registered.events, 'channel_open_init');
    expect([init['port_id'], init['channel_id']]).toEqual([`icacontroller-${carol.bech32}`, channelId]);
    const { feeVersion, ica: metadata } = unwrap(init['version']!);
    expect(feeVersion).toBe('ics29-1');
    expect(metadataToVersion(metadata)).toBe(ICS27_VERSION);
    expect(await feeEnabled(A, `icacontroller-${carol.bech32}`, channelId)).toBe(true);
  }, 120_000);
});
