/**
 * What an EIP-712 signed Cosmos tx (ExtensionOptionsWeb3Tx) costs to verify against a
 * SIGN_MODE_DIRECT one, measured in the same run:
 *
 * - signature verification alone, per tx: DIRECT secp256k1 (SignDoc bytes, sha256, ECDSA verify),
 *   DIRECT eth_secp256k1 (keccak256), and EIP-712 (amino JSON StdSignDoc, typed-data types from
 *   the message, EIP-712 hashing, public-key recovery, the key comparison, ECDSA verify), plus
 *   the EIP-712 typed data and hash alone (no elliptic-curve work);
 * - CheckTx of a bank send on fresh accounts (decode, the whole ante chain, no verified-signature
 *   cache hit): DIRECT secp256k1 against EIP-712.
 *
 *   npx tsx bench/evm/eip712.bench.ts            EIP712_BENCH_TXS=1000 (per kind)
 *
 * Times are CPU time of this process per tx; the kinds run interleaved in chunks after a warm-up.
 */
import { pathToFileURL } from 'node:url';
import { create, toBinary } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { MsgSendSchema } from '../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { CoinSchema } from '../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../src/gen/cosmos/crypto/secp256k1/keys_pb.js';
import { SignMode } from '../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { AuthInfoSchema, FeeSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignerInfoSchema, TxBodySchema, TxRawSchema } from '../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { ExtensionOptionsWeb3TxSchema } from '../../src/gen/ethermint/types/v1/web3_pb.js';
import { toAccountAddress } from '../../src/keyring/address.js';
import { sha256 } from '../../src/keyring/hash.js';
import { keyPairFromPrivateKey, signMessage } from '../../src/keyring/keys.js';
import type { KeyAlgo } from '../../src/keyring/types.js';
import { AminoJsonSigner } from '../../src/node/codec/aminoJson.js';
import { anyPack } from '../../src/node/codec/index.js';
import { defaultConsensusParams } from '../../src/node/consensus/types/params.js';
import { memoryDatabase } from '../../src/node/store/db/database.js';
import type { PubKey } from '../../src/node/modules/auth/account.js';
import { addGenesisAccounts, collectGentxs, decodeTx, defaultAppState, openApp, signDocBytes, type DecodedTx } from '../../src/node/app/index.js';
import { verifyWithPubKey } from '../../src/node/app/sigverify.js';
import { signatureData } from '../../src/node/app/tx.js';
import { verifyLegacyEip712 } from '../../src/node/modules/evm/eip712/ante.js';
import { legacyTypedData } from '../../src/node/modules/evm/eip712/legacy.js';
import { TypedDataEncoder, typedDataHash } from '../../src/node/modules/evm/eip712/typedData.js';
import { benchGentx } from '../support/gentx.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const CHAIN_ID = 'bench_9000-1';
const EIP155 = 9000n;
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
  const privateKey = sha256(new TextEncoder().encode(`eip712-bench:${label}`));
  const pair = keyPairFromPrivateKey(algo, privateKey);
  return { algo, privateKey, pubKey: pair.pubKey, address: pair.address };
}

function pubKeyAny(k: Key): Any {
  return k.algo === 'secp256k1' ? anyPack(Secp256k1PubKeySchema, create(Secp256k1PubKeySchema, { key: k.pubKey })) : anyPack(EthPubKeySchema, create(EthPubKeySchema, { key: k.pubKey }));
}

const amino = new AminoJsonSigner();

