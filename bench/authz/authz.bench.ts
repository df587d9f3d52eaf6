/**
 * authz exec overhead against a direct send (issue 10): the same bank send, from the same
 * granters, as a plain MsgSend signed by the granter and as a MsgExec signed by a grantee — with
 * a GenericAuthorization (the grant is read, the message dispatched through the router) and with
 * a SendAuthorization (the spend limit is also lowered and the grant written back).
 *
 * In-process on LevelDB: grants come from genesis; each block's txs go through CheckTx first
 * (untimed, so signatures are verified there once and cached, as on a node), then FinalizeBlock +
 * Commit are timed. Kinds run in turn for AUTHZ_BENCH_ROUNDS rounds (order reversed every other
 * round); reports each kind's best round (tx/s), gas used, and the time ratios against the direct
 * send, measured in the same run.
 *
 *   npx tsx bench/authz/authz.bench.ts
 *   AUTHZ_BENCH_PAIRS=500 AUTHZ_BENCH_BLOCK_TXS=500 AUTHZ_BENCH_BLOCKS=6 AUTHZ_BENCH_ROUNDS=3 npx tsx bench/authz/authz.bench.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create, toBinary } from '@bufbuild/protobuf';
import { GenericAuthorizationSchema } from '../../src/gen/cosmos/authz/v1beta1/authz_pb.js';
import { MsgExecSchema } from '../../src/gen/cosmos/authz/v1beta1/tx_pb.js';
import { SendAuthorizationSchema } from '../../src/gen/cosmos/bank/v1beta1/authz_pb.js';
import { MsgSendSchema } from '../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { CoinSchema } from '../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { SignMode } from '../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { AuthInfoSchema, FeeSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignerInfoSchema, TxBodySchema, TxRawSchema } from '../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { signMessage } from '../../src/keyring/keys.js';
import { anyPack, toGatewayJson } from '../../src/node/codec/index.js';
import { defaultConsensusParams } from '../../src/node/consensus/types/params.js';
import { openDatabase } from '../../src/node/store/db/database.js';
import { addGenesisAccounts, collectGentxs, defaultAppState, openApp, signDocBytes, type App } from '../../src/node/app/index.js';
import { CHAIN_ID, DENOM, gentx, makeKeys, type Key, type Row } from '../app/send.bench.js';

const GAS = 400_000n;
const TOKEN = 10n ** 18n;
const GENESIS = Date.parse('2024-01-01T00:00:00Z');

type Kind = 'direct send' | 'exec, generic grant' | 'exec, send grant';

function signed(from: Key, msgs: ReturnType<typeof anyPack>[], sequence: bigint): Uint8Array {
  const body = toBinary(TxBodySchema, create(TxBodySchema, { messages: msgs }));
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
      fee: create(FeeSchema, { amount: [create(CoinSchema, { denom: DENOM, amount: '4000000' })], gasLimit: GAS }),
    }),
  );
  const signature = signMessage('eth_secp256k1', from.privateKey, signDocBytes(body, authInfo, CHAIN_ID, from.accountNumber));
  return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes: body, authInfoBytes: authInfo, signatures: [signature] }));
}

function send(from: Key, to: Key): ReturnType<typeof anyPack> {
  return anyPack(MsgSendSchema, create(MsgSendSchema, { fromAddress: from.bech32, toAddress: to.bech32, amount: [create(CoinSchema, { denom: DENOM, amount: '1' })] }));
}

/** A chain whose genesis has granter i (account i) grant grantee pairs+i one kind of authorization for MsgSend (or none). */
async function openChain(dir: string, keys: Key[], validator: Key, pairs: number, grant: 'generic' | 'send' | 'none'): Promise<{ app: App; height: number; close(): Promise<void> }> {
  let appState = defaultAppState({ denom: DENOM });
  appState = addGenesisAccounts(appState, [...keys, validator].map((key) => ({ address: key.address, coins: [{ denom: DENOM, amount: 1_000_000n * TOKEN }] })));
  if (grant !== 'none') {
    const authorization =
      grant === 'generic'
        ? toGatewayJson(GenericAuthorizationSchema, create(GenericAuthorizationSchema, { msg: '/cosmos.bank.v1beta1.MsgSend' }))
        : toGatewayJson(SendAuthorizationSchema, create(SendAuthorizationSchema, { spendLimit: [create(CoinSchema, { denom: DENOM, amount: (1000n * TOKEN).toString() })] }));
    const typeUrl = grant === 'generic' ? '/cosmos.authz.v1beta1.GenericAuthorization' : '/cosmos.bank.v1beta1.SendAuthorization';
    (appState as Record<string, unknown>)['authz'] = {
      authorization: keys.slice(0, pairs).map((granter, i) => ({ granter: granter.bech32, grantee: keys[pairs + i]!.bech32, authorization: { '@type': typeUrl, ...(authorization as object) } })),
    };
  }
  appState = collectGentxs(appState, [gentx(validator)], CHAIN_ID);
  const db = await openDatabase(dir);
  const opened = await openApp(db, { chainId: CHAIN_ID, minGasPrices: '0attotoken', sigVerifyWorkers: 0 });
  await opened.app.initChain({ time: new Date(GENESIS), chainId: CHAIN_ID, consensusParams: defaultConsensusParams(), validators: [], appStateBytes: new TextEncoder().encode(JSON.stringify(appState)), initialHeight: 1 });
  const chain = { app: opened.app, height: 0, close: async () => { await opened.close(); await db.close(); } };
  await block(chain, []);
  return chain;
}

