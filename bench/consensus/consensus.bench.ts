/**
 * Consensus benchmark: hashing/encoding cost of a 2,000-tx block, and blocks/s of the engine with
 * timeout_commit = 0 (one validator in memory, one validator with the WAL and the sign-state file
 * on disk, four validators over the in-memory transport), plus tx/s through CheckTx → block →
 * commit. Reference operations (sha256, ed25519) are measured in the same run: on shared machines
 * ratios matter more than absolutes.
 *
 *   npx tsx bench/consensus/consensus.bench.ts
 *   CONSENSUS_BENCH_SECONDS=5 npx tsx bench/consensus/consensus.bench.ts
 *
 * `run()` returns rows {name, value, unit} for bench/run.js.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Application, RequestFinalizeBlock, ResponseFinalizeBlock } from '../../src/node/abci/types.js';
import { memoryDatabase } from '../../src/node/store/db/database.js';
import { createConsensus, type Consensus } from '../../src/node/consensus/index.js';
import { FilePV, generateNodeKey } from '../../src/node/consensus/privval.js';
import { MemoryNetwork, P2PNode } from '../../src/node/p2p/index.js';
import { BlockExecutor } from '../../src/node/consensus/state/execution.js';
import { makeGenesisState } from '../../src/node/consensus/state/chainState.js';
import { BlockStore } from '../../src/node/consensus/store/blockStore.js';
import { StateStore } from '../../src/node/consensus/store/stateStore.js';
import { decodeBlock, emptyCommit, encodeBlock, hashHeader, hashTxs, validateBlockBasic } from '../../src/node/consensus/types/block.js';
import { PartSet } from '../../src/node/consensus/types/partset.js';
import { hashTxResults } from '../../src/node/consensus/types/results.js';
import { Ed25519PrivateKey, verifySignature } from '../../src/node/consensus/types/keys.js';
import { defaultConsensusParams } from '../../src/node/consensus/types/params.js';
import { pubKeyAddress } from '../../src/node/consensus/types/keys.js';
import { timestampNow } from '../../src/node/consensus/types/time.js';
import type { GenesisDoc } from '../../src/node/consensus/types/genesis.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const TXS_PER_BLOCK = 2000;
const TX_SIZE = 250;

/** An app that accepts everything; app hash = sha256(height ‖ tx count). */
class CounterApp implements Application {
  height = 0;
  appHash = new Uint8Array(0);
  txs = 0;
  async info(): Promise<{ data: string; version: string; appVersion: bigint; lastBlockHeight: number; lastBlockAppHash: Uint8Array }> {
    return { data: 'counter', version: '1', appVersion: 1n, lastBlockHeight: this.height, lastBlockAppHash: this.appHash };
  }
  async initChain(): Promise<{ validators: []; appHash: Uint8Array }> {
    return { validators: [], appHash: this.appHash };
  }
  async checkTx(): Promise<Awaited<ReturnType<Application['checkTx']>>> {
    return { code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 1n, gasUsed: 0n, events: [], codespace: '' };
  }
  async prepareProposal(req: { txs: Uint8Array[] }): Promise<{ txs: Uint8Array[] }> {
    return { txs: req.txs };
  }
  async processProposal(): Promise<{ status: 'accept' }> {
    return { status: 'accept' };
  }
  async finalizeBlock(req: RequestFinalizeBlock): Promise<ResponseFinalizeBlock> {
    this.txs += req.txs.length;
    const appHash = new Uint8Array(createHash('sha256').update(`${req.height}:${this.txs}`).digest());
    this.pendingHash = appHash;
    this.pendingHeight = req.height;
    return {
      events: [],
      txResults: req.txs.map(() => ({ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 1n, gasUsed: 1n, events: [], codespace: '' })),
      validatorUpdates: [],
      appHash,
    };
  }
  private pendingHash = new Uint8Array(0);
  private pendingHeight = 0;
  async commit(): Promise<{ retainHeight: number }> {
    this.height = this.pendingHeight;
    this.appHash = this.pendingHash;
    return { retainHeight: 0 };
  }
  async query(): Promise<Awaited<ReturnType<Application['query']>>> {
    return { code: 0, log: '', info: '', index: 0n, key: new Uint8Array(0), value: new Uint8Array(0), height: this.height, codespace: '' };
  }
}

function genesisFor(pvs: FilePV[]): GenesisDoc {
  return {
    genesisTime: timestampNow(),
    chainId: 'bench',
    initialHeight: 1,
    consensusParams: defaultConsensusParams(),
    validators: pvs.map((pv, i) => ({ address: pubKeyAddress(pv.pubKey), pubKey: pv.pubKey, power: 10n, name: `v${i}` })),
    appHash: new Uint8Array(0),
    appStateJson: '{}',
    layout: 'cometbft',
  };
}

