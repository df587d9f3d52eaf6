/**
 * What signing modes and multisig cost per tx, measured in the same run:
 *
 * - CheckTx of a bank send (decode, ante chain, signature verification, no cache hit) for a single
 *   signer in SIGN_MODE_DIRECT and SIGN_MODE_LEGACY_AMINO_JSON (eth_secp256k1 and secp256k1 keys),
 *   and for 2-of-3 multisig accounts (members signing amino JSON), each on its own fresh accounts;
 * - the sign bytes alone: the proto SignDoc against the amino StdSignDoc (descriptor-driven JSON);
 * - signature verification alone: one key against a 2-of-3 multisig (two members verified).
 *
 *   npx tsx bench/ante/signing.bench.ts            ANTE_BENCH_TXS=2000 (per kind)
 *
 * Times are CPU time of this process (process.cpuUsage) per tx, and the kinds run interleaved
 * in chunks after a warm-up, so that a busy shared machine skews them alike.
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { pathToFileURL } from 'node:url';
import { create, toBinary } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { MsgSendSchema } from '../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { CoinSchema } from '../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { LegacyAminoPubKeySchema } from '../../src/gen/cosmos/crypto/multisig/keys_pb.js';
import { CompactBitArraySchema, MultiSignatureSchema } from '../../src/gen/cosmos/crypto/multisig/v1beta1/multisig_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../src/gen/cosmos/crypto/secp256k1/keys_pb.js';
import { SignMode } from '../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { AuthInfoSchema, FeeSchema, ModeInfo_MultiSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignerInfoSchema, TxBodySchema, TxRawSchema, type ModeInfo } from '../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { toAccountAddress } from '../../src/keyring/address.js';
import { sha256 } from '../../src/keyring/hash.js';
import { keyPairFromPrivateKey, signMessage } from '../../src/keyring/keys.js';
import type { KeyAlgo } from '../../src/keyring/types.js';
import { AminoJsonSigner } from '../../src/node/codec/aminoJson.js';
import { aminoPubKeyAddress } from '../../src/node/codec/aminoPubKey.js';
import { anyPack } from '../../src/node/codec/index.js';
import { defaultConsensusParams } from '../../src/node/consensus/types/params.js';
import { memoryDatabase } from '../../src/node/store/db/database.js';
import { decodePubKey } from '../../src/node/modules/auth/account.js';
import { addGenesisAccounts, collectGentxs, decodeTx, defaultAppState, openApp, signDocBytes } from '../../src/node/app/index.js';
import { SignModeHandler, verifySignatureData } from '../../src/node/app/sigverify.js';
import { signatureData } from '../../src/node/app/tx.js';
import { benchGentx } from '../support/gentx.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const CHAIN_ID = 'bench_9000-1';
const DENOM = 'attotoken';
const TOKEN = 10n ** 18n;
const FEE = 300_000n;
const GAS = 300_000n;

interface Key {
  algo: KeyAlgo;
  privateKey: Uint8Array;
  pubKey: Uint8Array;
  address: Uint8Array;
}

function key(label: string, algo: KeyAlgo): Key {
  const privateKey = sha256(new TextEncoder().encode(`ante-bench:${label}`));
  const pair = keyPairFromPrivateKey(algo, privateKey);
  return { algo, privateKey, pubKey: pair.pubKey, address: pair.address };
}

function pubKeyAny(k: Key): Any {
  return k.algo === 'secp256k1' ? anyPack(Secp256k1PubKeySchema, create(Secp256k1PubKeySchema, { key: k.pubKey })) : anyPack(EthPubKeySchema, create(EthPubKeySchema, { key: k.pubKey }));
}

function single(mode: SignMode): ModeInfo {
  return create(ModeInfoSchema, { sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode }) } });
}

/** A sender: one key, or a 2-of-3 multisig (members 0 and 1 sign). */
interface Sender {
  address: Uint8Array;
  publicKey: Any;
  sign(parts: { bodyBytes: Uint8Array; authInfoBytes: Uint8Array; amino: Uint8Array; direct: Uint8Array }): Uint8Array;
  modeInfo: ModeInfo;
}

