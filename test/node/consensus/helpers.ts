/**
 * Test fixtures: a tiny key/value ABCI application and builders for single- and multi-validator
 * consensus setups over memoryDatabase.
 */
import { createHash } from 'node:crypto';
import type {
  Application,
  ExecTxResult,
  RequestFinalizeBlock,
  RequestInitChain,
  ResponseCheckTx,
  ResponseFinalizeBlock,
  ResponseQuery,
} from '../../../src/node/abci/types.js';
import { memoryDatabase, type Database } from '../../../src/node/store/db/database.js';
import { createConsensus, type Consensus, type ConsensusConfig } from '../../../src/node/consensus/index.js';
import { FilePV } from '../../../src/node/consensus/privval.js';
import { P2PNode, type MemoryNetwork } from '../../../src/node/p2p/index.js';
import type { NodeKey } from '../../../src/node/consensus/privval.js';
import type { ConsensusOptions } from '../../../src/node/consensus/options.js';
import { defaultConsensusParams } from '../../../src/node/consensus/types/params.js';
import { pubKeyAddress } from '../../../src/node/consensus/types/keys.js';
import { timestampNow } from '../../../src/node/consensus/types/time.js';
import type { GenesisDoc } from '../../../src/node/consensus/types/genesis.js';
import type { WAL } from '../../../src/node/consensus/state/wal.js';
import type { Logger } from '../../../src/node/logger.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

export interface KvSnapshot {
  height: number;
  appHash: Uint8Array;
  state: Map<string, string>;
}

/**
 * A key/value app: tx "k=v" sets k; app hash = sha256 of the sorted "k=v\n" lines. Commit makes
 * the block's writes durable in `committed` (what survives a "crash").
 */
export class KvApp implements Application {
  committed: KvSnapshot;
  private pending: { height: number; state: Map<string, string>; appHash: Uint8Array } | undefined;
  readonly calls: string[] = [];
  finalizeCount = 0;
  initChainCount = 0;
  /** When set, ProcessProposal rejects every block (to force rounds without a decision). */
  rejectProposals = false;
  /** When > 0, Commit asks the engine to keep only this many recent blocks. */
  retainBlocks = 0;
  /** Misbehavior reported in FinalizeBlock (duplicate-vote evidence), by height. */
  readonly misbehavior: { height: number; items: RequestFinalizeBlock['misbehavior'] }[] = [];

  constructor(snapshot?: KvSnapshot) {
    this.committed = snapshot
      ? { height: snapshot.height, appHash: snapshot.appHash, state: new Map(snapshot.state) }
      : { height: 0, appHash: new Uint8Array(0), state: new Map() };
  }

