/**
 * End-to-end: two tokend chains as real processes, connected by the published TypeScript relayer
 * (@confio/relayer 0.12, used as a library). A relayer key — a plain secp256k1 Cosmos key from a
 * mnemonic, as the relayer's DirectSecp256k1HdWallet derives it — is funded at genesis on both
 * chains; the relayer creates a 07-tendermint client on each chain and opens a connection between
 * them (clients, connection handshake, proofs read with abci_query, updates with headers, commits and
 * validator sets from the RPC); both ends must be OPEN by the CLI and by REST. On that connection:
 * an ICS-20 channel with transfers both ways and a refunded timeout; an interchain account
 * registered from A with `tx icamauth register` (the relayer's IbcClient completes the ORDERED
 * channel: Link.createChannel would run its own ChanOpenInit) that executes a bank send on B
 * submitted with `tx icamauth submit`; and a fee-enabled ICS-20 channel where the relayer's
 * registered payees (`tx ibc-fee register-counterparty-payee` on B, `register-payee` on A, with the
 * relayer's key imported into the keyring) are paid the fees escrowed by `tx ibc-fee pay-packet-fee`.
 * Blocks every 200 ms; every wait is on a condition (a height, a block, the relayer's own polling).
 */
import { createHash } from 'node:crypto';
import { jest } from '@jest/globals';
import { cliOk as ok, tempHome } from '../helpers/cli.js';
import { fastBlocks, startOnFreePorts, stopNode, waitForHeight, type BackgroundNode } from '../helpers/node.js';
import { connectRelayerClient, Link, prepareChannelHandshake, relayerAddress } from '../helpers/relayer.js';
import { fromBinary } from '@bufbuild/protobuf';
import { TxMsgDataSchema } from '../../src/gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { MsgSendResponseSchema } from '../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { accString, moduleAddress } from '../../src/node/modules/shared/address.js';

jest.setTimeout(300_000);

const VALIDATOR_MNEMONIC = 'test test test test test test test test test test test junk';
const RELAYER_MNEMONIC = 'enlist hip relief stomach skate base shallow young switch frequent cry park';
const DENOM = 'attotoken';
const GAS_PRICE = `20000000000${DENOM}`;
/** ibc.core.channel.v1.Order.ORDER_UNORDERED / ORDER_ORDERED */
const ORDER_UNORDERED = 1;
const ORDER_ORDERED = 2;
/** timeout_commit of both chains, and the relayer's polling interval while it waits for a block. */
const BLOCK_TIME_MS = 200;
/** The relayer's key: DirectSecp256k1HdWallet's secp256k1 at this path (also imported into each node's keyring as `relayer`). */
const RELAYER_HD_PATH = "m/44'/60'/0'/0/0";
/** ICS-29's version over ICS-20, with ibc-go's key order (fee.v1 Metadata: fee_version, app_version). */
const FEE_VERSION = '{"fee_version":"ics29-1","app_version":"ics20-1"}';

interface Chain {
  chainId: string;
  home: string;
  bg?: BackgroundNode;
  rpc: string;
  /** The validator key's account (the `val` key of the node's keyring). */
  val: string;
}

type EventJson = { type: string; attributes: { key: string; value: string }[] };
const attribute = (events: EventJson[], type: string, key: string): string | undefined => events.find((e) => e.type === type)?.attributes.find((a) => a.key === key)?.value;

/** `tokend tx …` against the running node, signed by `from` of its keyring and committed (-b block); the TxResponse JSON. */
async function tx(chain: Chain, from: string, args: string[]): Promise<{ height: string; code: number; raw_log: string; events: EventJson[] }> {
  const flags = ['--from', from, '--chain-id', chain.chainId, '--gas', '1000000', '--fees', `200000${DENOM}`, '--keyring-backend', 'test', '--home', chain.home, '--node', chain.bg!.node, '--yes', '-b', 'block', '-o', 'json'];
  const out = JSON.parse(await ok(['tx', ...args, ...flags]));
  if (out.code !== 0) throw new Error(`tx ${args.join(' ')}: code ${out.code}: ${out.raw_log}`);
  return out;
}