function singleSender(k: Key, mode: SignMode): Sender {
  return { address: k.address, publicKey: pubKeyAny(k), modeInfo: single(mode), sign: (p) => signMessage(k.algo, k.privateKey, mode === SignMode.DIRECT ? p.direct : p.amino) };
}

function multisigSender(members: Key[]): Sender {
  const publicKey = anyPack(LegacyAminoPubKeySchema, create(LegacyAminoPubKeySchema, { threshold: 2, publicKeys: members.map(pubKeyAny) }));
  const modeInfo = create(ModeInfoSchema, {
    sum: { case: 'multi', value: create(ModeInfo_MultiSchema, { bitarray: create(CompactBitArraySchema, { elems: new Uint8Array([0b1100_0000]), extraBitsStored: 3 }), modeInfos: [single(SignMode.LEGACY_AMINO_JSON), single(SignMode.LEGACY_AMINO_JSON)] }) },
  });
  return {
    address: aminoPubKeyAddress(publicKey),
    publicKey,
    modeInfo,
    sign: (p) => toBinary(MultiSignatureSchema, create(MultiSignatureSchema, { signatures: members.slice(0, 2).map((m) => signMessage(m.algo, m.privateKey, p.amino)) })),
  };
}

const amino = new AminoJsonSigner();

function sendTx(sender: Sender, to: Uint8Array, accountNumber: bigint): Uint8Array {
  const body = create(TxBodySchema, {
    messages: [anyPack(MsgSendSchema, create(MsgSendSchema, { fromAddress: toAccountAddress(sender.address), toAddress: toAccountAddress(to), amount: [create(CoinSchema, { denom: DENOM, amount: '1' })] }))],
  });
  const authInfo = create(AuthInfoSchema, {
    signerInfos: [create(SignerInfoSchema, { publicKey: sender.publicKey, modeInfo: sender.modeInfo, sequence: 0n })],
    fee: create(FeeSchema, { amount: [create(CoinSchema, { denom: DENOM, amount: FEE.toString() })], gasLimit: GAS }),
  });
  const bodyBytes = toBinary(TxBodySchema, body);
  const authInfoBytes = toBinary(AuthInfoSchema, authInfo);
  const aminoBytes = amino.signBytes({ chainId: CHAIN_ID, accountNumber, sequence: 0n, timeoutHeight: 0n, memo: '', msgs: body.messages, fee: { amount: authInfo.fee!.amount, gasLimit: GAS, payer: '', granter: '' } });
  const signature = sender.sign({ bodyBytes, authInfoBytes, amino: aminoBytes, direct: signDocBytes(bodyBytes, authInfoBytes, CHAIN_ID, accountNumber) });
  return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes, authInfoBytes, signatures: [signature] }));
}