const FAST = {
  timeoutCommitMs: 0,
  timeoutProposeMs: 1000,
  timeoutPrevoteMs: 200,
  timeoutPrecommitMs: 200,
};

function opsPerSecond(fn: () => void, ms = 300): number {
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < ms) {
    fn();
    n++;
  }
  return (n * 1000) / (performance.now() - start);
}

function timeMs(fn: () => void, repeats = 5): number {
  let best = Infinity;
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

async function hashingRows(rows: Row[]): Promise<void> {
  const txs = Array.from({ length: TXS_PER_BLOCK }, (_, i) => {
    const tx = new Uint8Array(TX_SIZE);
    new DataView(tx.buffer).setUint32(0, i);
    return tx;
  });
  const key = Ed25519PrivateKey.generate();
  const pv = FilePV.generate();
  const db = memoryDatabase();
  const genesis = genesisFor([pv]);
  const state = makeGenesisState(genesis);
  const app = new CounterApp();
  const executor = new BlockExecutor({ app, blockStore: new BlockStore(db), stateStore: new StateStore(db) });
  const block = executor.makeBlock(1, state, txs, emptyCommit(), pv.address);
  const bytes = encodeBlock(block);
  const results = txs.map(() => ({ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 1n, gasUsed: 1n, events: [], codespace: '' }));

  // Cold: fresh tx objects (a block received from a peer); warm: tx hashes known from CheckTx.
  const coldSets = Array.from({ length: 5 }, () => txs.map((t) => t.slice()));
  let coldIndex = 0;
  const dataHashCold = timeMs(() => hashTxs(coldSets[coldIndex++]!));
  hashTxs(txs);
  const dataHash = timeMs(() => hashTxs(txs));
  const makeBlock = timeMs(() => executor.makeBlock(1, state, txs, emptyCommit(), pv.address));
  const encode = timeMs(() => encodeBlock(block));
  const parts = timeMs(() => PartSet.fromData(bytes));
  const decode = timeMs(() => decodeBlock(bytes));
  const header = timeMs(() => hashHeader(block.header), 50);
  const resultsHash = timeMs(() => hashTxResults(results));
  const decodedSets = Array.from({ length: 5 }, () => decodeBlock(bytes));
  let decodedIndex = 0;
  const validate = timeMs(() => validateBlockBasic(decodedSets[decodedIndex++]!));
  const proposerTotal = makeBlock + encode + parts; // build + gossip form
  const receiverTotal = decode + validate + resultsHash; // reassemble + check + results hash

  rows.push({ name: `block of ${TXS_PER_BLOCK} x ${TX_SIZE}B txs: proto size`, value: Math.round(bytes.length / 1024), unit: 'KiB' });
  rows.push({ name: '  data hash, cold (sha256 per tx + Merkle)', value: +dataHashCold.toFixed(2), unit: 'ms' });
  rows.push({ name: '  data hash, tx hashes cached from CheckTx', value: +dataHash.toFixed(2), unit: 'ms' });
  rows.push({ name: '  makeBlock (all header hashes)', value: +makeBlock.toFixed(2), unit: 'ms' });
  rows.push({ name: '  proto encode', value: +encode.toFixed(2), unit: 'ms' });
  rows.push({ name: '  part set (64 KiB parts + proofs)', value: +parts.toFixed(2), unit: 'ms' });
  rows.push({ name: '  proto decode', value: +decode.toFixed(2), unit: 'ms' });
  rows.push({ name: '  header hash', value: +header.toFixed(3), unit: 'ms' });
  rows.push({ name: '  last_results_hash', value: +resultsHash.toFixed(2), unit: 'ms' });
  rows.push({ name: '  validateBlockBasic of a received block', value: +validate.toFixed(2), unit: 'ms' });
  rows.push({ name: '  proposer total (make+encode+parts)', value: +proposerTotal.toFixed(2), unit: 'ms' });
  rows.push({ name: '  receiver total (decode+validate+results)', value: +receiverTotal.toFixed(2), unit: 'ms' });

  const tx = txs[0]!;
  const msg = new Uint8Array(120);
  const sig = key.sign(msg);
  const sha = opsPerSecond(() => createHash('sha256').update(tx).digest());
  const sign = opsPerSecond(() => key.sign(msg));
  const verify = opsPerSecond(() => verifySignature(key.pubKey, msg, sig));
  rows.push({ name: `reference: sha256 of ${TX_SIZE}B`, value: Math.round(sha), unit: 'ops/s' });
  rows.push({ name: 'reference: ed25519 sign (node:crypto)', value: Math.round(sign), unit: 'ops/s' });
  rows.push({ name: 'reference: ed25519 verify (node:crypto)', value: Math.round(verify), unit: 'ops/s' });
  rows.push({ name: `ratio: block hashing work / one sha256`, value: Math.round((proposerTotal / 1000) * sha), unit: 'x' });
}

async function measureBlocks(consensus: Consensus, seconds: number): Promise<number> {
  const startHeight = consensus.blockStore.height();
  const start = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const blocks = consensus.blockStore.height() - startHeight;
  return (blocks * 1000) / (performance.now() - start);
}

async function engineRows(rows: Row[], seconds: number, log: (line: string) => void): Promise<void> {
  // One validator, memory DB, no WAL, in-memory sign state.
  {
    log('engine: one validator in memory');
    const pv = FilePV.generate();
    const consensus = await createConsensus({ db: memoryDatabase(), app: new CounterApp(), genesis: genesisFor([pv]), privValidator: pv, options: FAST });
    await consensus.start();
    const bps = await measureBlocks(consensus, seconds);
    await consensus.stop();
    rows.push({ name: 'engine, 1 validator, memory, no WAL: empty blocks', value: Math.round(bps), unit: 'blocks/s' });
  }
  // One validator with the WAL and priv_validator_state.json on disk (fsyncs as CometBFT does).
  const dir = await mkdtemp(join(tmpdir(), 'tokend-bench-'));
  try {
    log(`engine: one validator with WAL + sign state under ${dir}`);
    const pv = FilePV.generate({ keyFile: join(dir, 'key.json'), stateFile: join(dir, 'state.json') });
    const consensus = await createConsensus({
      db: memoryDatabase(),
      app: new CounterApp(),
      genesis: genesisFor([pv]),
      privValidator: pv,
      options: { ...FAST, walFile: join(dir, 'cs.wal', 'wal') },
    });
    await consensus.start();
    const bps = await measureBlocks(consensus, seconds);
    await consensus.stop();
    rows.push({ name: 'engine, 1 validator, WAL + sign state fsync: empty blocks', value: Math.round(bps), unit: 'blocks/s' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  // Throughput: a full mempool drained through blocks of up to ~2,000 txs.
  {
    log('engine: tx throughput');
    const pv = FilePV.generate();
    const app = new CounterApp();
    const consensus = await createConsensus({
      db: memoryDatabase(),
      app,
      genesis: genesisFor([pv]),
      privValidator: pv,
      options: { ...FAST, createEmptyBlocks: false },
      mempoolOptions: { size: 20000 },
    });
    await consensus.start();
    const total = 10000;
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      const tx = new Uint8Array(TX_SIZE);
      new DataView(tx.buffer).setUint32(0, i);
      await consensus.mempool.checkTx(tx);
    }
    const admitted = performance.now();
    while (app.txs < total) await new Promise((r) => setTimeout(r, 5));
    const end = performance.now();
    await consensus.stop();
    rows.push({ name: 'mempool CheckTx admission (trivial app)', value: Math.round((total * 1000) / (admitted - start)), unit: 'tx/s' });
    rows.push({ name: `end-to-end ${total} txs: CheckTx → blocks → commit`, value: Math.round((total * 1000) / (end - start)), unit: 'tx/s' });
  }
  // Four validators over the in-memory transport.
  {
    log('engine: four validators in memory');
    const pvs = Array.from({ length: 4 }, () => FilePV.generate());
    const genesis = genesisFor(pvs);
    const network = new MemoryNetwork();
    const keys = pvs.map(() => generateNodeKey());
    const p2ps = keys.map(
      (key, i) =>
        new P2PNode({
          nodeKey: key,
          network: genesis.chainId,
          moniker: `n${i}`,
          version: 'bench',
          memoryNetwork: network,
          options: { laddr: `tcp://127.0.0.1:${30000 + i}`, pex: false, persistentPeers: keys.flatMap((k, j) => (j === i ? [] : [`${k.id}@127.0.0.1:${30000 + j}`])).join(',') },
        }),
    );
    const nodes: Consensus[] = [];
    for (let i = 0; i < 4; i++) {
      nodes.push(await createConsensus({ db: memoryDatabase(), app: new CounterApp(), genesis, privValidator: pvs[i], options: FAST, p2p: p2ps[i], blockSync: false }));
    }
    for (const p of p2ps) await p.start();
    for (const n of nodes) await n.start();
    const bps = await measureBlocks(nodes[0]!, seconds);
    for (const n of nodes) await n.stop();
    for (const p of p2ps) await p.stop();
    rows.push({ name: 'engine, 4 validators, in-memory transport: empty blocks', value: Math.round(bps), unit: 'blocks/s' });
  }
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const seconds = Number(process.env.CONSENSUS_BENCH_SECONDS ?? 3);
  const rows: Row[] = [];
  log('hashing a 2,000-tx block');
  await hashingRows(rows);
  await engineRows(rows, seconds, log);
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await run((line) => process.stderr.write(`${line}\n`));
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) process.stdout.write(`${row.name.padEnd(width)}  ${String(row.value).padStart(10)} ${row.unit}\n`);
}