/** One balance by REST (`q bank balances --denom` answers the same; a fetch spares a CLI process per check). */
async function balance(chain: Chain, address: string, denom: string): Promise<string> {
  const response = await fetch(`${chain.bg!.api}/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${encodeURIComponent(denom)}`);
  const body = (await response.json()) as { balance?: { amount: string } };
  if (!response.ok || body.balance === undefined) throw new Error(`balance of ${address} in ${denom}: ${response.status} ${JSON.stringify(body)}`);
  return body.balance.amount;
}

/** A one-validator chain with the relayer's address funded; `started` gets the node as soon as it runs. */
async function initChain(chainId: string, relayer: string, started: Chain[]): Promise<void> {
  const home = tempHome(`tokend-relayer-${chainId}-`);
  const h = ['--home', home];
  await ok(['init', 'val', '--chain-id', chainId, ...h]);
  fastBlocks(home, `${BLOCK_TIME_MS}ms`);
  const val = JSON.parse(await ok(['keys', 'add', 'val', '--recover', '--keyring-backend', 'test', '-o', 'json', ...h], VALIDATOR_MNEMONIC)).address as string;
  // The relayer operator's key in the node's keyring too, for the CLI steps a relayer takes by hand (ICS-29 payees).
  const imported = JSON.parse(await ok(['keys', 'add', 'relayer', '--recover', '--algo', 'secp256k1', '--hd-path', RELAYER_HD_PATH, '--keyring-backend', 'test', '-o', 'json', ...h], RELAYER_MNEMONIC));
  if (imported.address !== relayer) throw new Error(`the keyring derived ${imported.address} for the relayer's mnemonic, the relayer ${relayer}`);
  await ok(['add-genesis-account', 'val', `1000000000000000000000000${DENOM}`, '--keyring-backend', 'test', ...h]);
  await ok(['add-genesis-account', relayer, `1000000000000000000000000${DENOM}`, ...h]);
  await ok(['gentx', 'val', `1000000000000000000000${DENOM}`, '--chain-id', chainId, '--keyring-backend', 'test', ...h]);
  await ok(['collect-gentxs', ...h]);
  const chain: Chain = { chainId, home, rpc: '', val };
  started.push(chain);
  // Every server on a port the kernel picks; the addresses come from the node's log.
  chain.bg = await startOnFreePorts(home, 2, [], 180_000);
  chain.rpc = chain.bg.node.replace(/^tcp:\/\//, 'http://');
}

describe('two tokend chains connected by @confio/relayer', () => {
  const chains: Chain[] = [];
  /** Every node started, stopped at the end even when the other chain failed to come up. */
  const nodes: Chain[] = [];
  let relayer: { link: any; clientA: any; clientB: any } | undefined;
  let transfer: { channelA: string; channelB: string } | undefined;
  const logs: string[] = [];
  const logger = {
    error: (m: string) => logs.push(`error ${m}`),
    warn: (m: string) => logs.push(`warn ${m}`),
    info: (m: string) => logs.push(`info ${m}`),
    verbose: (m: string) => logs.push(`verbose ${m}`),
    debug: (m: string) => logs.push(`debug ${m}`),
  };

  /** Runs a relayer step; on failure, the error with the relayer's last log lines and each node's. */
  const guard = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      const nodeLogs = chains.map((chain) => `\nnode ${chain.chainId}:\n${chain.bg?.logs().slice(-2000) ?? ''}`).join('');
      throw new Error(`${what}: ${(err as Error).stack}\nrelayer log:\n${logs.slice(-40).join('\n')}${nodeLogs}`);
    }
  };

  beforeAll(async () => {
    const address = await relayerAddress(RELAYER_MNEMONIC, 'token', RELAYER_HD_PATH);
    const started: Chain[] = [];
    const settled = await Promise.allSettled([initChain('tokenda_9000-1', address, started), initChain('tokendb_9001-1', address, started)]);
    nodes.push(...started);
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
    chains.push(...['tokenda_9000-1', 'tokendb_9001-1'].map((id) => started.find((c) => c.chainId === id)!));
  });

  afterAll(async () => {
    for (const chain of nodes) if (chain.bg) await stopNode(chain.bg);
  });

  test('clients on both chains and an OPEN connection, by the CLI and REST', async () => {
    const [a, b] = chains as [Chain, Chain];
    const clientA = await connectRelayerClient({ rpc: a.rpc, prefix: 'token', gasPrice: GAS_PRICE, mnemonic: RELAYER_MNEMONIC, hdPath: RELAYER_HD_PATH, blockTimeMs: BLOCK_TIME_MS });
    const clientB = await connectRelayerClient({ rpc: b.rpc, prefix: 'token', gasPrice: GAS_PRICE, mnemonic: RELAYER_MNEMONIC, hdPath: RELAYER_HD_PATH, blockTimeMs: BLOCK_TIME_MS });
    let link;
    try {
      link = await Link.createWithNewConnections(clientA, clientB, logger);
    } catch (err) {
      throw new Error(`${(err as Error).stack}\nrelayer log:\n${logs.join('\n')}\nnode A:\n${a.bg!.logs().slice(-3000)}\nnode B:\n${b.bg!.logs().slice(-3000)}`);
    }
    const ends = [
      { chain: a, connectionId: link.endA.connectionID as string, clientId: link.endA.clientID as string, counterparty: link.endB },
      { chain: b, connectionId: link.endB.connectionID as string, clientId: link.endB.clientID as string, counterparty: link.endA },
    ];
    for (const end of ends) {
      const cli = JSON.parse(await ok(['q', 'ibc', 'connection', 'end', end.connectionId, '--node', end.chain.bg!.node, '-o', 'json']));
      expect(cli.connection).toMatchObject({
        client_id: end.clientId,
        state: 'STATE_OPEN',
        counterparty: { client_id: end.counterparty.clientID, connection_id: end.counterparty.connectionID, prefix: { key_prefix: 'aWJj' } },
        versions: [{ identifier: '1', features: ['ORDER_ORDERED', 'ORDER_UNORDERED'] }],
      });
      const rest = (await (await fetch(`${end.chain.bg!.api}/ibc/core/connection/v1/connections/${end.connectionId}`)).json()) as any;
      expect(rest.connection).toMatchObject({ client_id: end.clientId, state: 'STATE_OPEN' });
      const client = JSON.parse(await ok(['q', 'ibc', 'client', 'state', end.clientId, '--node', end.chain.bg!.node, '-o', 'json']));
      expect(client.client_state.chain_id).toBe(end.chain === a ? b.chainId : a.chainId);
    }
    relayer = { link, clientA, clientB };
  });

  test('the relayer updates both clients, re-opens the link from the connections, and scans for packets and acks', async () => {
    expect(relayer).toBeDefined();
    const { link, clientA, clientB } = relayer!;
    const [a, b] = chains as [Chain, Chain];
    // MsgUpdateClient with a new header of the other chain (headers, commits and validator sets from the RPC).
    for (const [side, chain] of [['A', a], ['B', b]] as const) {
      const before = JSON.parse(await ok(['q', 'ibc', 'client', 'state', side === 'A' ? link.endA.clientID : link.endB.clientID, '--node', chain.bg!.node, '-o', 'json']));
      const updated = await guard<any>(`updateClient ${side}`, () => link.updateClient(side === 'A' ? 'B' : 'A'));
      const after = JSON.parse(await ok(['q', 'ibc', 'client', 'state', side === 'A' ? link.endA.clientID : link.endB.clientID, '--node', chain.bg!.node, '-o', 'json']));
      expect(BigInt(after.client_state.latest_height.revision_height)).toBe(updated.revisionHeight);
      expect(BigInt(after.client_state.latest_height.revision_height)).toBeGreaterThan(BigInt(before.client_state.latest_height.revision_height));
    }
    // The link from the existing connections: the relayer checks each client's latest consensus
    // state against the other chain's header at that height.
    const again = await guard<any>('createWithExistingConnections', () => Link.createWithExistingConnections(clientA, clientB, link.endA.connectionID, link.endB.connectionID, logger));
    expect([again.endA.clientID, again.endB.clientID]).toEqual([link.endA.clientID, link.endB.clientID]);
    // No channel yet: the packet and ack scans (tx_search and block_search on send_packet /
    // write_acknowledgement by connection) find nothing to relay.
    const info = await guard('relayAll', () => link.relayAll());
    expect(info).toEqual({ packetsFromA: 0, packetsFromB: 0, acksFromA: [], acksFromB: [] });
  });

  test('an ICS-20 channel: attotoken A → B arrives as ibc/<hash> with its trace, and goes back with exact balances', async () => {
    expect(relayer).toBeDefined();
    const { link, clientA, clientB } = relayer!;
    const [a, b] = chains as [Chain, Chain];
    const channels = await guard<any>('createChannel', () => link.createChannel('A', 'transfer', 'transfer', ORDER_UNORDERED, 'ics20-1'));
    const [channelA, channelB] = [channels.src.channelId as string, channels.dest.channelId as string];
    transfer = { channelA, channelB };
    for (const [chain, channel, counterparty] of [[a, channelA, channelB], [b, channelB, channelA]] as const) {
      const end = JSON.parse(await ok(['q', 'ibc', 'channel', 'end', 'transfer', channel, '--node', chain.bg!.node, '-o', 'json']));
      expect(end.channel).toMatchObject({ state: 'STATE_OPEN', ordering: 'ORDER_UNORDERED', version: 'ics20-1', counterparty: { port_id: 'transfer', channel_id: counterparty } });
    }

    // A → B: the relayer's key sends 1000 attotoken to its own address on B.
    const sent = await guard<any>('transfer A→B', () => clientA.transferTokens('transfer', channelA, { denom: DENOM, amount: '1000' }, clientB.senderAddress, undefined, Math.floor(Date.now() / 1000) + 600));
    expect(sent.transactionHash).toMatch(/^[0-9A-F]{64}$/);
    const relayed = await guard<any>('relayAll A→B', () => link.relayAll());
    expect([relayed.packetsFromA, relayed.packetsFromB]).toEqual([1, 0]);
    const voucher = `ibc/${createHash('sha256').update(`transfer/${channelB}/${DENOM}`).digest('hex').toUpperCase()}`;
    expect(await balance(b, clientB.senderAddress, voucher)).toBe('1000');
    const trace = JSON.parse(await ok(['q', 'ibc-transfer', 'denom-trace', voucher, '--node', b.bg!.node, '-o', 'json']));
    expect(trace.denom_trace).toEqual({ path: `transfer/${channelB}`, base_denom: DENOM });
    const escrow = JSON.parse(await ok(['q', 'ibc-transfer', 'escrow-address', 'transfer', channelA, '--node', a.bg!.node, '-o', 'json'])).escrow_address;
    expect(await balance(a, escrow, DENOM)).toBe('1000');

    // B → A: 400 of the voucher back to a fresh address on A, which receives exactly 400 attotoken.
    const receiver = await relayerAddress(RELAYER_MNEMONIC, 'token', "m/44'/60'/0'/0/1");
    await guard('transfer B→A', () => clientB.transferTokens('transfer', channelB, { denom: voucher, amount: '400' }, receiver, undefined, Math.floor(Date.now() / 1000) + 600));
    const back = await guard<any>('relayAll B→A', () => link.relayAll());
    expect([back.packetsFromA, back.packetsFromB]).toEqual([0, 1]);
    expect(await balance(a, receiver, DENOM)).toBe('400');
    expect(await balance(a, escrow, DENOM)).toBe('600');
    expect(await balance(b, clientB.senderAddress, voucher)).toBe('600');
  });

  test('a packet that times out on B is refunded on A (MsgTimeout with the absence proof of its receipt)', async () => {
    expect(relayer && transfer).toBeDefined();
    const { link, clientA, clientB } = relayer!;
    const { channelA } = transfer!;
    const [a, b] = chains as [Chain, Chain];
    const escrow = JSON.parse(await ok(['q', 'ibc-transfer', 'escrow-address', 'transfer', channelA, '--node', a.bg!.node, '-o', 'json'])).escrow_address;
    const escrowed = BigInt(await balance(a, escrow, DENOM));
    const timeoutHeight = await clientB.timeoutHeight(3);
    try {
      await clientA.transferTokens('transfer', channelA, { denom: DENOM, amount: '50' }, clientB.senderAddress, timeoutHeight);
    } catch (err) {
      throw new Error(`transfer: ${(err as Error).stack}\nrelayer log:\n${logs.slice(-40).join('\n')}`);
    }
    expect(BigInt(await balance(a, escrow, DENOM))).toBe(escrowed + 50n);
    await waitForHeight(b.bg!.node, Number(timeoutHeight.revisionHeight) + 1, 180_000);
    let info;
    try {
      info = await link.relayAll();
    } catch (err) {
      throw new Error(`relayAll: ${(err as Error).stack}\nrelayer log:\n${logs.slice(-40).join('\n')}`);
    }
    // Pending packets count the timed-out one (relayed as a timeout, not to B).
    expect([info.packetsFromA, info.packetsFromB]).toEqual([1, 0]);
    expect(BigInt(await balance(a, escrow, DENOM))).toBe(escrowed);
    const commitments = JSON.parse(await ok(['q', 'ibc', 'channel', 'packet-commitments', 'transfer', channelA, '--node', a.bg!.node, '-o', 'json']));
    expect(commitments.commitments).toEqual([]);
  });

  test('an interchain account registered from A (tx icamauth register) executes a bank send on B: the relayer library completes its ORDERED channel and relays the packet and its ack', async () => {
    expect(relayer).toBeDefined();
    const { link, clientA, clientB } = relayer!;
    const [a, b] = chains as [Chain, Chain];
    const [connectionA, connectionB] = [link.endA.connectionID as string, link.endB.connectionID as string];
    const controllerPort = `icacontroller-${a.val}`;

    // The owner types `tx icamauth register`: ChanOpenInit on A with the ICS-27 metadata (no address yet).
    // With no --version the ICS-29 middleware over the controller makes the channel fee-enabled (as
    // ibc-go's does): the ICS-27 metadata travels inside the fee version.
    const registered = await tx(a, 'val', ['icamauth', 'register', '--connection-id', connectionA]);
    const controllerChannel = attribute(registered.events, 'channel_open_init', 'channel_id')!;
    const initVersion = attribute(registered.events, 'channel_open_init', 'version')!;
    expect(attribute(registered.events, 'channel_open_init', 'port_id')).toBe(controllerPort);
    const initFee = JSON.parse(initVersion);
    expect(Object.keys(initFee)).toEqual(['fee_version', 'app_version']);
    expect(initFee.fee_version).toBe('ics29-1');
    expect(JSON.parse(initFee.app_version)).toEqual({ version: 'ics27-1', controller_connection_id: connectionA, host_connection_id: connectionB, address: '', encoding: 'proto3', tx_type: 'sdk_multi_msg' });

    // Link.createChannel would run its own ChanOpenInit, so the relayer's IbcClient steps drive the rest,
    // sequenced as createChannel does: TRY on B (the host answers the metadata with its account's
    // address), ACK on A with that version, CONFIRM on B; each after a client update and a proof.
    const initProof = await guard('prove INIT', () => prepareChannelHandshake(clientA, clientB, link.endB.clientID, controllerPort, controllerChannel));
    const tried = await guard<any>('channelOpenTry', () => clientB.channelOpenTry('icahost', { portId: controllerPort, channelId: controllerChannel }, ORDER_ORDERED, connectionB, initVersion, initVersion, initProof));
    const hostChannel = tried.channelId as string;
    const hostEnd = JSON.parse(await ok(['q', 'ibc', 'channel', 'end', 'icahost', hostChannel, '--node', b.bg!.node, '-o', 'json'])).channel;
    expect(hostEnd).toMatchObject({ state: 'STATE_TRYOPEN', ordering: 'ORDER_ORDERED', counterparty: { port_id: controllerPort, channel_id: controllerChannel }, connection_hops: [connectionB] });
    const hostFee = JSON.parse(hostEnd.version);
    expect(hostFee.fee_version).toBe('ics29-1');
    const hostVersion = JSON.parse(hostFee.app_version);
    expect(hostVersion).toEqual({ ...JSON.parse(initFee.app_version), address: expect.stringMatching(/^token1/) });
    const ica = hostVersion.address as string;
    const tryProof = await guard('prove TRY', () => prepareChannelHandshake(clientB, clientA, link.endA.clientID, 'icahost', hostChannel));
    await guard('channelOpenAck', () => clientA.channelOpenAck(controllerPort, controllerChannel, hostChannel, hostEnd.version, tryProof));
    const ackProof = await guard('prove ACK', () => prepareChannelHandshake(clientA, clientB, link.endB.clientID, controllerPort, controllerChannel));
    await guard('channelOpenConfirm', () => clientB.channelOpenConfirm('icahost', hostChannel, ackProof));
    for (const [chain, port, channel] of [[a, controllerPort, controllerChannel], [b, 'icahost', hostChannel]] as const) {
      const end = JSON.parse(await ok(['q', 'ibc', 'channel', 'end', port, channel, '--node', chain.bg!.node, '-o', 'json'])).channel;
      expect(end).toMatchObject({ state: 'STATE_OPEN', ordering: 'ORDER_ORDERED', version: hostEnd.version });
    }
    const fromController = JSON.parse(await ok(['q', 'interchain-accounts', 'controller', 'interchain-account', a.val, connectionA, '--node', a.bg!.node, '-o', 'json']));
    const fromIcamauth = JSON.parse(await ok(['q', 'icamauth', 'interchainaccounts', connectionA, a.val, '--node', a.bg!.node, '-o', 'json']));
    expect([fromController.address, fromIcamauth.interchain_account_address]).toEqual([ica, ica]);

    // The account is funded on B; `tx icamauth submit` on A sends from it to a fresh address on B.
    await guard('fund the interchain account', () => clientB.sendTokens(ica, [{ denom: DENOM, amount: '5000' }]));
    const recipient = await relayerAddress(RELAYER_MNEMONIC, 'token', "m/44'/60'/0'/0/4");
    const msg = JSON.stringify({ '@type': '/cosmos.bank.v1beta1.MsgSend', from_address: ica, to_address: recipient, amount: [{ denom: DENOM, amount: '1234' }] });
    const submitted = await tx(a, 'val', ['icamauth', 'submit', msg, '--connection-id', connectionA]);
    expect([attribute(submitted.events, 'send_packet', 'packet_src_port'), attribute(submitted.events, 'send_packet', 'packet_src_channel'), attribute(submitted.events, 'send_packet', 'packet_sequence'), attribute(submitted.events, 'send_packet', 'packet_channel_ordering')]).toEqual([controllerPort, controllerChannel, '1', 'ORDER_ORDERED']);

    const relayed = await guard<any>('relayAll ICA', () => link.relayAll());
    expect([relayed.packetsFromA, relayed.packetsFromB, relayed.acksFromA.length, relayed.acksFromB.length]).toEqual([1, 0, 0, 1]);
    // The host's acknowledgement: on the fee-enabled channel an IncentivizedAcknowledgement around
    // a result (the TxMsgData of the executed MsgSend), not an error.
    const incentivized = JSON.parse(Buffer.from(relayed.acksFromB[0].acknowledgement).toString());
    expect(incentivized.underlying_app_success).toBe(true);
    const ack = JSON.parse(Buffer.from(incentivized.app_acknowledgement, 'base64').toString());
    expect(Object.keys(ack)).toEqual(['result']);
    const result = fromBinary(TxMsgDataSchema, Buffer.from(ack.result, 'base64'));
    expect(result.msgResponses.map((any) => any.typeUrl)).toEqual([`/${MsgSendResponseSchema.typeName}`]);
    expect([await balance(b, ica, DENOM), await balance(b, recipient, DENOM)]).toEqual(['3766', '1234']);
    // A processed the ack: the packet commitment is gone and the ORDERED channel stays open.
    const commitments = JSON.parse(await ok(['q', 'ibc', 'channel', 'packet-commitments', controllerPort, controllerChannel, '--node', a.bg!.node, '-o', 'json']));
    expect(commitments.commitments).toEqual([]);
    expect(JSON.parse(await ok(['q', 'ibc', 'channel', 'end', controllerPort, controllerChannel, '--node', a.bg!.node, '-o', 'json'])).channel.state).toBe('STATE_OPEN');
  });

  test('an incentivized transfer on a fee-enabled channel pays its relayer (ICS-29): the receive fee to its counterparty payee, the ack fee to its payee, the timeout fee back to the payer', async () => {
    expect(relayer).toBeDefined();
    const { link, clientA } = relayer!;
    const [a, b] = chains as [Chain, Chain];
    const channels = await guard<any>('createChannel (fee)', () => link.createChannel('A', 'transfer', 'transfer', ORDER_UNORDERED, FEE_VERSION));
    const [channelA, channelB] = [channels.src.channelId as string, channels.dest.channelId as string];
    for (const [chain, channel] of [[a, channelA], [b, channelB]] as const) {
      const end = JSON.parse(await ok(['q', 'ibc', 'channel', 'end', 'transfer', channel, '--node', chain.bg!.node, '-o', 'json'])).channel;
      expect(end).toMatchObject({ state: 'STATE_OPEN', version: FEE_VERSION });
      expect(JSON.parse(await ok(['q', 'ibc-fee', 'channel', 'transfer', channel, '--node', chain.bg!.node, '-o', 'json'])).fee_enabled).toBe(true);
    }

    // The relayer operator registers where its fees go: on B, the address on A that receives the
    // receive fees for the packets it delivers there; on A, the payee of its acknowledgement fees.
    const relayerKey = clientA.senderAddress as string;
    const recvPayee = await relayerAddress(RELAYER_MNEMONIC, 'token', "m/44'/60'/0'/0/2");
    const ackPayee = await relayerAddress(RELAYER_MNEMONIC, 'token', "m/44'/60'/0'/0/3");
    await tx(b, 'relayer', ['ibc-fee', 'register-counterparty-payee', 'transfer', channelB, recvPayee]);
    await tx(a, 'relayer', ['ibc-fee', 'register-payee', 'transfer', channelA, ackPayee]);
    expect(JSON.parse(await ok(['q', 'ibc-fee', 'counterparty-payee', channelB, relayerKey, '--node', b.bg!.node, '-o', 'json'])).counterparty_payee).toBe(recvPayee);
    expect(JSON.parse(await ok(['q', 'ibc-fee', 'payee', channelA, relayerKey, '--node', a.bg!.node, '-o', 'json'])).payee_address).toBe(ackPayee);

    // A user on A sends 777 attotoken to B and escrows fees for that packet (MsgPayPacketFeeAsync).
    const receiver = await relayerAddress(RELAYER_MNEMONIC, 'token', "m/44'/60'/0'/0/5");
    const sent = await tx(a, 'val', ['ibc-transfer', 'transfer', 'transfer', channelA, receiver, `777${DENOM}`]);
    const sequence = attribute(sent.events, 'send_packet', 'packet_sequence')!;
    expect(sequence).toBe('1');
    const paid = await tx(a, 'val', ['ibc-fee', 'pay-packet-fee', 'transfer', channelA, sequence, '--recv-fee', `1000${DENOM}`, '--ack-fee', `500${DENOM}`, '--timeout-fee', `250${DENOM}`]);
    expect(attribute(paid.events, 'incentivized_ibc_packet', 'recv_fee')).toBe(`1000${DENOM}`);
    const feeModule = accString(moduleAddress('feeibc'));
    expect(await balance(a, feeModule, DENOM)).toBe('1750');
    const pending = JSON.parse(await ok(['q', 'ibc-fee', 'packets', '--node', a.bg!.node, '-o', 'json'])).incentivized_packets;
    expect(pending).toHaveLength(1);
    const payerBefore = BigInt(await balance(a, a.val, DENOM));

    const relayed = await guard<any>('relayAll (fee)', () => link.relayAll());
    expect([relayed.packetsFromA, relayed.packetsFromB, relayed.acksFromB.length]).toEqual([1, 0, 1]);
    // B's acknowledgement names the forward relayer: its registered counterparty payee.
    const ack = JSON.parse(Buffer.from(relayed.acksFromB[0].acknowledgement).toString());
    expect(ack).toMatchObject({ forward_relayer_address: recvPayee, underlying_app_success: true });
    expect(JSON.parse(Buffer.from(ack.app_acknowledgement, 'base64').toString())).toEqual({ result: 'AQ==' });
    const voucher = `ibc/${createHash('sha256').update(`transfer/${channelB}/${DENOM}`).digest('hex').toUpperCase()}`;
    expect(await balance(b, receiver, voucher)).toBe('777');
    expect([await balance(a, recvPayee, DENOM), await balance(a, ackPayee, DENOM), await balance(a, feeModule, DENOM)]).toEqual(['1000', '500', '0']);
    expect(BigInt(await balance(a, a.val, DENOM)) - payerBefore).toBe(250n);
    expect(JSON.parse(await ok(['q', 'ibc-fee', 'packets', '--node', a.bg!.node, '-o', 'json'])).incentivized_packets).toEqual([]);
  });
});