/** CPU microseconds per call of `work` (user + system time of this process). */
function time(count: number, work: (i: number) => void): number {
  const started = process.cpuUsage();
  for (let i = 0; i < count; i++) work(i);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

const WARMUP_TXS = 100;
const CHUNK_TXS = 100;

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const perKind = Number(process.env['ANTE_BENCH_TXS'] ?? 2000);
  const kinds: { name: string; sender: (i: number) => Sender }[] = [
    { name: 'direct, eth_secp256k1', sender: (i) => singleSender(key(`de${i}`, 'eth_secp256k1'), SignMode.DIRECT) },
    { name: 'amino JSON, eth_secp256k1', sender: (i) => singleSender(key(`ae${i}`, 'eth_secp256k1'), SignMode.LEGACY_AMINO_JSON) },
    { name: 'direct, secp256k1', sender: (i) => singleSender(key(`dc${i}`, 'secp256k1'), SignMode.DIRECT) },
    { name: 'amino JSON, secp256k1', sender: (i) => singleSender(key(`ac${i}`, 'secp256k1'), SignMode.LEGACY_AMINO_JSON) },
    { name: '2-of-3 multisig (amino), eth_secp256k1', sender: (i) => multisigSender([0, 1, 2].map((m) => key(`me${i}.${m}`, 'eth_secp256k1'))) },
    { name: '2-of-3 multisig (amino), secp256k1', sender: (i) => multisigSender([0, 1, 2].map((m) => key(`mc${i}.${m}`, 'secp256k1'))) },
  ];
  log(`building ${kinds.length} × ${perKind + WARMUP_TXS} senders and a genesis`);
  const senders = kinds.map((kind) => Array.from({ length: perKind + WARMUP_TXS }, (_, i) => kind.sender(i)));
  const validator = key('validator', 'eth_secp256k1');
  const sink = key('sink', 'eth_secp256k1');
  let appState = defaultAppState({ denom: DENOM });
  const everyone = [validator.address, ...senders.flat().map((s) => s.address)];
  appState = addGenesisAccounts(appState, everyone.map((address) => ({ address, coins: [{ denom: DENOM, amount: 1000n * TOKEN }] })));
  appState = collectGentxs(appState, [benchGentx({ algo: validator.algo, privateKey: validator.privateKey, consensusSeed: 'ante-bench-cons', chainId: CHAIN_ID, denom: DENOM, selfDelegation: 1000n * TOKEN, gasLimit: GAS })], CHAIN_ID);
  const db = memoryDatabase();
  const opened = await openApp(db, { chainId: CHAIN_ID, minGasPrices: '0attotoken', sigVerifyWorkers: 0 }, { syncCommits: false });
  const app = opened.app;
  await app.initChain({ time: new Date('2024-01-01T00:00:00Z'), chainId: CHAIN_ID, consensusParams: defaultConsensusParams(), validators: [], appStateBytes: new TextEncoder().encode(JSON.stringify(appState)), initialHeight: 1 });
  await app.finalizeBlock({ txs: [], decidedLastCommit: { round: 0, votes: [] }, misbehavior: [], hash: new Uint8Array(32), height: 1, time: new Date('2024-01-01T00:00:01Z'), nextValidatorsHash: new Uint8Array(32), proposerAddress: new Uint8Array(20) });
  await app.commit();
  // Genesis accounts are numbered in the order they were added (validator first).
  const accountNumbers = new Map<string, bigint>();
  everyone.forEach((address, i) => accountNumbers.set(Buffer.from(address).toString('hex'), BigInt(i)));
  const numberOf = (address: Uint8Array): bigint => {
    const n = accountNumbers.get(Buffer.from(address).toString('hex'));
    if (n === undefined) throw new Error('unknown account');
    return n;
  };

  const rows: Row[] = [];
  const txsByKind = senders.map((list) => list.map((sender) => sendTx(sender, sink.address, numberOf(sender.address))));
  const checkTx = async (kind: number, from: number, to: number): Promise<void> => {
    for (let i = from; i < to; i++) {
      const result = await app.checkTx({ tx: txsByKind[kind]![i]!, type: 'new' });
      if (result.code !== 0) throw new Error(`${kinds[kind]!.name}: CheckTx failed: ${result.code} ${result.log}`);
    }
  };
  for (let k = 0; k < kinds.length; k++) await checkTx(k, 0, WARMUP_TXS);
  const cpuUs = kinds.map(() => 0);
  for (let from = WARMUP_TXS; from < WARMUP_TXS + perKind; from += CHUNK_TXS) {
    const to = Math.min(from + CHUNK_TXS, WARMUP_TXS + perKind);
    for (let k = 0; k < kinds.length; k++) {
      const started = process.cpuUsage();
      await checkTx(k, from, to);
      const used = process.cpuUsage(started);
      cpuUs[k]! += used.user + used.system;
    }
  }
  const checkTxUs = cpuUs.map((us) => us / perKind);
  kinds.forEach((kind, k) => {
    log(`CheckTx ${kind.name}: ${checkTxUs[k]!.toFixed(1)} µs/tx (CPU)`);
    rows.push({ name: `CheckTx, ${kind.name}`, value: checkTxUs[k]!, unit: 'µs/tx CPU' });
  });
  rows.push({ name: 'CheckTx amino / direct (eth_secp256k1)', value: checkTxUs[1]! / checkTxUs[0]!, unit: 'ratio' });
  rows.push({ name: 'CheckTx amino / direct (secp256k1)', value: checkTxUs[3]! / checkTxUs[2]!, unit: 'ratio' });
  rows.push({ name: 'CheckTx multisig 2-of-3 / direct (eth_secp256k1)', value: checkTxUs[4]! / checkTxUs[0]!, unit: 'ratio' });

  // Sign bytes and verification alone, on the txs of the first kinds.
  const handler = new SignModeHandler();
  const samples = senders[1]!.slice(0, Math.min(perKind, 1000)).map((sender) => decodeTx(sendTx(sender, sink.address, 7n)));
  const signer = { chainId: CHAIN_ID, accountNumber: 7n, sequence: 0n, address: sink.address };
  for (let i = 0; i < 2; i++) time(samples.length, (j) => handler.signBytes(i === 0 ? SignMode.DIRECT : SignMode.LEGACY_AMINO_JSON, samples[j]!, signer));
  const directBytesUs = time(samples.length * 5, (i) => handler.signBytes(SignMode.DIRECT, samples[i % samples.length]!, signer));
  const aminoBytesUs = time(samples.length * 5, (i) => handler.signBytes(SignMode.LEGACY_AMINO_JSON, samples[i % samples.length]!, signer));
  rows.push({ name: 'sign bytes: direct SignDoc', value: directBytesUs, unit: 'µs/tx CPU' });
  rows.push({ name: 'sign bytes: amino StdSignDoc (MsgSend)', value: aminoBytesUs, unit: 'µs/tx CPU' });
  log(`sign bytes: direct ${directBytesUs.toFixed(2)} µs, amino ${aminoBytesUs.toFixed(2)} µs`);

  const verifySingle = samples.map((tx) => ({ pubKey: tx.signerInfos[0]!.pubKey!, data: signatureData(tx.signerInfos[0]!.mode, tx.signatures[0]!), tx }));
  const singleUs = time(verifySingle.length, (i) => {
    const v = verifySingle[i]!;
    verifySignatureData(v.pubKey, v.data, (mode) => handler.signBytes(mode, v.tx, signer));
  });
  const multiTxs = senders[4]!.slice(0, verifySingle.length).map((sender) => decodeTx(sendTx(sender, sink.address, 7n)));
  const verifyMulti = multiTxs.map((tx) => ({ pubKey: decodePubKey(tx.signerInfos[0]!.pubKey!.any!), data: signatureData(tx.signerInfos[0]!.mode, tx.signatures[0]!), tx }));
  const multiUs = time(verifyMulti.length, (i) => {
    const v = verifyMulti[i]!;
    const cache = new Map<SignMode, Uint8Array>();
    verifySignatureData(v.pubKey, v.data, (mode) => {
      let bytes = cache.get(mode);
      if (bytes === undefined) cache.set(mode, (bytes = handler.signBytes(mode, v.tx, signer)));
      return bytes;
    });
  });
  rows.push({ name: 'verify amino, one eth_secp256k1 key (sign bytes + ECDSA)', value: singleUs, unit: 'µs/tx CPU' });
  rows.push({ name: 'verify amino, 2-of-3 eth_secp256k1 multisig', value: multiUs, unit: 'µs/tx CPU' });
  log(`verify: single ${singleUs.toFixed(1)} µs, multisig ${multiUs.toFixed(1)} µs`);
  await opened.close();
  await db.close();
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await run((line) => process.stderr.write(`${line}\n`));
  for (const row of rows) process.stdout.write(`${row.name.padEnd(60)} ${row.value.toFixed(2).padStart(10)} ${row.unit}\n`);
}
