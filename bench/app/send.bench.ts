/**
 * App throughput benchmark: bank sends through CheckTx → FinalizeBlock → Commit on a real
 * LevelDB (temp dir, fsync per commit), with N accounts funded at genesis and txs signed ahead of
 * time (eth_secp256k1, SIGN_MODE_DIRECT, with a fee so the fee path runs too).
 *
 *   npx tsx bench/app/send.bench.ts
 *   APP_BENCH_ACCOUNTS=5000 APP_BENCH_BLOCK_TXS=2000 APP_BENCH_BLOCKS=10 npx tsx bench/app/send.bench.ts
 *
 * After two warm-up blocks, reports sustained tx/s and where the time goes (signature checks, the rest of CheckTx,
 * FinalizeBlock execution, Commit), then FinalizeBlock alone on blocks whose txs CheckTx never
 * saw (as from a peer), verifying signatures inline vs. on worker threads, in the same run.
 *
 * `run()` returns rows {name, value, unit} for bench/run.js.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create, toBinary } from '@bufbuild/protobuf';
import { MsgSendSchema } from '../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { CoinSchema } from '../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { SignMode } from '../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { AuthInfoSchema, FeeSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignerInfoSchema, TxBodySchema, TxRawSchema } from '../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { sha256 } from '../../src/keyring/hash.js';
import { keyPairFromPrivateKey, signMessage } from '../../src/keyring/keys.js';
import { toAccountAddress } from '../../src/keyring/address.js';
import { anyPack } from '../../src/node/codec/index.js';
import { defaultConsensusParams } from '../../src/node/consensus/types/params.js';
import { openDatabase, type Database } from '../../src/node/store/db/database.js';
import { addGenesisAccounts, collectGentxs, defaultAppState, openApp, signDocBytes, type App } from '../../src/node/app/index.js';
import { inlineVerifyStats } from '../../src/node/app/sigverify.js';
import { Mempool } from '../../src/node/consensus/mempool/mempool.js';
import { benchGentx } from '../support/gentx.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

export const CHAIN_ID = 'bench_9000-1';
export const DENOM = 'attotoken';
const GAS = 200_000n;
const FEE = 2_000_000_000_000_000n; // 10^10 per gas
const TOKEN = 10n ** 18n;
const WARMUP_BLOCKS = 2;

export interface Key {
  privateKey: Uint8Array;
  pubKey: Uint8Array;
  address: Uint8Array;
  bech32: string;
  accountNumber: bigint;
}

export function makeKeys(count: number): Key[] {
  const keys: Key[] = [];
  for (let i = 0; i < count; i++) {
    const privateKey = sha256(new TextEncoder().encode(`bench-account-${i}`));
    const pair = keyPairFromPrivateKey('eth_secp256k1', privateKey);
    keys.push({ privateKey, pubKey: pair.pubKey, address: pair.address, bech32: toAccountAddress(pair.address), accountNumber: BigInt(i) });
  }
  return keys;
}

export function signedTx(from: Key, body: Uint8Array, sequence: bigint, accountNumber: bigint, fee: bigint): Uint8Array {
  const authInfo = toBinary(
    AuthInfoSchema,
    create(AuthInfoSchema, {
      signerInfos: [
        create(SignerInfoSchema, {
          publicKey: anyPack(EthPubKeySchema, create(EthPubKeySchema, { key: from.pubKey })),
          modeInfo: create(ModeInfoSchema, { sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode: SignMode.DIRECT }) } }),
          sequence,
        }),
      ],
      fee: create(FeeSchema, { amount: fee === 0n ? [] : [create(CoinSchema, { denom: DENOM, amount: fee.toString() })], gasLimit: GAS }),
    }),
  );
  const signature = signMessage('eth_secp256k1', from.privateKey, signDocBytes(body, authInfo, CHAIN_ID, accountNumber));
  return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes: body, authInfoBytes: authInfo, signatures: [signature] }));
}

export function sendTx(from: Key, to: Key, sequence: bigint): Uint8Array {
  const body = toBinary(
    TxBodySchema,
    create(TxBodySchema, {
      messages: [anyPack(MsgSendSchema, create(MsgSendSchema, { fromAddress: from.bech32, toAddress: to.bech32, amount: [create(CoinSchema, { denom: DENOM, amount: '1' })] }))],
    }),
  );
  return signedTx(from, body, sequence, from.accountNumber, FEE);
}

export function gentx(validator: Key): unknown {
  return benchGentx({ algo: 'eth_secp256k1', privateKey: validator.privateKey, consensusSeed: 'bench-validator-cons', chainId: CHAIN_ID, denom: DENOM, selfDelegation: 1000n * TOKEN, gasLimit: GAS });
}

export interface Chain {
  app: App;
  db: Database;
  height: number;
  close(): Promise<void>;
}

export async function startChain(dir: string, keys: Key[], validator: Key, workers: number): Promise<Chain> {
  let appState = defaultAppState({ denom: DENOM });
  appState = addGenesisAccounts(appState, [...keys, validator].map((key) => ({ address: key.address, coins: [{ denom: DENOM, amount: 1_000_000n * TOKEN }] })));
  appState = collectGentxs(appState, [gentx(validator)], CHAIN_ID);
  const db = await openDatabase(dir);
  const opened = await openApp(db, { chainId: CHAIN_ID, minGasPrices: '0attotoken', sigVerifyWorkers: workers, parallelVerifyThreshold: 64 });
  await opened.app.initChain({
    time: new Date('2024-01-01T00:00:00Z'),
    chainId: CHAIN_ID,
    consensusParams: defaultConsensusParams(),
    validators: [],
    appStateBytes: new TextEncoder().encode(JSON.stringify(appState)),
    initialHeight: 1,
  });
  const chain: Chain = {
    app: opened.app,
    db,
    height: 0,
    async close() {
      await opened.close();
      await db.close();
    },
  };
  await finalizeAndCommit(chain, []);
  return chain;
}

export async function finalizeAndCommit(chain: Chain, txs: Uint8Array[]): Promise<{ finalizeMs: number; commitMs: number }> {
  const height = chain.height + 1;
  const t0 = performance.now();
  const response = await chain.app.finalizeBlock({
    txs,
    decidedLastCommit: { round: 0, votes: [] },
    misbehavior: [],
    hash: sha256(new TextEncoder().encode(`block-${height}`)),
    height,
    time: new Date(Date.parse('2024-01-01T00:00:00Z') + height * 1000),
    nextValidatorsHash: new Uint8Array(32),
    proposerAddress: new Uint8Array(20),
  });
  const t1 = performance.now();
  await chain.app.commit();
  const t2 = performance.now();
  const failed = response.txResults.find((result) => result.code !== 0);
  if (failed !== undefined) throw new Error(`tx failed in block ${height}: ${failed.code} ${failed.log}`);
  chain.height = height;
  return { finalizeMs: t1 - t0, commitMs: t2 - t1 };
}

/** Round-robin senders: each tx sends 1 to the next account; `sequences` tracks each sender's next sequence. */
export class TxPlanner {
  private next = 0;
  private readonly sequences: bigint[];