  static hashState(state: Map<string, string>): Uint8Array {
    const lines = [...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}\n`);
    return new Uint8Array(createHash('sha256').update(lines.join('')).digest());
  }

  snapshot(): KvSnapshot {
    return { height: this.committed.height, appHash: this.committed.appHash, state: new Map(this.committed.state) };
  }

  private static parse(tx: Uint8Array): [string, string] | undefined {
    const text = dec.decode(tx);
    const i = text.indexOf('=');
    if (i <= 0) return undefined;
    return [text.slice(0, i), text.slice(i + 1)];
  }

  async info(): Promise<{ data: string; version: string; appVersion: bigint; lastBlockHeight: number; lastBlockAppHash: Uint8Array }> {
    this.calls.push('info');
    return { data: 'kvstore', version: '1.0.0', appVersion: 1n, lastBlockHeight: this.committed.height, lastBlockAppHash: this.committed.appHash };
  }

  async initChain(req: RequestInitChain): Promise<{ validators: []; appHash: Uint8Array }> {
    this.calls.push('initChain');
    this.initChainCount++;
    const state = new Map<string, string>();
    const text = dec.decode(req.appStateBytes);
    if (text) for (const [k, v] of Object.entries(JSON.parse(text) as Record<string, string>)) state.set(k, String(v));
    this.committed = { height: 0, appHash: KvApp.hashState(state), state };
    return { validators: [], appHash: this.committed.appHash };
  }

  async checkTx(req: { tx: Uint8Array }): Promise<ResponseCheckTx> {
    this.calls.push('checkTx');
    const ok = KvApp.parse(req.tx) !== undefined;
    return { code: ok ? 0 : 1, data: new Uint8Array(0), log: ok ? '' : 'tx must be k=v', info: '', gasWanted: 1n, gasUsed: 0n, events: [], codespace: ok ? '' : 'kv' };
  }

  async prepareProposal(req: { txs: Uint8Array[]; maxTxBytes: number }): Promise<{ txs: Uint8Array[] }> {
    return { txs: req.txs };
  }

  async processProposal(req: { txs: Uint8Array[] }): Promise<{ status: 'accept' | 'reject' }> {
    if (this.rejectProposals) return { status: 'reject' };
    return { status: req.txs.every((tx) => KvApp.parse(tx)) ? 'accept' : 'reject' };
  }

  async finalizeBlock(req: RequestFinalizeBlock): Promise<ResponseFinalizeBlock> {
    this.calls.push(`finalizeBlock:${req.height}`);
    this.finalizeCount++;
    if (req.misbehavior.length > 0) this.misbehavior.push({ height: req.height, items: req.misbehavior });
    if (req.height !== this.committed.height + 1 && this.committed.height !== 0) {
      throw new Error(`kv app: finalizeBlock ${req.height} after committed height ${this.committed.height}`);
    }
    const state = new Map(this.committed.state);
    const validatorUpdates: ResponseFinalizeBlock['validatorUpdates'] = [];
    const txResults: ExecTxResult[] = req.txs.map((tx) => {
      const kv = KvApp.parse(tx);
      // "val:<hex ed25519 pubkey>=<power>" changes a validator's power.
      if (kv && kv[0].startsWith('val:')) {
        validatorUpdates.push({ pubKeyType: 'ed25519', pubKey: new Uint8Array(Buffer.from(kv[0].slice(4), 'hex')), power: BigInt(kv[1]) });
      }
      if (!kv) return { code: 1, data: new Uint8Array(0), log: 'bad tx', info: '', gasWanted: 1n, gasUsed: 1n, events: [], codespace: 'kv' };
      state.set(kv[0], kv[1]);
      return {
        code: 0,
        data: enc.encode(kv[0]),
        log: '',
        info: '',
        gasWanted: 1n,
        gasUsed: 1n,
        events: [{ type: 'kv', attributes: [{ key: 'key', value: kv[0], index: true }] }],
        codespace: '',
      };
    });
    const appHash = KvApp.hashState(state);
    this.pending = { height: req.height, state, appHash };
    return { events: [{ type: 'block', attributes: [{ key: 'height', value: String(req.height), index: true }] }], txResults, validatorUpdates, appHash };
  }

  async commit(): Promise<{ retainHeight: number }> {
    this.calls.push('commit');
    if (!this.pending) throw new Error('kv app: commit without finalizeBlock');
    this.committed = { height: this.pending.height, appHash: this.pending.appHash, state: this.pending.state };
    this.pending = undefined;
    return { retainHeight: this.retainBlocks > 0 ? Math.max(0, this.committed.height - this.retainBlocks + 1) : 0 };
  }

  async query(req: { data: Uint8Array }): Promise<ResponseQuery> {
    const key = dec.decode(req.data);
    const value = this.committed.state.get(key);
    return {
      code: value === undefined ? 1 : 0,
      log: '',
      info: '',
      index: 0n,
      key: req.data,
      value: value === undefined ? new Uint8Array(0) : enc.encode(value),
      height: this.committed.height,
      codespace: '',
    };
  }
}

export const FAST_OPTIONS: Partial<ConsensusOptions> = {
  timeoutProposeMs: 800,
  timeoutProposeDeltaMs: 200,
  timeoutPrevoteMs: 200,
  timeoutPrevoteDeltaMs: 100,
  timeoutPrecommitMs: 200,
  timeoutPrecommitDeltaMs: 100,
  timeoutCommitMs: 20,
};

export function makeGenesis(pvs: FilePV[], chainId = 'test-chain', power = 10n): GenesisDoc {
  return {
    genesisTime: timestampNow(),
    chainId,
    initialHeight: 1,
    consensusParams: defaultConsensusParams(),
    validators: pvs.map((pv, i) => ({ address: pubKeyAddress(pv.pubKey), pubKey: pv.pubKey, power, name: `val${i}` })),
    appHash: new Uint8Array(0),
    appStateJson: '{"genesis":"yes"}',
    layout: 'cometbft',
  };
}

export interface TestNode {
  consensus: Consensus;
  app: KvApp;
  db: Database;
  pv: FilePV;
  p2p?: P2PNode;
  /** Start p2p (if any), then consensus. */
  start(): Promise<void>;
  /** Stop consensus, then p2p. */
  stop(): Promise<void>;
}

const MEMORY_BASE_PORT = 20000;

/**
 * A p2p node on the in-memory network for node `index` of `keys`, with every other node of
 * `keys` as a persistent peer (the way `testnet init-files` fills persistent_peers).
 */
export function memoryP2P(network: MemoryNetwork, keys: NodeKey[], index: number, chainId = 'test-chain', logger?: Logger): P2PNode {
  const peers = keys.flatMap((k, j) => (j === index ? [] : [`${k.id}@127.0.0.1:${MEMORY_BASE_PORT + j}`])).join(',');
  return new P2PNode({
    nodeKey: keys[index]!,
    network: chainId,
    moniker: `node${index}`,
    version: '0.38.17',
    memoryNetwork: network,
    logger,
    options: { laddr: `tcp://127.0.0.1:${MEMORY_BASE_PORT + index}`, pex: false, persistentPeers: peers, allowDuplicateIp: true, addrBookStrict: false },
  });
}