async function block(chain: { app: App; height: number }, txs: Uint8Array[]): Promise<{ ms: number; gas: bigint }> {
  const height = chain.height + 1;
  const t0 = performance.now();
  const response = await chain.app.finalizeBlock({ txs, decidedLastCommit: { round: 0, votes: [] }, misbehavior: [], hash: new Uint8Array(32).fill(height % 256), height, time: new Date(GENESIS + height * 1000), nextValidatorsHash: new Uint8Array(32), proposerAddress: new Uint8Array(20) });
  await chain.app.commit();
  const ms = performance.now() - t0;
  const failed = response.txResults.find((r) => r.code !== 0);
  if (failed !== undefined) throw new Error(`tx failed at height ${height}: ${failed.code} ${failed.log}`);
  chain.height = height;
  return { ms, gas: response.txResults.reduce((sum, r) => sum + r.gasUsed, 0n) };
}

async function measure(kind: Kind, keys: Key[], validator: Key, pairs: number, blockTxs: number, blocks: number, log: (line: string) => void): Promise<{ txPerSec: number; gasPerTx: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'tokend-bench-authz-'));
  const chain = await openChain(dir, keys, validator, pairs, kind === 'direct send' ? 'none' : kind === 'exec, generic grant' ? 'generic' : 'send');
  try {
    const sequences = keys.map(() => 0n);
    let next = 0;
    let timedMs = 0;
    let timedTxs = 0;
    let gas = 0n;
    for (let b = 0; b < blocks + 1; b++) {
      const txs: Uint8Array[] = [];
      for (let j = 0; j < blockTxs; j++) {
        const i = next;
        next = (next + 1) % pairs;
        const granter = keys[i]!;
        const grantee = keys[pairs + i]!;
        const recipient = keys[(i + 1) % pairs]!;
        const signer = kind === 'direct send' ? granter : grantee;
        const index = kind === 'direct send' ? i : pairs + i;
        const msg = kind === 'direct send' ? send(granter, recipient) : anyPack(MsgExecSchema, create(MsgExecSchema, { grantee: grantee.bech32, msgs: [send(granter, recipient)] }));
        txs.push(signed(signer, [msg], sequences[index]!));
        sequences[index]!++;
      }
      for (const tx of txs) {
        const response = await chain.app.checkTx({ tx, type: 'new' });
        if (response.code !== 0) throw new Error(`CheckTx failed: ${response.code} ${response.log}`);
      }
      const result = await block(chain, txs);
      gas += result.gas;
      if (b > 0) {
        timedMs += result.ms;
        timedTxs += txs.length;
      }
    }
    const txPerSec = Math.round(timedTxs / (timedMs / 1000));
    const gasPerTx = Number(gas / BigInt((blocks + 1) * blockTxs));
    log(`${kind}: ${txPerSec} tx/s (FinalizeBlock + Commit), ${gasPerTx} gas/tx (FinalizeBlock)`);
    return { txPerSec, gasPerTx };
  } finally {
    await chain.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const pairs = Number(process.env['AUTHZ_BENCH_PAIRS'] ?? 500);
  const blockTxs = Number(process.env['AUTHZ_BENCH_BLOCK_TXS'] ?? 500);
  const blocks = Number(process.env['AUTHZ_BENCH_BLOCKS'] ?? 6);
  const rounds = Number(process.env['AUTHZ_BENCH_ROUNDS'] ?? 3);
  const keys = makeKeys(2 * pairs + 1);
  // Genesis numbers the accounts in the order given: the granters, the grantees, then the validator.
  const validator = keys.pop()!;
  const rows: Row[] = [];
  const results = new Map<Kind, { txPerSec: number; gasPerTx: number }>();
  // Rounds in turn (A B C, C B A, …) so that warm-up and the machine's load fall on every kind; best round per kind.
  const kinds = ['direct send', 'exec, generic grant', 'exec, send grant'] as const;
  for (let round = 0; round < rounds; round++) {
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
      const result = await measure(kind, keys, validator, pairs, blockTxs, blocks, log);
      const best = results.get(kind);
      if (best === undefined || result.txPerSec > best.txPerSec) results.set(kind, result);
    }
  }
  const direct = results.get('direct send')!;
  for (const [kind, result] of results) {
    rows.push({ name: `authz: ${kind} (${blockTxs} tx/block, FinalizeBlock+Commit, LevelDB)`, value: result.txPerSec, unit: 'tx/s' });
    rows.push({ name: `authz: ${kind}, gas used`, value: result.gasPerTx, unit: 'gas/tx' });
    if (kind !== 'direct send') rows.push({ name: `authz: ${kind} time vs direct send`, value: direct.txPerSec / result.txPerSec, unit: '×' });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run((line) => process.stderr.write(`${line}\n`))) process.stdout.write(`${row.name}: ${row.value} ${row.unit}\n`);
}
