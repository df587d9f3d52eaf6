/**
 * p2p benchmark (issue 11): everything over real TCP on loopback with the secret connection.
 *
 *  1. Block sync catch-up, blocks/s: a node downloads, verifies (commit signatures, block
 *     validation) and applies blocks of 5 txs each from a peer that has them (trivial app, so
 *     the p2p and verification path is what is measured).
 *  2. Commit latency of 4 validators (in one process, each with its own TCP p2p stack) with
 *     timeout_commit 0: ms per block.
 *  3. State sync at 100k accounts: take the snapshot of a store holding 100k accounts (auth +
 *     bank entries on LevelDB), transfer it over p2p and restore it (chunk hashes, import,
 *     commit, app hash check).
 *  4. Bank-send throughput of a 4-validator network of separate processes (`testnet
 *     init-files`) with every tx sent to one node: tx/s from first broadcast to inclusion.
 *
 *   npx tsx bench/p2p/p2p.bench.ts
 *   P2P_BENCH_BLOCKS=600 P2P_BENCH_ACCOUNTS=100000 P2P_BENCH_TXS=2000 npx tsx bench/p2p/p2p.bench.ts
 *
 * `run()` returns rows {name, value, unit} for bench/run.js.
 */
import { createHash } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create, toBinary } from '@bufbuild/protobuf';
import type { Application, RequestFinalizeBlock, ResponseFinalizeBlock } from '../../src/node/abci/types.js';
import { createConsensus, type Consensus } from '../../src/node/consensus/index.js';
import { FilePV, generateNodeKey, type NodeKey } from '../../src/node/consensus/privval.js';
import { defaultConsensusParams } from '../../src/node/consensus/types/params.js';
import { pubKeyAddress } from '../../src/node/consensus/types/keys.js';
import { timestampNow } from '../../src/node/consensus/types/time.js';
import type { GenesisDoc } from '../../src/node/consensus/types/genesis.js';
import { memoryDatabase, openDatabase } from '../../src/node/store/db/database.js';
import { openCommitMultiStore } from '../../src/node/store/index.js';
import { P2PNode } from '../../src/node/p2p/index.js';
import { StateSyncReactor } from '../../src/node/consensus/statesync/reactor.js';
import type { LightClient } from '../../src/node/consensus/statesync/lightClient.js';
import { ValidatorSet, newValidator } from '../../src/node/consensus/types/validator.js';
import { Ed25519PrivateKey } from '../../src/node/consensus/types/keys.js';
import { emptyCommit, emptyHeader, zeroBlockId } from '../../src/node/consensus/types/block.js';
import { SnapshotManager } from '../../src/node/snapshots/manager.js';
import { APP_STORE_NAMES } from '../../src/node/app/modules.js';
import { MsgSendSchema } from '../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { CoinSchema } from '../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { SignMode } from '../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { AuthInfoSchema, FeeSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignerInfoSchema, TxBodySchema, TxRawSchema } from '../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { anyPack } from '../../src/node/codec/index.js';
import { signDocBytes } from '../../src/node/app/index.js';
import { keyPairFromPrivateKey, signMessage } from '../../src/keyring/keys.js';
import { buildHdPath, privateKeyFromMnemonic } from '../../src/keyring/hd.js';
import { toAccountAddress } from '../../src/keyring/address.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const FAST = { timeoutCommitMs: 0, timeoutProposeMs: 1000, timeoutPrevoteMs: 200, timeoutPrecommitMs: 200 };
const REPO = resolve(new URL('.', import.meta.url).pathname, '..', '..');

/** A trivial app: counts txs, app hash = sha256(height:count). */
class CounterApp implements Application {
  height = 0;
  appHash = new Uint8Array(0);
  txs = 0;
  private pending = { height: 0, hash: new Uint8Array(0) };
  async info(): Promise<Awaited<ReturnType<Application['info']>>> {
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
    this.pending = { height: req.height, hash: new Uint8Array(createHash('sha256').update(`${req.height}:${this.txs}`).digest()) };
    return {
      events: [],
      txResults: req.txs.map(() => ({ code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 1n, gasUsed: 1n, events: [], codespace: '' })),
      validatorUpdates: [],
      appHash: this.pending.hash,
    };
  }
  async commit(): Promise<{ retainHeight: number }> {
    this.height = this.pending.height;
    this.appHash = this.pending.hash;
    return { retainHeight: 0 };
  }
  async query(): Promise<Awaited<ReturnType<Application['query']>>> {
    return { code: 0, log: '', info: '', index: 0n, key: new Uint8Array(0), value: new Uint8Array(0), height: this.height, codespace: '' };
  }
}