export async function makeNode(
  genesis: GenesisDoc,
  pv: FilePV,
  opts: { app?: KvApp; db?: Database; p2p?: P2PNode; options?: Partial<ConsensusOptions>; wal?: WAL } & Partial<Omit<ConsensusConfig, 'p2p'>> = {},
): Promise<TestNode> {
  const app = opts.app ?? new KvApp();
  const db = opts.db ?? memoryDatabase();
  const consensus = await createConsensus({
    db,
    app,
    genesis,
    privValidator: pv,
    options: { ...FAST_OPTIONS, ...opts.options },
    p2p: opts.p2p,
    blockSync: opts.blockSync ?? false,
    wal: opts.wal,
    logger: opts.logger,
    mempoolOptions: opts.mempoolOptions,
  });
  const p2p = opts.p2p;
  return {
    consensus,
    app,
    db,
    pv,
    p2p,
    async start(): Promise<void> {
      await p2p?.start();
      await consensus.start();
    },
    async stop(): Promise<void> {
      await consensus.stop();
      await p2p?.stop();
    },
  };
}

/** Resolve when the node's block store reaches `height` (rejects after `timeoutMs`). */
export function waitForHeight(consensus: Consensus, height: number, timeoutMs = 20000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (consensus.blockStore.height() >= height) {
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for height ${height}; at ${consensus.blockStore.height()} (failure: ${consensus.failure?.message ?? 'none'})`));
    }, timeoutMs);
    const off = consensus.eventBus.on('NewBlock', () => {
      if (consensus.blockStore.height() >= height) {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  });
}

export const utf8 = (s: string): Uint8Array => enc.encode(s);

/** A logger that records entries (level, msg, ctx) for assertions. */
export function recordingLogger(): Logger & { entries: { level: string; msg: string; ctx?: Record<string, unknown> }[] } {
  const entries: { level: string; msg: string; ctx?: Record<string, unknown> }[] = [];
  const at =
    (level: string) =>
    (msg: string, ctx?: Record<string, unknown>): void => {
      entries.push({ level, msg, ctx });
    };
  return { entries, trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
