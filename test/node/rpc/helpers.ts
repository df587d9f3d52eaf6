/**
 * RPC test fixtures: a small "transfer" ABCI application emitting SDK-like events, and a whole
 * node in-process — the real consensus engine (one validator, memory database), the indexer
 * service and the RPC server on 127.0.0.1 with an ephemeral port.
 *
 * Txs are UTF-8 text:
 *   send:<from>:<to>:<amount>   transfer events (message, transfer, coin_spent, coin_received; index:true)
 *   fee:<from>:<to>:<amount>    the same plus a first transfer of 1token to fee_collector (two transfer events)
 *   k=v                          sets k (kv.key event)
 *   fail:<anything>              executes with code 5 ("insufficient funds")
 * CheckTx refuses anything else with code 2.
 */
import { createHash } from 'node:crypto';
import type {
  AbciEvent,
  Application,
  ExecTxResult,
  RequestFinalizeBlock,
  ResponseCheckTx,
  ResponseFinalizeBlock,
  ResponseInfo,
  ResponseQuery,
} from '../../../src/node/abci/types.js';
import { createConsensus, type Consensus } from '../../../src/node/consensus/index.js';
import { FilePV, generateNodeKey, type NodeKey } from '../../../src/node/consensus/privval.js';
import { defaultConsensusParams } from '../../../src/node/consensus/types/params.js';
import { pubKeyAddress } from '../../../src/node/consensus/types/keys.js';
import { timestampNow } from '../../../src/node/consensus/types/time.js';
import type { GenesisDoc } from '../../../src/node/consensus/types/genesis.js';
import type { Logger } from '../../../src/node/logger.js';
import { memoryDatabase, type Database } from '../../../src/node/store/db/database.js';
import { IndexerService } from '../../../src/node/indexer/service.js';
import type { IndexerOptions } from '../../../src/node/indexer/options.js';
import { RpcServer, type RpcAddress } from '../../../src/node/rpc/server.js';
import { rpcEnvironment } from '../../../src/node/rpc/wiring.js';
import type { RpcOptions } from '../../../src/node/rpc/options.js';
import type { RpcEnvironment } from '../../../src/node/rpc/environment.js';
import { EventBus } from '../../../src/node/consensus/events.js';
import type { MempoolReader } from '../../../src/node/consensus/mempool/mempool.js';
import { ConsensusError } from '../../../src/node/consensus/errors.js';
import { NullBlockIndexer } from '../../../src/node/indexer/blockIndex.js';
import { NullTxIndexer } from '../../../src/node/indexer/txIndex.js';

/**
 * Where the servers these helpers start run their HTTP side: on the test's thread (default) or on a
 * thread of their own ([rpc] http_thread; the *.thread.test.ts files set it before loading a suite).
 * Kept answers are off here (no state height to check them against); kept.test.ts covers them.
 */
export const rpcMode = { thread: false };

function threadOptions(): { thread?: boolean; stateHeight?: () => number; watchStateHeight?: () => () => void } {
  return rpcMode.thread ? { thread: true, stateHeight: () => -1, watchStateHeight: () => () => undefined } : {};
}

const enc = new TextEncoder();
const dec = new TextDecoder();

export const utf8 = (s: string): Uint8Array => enc.encode(s);

function attr(key: string, value: string, index = true): { key: string; value: string; index: boolean } {
  return { key, value, index };
}

/** The events a bank send emits (COMPAT §4, without the fee part). */
export function transferEvents(from: string, to: string, amount: string): AbciEvent[] {
  return [
    { type: 'message', attributes: [attr('action', '/cosmos.bank.v1beta1.MsgSend'), attr('sender', from), attr('module', 'bank'), attr('msg_index', '0')] },
    { type: 'coin_spent', attributes: [attr('spender', from), attr('amount', amount), attr('msg_index', '0')] },
    { type: 'coin_received', attributes: [attr('receiver', to), attr('amount', amount), attr('msg_index', '0')] },
    { type: 'transfer', attributes: [attr('recipient', to), attr('sender', from), attr('amount', amount), attr('msg_index', '0')] },
    { type: 'message', attributes: [attr('sender', from), attr('msg_index', '0'), attr('memo', 'not indexed', false)] },
  ];
}

