/**
 * Two tokend chains run in-process (app + BFT engine, one validator each), the relayer's part
 * played by the test — the scaffolding shared by the two-chain IBC tests.
 *
 * - A `Side` is one chain as the relayer sees it: its chain id, the running node, the next
 *   sequence of alice's account there, and the height this chain's 07-tendermint client of the
 *   other chain was last updated to. `startChains()` starts both and waits for height 3.
 * - `deliver(side, msgs)` signs (alice unless told), checkTx's into the mempool and waits for the
 *   block that carries the tx; its result and height. `ok()` delivers one message and expects
 *   code 0; `response()` decodes a tx's first message response.
 * - `updateClient(side, other, above)` updates `side`'s client of `other` with other's real signed
 *   header at `above + 1` (trusting the client's last height) — so other's app hash after block
 *   `above` is provable on `side`; it returns that header height H.
 * - `prove(side, key, H - 1)` proves a key of the chain's `ibc` store (`abci_query
 *   /store/ibc/key prove=true`) at the version header H commits to, as a MerkleProof.
 * - `openConnection(A, B)` creates each chain's client of the other (from header 2) and runs the
 *   connection handshake INIT on A → TRY on B → ACK on A → CONFIRM on B (connection-0 both ends).
 * - The test application "mock" (port mock, version mock-1): `startMockChains()` runs it on both
 *   chains (straight on core, or under a middleware via `stack`); `send()`/`sent()` queue a packet
 *   that its EndBlock sends; it acks what it receives ("fail" gets an error acknowledgement).
 */
