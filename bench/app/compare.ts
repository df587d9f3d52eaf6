/**
 * A/B of bank-send cost between this tree and another checkout of tokend (e.g. the commit before a
 * change): child processes alternate between the two trees, each running the same signed sends
 * through CheckTx → FinalizeBlock → Commit on LevelDB, and report CPU time per tx
 * (process.cpuUsage, so time spent descheduled on a shared machine does not count), gas used
 * and keys written per block. Medians over the pairs are printed at the end.
 *
 *   git -C . archive <commit> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/
 *   COMPARE_BASE=/tmp/before npx tsx bench/app/compare.ts
 *   COMPARE_PAIRS=5 COMPARE_BLOCKS=12 COMPARE_BLOCK_TXS=1000 COMPARE_ACCOUNTS=5000 …
 *
 * Not part of `npm run bench` (it needs a second tree). Both trees must expose the app API the
 * send benchmark uses (openApp, defaultAppState, addGenesisAccounts, collectGentxs, signDocBytes).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';

const HERE_TREE = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CHAIN_ID = 'bench_9000-1';
const DENOM = 'attotoken';
const GAS = 200_000n;
const FEE = 2_000_000_000_000_000n;
const TOKEN = 10n ** 18n;
const WARMUP_BLOCKS = 2;

interface Result {
  cpuUsPerTx: number;
  txPerSecond: number;
  gasUsed: string;
  keysPerBlock: number;
}

/** One tree, one process: sign, start a chain, run the blocks, print a JSON Result. */
async function child(tree: string): Promise<void> {
  const accounts = Number(process.env.COMPARE_ACCOUNTS ?? 5000);
  const blocks = Number(process.env.COMPARE_BLOCKS ?? 12);
  const blockTxs = Number(process.env.COMPARE_BLOCK_TXS ?? 1000);
  const load = (path: string): Promise<any> => import(join(tree, path));
  // Tx building and signing come from this tree; the bytes are the same for both.
  const own = (path: string): Promise<any> => import(join(HERE_TREE, path));
  const { MsgSendSchema } = await own('src/gen/cosmos/bank/v1beta1/tx_pb.js');
  const { CoinSchema } = await own('src/gen/cosmos/base/v1beta1/coin_pb.js');
  const { SignMode } = await own('src/gen/cosmos/tx/signing/v1beta1/signing_pb.js');
  const tx = await own('src/gen/cosmos/tx/v1beta1/tx_pb.js');
  const { PubKeySchema: EthPubKeySchema } = await own('src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js');
  const { PubKeySchema: Ed25519PubKeySchema } = await own('src/gen/cosmos/crypto/ed25519/keys_pb.js');
  const { CommissionRatesSchema, DescriptionSchema } = await own('src/gen/cosmos/staking/v1beta1/staking_pb.js');
  const { MsgCreateValidatorSchema } = await own('src/gen/cosmos/staking/v1beta1/tx_pb.js');
  const { sha256 } = await own('src/keyring/hash.js');
  const { keyPairFromPrivateKey, signMessage } = await own('src/keyring/keys.js');
  const { toAccountAddress, toValidatorOperatorAddress } = await own('src/keyring/address.js');
  const { anyPack, legacyDecToWire, registry, toGatewayJson } = await own('src/node/codec/index.js');
  const { signDocBytes } = await own('src/node/app/index.js');

  const keys = Array.from({ length: accounts + 1 }, (_, i) => {
    const privateKey = sha256(new TextEncoder().encode(`bench-account-${i}`));
    const pair = keyPairFromPrivateKey('eth_secp256k1', privateKey);
    return { privateKey, pubKey: pair.pubKey, address: pair.address, bech32: toAccountAddress(pair.address), accountNumber: BigInt(i) };
  });
  const validator = keys.pop()!;
  const signed = (from: (typeof keys)[number], body: Uint8Array, sequence: bigint, fee: bigint): Uint8Array => {
    const authInfo = toBinary(
      tx.AuthInfoSchema,
      create(tx.AuthInfoSchema, {
        signerInfos: [
          create(tx.SignerInfoSchema, {
            publicKey: anyPack(EthPubKeySchema, create(EthPubKeySchema, { key: from.pubKey })),
            modeInfo: create(tx.ModeInfoSchema, { sum: { case: 'single', value: create(tx.ModeInfo_SingleSchema, { mode: SignMode.DIRECT }) } }),
            sequence,
          }),
        ],
        fee: create(tx.FeeSchema, { amount: fee === 0n ? [] : [create(CoinSchema, { denom: DENOM, amount: fee.toString() })], gasLimit: GAS }),
      }),
    );
    const signature = signMessage('eth_secp256k1', from.privateKey, signDocBytes(body, authInfo, CHAIN_ID, from.accountNumber));
    return toBinary(tx.TxRawSchema, create(tx.TxRawSchema, { bodyBytes: body, authInfoBytes: authInfo, signatures: [signature] }));
  };
  const gentxBody = toBinary(
    tx.TxBodySchema,
    create(tx.TxBodySchema, {
      messages: [
        anyPack(
          MsgCreateValidatorSchema,
          create(MsgCreateValidatorSchema, {
            description: create(DescriptionSchema, { moniker: 'bench' }),
            commission: create(CommissionRatesSchema, { rate: legacyDecToWire('0.1'), maxRate: legacyDecToWire('0.2'), maxChangeRate: legacyDecToWire('0.01') }),
            minSelfDelegation: '1',
            validatorAddress: toValidatorOperatorAddress(validator.address),
            pubkey: anyPack(Ed25519PubKeySchema, create(Ed25519PubKeySchema, { key: sha256(new TextEncoder().encode('bench-validator-cons')) })),
            value: create(CoinSchema, { denom: DENOM, amount: (1000n * TOKEN).toString() }),
          }),
        ),
      ],
    }),
  );
  const gentxRaw: any = fromBinary(tx.TxRawSchema, signed({ ...validator, accountNumber: 0n }, gentxBody, 0n, 0n));
  const gentx = toGatewayJson(
    tx.TxSchema,
    create(tx.TxSchema, { body: fromBinary(tx.TxBodySchema, gentxRaw.bodyBytes), authInfo: fromBinary(tx.AuthInfoSchema, gentxRaw.authInfoBytes), signatures: gentxRaw.signatures }),
    { registry },
  );
  const sequences = keys.map(() => 0n);
  let next = 0;
  const plan: Uint8Array[][] = [];
  for (let b = 0; b < WARMUP_BLOCKS + blocks; b++) {
    const txs: Uint8Array[] = [];
    for (let j = 0; j < blockTxs; j++) {
      const i = next;
      next = (next + 1) % keys.length;
      const msg = create(MsgSendSchema, { fromAddress: keys[i]!.bech32, toAddress: keys[next]!.bech32, amount: [create(CoinSchema, { denom: DENOM, amount: '1' })] });
      txs.push(signed(keys[i]!, toBinary(tx.TxBodySchema, create(tx.TxBodySchema, { messages: [anyPack(MsgSendSchema, msg)] })), sequences[i]!++, FEE));
    }
    plan.push(txs);
  }

  const app = await load('src/node/app/index.js');
  const { openDatabase } = await load('src/node/store/db/database.js');
  const { defaultConsensusParams } = await load('src/node/consensus/types/params.js');
  const dir = await mkdtemp(join(tmpdir(), 'tokend-compare-'));
  try {
    let appState = app.defaultAppState({ denom: DENOM });
    appState = app.addGenesisAccounts(appState, [...keys, validator].map((key) => ({ address: key.address, coins: [{ denom: DENOM, amount: 1_000_000n * TOKEN }] })));
    appState = app.collectGentxs(appState, [gentx], CHAIN_ID);
    const db = await openDatabase(dir);
    const opened = await app.openApp(db, { chainId: CHAIN_ID, minGasPrices: '0attotoken', sigVerifyWorkers: 0, parallelVerifyThreshold: 1_000_000 });
    await opened.app.initChain({ time: new Date('2024-01-01T00:00:00Z'), chainId: CHAIN_ID, consensusParams: defaultConsensusParams(), validators: [], appStateBytes: new TextEncoder().encode(JSON.stringify(appState)), initialHeight: 1 });
    let height = 0;
    let cpuUs = 0;
    let wallMs = 0;
    let gasUsed = 0n;
    let keysWritten = 0;
    const runBlock = async (txs: Uint8Array[], counted: boolean): Promise<void> => {
      const wall = performance.now();
      const cpu = process.cpuUsage();
      for (const raw of txs) {
        const checked = await opened.app.checkTx({ tx: raw, type: 'new' });
        if (checked.code !== 0) throw new Error(`CheckTx failed: ${checked.code} ${checked.log}`);
      }
      height++;
      const response = await opened.app.finalizeBlock({
        txs,
        decidedLastCommit: { round: 0, votes: [] },
        misbehavior: [],
        hash: sha256(new TextEncoder().encode(`block-${height}`)),
        height,
        time: new Date(Date.parse('2024-01-01T00:00:00Z') + height * 1000),
        nextValidatorsHash: new Uint8Array(32),
        proposerAddress: new Uint8Array(20),
      });
      const pending: number = opened.app.store.stats?.().pendingKeys ?? 0;
      await opened.app.commit();
      const failed = response.txResults.find((result: { code: number }) => result.code !== 0);
      if (failed !== undefined) throw new Error(`tx failed: ${failed.code} ${failed.log}`);
      if (!counted) return;
      const used = process.cpuUsage(cpu);
      cpuUs += used.user + used.system;
      wallMs += performance.now() - wall;
      keysWritten += pending;
      for (const result of response.txResults) gasUsed += BigInt(result.gasUsed);
    };
    await runBlock([], false);
    for (let b = 0; b < plan.length; b++) await runBlock(plan[b]!, b >= WARMUP_BLOCKS);
    await opened.close();
    await db.close();
    const txCount = blocks * blockTxs;
    const result: Result = { cpuUsPerTx: cpuUs / txCount, txPerSecond: txCount / (wallMs / 1000), gasUsed: gasUsed.toString(), keysPerBlock: keysWritten / blocks };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  if (process.env.COMPARE_CHILD !== undefined) return child(process.env.COMPARE_CHILD);
  const base = process.env.COMPARE_BASE;
  if (base === undefined) throw new Error('set COMPARE_BASE to the other checkout (see the header of bench/app/compare.ts)');
  const pairs = Number(process.env.COMPARE_PAIRS ?? 5);
  const trees: [string, string][] = [
    ['base', resolve(base)],
    ['head', HERE_TREE],
  ];
  const results: Record<string, Result[]> = { base: [], head: [] };
  for (let pair = 0; pair < pairs; pair++) {
    for (const [name, tree] of pair % 2 === 0 ? trees : [...trees].reverse()) {
      const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { env: { ...process.env, COMPARE_CHILD: tree }, encoding: 'utf8', maxBuffer: 1 << 20 });
      const result = JSON.parse(out.trim().split('\n').pop()!) as Result;
      results[name]!.push(result);
      process.stderr.write(`pair ${pair + 1} ${name}: ${result.cpuUsPerTx.toFixed(1)} µs CPU/tx, ${result.txPerSecond.toFixed(0)} tx/s wall, gas ${result.gasUsed}, ${result.keysPerBlock} keys/block\n`);
    }
  }
  const cpuBase = median(results.base!.map((r) => r.cpuUsPerTx));
  const cpuHead = median(results.head!.map((r) => r.cpuUsPerTx));
  const wallBase = median(results.base!.map((r) => r.txPerSecond));
  const wallHead = median(results.head!.map((r) => r.txPerSecond));
  process.stdout.write(`median CPU per tx: base ${cpuBase.toFixed(1)} µs, head ${cpuHead.toFixed(1)} µs (head/base ${(cpuHead / cpuBase).toFixed(3)})\n`);
  process.stdout.write(`median wall throughput: base ${wallBase.toFixed(0)} tx/s, head ${wallHead.toFixed(0)} tx/s (head/base ${(wallHead / wallBase).toFixed(3)})\n`);
  process.stdout.write(`gas used: base ${results.base![0]!.gasUsed}, head ${results.head![0]!.gasUsed}; keys written per block: base ${results.base![0]!.keysPerBlock}, head ${results.head![0]!.keysPerBlock}\n`);
}

await main();