export class TransferApp implements Application {
  state = new Map<string, string>();
  height = 0;
  appHash: Uint8Array = new Uint8Array(0);
  private pending: { height: number; state: Map<string, string>; appHash: Uint8Array } | undefined;
  /** Make CheckTx slow (ms) to test timeouts. */
  checkTxDelayMs = 0;

  private static hash(state: Map<string, string>): Uint8Array {
    const lines = [...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}\n`);
    return new Uint8Array(createHash('sha256').update(lines.join('')).digest());
  }

  async info(): Promise<ResponseInfo> {
    return { data: 'transferapp', version: '1.2.3', appVersion: 1n, lastBlockHeight: this.height, lastBlockAppHash: this.appHash };
  }

  async initChain(): Promise<{ validators: []; appHash: Uint8Array }> {
    this.appHash = TransferApp.hash(this.state);
    return { validators: [], appHash: this.appHash };
  }

  static valid(text: string): boolean {
    return /^(send|fee):[^:]+:[^:]+:\d+[a-z]+$/.test(text) || /^[^=:]+=.*$/.test(text) || text.startsWith('fail:');
  }

  async checkTx(req: { tx: Uint8Array }): Promise<ResponseCheckTx> {
    if (this.checkTxDelayMs) await new Promise((r) => setTimeout(r, this.checkTxDelayMs));
    const ok = TransferApp.valid(dec.decode(req.tx));
    return {
      code: ok ? 0 : 2,
      data: new Uint8Array(0),
      log: ok ? '' : 'tx parse error',
      info: '',
      gasWanted: 100n,
      gasUsed: ok ? 50n : 0n,
      events: [],
      codespace: ok ? '' : 'sdk',
    };
  }

  async prepareProposal(req: { txs: Uint8Array[] }): Promise<{ txs: Uint8Array[] }> {
    return { txs: req.txs };
  }

  async processProposal(): Promise<{ status: 'accept' }> {
    return { status: 'accept' };
  }

  async finalizeBlock(req: RequestFinalizeBlock): Promise<ResponseFinalizeBlock> {
    const state = new Map(this.state);
    const txResults: ExecTxResult[] = req.txs.map((tx) => {
      const text = dec.decode(tx);
      const base = { data: new Uint8Array(0), log: '', info: '', gasWanted: 100n, gasUsed: 60n, codespace: '' };
      if (text.startsWith('send:') || text.startsWith('fee:')) {
        const [kind, from, to, amount] = text.split(':') as [string, string, string, string];
        state.set(`balance/${to}`, amount);
        const fee: AbciEvent[] = kind === 'fee' ? [{ type: 'transfer', attributes: [attr('recipient', 'fee_collector'), attr('sender', from), attr('amount', '1token')] }] : [];
        return { ...base, code: 0, data: utf8('sent'), events: [...fee, ...transferEvents(from, to, amount)] };
      }
      if (text.startsWith('fail:')) return { ...base, code: 5, log: 'insufficient funds', codespace: 'sdk', events: [] };
      const i = text.indexOf('=');
      state.set(text.slice(0, i), text.slice(i + 1));
      return { ...base, code: 0, events: [{ type: 'kv', attributes: [attr('key', text.slice(0, i))] }] };
    });
    const appHash = TransferApp.hash(state);
    this.pending = { height: req.height, state, appHash };
    return {
      events: [
        { type: 'mint', attributes: [attr('amount', String(req.height * 10)), attr('mode', 'BeginBlock')] },
        { type: 'block_parity', attributes: [attr('parity', req.height % 2 === 0 ? 'even' : 'odd'), attr('hidden', 'x', false)] },
      ],
      txResults,
      validatorUpdates: [],
      appHash,
    };
  }

  async commit(): Promise<{ retainHeight: number }> {
    if (this.pending) {
      this.state = this.pending.state;
      this.height = this.pending.height;
      this.appHash = this.pending.appHash;
      this.pending = undefined;
    }
    return { retainHeight: 0 };
  }

  async query(req: { data: Uint8Array; path: string; height: number }): Promise<ResponseQuery> {
    const key = dec.decode(req.data);
    const value = this.state.get(key);
    if (req.path !== '/store/key') {
      return { code: 6, log: 'unknown query path: unknown request', info: '', index: 0n, key: new Uint8Array(0), value: new Uint8Array(0), height: this.height, codespace: 'sdk' };
    }
    return {
      code: value === undefined ? 22 : 0,
      log: value === undefined ? 'key not found' : '',
      info: '',
      index: 0n,
      key: req.data,
      value: value === undefined ? new Uint8Array(0) : utf8(value),
      height: req.height || this.height,
      codespace: value === undefined ? 'sdk' : '',
    };
  }
}

export function makeGenesis(pv: FilePV, chainId = 'rpc-test'): GenesisDoc {
  return {
    genesisTime: timestampNow(),
    chainId,
    initialHeight: 1,
    consensusParams: defaultConsensusParams(),
    validators: [{ address: pubKeyAddress(pv.pubKey), pubKey: pv.pubKey, power: 10n, name: 'val0' }],
    appHash: new Uint8Array(0),
    appStateJson: '{"accounts":[{"address":"token1abc","balance":"100000000000000000000"}],"big":123456789012345678901234567890}',
    layout: 'cometbft',
  };
}

export interface TestNode {
  consensus: Consensus;
  app: TransferApp;
  db: Database;
  indexer: IndexerService;
  server: RpcServer;
  address: RpcAddress;
  nodeKey: NodeKey;
  stop(): Promise<void>;
}

export interface TestNodeOptions {
  rpc?: Partial<RpcOptions>;
  indexer?: Partial<IndexerOptions>;
  /** Produce blocks only when txs arrive (default true: fewer empty blocks, deterministic tests). */
  waitForTxs?: boolean;
  logger?: Logger;
  rpcLogger?: Logger;
}

export async function startNode(opts: TestNodeOptions = {}): Promise<TestNode> {
  const pv = FilePV.generate();
  const nodeKey = generateNodeKey();
  const app = new TransferApp();
  const db = memoryDatabase();
  const genesis = makeGenesis(pv);
  const consensus = await createConsensus({
    db,
    app,
    genesis,
    privValidator: pv,
    nodeKey,
    options: {
      timeoutProposeMs: 800,
      timeoutPrevoteMs: 200,
      timeoutPrecommitMs: 200,
      timeoutCommitMs: 10,
      skipTimeoutCommit: true,
      createEmptyBlocks: opts.waitForTxs === false,
      createEmptyBlocksIntervalMs: 0,
    },
    ...(opts.logger ? { logger: opts.logger } : {}),
  });
  const indexer = new IndexerService({
    db,
    blockStore: consensus.blockStore,
    stateStore: consensus.stateStore,
    eventBus: consensus.eventBus,
    options: opts.indexer ?? {},
  });
  await indexer.start();
  const env = rpcEnvironment({
    consensus,
    app,
    indexer,
    nodeInfo: { id: nodeKey.id, listenAddr: 'tcp://0.0.0.0:26656', network: genesis.chainId, moniker: 'rpc-test-node' },
  });
  const server = new RpcServer({ env, options: { laddr: 'tcp://127.0.0.1:0', ...opts.rpc }, ...(opts.rpcLogger ? { logger: opts.rpcLogger } : {}), ...threadOptions() });
  await consensus.start();
  const address = await server.start();
  return {
    consensus,
    app,
    db,
    indexer,
    server,
    address,
    nodeKey,
    stop: async () => {
      await server.stop();
      await consensus.stop();
      await indexer.stop();
    },
  };
}

export async function waitFor(check: () => boolean, timeoutMs = 15000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** POST one JSON-RPC request; returns the HTTP status and the parsed body. */
export async function post(url: string, body: unknown, raw = false): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: raw ? (body as string) : JSON.stringify(body) });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : '';
  } catch {
    // keep text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function get(url: string): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url);
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

let nextId = 1;

/** Call a method over POST and return `result` (throws with the error object otherwise). */
export async function call(url: string, method: string, params: Record<string, unknown> = {}): Promise<any> {
  const { body } = await post(url, { jsonrpc: '2.0', id: nextId++, method, params });
  if (body.error) throw Object.assign(new Error(`${method}: ${body.error.message}: ${body.error.data}`), { rpc: body.error });
  return body.result;
}

export function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/**
 * A node-less environment: empty stores, a mempool that accepts txs (via the app's CheckTx, with
 * CometBFT's duplicate refusal) and never commits them, and a plain event bus the test publishes on.
 */
export function fakeEnvironment(overrides: Partial<RpcEnvironment> = {}): { env: RpcEnvironment; bus: EventBus; app: TransferApp } {
  const app = new TransferApp();
  const bus = new EventBus();
  const pv = FilePV.generate();
  const genesis = makeGenesis(pv, 'fake-chain');
  const seen = new Set<string>();
  const pool: Uint8Array[] = [];
  const mempool: MempoolReader = {
    size: () => pool.length,
    sizeBytes: () => pool.reduce((n, tx) => n + tx.length, 0),
    reapMaxTxs: (limit: number) => (limit < 0 ? [...pool] : pool.slice(0, limit)),
    has: () => false,
    checkTx: async (tx: Uint8Array) => {
      const key = Buffer.from(tx).toString('hex');
      if (seen.has(key)) throw new ConsensusError('MEMPOOL_TX_IN_CACHE', 'tx already exists in cache');
      seen.add(key);
      const res = await app.checkTx({ tx });
      if (res.code === 0) pool.push(tx);
      return res;
    },
  };
  const blockStore = {
    base: () => 0,
    height: () => 0,
    loadBlock: () => undefined,
    loadBlockByHash: () => undefined,
    loadBlockMeta: () => undefined,
    loadBlockMetaByHash: () => undefined,
    loadBlockBytes: () => undefined,
    loadBlockCommit: () => undefined,
    loadSeenCommit: () => undefined,
  };
  const stateStore = {
    load: () => undefined,
    loadValidators: () => undefined,
    loadConsensusParams: (h: number) => (h === 1 ? defaultConsensusParams() : undefined),
    loadFinalizeBlockResponse: () => undefined,
    loadFinalizeBlockEvents: () => undefined,
  };
  const env: RpcEnvironment = {
    blockStore,
    stateStore,
    app,
    mempool,
    eventBus: bus,
    genesis,
    status: () => ({
      chainId: genesis.chainId,
      nodeId: 'ab'.repeat(20),
      latestBlockHash: new Uint8Array(0),
      latestAppHash: new Uint8Array(0),
      latestBlockHeight: 0,
      latestBlockTime: { seconds: 0, nanos: 0 },
      earliestBlockHash: new Uint8Array(0),
      earliestAppHash: new Uint8Array(0),
      earliestBlockHeight: 0,
      earliestBlockTime: { seconds: 0, nanos: 0 },
      catchingUp: false,
      validatorInfo: { address: pv.address, pubKey: pv.pubKey, votingPower: 10n },
    }),
    nodeInfo: () => ({ id: 'ab'.repeat(20), listenAddr: 'tcp://0.0.0.0:26656', network: genesis.chainId, moniker: 'fake' }),
    txIndexer: new NullTxIndexer(),
    blockIndexer: new NullBlockIndexer(),
    ...overrides,
  };
  return { env, bus, app };
}

export async function startFakeServer(
  overrides: Partial<RpcEnvironment> = {},
  options: Partial<RpcOptions> = {},
): Promise<{ server: RpcServer; url: string; bus: EventBus; app: TransferApp; env: RpcEnvironment }> {
  const { env, bus, app } = fakeEnvironment(overrides);
  const server = new RpcServer({ env, options: { laddr: 'tcp://127.0.0.1:0', ...options }, ...threadOptions() });
  const { url } = await server.start();
  return { server, url, bus, app, env };
}