function genesisFor(pvs: FilePV[]): GenesisDoc {
  return {
    genesisTime: timestampNow(),
    chainId: 'p2p-bench',
    initialHeight: 1,
    consensusParams: defaultConsensusParams(),
    validators: pvs.map((pv, i) => ({ address: pubKeyAddress(pv.pubKey), pubKey: pv.pubKey, power: 10n, name: `v${i}` })),
    appHash: new Uint8Array(0),
    appStateJson: '{}',
    layout: 'cometbft',
  };
}

function tcpNode(key: NodeKey, port: number, peers: string[], chainId: string): P2PNode {
  return new P2PNode({
    nodeKey: key,
    network: chainId,
    moniker: `b${port}`,
    version: '0.38.17',
    options: { laddr: `tcp://127.0.0.1:${port}`, pex: false, allowDuplicateIp: true, addrBookStrict: false, persistentPeers: peers.join(',') },
  });
}

async function waitFor(cond: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('benchmark condition not reached in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function blocksyncRows(rows: Row[], blocks: number, log: (line: string) => void): Promise<void> {
  log(`block sync: building ${blocks} blocks of 5 txs`);
  const pv = FilePV.generate();
  const genesis = genesisFor([pv]);
  const keys = [generateNodeKey(), generateNodeKey()];
  const base = 24100;
  const sourceP2P = tcpNode(keys[0]!, base, [], genesis.chainId);
  const source = await createConsensus({ db: memoryDatabase(), app: new CounterApp(), genesis, privValidator: pv, options: FAST, p2p: sourceP2P, blockSync: false });
  await sourceP2P.start();
  await source.start();
  let n = 0;
  while (source.blockStore.height() < blocks) {
    if (source.mempool.size() < 20) for (let i = 0; i < 10; i++) await source.mempool.checkTx(new TextEncoder().encode(`tx-${n++}`)).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1));
  }
  await source.stop();
  // Serve the stored blocks only (no new ones during the measurement).
  const target = source.blockStore.height();
  log(`block sync: syncing ${target} blocks over TCP`);
  const syncP2P = tcpNode(keys[1]!, base + 1, [`${keys[0]!.id}@127.0.0.1:${base}`], genesis.chainId);
  const other = FilePV.generate();
  const sync = await createConsensus({ db: memoryDatabase(), app: new CounterApp(), genesis, privValidator: other, options: FAST, p2p: syncP2P, blockSync: true });
  await syncP2P.start();
  const start = performance.now();
  await sync.start();
  await waitFor(() => sync.blockStore.height() >= target - 1, 120_000);
  const seconds = (performance.now() - start) / 1000;
  rows.push({ name: `block sync catch-up over TCP (${target} blocks × 5 txs, trivial app)`, value: Math.round((target - 1) / seconds), unit: 'blocks/s' });
  await sync.stop();
  await syncP2P.stop();
  await sourceP2P.stop();
}

async function latencyRows(rows: Row[], seconds: number, log: (line: string) => void): Promise<void> {
  log('4 validators over TCP, timeout_commit 0');
  const pvs = Array.from({ length: 4 }, () => FilePV.generate());
  const genesis = genesisFor(pvs);
  const keys = pvs.map(() => generateNodeKey());
  const base = 24200;
  const p2ps = keys.map((k, i) => tcpNode(k, base + i, keys.flatMap((o, j) => (j === i ? [] : [`${o.id}@127.0.0.1:${base + j}`])), genesis.chainId));
  const nodes: Consensus[] = [];
  for (let i = 0; i < 4; i++) nodes.push(await createConsensus({ db: memoryDatabase(), app: new CounterApp(), genesis, privValidator: pvs[i], options: FAST, p2p: p2ps[i], blockSync: false }));
  for (const p of p2ps) await p.start();
  for (const n of nodes) await n.start();
  await waitFor(() => nodes.every((n) => n.blockStore.height() >= 3), 30_000);
  const h0 = nodes[0]!.blockStore.height();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const blocks = nodes[0]!.blockStore.height() - h0;
  const ms = (performance.now() - t0) / Math.max(1, blocks);
  rows.push({ name: '4 validators on loopback TCP, timeout_commit 0: commit latency', value: Math.round(ms * 10) / 10, unit: 'ms/block' });
  rows.push({ name: '4 validators on loopback TCP, timeout_commit 0: empty blocks', value: Math.round((blocks * 1000) / (performance.now() - t0)), unit: 'blocks/s' });
  for (const n of nodes) await n.stop();
  for (const p of p2ps) await p.stop();
}