/** A MsgSend from `k`: SIGN_MODE_DIRECT, or (eip712) signed as EIP-712 typed data in an ExtensionOptionsWeb3Tx. */
function sendTx(k: Key, to: Uint8Array, accountNumber: bigint, eip712: boolean): Uint8Array {
  const send = create(MsgSendSchema, { fromAddress: toAccountAddress(k.address), toAddress: toAccountAddress(to), amount: [create(CoinSchema, { denom: DENOM, amount: '1' })] });
  const msgs = [anyPack(MsgSendSchema, send)];
  const fee = create(FeeSchema, { amount: [create(CoinSchema, { denom: DENOM, amount: FEE.toString() })], gasLimit: GAS });
  const mode = eip712 ? SignMode.LEGACY_AMINO_JSON : SignMode.DIRECT;
  const authInfo = create(AuthInfoSchema, { signerInfos: [create(SignerInfoSchema, { publicKey: pubKeyAny(k), modeInfo: create(ModeInfoSchema, { sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode }) } }), sequence: 0n })], fee });
  const authInfoBytes = toBinary(AuthInfoSchema, authInfo);
  if (!eip712) {
    const bodyBytes = toBinary(TxBodySchema, create(TxBodySchema, { messages: msgs }));
    const signature = signMessage(k.algo, k.privateKey, signDocBytes(bodyBytes, authInfoBytes, CHAIN_ID, accountNumber));
    return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes, authInfoBytes, signatures: [signature] }));
  }
  const signDocJson = amino.signDocJson({ chainId: CHAIN_ID, accountNumber, sequence: 0n, timeoutHeight: 0n, memo: '', msgs, fee: { amount: fee.amount, gasLimit: GAS, payer: '', granter: '' } });
  const firstMsg = { schema: MsgSendSchema, message: send };
  const { raw } = typedDataHash(legacyTypedData({ chainId: EIP155, signDocJson, firstMsg, feePayer: toAccountAddress(k.address) }));
  // keccak256(raw) is the EIP-712 digest: the eth_secp256k1 signer hashes what it is given with keccak256.
  const feePayerSig = signMessage('eth_secp256k1', k.privateKey, raw);
  feePayerSig[64] = feePayerSig[64]! + 27; // as MetaMask returns it
  const option = anyPack(ExtensionOptionsWeb3TxSchema, create(ExtensionOptionsWeb3TxSchema, { typedDataChainId: EIP155, feePayer: toAccountAddress(k.address), feePayerSig }));
  const bodyBytes = toBinary(TxBodySchema, create(TxBodySchema, { messages: msgs, extensionOptions: [option] }));
  return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes, authInfoBytes, signatures: [new Uint8Array(0)] }));
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
  const perKind = Number(process.env['EIP712_BENCH_TXS'] ?? 1000);
  const rows: Row[] = [];

  // --- verification alone
  const sink = key('sink', 'eth_secp256k1');
  const samples = Math.min(perKind, 500);
  const direct = (algo: KeyAlgo) =>
    Array.from({ length: samples }, (_, i) => {
      const tx = decodeTx(sendTx(key(`v${algo}${i}`, algo), sink.address, 7n, false));
      return { tx, pubKey: tx.signerInfos[0]!.pubKey! };
    });
  const directSecp = direct('secp256k1');
  const directEth = direct('eth_secp256k1');
  const web3 = Array.from({ length: samples }, (_, i) => {
    const k = key(`v712${i}`, 'eth_secp256k1');
    const tx = decodeTx(sendTx(k, sink.address, 7n, true));
    return { tx, data: signatureData(tx.signerInfos[0]!.mode, tx.signatures[0]!), pubKey: tx.signerInfos[0]!.pubKey! };
  });
  const verifyDirect = (list: { tx: DecodedTx; pubKey: PubKey }[]) => (i: number) => {
    const { tx, pubKey } = list[i % list.length]!;
    if (!verifyWithPubKey(pubKey, signDocBytes(tx.bodyBytes, tx.authInfoBytes, CHAIN_ID, 7n), tx.signatures[0]!)) throw new Error('direct signature does not verify');
  };
  const verifyWeb3 = (i: number) => {
    const { tx, data, pubKey } = web3[i % web3.length]!;
    verifyLegacyEip712(tx, data, { chainId: CHAIN_ID, eip155ChainId: EIP155, accountNumber: 7n, sequence: 0n, pubKey }, amino);
  };
  const hashOnly = (i: number) => {
    const { tx } = web3[i % web3.length]!;
    const fee = tx.authInfo.fee!;
    const signDocJson = amino.signDocJson({ chainId: CHAIN_ID, accountNumber: 7n, sequence: 0n, timeoutHeight: 0n, memo: '', msgs: tx.msgs, fee: { amount: fee.amount, gasLimit: fee.gasLimit, payer: '', granter: '' } });
    const typed = legacyTypedData({ chainId: EIP155, signDocJson, firstMsg: tx.msgs[0]!, feePayer: toAccountAddress(tx.signers[0]!) });
    typedDataHash(typed, new TypedDataEncoder(typed.types));
  };
  const kinds = [
    { name: 'verify: DIRECT secp256k1 (SignDoc + sha256 + ECDSA)', work: verifyDirect(directSecp) },
    { name: 'verify: DIRECT eth_secp256k1 (SignDoc + keccak + ECDSA)', work: verifyDirect(directEth) },
    { name: 'verify: EIP-712 (typed data + hash + recover + ECDSA)', work: verifyWeb3 },
    { name: 'EIP-712 typed data + hash alone (MsgSend)', work: hashOnly },
  ];
  for (const kind of kinds) time(samples, kind.work);
  const us = kinds.map(() => 0);
  const rounds = 4;
  for (let r = 0; r < rounds; r++) kinds.forEach((kind, k) => (us[k]! += time(samples, kind.work) / rounds));
  kinds.forEach((kind, k) => {
    log(`${kind.name}: ${us[k]!.toFixed(1)} µs/tx`);
    rows.push({ name: kind.name, value: us[k]!, unit: 'µs/tx CPU' });
  });
  rows.push({ name: 'verify EIP-712 / DIRECT secp256k1', value: us[2]! / us[0]!, unit: 'ratio' });

  // --- CheckTx on fresh accounts
  log(`building 2 × ${perKind + WARMUP_TXS} senders and a genesis`);
  const senders = [
    Array.from({ length: perKind + WARMUP_TXS }, (_, i) => key(`c${i}`, 'secp256k1')),
    Array.from({ length: perKind + WARMUP_TXS }, (_, i) => key(`e${i}`, 'eth_secp256k1')),
  ];
  const validator = key('validator', 'eth_secp256k1');
  const everyone = [validator.address, ...senders.flat().map((s) => s.address)];
  let appState = defaultAppState({ denom: DENOM });
  appState = addGenesisAccounts(appState, everyone.map((address) => ({ address, coins: [{ denom: DENOM, amount: 1000n * TOKEN }] })));
  appState = collectGentxs(appState, [benchGentx({ algo: validator.algo, privateKey: validator.privateKey, consensusSeed: 'eip712-bench-cons', chainId: CHAIN_ID, denom: DENOM, selfDelegation: 1000n * TOKEN, gasLimit: GAS })], CHAIN_ID);
  const db = memoryDatabase();
  const opened = await openApp(db, { chainId: CHAIN_ID, minGasPrices: '0attotoken', sigVerifyWorkers: 0 }, { syncCommits: false });
  const app = opened.app;
  await app.initChain({ time: new Date('2024-01-01T00:00:00Z'), chainId: CHAIN_ID, consensusParams: defaultConsensusParams(), validators: [], appStateBytes: new TextEncoder().encode(JSON.stringify(appState)), initialHeight: 1 });
  await app.finalizeBlock({ txs: [], decidedLastCommit: { round: 0, votes: [] }, misbehavior: [], hash: new Uint8Array(32), height: 1, time: new Date('2024-01-01T00:00:01Z'), nextValidatorsHash: new Uint8Array(32), proposerAddress: new Uint8Array(20) });
  await app.commit();
  // Genesis accounts are numbered in the order they were added (validator first).
  const numbers = new Map(everyone.map((address, i) => [Buffer.from(address).toString('hex'), BigInt(i)]));
  const txs = senders.map((list, k) => list.map((s) => sendTx(s, sink.address, numbers.get(Buffer.from(s.address).toString('hex'))!, k === 1)));
  const names = ['CheckTx, DIRECT secp256k1 send', 'CheckTx, EIP-712 send (eth_secp256k1)'];
  const checkTx = async (kind: number, from: number, to: number): Promise<void> => {
    for (let i = from; i < to; i++) {
      const result = await app.checkTx({ tx: txs[kind]![i]!, type: 'new' });
      if (result.code !== 0) throw new Error(`${names[kind]}: CheckTx failed: ${result.code} ${result.log}`);
    }
  };
  for (let k = 0; k < 2; k++) await checkTx(k, 0, WARMUP_TXS);
  const cpu = [0, 0];
  for (let from = WARMUP_TXS; from < WARMUP_TXS + perKind; from += CHUNK_TXS) {
    const to = Math.min(from + CHUNK_TXS, WARMUP_TXS + perKind);
    for (let k = 0; k < 2; k++) {
      const started = process.cpuUsage();
      await checkTx(k, from, to);
      const used = process.cpuUsage(started);
      cpu[k]! += used.user + used.system;
    }
  }
  const checkUs = cpu.map((c) => c / perKind);
  names.forEach((name, k) => {
    log(`${name}: ${checkUs[k]!.toFixed(1)} µs/tx`);
    rows.push({ name, value: checkUs[k]!, unit: 'µs/tx CPU' });
  });
  rows.push({ name: 'CheckTx EIP-712 / DIRECT secp256k1', value: checkUs[1]! / checkUs[0]!, unit: 'ratio' });
  await opened.close();
  await db.close();
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await run((line) => process.stderr.write(`${line}\n`));
  for (const row of rows) process.stdout.write(`${row.name.padEnd(60)} ${row.value.toFixed(2).padStart(10)} ${row.unit}\n`);
}