  constructor(private readonly keys: Key[]) {
    this.sequences = keys.map(() => 0n);
  }

  blocks(count: number, size: number): Uint8Array[][] {
    const plan: Uint8Array[][] = [];
    for (let b = 0; b < count; b++) {
      const txs: Uint8Array[] = [];
      for (let j = 0; j < size; j++) {
        const i = this.next;
        this.next = (this.next + 1) % this.keys.length;
        txs.push(sendTx(this.keys[i]!, this.keys[this.next]!, this.sequences[i]!));
        this.sequences[i]!++;
      }
      plan.push(txs);
    }
    return plan;
  }
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const accounts = Number(process.env['APP_BENCH_ACCOUNTS'] ?? 5000);
  const blockTxs = Number(process.env['APP_BENCH_BLOCK_TXS'] ?? 2000);
  const blocks = Number(process.env['APP_BENCH_BLOCKS'] ?? 10);
  const peerBlocks = Number(process.env['APP_BENCH_PEER_BLOCKS'] ?? 3);
  const rows: Row[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'tokend-app-bench-'));
  try {
    log(`keys: ${accounts} accounts`);
    const keys = makeKeys(accounts);
    const validator = makeKeys(accounts + 1)[accounts]!;
    log('signing txs ahead of time');
    const signStart = performance.now();
    const planner = new TxPlanner(keys);
    const warmup = planner.blocks(WARMUP_BLOCKS, blockTxs);
    const plan = planner.blocks(blocks, blockTxs);
    const peerPlan = planner.blocks(peerBlocks * 2, blockTxs);
    const admissionPlan = planner.blocks(4, blockTxs);
    log(`signed ${(WARMUP_BLOCKS + blocks + 2 * peerBlocks) * blockTxs} txs in ${((performance.now() - signStart) / 1000).toFixed(1)} s`);

    const chain = await startChain(join(dir, 'pipeline'), keys, validator, Number(process.env['APP_BENCH_WORKERS'] ?? 1));
    // Warm-up (JIT, bucket caches): not counted.
    for (const txs of warmup) {
      for (const tx of txs) await chain.app.checkTx({ tx, type: 'new' });
      await finalizeAndCommit(chain, txs);
    }
    let checkMs = 0;
    let finalizeMs = 0;
    let commitMs = 0;
    inlineVerifyStats.ms = 0;
    inlineVerifyStats.count = 0;
    const started = performance.now();
    for (const txs of plan) {
      const c0 = performance.now();
      for (const tx of txs) {
        const response = await chain.app.checkTx({ tx, type: 'new' });
        if (response.code !== 0) throw new Error(`CheckTx failed: ${response.code} ${response.log}`);
      }
      checkMs += performance.now() - c0;
      const timing = await finalizeAndCommit(chain, txs);
      finalizeMs += timing.finalizeMs;
      commitMs += timing.commitMs;
      log(`block ${chain.height}: ${txs.length} txs, check ${(performance.now() - c0 - timing.finalizeMs - timing.commitMs).toFixed(0)} ms, finalize ${timing.finalizeMs.toFixed(0)} ms, commit ${timing.commitMs.toFixed(0)} ms`);
    }
    const totalMs = performance.now() - started;
    const txCount = blocks * blockTxs;
    const sigMs = inlineVerifyStats.ms;
    rows.push({ name: `app send: sustained (${accounts} accounts, ${blockTxs} tx/block, CheckTx+FinalizeBlock+Commit, LevelDB, after ${WARMUP_BLOCKS} warm-up blocks)`, value: Math.round(txCount / (totalMs / 1000)), unit: 'tx/s' });
    rows.push({ name: 'app send: signature checks (in CheckTx, once per tx)', value: round((sigMs * 1000) / txCount), unit: 'µs/tx' });
    rows.push({ name: 'app send: rest of CheckTx (decode, ante, state)', value: round(((checkMs - sigMs) * 1000) / txCount), unit: 'µs/tx' });
    rows.push({ name: 'app send: FinalizeBlock execution', value: round((finalizeMs * 1000) / txCount), unit: 'µs/tx' });
    rows.push({ name: 'app send: Commit', value: round(commitMs / blocks), unit: 'ms/block' });
    rows.push({ name: 'app send: signature verifications skipped in FinalizeBlock (cache hits)', value: chain.app.sigCache.hits, unit: 'count' });
    rows.push({ name: 'app send: share of time in signature checks', value: round((100 * sigMs) / totalMs), unit: '%' });

    // Blocks CheckTx never saw: inline verification vs worker threads (same run, alternating).
    let inlineMs = 0;
    let parallelMs = 0;
    for (let b = 0; b < peerPlan.length; b++) {
      const parallel = b % 2 === 1;
      chain.app.setParallelVerification(parallel);
      const hits = chain.app.timings.preverifiedHits;
      const pre = chain.app.timings.preverifyMs;
      const inline = inlineVerifyStats.ms;
      const timing = await finalizeAndCommit(chain, peerPlan[b]!);
      log(`  worker-verified ${chain.app.timings.preverifiedHits - hits}, preverify ${(chain.app.timings.preverifyMs - pre).toFixed(0)} ms, inline verify ${(inlineVerifyStats.ms - inline).toFixed(0)} ms`);
      if (parallel) parallelMs += timing.finalizeMs;
      else inlineMs += timing.finalizeMs;
      log(`peer block ${chain.height} (${parallel ? `${chain.app.verifierThreads} worker(s)` : 'inline'}): finalize ${timing.finalizeMs.toFixed(0)} ms`);
    }
    const peerTxs = peerBlocks * blockTxs;
    rows.push({ name: 'app peer block: FinalizeBlock, signatures inline', value: Math.round(peerTxs / (inlineMs / 1000)), unit: 'tx/s' });
    if (chain.app.verifierThreads > 0) {
      rows.push({ name: `app peer block: FinalizeBlock, signatures on ${chain.app.verifierThreads} worker(s) + main`, value: Math.round(peerTxs / (parallelMs / 1000)), unit: 'tx/s' });
      rows.push({ name: 'app peer block: speed-up from worker verification', value: round(inlineMs / parallelMs), unit: 'x' });
    }

    // Admission through the mempool, 50 submissions in flight (as from 50 RPC connections):
    // signatures verified in CheckTx on the main thread vs prechecked on the workers in batches.
    let admitInlineMs = 0;
    let admitWorkerMs = 0;
    for (let b = 0; b < admissionPlan.length; b++) {
      const workers = b % 2 === 1;
      chain.app.setParallelVerification(workers);
      const pool = new Mempool(chain.app, { size: blockTxs * 2 });
      const txs = admissionPlan[b]!;
      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          while (next < txs.length) {
            const response = await pool.checkTx(txs[next++]!);
            if (response.code !== 0) throw new Error(`CheckTx failed: ${response.code} ${response.log}`);
          }
        }),
      );
      const ms = performance.now() - t0;
      if (workers) admitWorkerMs += ms;
      else admitInlineMs += ms;
      log(`admission block ${b} (${workers ? 'worker precheck' : 'inline'}): ${ms.toFixed(0)} ms for ${txs.length} txs`);
      await finalizeAndCommit(chain, txs);
    }
    const admitted = (admissionPlan.length / 2) * blockTxs;
    rows.push({ name: 'app admission: mempool CheckTx, 50 in flight, signatures inline', value: Math.round(admitted / (admitInlineMs / 1000)), unit: 'tx/s' });
    if (chain.app.verifierThreads > 0) {
      rows.push({ name: `app admission: mempool CheckTx, 50 in flight, signatures prechecked on ${chain.app.verifierThreads} worker(s)`, value: Math.round(admitted / (admitWorkerMs / 1000)), unit: 'tx/s' });
      rows.push({ name: 'app admission: speed-up from worker precheck', value: round(admitInlineMs / admitWorkerMs), unit: 'x' });
    }
    await chain.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run((line) => process.stderr.write(`${line}\n`))
    .then((rows) => {
      for (const row of rows) console.log(`${row.name.padEnd(96)} ${String(row.value).padStart(10)} ${row.unit}`);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
}