async function statesyncRows(rows: Row[], accounts: number, log: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tokend-ssbench-'));
  try {
    log(`state sync: writing ${accounts} accounts`);
    const db = await openDatabase(join(dir, 'source.db'));
    const store = await openCommitMultiStore(db, { stores: APP_STORE_NAMES });
    const acc = store.getStore('acc');
    const bank = store.getStore('bank');
    for (let i = 0; i < accounts; i++) {
      const addr = createHash('sha256').update(`a${i}`).digest().subarray(0, 20);
      acc.set(Buffer.concat([Buffer.from([0x01]), addr]), createHash('sha512').update(`acct${i}`).digest());
      bank.set(Buffer.concat([Buffer.from([0x02, 20]), addr, Buffer.from('attotoken')]), Buffer.from(String(1_000_000 + i)));
      if (i % 20000 === 19999) await new Promise((r) => setImmediate(r));
    }
    await store.commit();
    const height = store.latestVersion();
    const manager = new SnapshotManager(store, { dir: join(dir, 'snaps'), interval: 0, keepRecent: 0 });
    let t = performance.now();
    const snapshot = await manager.take(height);
    const takeMs = performance.now() - t;
    log(`state sync: snapshot ${snapshot.chunks} chunks in ${Math.round(takeMs)} ms; restoring over TCP`);
    const keys = [generateNodeKey(), generateNodeKey()];
    const base = 24300;
    const server = tcpNode(keys[0]!, base, [], 'ss-bench');
    server.addReactor(new StateSyncReactor(manager));
    const targetDb = await openDatabase(join(dir, 'target.db'));
    const target = await openCommitMultiStore(targetDb, { stores: APP_STORE_NAMES });
    const restorer = new SnapshotManager(target, { dir: join(dir, 'snaps2'), interval: 0, keepRecent: 0 });
    const client = tcpNode(keys[1]!, base + 1, [`${keys[0]!.id}@127.0.0.1:${base}`], 'ss-bench');
    const reactor = new StateSyncReactor(restorer);
    client.addReactor(reactor);
    await server.start();
    await client.start();
    await waitFor(() => client.peerIds().length > 0, 10_000);
    const vals = ValidatorSet.create([newValidator(Ed25519PrivateKey.generate().pubKey, 10n)]);
    const appHash = store.lastCommitId().hash;
    const block = (h: number): unknown => ({ header: { ...emptyHeader(), height: h, appHash, version: { block: 11n, app: 0n } }, commit: { ...emptyCommit(), height: h, blockId: zeroBlockId() }, validators: vals });
    const lc = { verifyLightBlockAtHeight: async (h: number) => block(h), consensusParams: async () => defaultConsensusParams() } as unknown as LightClient;
    t = performance.now();
    await reactor.sync(lc, 'ss-bench', 1, { discoveryTimeMs: 50, chunkRequestTimeoutMs: 10_000, chunkFetchers: 4 });
    const restoreMs = performance.now() - t - 50;
    if (Buffer.compare(Buffer.from(target.lastCommitId().hash), Buffer.from(appHash)) !== 0) throw new Error('restored app hash differs');
    rows.push({ name: `state sync ${accounts} accounts: take snapshot (${snapshot.chunks} chunks)`, value: Math.round(takeMs), unit: 'ms' });
    rows.push({ name: `state sync ${accounts} accounts: fetch over TCP + restore + verify`, value: Math.round(restoreMs), unit: 'ms' });
    await client.stop();
    await server.stop();
    await store.close();
    await target.close();
    await db.close();
    await targetDb.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- 4 separate validator processes, bank sends to one node ----

function cli(args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'run.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (code) => (code === 0 ? resolvePromise(out) : reject(new Error(`tokend ${args.join(' ')}: ${err}`))));
  });
}

async function rpc(port: number, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result: Record<string, unknown> }).result;
}