import { expect } from '@jest/globals';
import { create, fromBinary, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { AnySchema, TimestampSchema, type Any } from '@bufbuild/protobuf/wkt';
import { TxMsgDataSchema } from '../../src/gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { CommitmentProofSchema } from '../../src/gen/cosmos/ics23/v1/proofs_pb.js';
import { MsgCreateClientSchema, MsgUpdateClientSchema } from '../../src/gen/ibc/core/client/v1/tx_pb.js';
import { MerklePrefixSchema, MerkleProofSchema, MerkleRootSchema } from '../../src/gen/ibc/core/commitment/v1/commitment_pb.js';
import { ConnectionEndSchema, CounterpartySchema } from '../../src/gen/ibc/core/connection/v1/connection_pb.js';
import { MsgConnectionOpenAckSchema, MsgConnectionOpenConfirmSchema, MsgConnectionOpenInitSchema, MsgConnectionOpenTrySchema } from '../../src/gen/ibc/core/connection/v1/tx_pb.js';
import { ClientStateSchema, ConsensusStateSchema, HeaderSchema } from '../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { CommitSchema, HeaderSchema as TmHeaderSchema, SignedHeaderSchema } from '../../src/gen/tendermint/types/types_pb.js';
import type { AbciEvent, ExecTxResult } from '../../src/node/abci/types.js';
import { encodeCommit, encodeHeader, txHash } from '../../src/node/consensus/types/block.js';
import { anyPack } from '../../src/node/codec/index.js';
import { abciQuery, signTx } from '../node/app/helpers.js';
import { alice, startFullNode, waitFor, type FullNode } from '../node/services/helpers.js';
import { height, protoValidatorSet, testClientState } from './ibcHeaders.js';
import { APP_MODULES, MODULE_ORDERS } from '../../src/node/app/modules.js';
import type { CapabilityKeeper } from '../../src/node/modules/capability/keeper.js';
import type { Height } from '../../src/node/modules/ibc/core/client/height.js';
import { channelCapabilityPath, portPath } from '../../src/node/modules/ibc/core/port/keeper.js';
import type { Capability, IbcModule } from '../../src/node/modules/ibc/core/port/types.js';
import type { IbcKeeper } from '../../src/node/modules/ibc/module.js';
import { newEvent } from '../../src/node/modules/shared/events.js';
import { defineModule, type ModuleDeclaration, type ModuleDeps } from '../../src/node/platform/module.js';

/** The client id each chain gives its (first) client of the other. */
export const CLIENT = '07-tendermint-0';
/** The connection id of the connection `openConnection()` opens, on both chains. */
export const CONNECTION = 'connection-0';
const utf8 = new TextEncoder();

/** One chain as the relayer sees it. */
export interface Side {
  id: string;
  node: FullNode;
  /** The next sequence of alice's account on this chain. */
  sequence: bigint;
  /** This chain's client of the other chain: its latest height. */
  clientHeight: number;
}

export type Delivered = ExecTxResult & { height: number };

/** Starts two chains (options per chain passed to startFullNode) and waits for height 3 on both. */
export async function startChains(a: Parameters<typeof startFullNode>[0] & { chainId: string }, b: Parameters<typeof startFullNode>[0] & { chainId: string }): Promise<[Side, Side]> {
  const [nodeA, nodeB] = await Promise.all([startFullNode({ indexer: 'null', ...a }), startFullNode({ indexer: 'null', ...b })]);
  await Promise.all([nodeA.waitForHeight(3), nodeB.waitForHeight(3)]);
  return [
    { id: a.chainId, node: nodeA, sequence: 0n, clientHeight: 0 },
    { id: b.chainId, node: nodeB, sequence: 0n, clientHeight: 0 },
  ];
}

/** Stops both chains (either may be unset if startup failed). */
export async function stopChains(...sides: (Side | undefined)[]): Promise<void> {
  for (const side of sides) await side?.node.stop();
}

/** The 07-tendermint header of `side`'s block `h`, trusting its height `trusted`. */
export function headerOf(side: Side, h: number, trusted: number) {
  const block = side.node.consensus.blockStore.loadBlock(h)!;
  const commit = side.node.consensus.blockStore.loadBlockCommit(h)!;
  const validators = (at: number) => protoValidatorSet(side.node.consensus.stateStore.loadValidators(at)!);
  return create(HeaderSchema, {
    signedHeader: create(SignedHeaderSchema, { header: fromBinary(TmHeaderSchema, encodeHeader(block.header)), commit: fromBinary(CommitSchema, encodeCommit(commit)) }),
    validatorSet: validators(h),
    trustedHeight: height(1n, BigInt(trusted)),
    trustedValidators: validators(trusted + 1),
  });
}

/** The 07-tendermint consensus state of `side`'s block `h`. */
export function consensusStateOf(side: Side, h: number) {
  const header = side.node.consensus.blockStore.loadBlock(h)!.header;
  return create(ConsensusStateSchema, {
    timestamp: create(TimestampSchema, { seconds: BigInt(header.time.seconds), nanos: header.time.nanos }),
    root: create(MerkleRootSchema, { hash: header.appHash }),
    nextValidatorsHash: header.nextValidatorsHash,
  });
}

export interface DeliverOptions {
  /** The signer (alice unless given). */
  signer?: typeof alice;
  /** An explicit account sequence; then `side.sequence` (alice's) is neither used nor advanced. */
  sequence?: bigint;
  accountNumber?: bigint;
  gas?: bigint;
}

/**
 * Signs, submits to the chain's mempool and waits for the block with the tx; its result. A tx
 * checkTx refuses throws, with the CheckTx answer attached as `checked`.
 */
export async function deliver(side: Side, msgs: Any[], options: DeliverOptions = {}): Promise<Delivered> {
  const own = options.sequence === undefined;
  const tx = signTx({
    signer: options.signer ?? alice,
    msgs,
    sequence: options.sequence ?? side.sequence,
    accountNumber: options.accountNumber ?? 0n,
    fee: 20_000n,
    gas: options.gas ?? 4_000_000n,
    chainId: side.id,
  });
  const from = side.node.consensus.blockStore.height();
  const checked = await side.node.consensus.mempool.checkTx(tx);
  if (checked.code !== 0) throw Object.assign(new Error(`checkTx: ${checked.log}`), { checked });
  if (own) side.sequence++;
  const hash = Buffer.from(txHash(tx)).toString('hex');
  let found: { height: number; index: number } | undefined;
  await waitFor(
    () => {
      const store = side.node.consensus.blockStore;
      for (let h = from + 1; h <= store.height() && found === undefined; h++) {
        const index = store.loadBlock(h)!.data.txs.findIndex((t) => Buffer.from(txHash(t)).toString('hex') === hash);
        if (index >= 0) found = { height: h, index };
      }
      return found !== undefined;
    },
    30_000,
    'the tx in a block',
  );
  await side.node.waitForHeight(found!.height);
  const result = side.node.consensus.stateStore.loadFinalizeBlockResponse(found!.height)!.txResults[found!.index]!;
  return { ...result, height: found!.height };
}

/**
 * A tx as a relayer sees it: refused by CheckTx (the ibc module's redundant-relay decorator runs
 * packet messages there, as ibc-go's does), with `stage: 'check'` and no height; otherwise
 * delivered in a block, `stage: 'deliver'`.
 */
export async function attempt(side: Side, msgs: Any[], options: DeliverOptions = {}): Promise<Delivered & { stage: 'check' | 'deliver' }> {
  try {
    return { ...(await deliver(side, msgs, options)), stage: 'deliver' };
  } catch (err) {
    const checked = (err as { checked?: ExecTxResult }).checked;
    if (checked === undefined) throw err;
    return { ...checked, height: -1, stage: 'check' };
  }
}

/** Delivers one message and expects it to succeed. */
export async function ok(side: Side, msg: Any, options?: DeliverOptions): Promise<Delivered> {
  const result = await deliver(side, [msg], options);
  expect([result.code, result.log]).toEqual([0, '']);
  return result;
}

/** The first message response of a tx, decoded. */
export function response<Desc extends DescMessage>(result: Delivered, schema: Desc): MessageShape<Desc> {
  return fromBinary(schema, fromBinary(TxMsgDataSchema, result.data).msgResponses[0]!.value);
}

/** The attributes (without msg_index) of the first event of `type`, in order. */
export function attributeList(events: readonly AbciEvent[], type: string): [string, string][] {
  const event = events.find((e) => e.type === type);
  if (event === undefined) throw new Error(`no ${type} event in ${events.map((e) => e.type).join(', ')}`);
  return event.attributes.filter((a) => a.key !== 'msg_index').map((a) => [a.key, a.value]);
}

/** The attributes (without msg_index) of the first event of `type`, by key. */
export function attributeMap(events: readonly AbciEvent[], type: string): Record<string, string> {
  return Object.fromEntries(attributeList(events, type));
}

/** The block time of `side`'s block `h`, in nanoseconds since the epoch (as packet timeouts count). */
export function blockTimeNs(side: Side, h: number): bigint {
  const t = side.node.consensus.blockStore.loadBlock(h)!.header.time;
  return BigInt(t.seconds) * 1_000_000_000n + BigInt(t.nanos);
}

/** Waits for `side`'s first block whose time is at or past `deadline` (ns); its height. */
export async function heightPast(side: Side, deadline: bigint): Promise<number> {
  let past = 0;
  await waitFor(
    () => {
      const h = side.node.consensus.blockStore.height();
      if (h > 0 && blockTimeNs(side, h) >= deadline) past = h;
      return past > 0;
    },
    30_000,
    `${side.id}'s block time past the deadline`,
  );
  return past;
}

/** Updates `side`'s client of `other` to other's header above `above` (above + 1); that height. */
export async function updateClient(side: Side, other: Side, above: number, options?: DeliverOptions): Promise<number> {
  const target = above + 1;
  await other.node.waitForHeight(target + 1);
  await ok(side, anyPack(MsgUpdateClientSchema, create(MsgUpdateClientSchema, { clientId: CLIENT, header: anyPack(HeaderSchema, headerOf(other, target, side.clientHeight)), signer: alice.bech32 })), options);
  side.clientHeight = target;
  return target;
}

/** A proof of `key` in the chain's ibc store at version `h` (a MerkleProof of the answer's ops; their types in `opTypes`). */
export async function prove(side: Side, key: string, h: number): Promise<{ value: Uint8Array; proof: Uint8Array; opTypes: string[] }> {
  const answer = await side.node.app.query({ path: '/store/ibc/key', data: utf8.encode(key), height: h, prove: true });
  expect(answer.code).toBe(0);
  const ops = answer.proofOps!.ops;
  return {
    value: answer.value,
    proof: toBinary(MerkleProofSchema, create(MerkleProofSchema, { proofs: ops.map((op) => fromBinary(CommitmentProofSchema, op.data)) })),
    opTypes: ops.map((op) => op.type),
  };
}

/** A gRPC query through ABCI on `side`'s app; throws on a non-zero code. */
export async function query<Res extends DescMessage>(side: Side, method: string, req: DescMessage, init: Record<string, unknown>, res: Res): Promise<MessageShape<Res>> {
  const { value, response: answer } = await abciQuery(side.node.app, method, toBinary(req, create(req, init)), res);
  if (answer.code !== 0) throw new Error(answer.log);
  return value!;
}

/** The merkle prefix of the ibc store. */
export const ibcPrefix = () => create(MerklePrefixSchema, { keyPrefix: utf8.encode('ibc') });
/** A revision-1 height. */
export const proofHeight = (h: number) => height(1n, BigInt(h));

/** Each chain's client of the other (from the other's header 2). */
export async function createClients(A: Side, B: Side, options?: DeliverOptions): Promise<void> {
  for (const [side, other] of [[A, B], [B, A]] as const) {
    await ok(side, anyPack(MsgCreateClientSchema, create(MsgCreateClientSchema, {
      clientState: anyPack(ClientStateSchema, testClientState(other.id, height(1n, 2n))),
      consensusState: anyPack(ConsensusStateSchema, consensusStateOf(other, 2)),
      signer: alice.bech32,
    })), options);
    side.clientHeight = 2;
  }
}

/** Clients of each other and connection-0 OPEN on both (as connection-handshake.test.ts checks step by step). */
export async function openConnection(A: Side, B: Side): Promise<void> {
  await createClients(A, B);
  const init = await ok(A, anyPack(MsgConnectionOpenInitSchema, create(MsgConnectionOpenInitSchema, {
    clientId: CLIENT,
    counterparty: create(CounterpartySchema, { clientId: CLIENT, connectionId: '', prefix: ibcPrefix() }),
    signer: alice.bech32,
  })));
  const hA = await updateClient(B, A, init.height);
  const initProof = await prove(A, `connections/${CONNECTION}`, hA - 1);
  const clientOfB = await prove(A, `clients/${CLIENT}/clientState`, hA - 1);
  const consensusB = await prove(A, `clients/${CLIENT}/consensusStates/1-${A.clientHeight}`, hA - 1);
  const tried = await ok(B, anyPack(MsgConnectionOpenTrySchema, create(MsgConnectionOpenTrySchema, {
    clientId: CLIENT,
    clientState: fromBinary(AnySchema, clientOfB.value),
    counterparty: create(CounterpartySchema, { clientId: CLIENT, connectionId: CONNECTION, prefix: ibcPrefix() }),
    counterpartyVersions: fromBinary(ConnectionEndSchema, initProof.value).versions,
    proofHeight: proofHeight(hA),
    proofInit: initProof.proof,
    proofClient: clientOfB.proof,
    proofConsensus: consensusB.proof,
    consensusHeight: proofHeight(A.clientHeight),
    signer: alice.bech32,
  })));
  const hB = await updateClient(A, B, tried.height);
  const tryProof = await prove(B, `connections/${CONNECTION}`, hB - 1);
  const clientOfA = await prove(B, `clients/${CLIENT}/clientState`, hB - 1);
  const consensusA = await prove(B, `clients/${CLIENT}/consensusStates/1-${B.clientHeight}`, hB - 1);
  const acked = await ok(A, anyPack(MsgConnectionOpenAckSchema, create(MsgConnectionOpenAckSchema, {
    connectionId: CONNECTION,
    counterpartyConnectionId: CONNECTION,
    version: fromBinary(ConnectionEndSchema, tryProof.value).versions[0]!,
    clientState: fromBinary(AnySchema, clientOfA.value),
    proofHeight: proofHeight(hB),
    proofTry: tryProof.proof,
    proofClient: clientOfA.proof,
    proofConsensus: consensusA.proof,
    consensusHeight: proofHeight(B.clientHeight),
    signer: alice.bech32,
  })));
  const hA2 = await updateClient(B, A, acked.height);
  const ackProof = await prove(A, `connections/${CONNECTION}`, hA2 - 1);
  await ok(B, anyPack(MsgConnectionOpenConfirmSchema, create(MsgConnectionOpenConfirmSchema, { connectionId: CONNECTION, proofAck: ackProof.proof, proofHeight: proofHeight(hA2), signer: alice.bech32 })));
}

// ------------------------------------------------------------------ the test application "mock"

/** The port, first channel and version of the test application. */
export const MOCK_PORT = 'mock';
export const MOCK_CHANNEL = 'channel-0';
export const MOCK_VERSION = 'mock-1';
const text = new TextDecoder();

/** A packet the test queues on a chain's mock application; sent in its next EndBlock. */
export interface SendRequest {
  data: Uint8Array;
  timeoutHeight: Height;
  timeoutTimestamp: bigint;
  /** Send with a capability object the keeper never issued (same index). */
  forged?: boolean;
  /** The channel on port mock (channel-0 unless given). */
  channel?: string;
  done: (result: { sequence: bigint; height: number } | { error: Error }) => void;
}

/** How the mock application is mounted: by default straight on core (route = the app, ICS4 = the channel keeper). */
export interface MockStackOptions {
  /** Modules the mock needs besides capability and ibc (e.g. a middleware's). */
  requires?: string[];
  /** Wraps the app's callbacks into the routed module and the ICS4 wrapper it sends through. */
  stack?: (callbacks: IbcModule, ibc: IbcKeeper, deps: ModuleDeps) => { ibcModule: IbcModule; ics4: Pick<IbcKeeper['channelKeeper'], 'sendPacket'> };
}

/** A test-only IBC application: claims what core hands it, acks packets ("fail" gets an error ack), sends what the test queues in its EndBlock. */
export function mockModule(queue: SendRequest[], options: MockStackOptions = {}): ModuleDeclaration {
  return defineModule<object>({
    name: MOCK_PORT,
    consensusVersion: 1,
    requires: ['capability', 'ibc', ...(options.requires ?? [])],
    create(deps) {
      const ibc = deps.keeper<IbcKeeper>('ibc');
      const scoped = deps.keeper<CapabilityKeeper>('capability').scopeToModule(MOCK_PORT);
      const callbacks: IbcModule = {
        onChanOpenInit(ctx, _order, _hops, portId, channelId, chanCap, _counterparty, version) {
          scoped.claimCapability(ctx, chanCap, channelCapabilityPath(portId, channelId));
          return version === '' ? MOCK_VERSION : version;
        },
        onChanOpenTry(ctx, _order, _hops, portId, channelId, chanCap, _counterparty, counterpartyVersion) {
          if (counterpartyVersion !== MOCK_VERSION) throw new Error(`invalid counterparty version: expected ${MOCK_VERSION}, got ${counterpartyVersion}`);
          scoped.claimCapability(ctx, chanCap, channelCapabilityPath(portId, channelId));
          return MOCK_VERSION;
        },
        onChanOpenAck() {},
        onChanOpenConfirm() {},
        onChanCloseInit(_ctx, _portId, channelId) {
          if (channelId === MOCK_CHANNEL) throw new Error('user cannot close channel');
        },
        onChanCloseConfirm() {},
        onRecvPacket(ctx, packet) {
          const data = text.decode(packet.data);
          ctx.events.emit(newEvent('mock_recv', ['data', data]));
          if (data === 'fail') return { success: false, bytes: utf8.encode('{"error":"mock refused the packet"}') };
          return { success: true, bytes: utf8.encode(`{"result":"${Buffer.from(`got ${data}`).toString('base64')}"}`) };
        },
        onAcknowledgementPacket(ctx, packet, acknowledgement) {
          ctx.events.emit(newEvent('mock_ack', ['sequence', packet.sequence.toString()], ['ack', text.decode(acknowledgement)]));
        },
        onTimeoutPacket(ctx, packet) {
          ctx.events.emit(newEvent('mock_timeout', ['sequence', packet.sequence.toString()]));
        },
      };
      const stack = options.stack?.(callbacks, ibc, deps) ?? { ibcModule: callbacks, ics4: ibc.channelKeeper };
      ibc.router.addRoute(MOCK_PORT, stack.ibcModule);
      return {
        keeper: {},
        genesis: {
          default: () => ({}),
          validate: () => [],
          init: async (ctx) => {
            if (!ibc.portKeeper.isBound(ctx, MOCK_PORT)) scoped.claimCapability(ctx, ibc.portKeeper.bindPort(ctx, MOCK_PORT), portPath(MOCK_PORT));
          },
          export: async () => ({}),
        },
        endBlock: async (ctx) => {
          for (const request of queue.splice(0)) {
            try {
              const channel = request.channel ?? MOCK_CHANNEL;
              const cap = scoped.getCapability(ctx, channelCapabilityPath(MOCK_PORT, channel))!;
              const used: Capability = request.forged ? { index: cap.index } : cap;
              const sequence = stack.ics4.sendPacket(ctx, used, MOCK_PORT, channel, request.timeoutHeight, request.timeoutTimestamp, request.data);
              request.done({ sequence, height: ctx.blockHeight });
            } catch (err) {
              request.done({ error: err as Error });
            }
          }
        },
      };
    },
  });
}

/** The app's module set plus the mock application (last in InitGenesis, ExportGenesis and EndBlock). */
export function mockModuleSet(queue: SendRequest[], options?: MockStackOptions) {
  const withMock = (order: readonly string[]) => [...order, MOCK_PORT];
  return {
    modules: [...APP_MODULES, mockModule(queue, options)],
    orders: { ...MODULE_ORDERS, initGenesis: withMock(MODULE_ORDERS.initGenesis), exportGenesis: withMock(MODULE_ORDERS.exportGenesis), endBlock: withMock(MODULE_ORDERS.endBlock) },
  };
}

/** A chain running the mock application, with its send queue. */
export type MockSide = Side & { queue: SendRequest[] };

/** Starts two chains with the mock application (as startChains). */
export async function startMockChains(chainA: string, chainB: string, options?: MockStackOptions): Promise<[MockSide, MockSide]> {
  const queueA: SendRequest[] = [];
  const queueB: SendRequest[] = [];
  const [a, b] = await startChains({ chainId: chainA, appOptions: { moduleSet: mockModuleSet(queueA, options) } }, { chainId: chainB, appOptions: { moduleSet: mockModuleSet(queueB, options) } });
  return [{ ...a, queue: queueA }, { ...b, queue: queueB }];
}

/** Queues a packet on `side`'s mock application; it is sent in the next EndBlock. */
export function send(side: MockSide, request: Omit<SendRequest, 'done'>): Promise<{ sequence: bigint; height: number } | { error: Error }> {
  return new Promise((resolve) => side.queue.push({ ...request, done: resolve }));
}

/** As send(), throwing the error of a refused send; waits until the sending block is committed. */
export async function sent(side: MockSide, request: Omit<SendRequest, 'done'>): Promise<{ sequence: bigint; height: number }> {
  const result = await send(side, request);
  if ('error' in result) throw result.error;
  await side.node.waitForHeight(result.height);
  return result;
}
