/**
 * Tracing cost (issue 12): one contract call — a forwarder that CALLs a receiver with value, the
 * receiver doing one SSTORE (an exchange's internal transfer) — asked through the app's query
 * path (in-memory store, in-process):
 *
 *   eth_call            EthCall query, no tracer: the baseline execution of the call
 *   trace_call call     TraceCall query with callTracer (same call, same state)
 *   trace_tx call       TraceTx of the committed tx with callTracer (block − 1 state, replay)
 *   trace_tx struct     TraceTx with the default struct logger (every step recorded)
 *   trace_tx prestate   TraceTx with prestateTracer
 *   loop 10k            a 10,000-iteration loop (~70k steps) as eth_call vs TraceCall with
 *                       callTracer: the cost of the step listener per opcode
 *   JS tracer           (JSON-RPC extras) trace_tx with a JavaScript opcode counter (geth's
 *                       tracer API in the node:vm sandbox) next to callTracer on the same tx, and
 *                       the 10k loop with the JS counter: the cost per opcode of calling into JS
 *   eth_getProof        (JSON-RPC extras) the account + one storage slot with their ICS23 proofs
 *                       (the JSON-RPC method's code over the app's store queries), next to the
 *                       same reads without proofs (Account + Storage queries)
 *
 * Rows are mean latencies per request in ms.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Wallet, getBytes, getCreateAddress, hexlify } from 'ethers';
import { sha256 } from '../../src/keyring/hash.js';
import { keyPairFromPrivateKey } from '../../src/keyring/keys.js';
import { defaultConsensusParams } from '../../src/node/consensus/types/params.js';
import { memoryDatabase } from '../../src/node/store/db/database.js';
import { addGenesisAccounts, collectGentxs, defaultAppState, openApp, type App } from '../../src/node/app/index.js';
import { decodeTx } from '../../src/node/app/tx.js';
import { gentx, makeKeys } from '../app/send.bench.js';
import { commonFor, cosmosTxBytes, recoverSender, txFromRaw } from '../../src/node/modules/evm/ethTx.js';
import { TraceConfigSchema } from '../../src/gen/ethermint/evm/v1/evm_pb.js';
import type { MsgEthereumTx } from '../../src/gen/ethermint/evm/v1/tx_pb.js';
import { EthCallRequestSchema, QueryAccountRequestSchema, QueryStorageRequestSchema, QueryTraceCallRequestSchema, QueryTraceTxRequestSchema } from '../../src/gen/ethermint/evm/v1/query_pb.js';
import { EthBackend } from '../../src/node/ethrpc/backend.js';
import { getProof } from '../../src/node/ethrpc/proof.js';
import type { RpcEnvironment } from '../../src/node/rpc/environment.js';

interface Row {
  name: string;
  value: number;
  unit: string;
}

const CHAIN_ID = 'bench_9000-1';
const DENOM = 'attotoken';
const GWEI = 10n ** 9n;
const GENESIS = Date.parse('2024-01-01T00:00:00Z');
const RECEIVER = '3460005500';
const FORWARDER = '6000600060006000346000355af15000';
// for (i = 0; i < 10000; i++) {} — ~70k steps: the per-step cost of a tracer's step listener
const LOOP = '61271060005b60010181811060055700';
// geth's JS tracer API: count the opcodes (the struct logger's length), as a user would write it
const JS_COUNTER = '{count: 0, step: function(log, db) { this.count++; }, fault: function(log, db) {}, result: function(ctx, db) { return this.count; }}';
const deployCode = (runtime: string) => `0x60${(runtime.length / 2).toString(16).padStart(2, '0')}80600b6000396000f3${runtime}`;

async function finalize(app: App, height: number, txs: Uint8Array[]): Promise<void> {
  const response = await app.finalizeBlock({
    txs,
    decidedLastCommit: { round: 0, votes: [] },
    misbehavior: [],
    hash: sha256(new TextEncoder().encode(`block-${height}`)),
    height,
    time: new Date(GENESIS + height * 1000),
    nextValidatorsHash: new Uint8Array(32),
    proposerAddress: new Uint8Array(20),
  });
  await app.commit();
  const failed = response.txResults.find((r) => r.code !== 0);
  if (failed !== undefined) throw new Error(`tx failed at height ${height}: ${failed.log}`);
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const iterations = Number(process.env['TRACE_BENCH_ITERATIONS'] ?? 300);
  const wallet = new Wallet(hexlify(sha256(new TextEncoder().encode('trace-bench'))));
  const validator = makeKeys(1)[0]!;
  let appState = defaultAppState({ denom: DENOM });
  appState = addGenesisAccounts(appState, [
    { address: keyPairFromPrivateKey('eth_secp256k1', getBytes(wallet.privateKey)).address, coins: [{ denom: DENOM, amount: 10n ** 24n }] },
    { address: validator.address, coins: [{ denom: DENOM, amount: 10n ** 24n }] },
  ]);
  appState = collectGentxs(appState, [gentx(validator)], CHAIN_ID);
  const opened = await openApp(memoryDatabase(), { chainId: CHAIN_ID, minGasPrices: '0attotoken', sigVerifyWorkers: 0 });
  const app = opened.app;
  const rows: Row[] = [];
  try {
    await app.initChain({ time: new Date(GENESIS), chainId: CHAIN_ID, consensusParams: defaultConsensusParams(), validators: [], appStateBytes: new TextEncoder().encode(JSON.stringify(appState)), initialHeight: 1 });
    let height = 1;
    await finalize(app, height++, []);
    const common = commonFor(9000n, 'cancun');
    const carry = (raw: string) => {
      const tx = txFromRaw(getBytes(raw), common);
      return cosmosTxBytes(tx, hexlify(recoverSender(tx)), DENOM);
    };
    const fee = { type: 2, chainId: 9000n, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI };
    let nonce = 0;
    await finalize(app, height++, [carry(await wallet.signTransaction({ ...fee, nonce: nonce++, data: deployCode(RECEIVER), gasLimit: 200_000n }))]);
    await finalize(app, height++, [carry(await wallet.signTransaction({ ...fee, nonce: nonce++, data: deployCode(FORWARDER), gasLimit: 200_000n }))]);
    await finalize(app, height++, [carry(await wallet.signTransaction({ ...fee, nonce: nonce++, data: deployCode(LOOP), gasLimit: 200_000n }))]);
    const receiver = getCreateAddress({ from: wallet.address, nonce: 0 });
    const loop = getCreateAddress({ from: wallet.address, nonce: 2 });
    const forwarder = getCreateAddress({ from: wallet.address, nonce: 1 });
    const input = `0x${receiver.slice(2).toLowerCase().padStart(64, '0')}`;
    const txBytes = carry(await wallet.signTransaction({ ...fee, nonce: nonce++, to: forwarder, data: input, value: 1000n, gasLimit: 150_000n }));
    const txHeight = height;
    await finalize(app, height++, [txBytes]);
    const msg = decodeTx(txBytes).msgs[0]!.message as MsgEthereumTx;

    const args = new TextEncoder().encode(JSON.stringify({ from: wallet.address, to: forwarder, data: input, value: '0x3e8' }));
    const callData = toBinary(EthCallRequestSchema, create(EthCallRequestSchema, { args, gasCap: 25_000_000n }));
    const traceCall = (tracer: string) => toBinary(QueryTraceCallRequestSchema, create(QueryTraceCallRequestSchema, { args, gasCap: 25_000_000n, traceConfig: create(TraceConfigSchema, { tracer }) }));
    const traceTx = (tracer: string) =>
      toBinary(
        QueryTraceTxRequestSchema,
        create(QueryTraceTxRequestSchema, { msg, traceConfig: create(TraceConfigSchema, { tracer }), blockNumber: BigInt(txHeight), blockTime: timestampFromDate(new Date(GENESIS + txHeight * 1000)), proposerAddress: new Uint8Array(20), chainId: 9000n }),
      );
    const latest = height - 1;
    const loopArgs = new TextEncoder().encode(JSON.stringify({ from: wallet.address, to: loop, gas: '0x989680' }));
    const loopCall = toBinary(EthCallRequestSchema, create(EthCallRequestSchema, { args: loopArgs, gasCap: 25_000_000n }));
    const loopTrace = toBinary(QueryTraceCallRequestSchema, create(QueryTraceCallRequestSchema, { args: loopArgs, gasCap: 25_000_000n, traceConfig: create(TraceConfigSchema, { tracer: 'callTracer' }) }));
    const jsLoopTrace = toBinary(QueryTraceCallRequestSchema, create(QueryTraceCallRequestSchema, { args: loopArgs, gasCap: 25_000_000n, traceConfig: create(TraceConfigSchema, { tracer: JS_COUNTER }) }));
    // eth_getProof's own code over the app (the env gives it the app's queries and the heights).
    const env = { app, blockStore: { height: () => latest, loadBlockMeta: () => ({}) }, stateStore: { load: () => ({ lastBlockHeight: latest }) } } as unknown as RpcEnvironment;
    const backend = new EthBackend(env);
    const proofParams = [receiver, ['0x0'], 'latest'];
    const accountQuery = toBinary(QueryAccountRequestSchema, create(QueryAccountRequestSchema, { address: receiver }));
    const storageQuery = toBinary(QueryStorageRequestSchema, create(QueryStorageRequestSchema, { address: receiver, key: `0x${'0'.repeat(64)}` }));
    const plainReads = async () => {
      for (const [path, data] of [['/ethermint.evm.v1.Query/Account', accountQuery], ['/ethermint.evm.v1.Query/Storage', storageQuery]] as const) {
        const response = await app.query({ path, data, height: latest, prove: false });
        if (response.code !== 0) throw new Error(response.log);
      }
    };
    const cases: { name: string; path: string; data: Uint8Array; at: number; ms: number; share?: number; call?: () => Promise<unknown> }[] = [
      { name: 'trace: eth_call, no tracer (forwarder → receiver)', path: '/ethermint.evm.v1.Query/EthCall', data: callData, at: latest, ms: 0 },
      { name: 'trace: same call, callTracer (TraceCall)', path: '/ethermint.evm.v1.Query/TraceCall', data: traceCall('callTracer'), at: latest, ms: 0 },
      { name: 'trace: trace_tx callTracer', path: '/ethermint.evm.v1.Query/TraceTx', data: traceTx('callTracer'), at: txHeight - 1, ms: 0 },
      { name: 'trace: trace_tx struct logger', path: '/ethermint.evm.v1.Query/TraceTx', data: traceTx(''), at: txHeight - 1, ms: 0 },
      { name: 'trace: trace_tx prestateTracer', path: '/ethermint.evm.v1.Query/TraceTx', data: traceTx('prestateTracer'), at: txHeight - 1, ms: 0 },
      { name: 'trace: loop 10k (~70k steps), eth_call', path: '/ethermint.evm.v1.Query/EthCall', data: loopCall, at: latest, ms: 0, share: 30 },
      { name: 'trace: loop 10k (~70k steps), callTracer', path: '/ethermint.evm.v1.Query/TraceCall', data: loopTrace, at: latest, ms: 0, share: 30 },
      { name: 'trace: trace_tx JS opcode counter', path: '/ethermint.evm.v1.Query/TraceTx', data: traceTx(JS_COUNTER), at: txHeight - 1, ms: 0 },
      { name: 'trace: loop 10k (~70k steps), JS counter', path: '/ethermint.evm.v1.Query/TraceCall', data: jsLoopTrace, at: latest, ms: 0, share: 30 },
      { name: 'rpc: eth_getProof (account + 1 slot)', path: '', data: new Uint8Array(0), at: latest, ms: 0, call: () => getProof(backend, proofParams) },
      { name: 'rpc: Account + Storage queries (no proofs)', path: '', data: new Uint8Array(0), at: latest, ms: 0, call: plainReads },
    ];
    // Rounds interleave the cases so a shared machine's load falls on all of them alike.
    const rounds = 10;
    for (let round = -1; round < rounds; round++) {
      for (const c of cases) {
        const count = Math.ceil((round < 0 ? 20 : iterations / rounds) / (c.share ?? 1));
        const started = performance.now();
        for (let i = 0; i < count; i++) {
          if (c.call !== undefined) {
            await c.call();
            continue;
          }
          const response = await app.query({ path: c.path, data: c.data, height: c.at, prove: false });
          if (response.code !== 0) throw new Error(`${c.name}: ${response.log}`);
        }
        if (round >= 0) c.ms += (performance.now() - started) / (count * rounds);
      }
    }
    for (const c of cases) {
      log(`${c.name}: ${c.ms.toFixed(3)} ms`);
      rows.push({ name: c.name, value: c.ms, unit: 'ms' });
    }
  } finally {
    await opened.close();
  }
  return rows;
}