async function networkSendRows(rows: Row[], txCount: number, log: (line: string) => void): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'tokend-netbench-'));
  const procs: ChildProcess[] = [];
  const base = 24400;
  try {
    log('network sends: testnet init-files --v 4');
    await cli(['testnet', 'init-files', '--v', '4', '--output-dir', out, '--chain-id', 'netbench', '--base-port', String(base), '-o', 'json']);
    for (let i = 0; i < 4; i++) {
      const cfg = join(out, `node${i}`, 'tokend', 'config', 'config.toml');
      writeFileSync(cfg, readFileSync(cfg, 'utf8').replace(/^timeout_commit = .*$/m, 'timeout_commit = "500ms"'));
      procs.push(spawn(process.execPath, [join(REPO, 'bin', 'run.js'), 'start', '--home', join(out, `node${i}`, 'tokend'), '--log_level', 'error'], { stdio: 'ignore' }));
    }
    const rpcPort = base + 1;
    const height = async (): Promise<number> => Number(((await rpc(rpcPort, 'status', {}).catch(() => ({ sync_info: { latest_block_height: '0' } }))) as { sync_info: { latest_block_height: string } }).sync_info.latest_block_height);
    const deadline = Date.now() + 90_000;
    while ((await height()) < 2) {
      if (Date.now() > deadline) throw new Error('testnet did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    // Each validator's account sends txCount/4 txs; signed ahead of time.
    const senders: { privateKey: Uint8Array; pubKey: Uint8Array; bech32: string; accountNumber: bigint; sequence: bigint }[] = [];
    for (let i = 0; i < 4; i++) {
      const mnemonic = (JSON.parse(readFileSync(join(out, `node${i}`, 'tokend', 'key_seed.json'), 'utf8')) as { secret: string }).secret;
      const { privateKey } = privateKeyFromMnemonic({ mnemonic, algo: 'eth_secp256k1', hdPath: buildHdPath({ algo: 'eth_secp256k1' }) });
      const kp = keyPairFromPrivateKey('eth_secp256k1', privateKey);
      const bech32 = toAccountAddress(kp.address);
      const account = JSON.parse(await cli(['q', 'account', bech32, '--node', `tcp://127.0.0.1:${rpcPort}`, '-o', 'json'])) as { base_account?: { account_number: string; sequence: string }; account_number?: string; sequence?: string };
      const info = account.base_account ?? (account as { account_number: string; sequence: string });
      senders.push({ privateKey, pubKey: kp.pubKey, bech32, accountNumber: BigInt(info.account_number), sequence: BigInt(info.sequence) });
    }
    const perSender = Math.floor(txCount / 4);
    const txs: Uint8Array[][] = senders.map((from, s) =>
      Array.from({ length: perSender }, (_, k) => {
        const to = senders[(s + 1) % 4]!;
        const body = toBinary(TxBodySchema, create(TxBodySchema, { messages: [anyPack(MsgSendSchema, create(MsgSendSchema, { fromAddress: from.bech32, toAddress: to.bech32, amount: [create(CoinSchema, { denom: 'attotoken', amount: '1' })] }))] }));
        const authInfo = toBinary(
          AuthInfoSchema,
          create(AuthInfoSchema, {
            signerInfos: [create(SignerInfoSchema, { publicKey: anyPack(EthPubKeySchema, create(EthPubKeySchema, { key: from.pubKey })), modeInfo: create(ModeInfoSchema, { sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode: SignMode.DIRECT }) } }), sequence: from.sequence + BigInt(k) })],
            fee: create(FeeSchema, { amount: [create(CoinSchema, { denom: 'attotoken', amount: '2000000000000000' })], gasLimit: 200_000n }),
          }),
        );
        const signature = signMessage('eth_secp256k1', from.privateKey, signDocBytes(body, authInfo, 'netbench', from.accountNumber));
        return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes: body, authInfoBytes: authInfo, signatures: [signature] }));
      }),
    );
    const startHeight = await height();
    log(`network sends: broadcasting ${perSender * 4} txs to node0`);
    const t0 = performance.now();
    await Promise.all(
      txs.map(async (list) => {
        for (const tx of list) await rpc(rpcPort, 'broadcast_tx_sync', { tx: Buffer.from(tx).toString('base64') });
      }),
    );
    let included = 0;
    let h = startHeight;
    const until = Date.now() + 120_000;
    while (included < perSender * 4 && Date.now() < until) {
      const top = await height();
      for (; h < top; ) {
        h++;
        const block = (await rpc(base + 11, 'block', { height: String(h) })) as { block: { data: { txs: string[] } } };
        included += block.block.data.txs.length;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - t0) / 1000;
    rows.push({ name: `bank sends, 4 validator processes, all sent to one node (${included} txs)`, value: Math.round(included / seconds), unit: 'tx/s' });
  } finally {
    for (const p of procs) p.kill('SIGKILL');
    rmSync(out, { recursive: true, force: true });
  }
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const rows: Row[] = [];
  await blocksyncRows(rows, Number(process.env.P2P_BENCH_BLOCKS ?? 400), log);
  await latencyRows(rows, Number(process.env.P2P_BENCH_SECONDS ?? 3), log);
  await statesyncRows(rows, Number(process.env.P2P_BENCH_ACCOUNTS ?? 100_000), log);
  await networkSendRows(rows, Number(process.env.P2P_BENCH_TXS ?? 1000), log);
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await run((line) => process.stderr.write(`${line}\n`));
  for (const r of rows) process.stdout.write(`${r.name.padEnd(80)} ${String(r.value).padStart(10)} ${r.unit}\n`);
}
