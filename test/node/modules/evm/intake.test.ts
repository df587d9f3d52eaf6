/**
 * eth_sendRawTransaction's intake (issue 12, session 24): the tx it decoded is handed to the
 * precheck and CheckTx of the Cosmos tx it builds (no second decode), and the sender is recovered
 * on a signature worker. Either way the chain must end where the plain path ends.
 */
import { Wallet, getBytes, hexlify } from 'ethers';
import { bytesToHex } from '@ethereumjs/util';
import { fromBinary } from '@bufbuild/protobuf';
import {
  commonFor,
  cosmosTxBytes,
  cosmosTxBytesReflective,
  cosmosTxWithDecoded,
  inlineSenderRecoveries,
  msgFromTx,
  recoverSender,
  senderRecoveryJobFor,
  setTxHandOff,
  txFromMsg,
  txFromRaw,
  txHandOffs,
  type EthTx,
} from '../../../../src/node/modules/evm/ethTx.js';
import { MsgEthereumTxSchema } from '../../../../src/gen/ethermint/evm/v1/tx_pb.js';
import { decodeTx } from '../../../../src/node/app/tx.js';
import { isNativeSecp256k1Available } from '../../../../src/keyring/secp256k1.js';
import { DENOM, TOKEN, buildAppState, startChain, testKey } from '../../app/helpers.js';
import { toBinary } from '@bufbuild/protobuf';
import { Context } from '../../../../src/node/modules/shared/context.js';
import type { EvmKeeper } from '../../../../src/node/modules/evm/keeper.js';

const alice = testKey('alice');
const bob = testKey('bob');
const validator = testKey('validator');
const wallet = new Wallet(hexlify(alice.privateKey));
const CHAIN = 9000n;
const GWEI = 10n ** 9n;
const common = commonFor(CHAIN, 'cancun');
const to = bytesToHex(bob.address);
const state = () => buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN });

async function signedTxs(): Promise<EthTx[]> {
  const raws = [
    await wallet.signTransaction({ type: 0, chainId: CHAIN, nonce: 0, to, value: 5n, gasLimit: 21000n, gasPrice: 2n * GWEI }),
    await wallet.signTransaction({ type: 1, chainId: CHAIN, nonce: 1, to, value: 6n, gasLimit: 30000n, gasPrice: 2n * GWEI, accessList: [{ address: to, storageKeys: [`0x${'11'.repeat(32)}`] }] }),
    await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 2, to, value: 7n, gasLimit: 21000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI }),
    await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 3, value: 0n, gasLimit: 100000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI, data: '0x600160005500' }),
  ];
  return raws.map((raw) => txFromRaw(getBytes(raw), common));
}

afterEach(() => setTxHandOff(true));

test('a tx decoded from RLP and the tx decoded from its message agree on every signed field', async () => {
  for (const tx of await signedTxs()) {
    const msg = fromBinary(MsgEthereumTxSchema, toBinary(MsgEthereumTxSchema, msgFromTx(tx, wallet.address)));
    const again = txFromMsg(msg, common);
    expect(again.type).toBe(tx.type);
    expect(Buffer.from(again.serialize()).equals(Buffer.from(tx.serialize()))).toBe(true);
    expect(bytesToHex(again.hash())).toBe(bytesToHex(tx.hash()));
    expect(again.toJSON()).toEqual(tx.toJSON());
  }
});

test('the handed-off tx is taken once by CheckTx, only for the same data, and blocks match the plain path', async () => {
  const txs = await signedTxs();
  const from = bytesToHex(recoverSender(txs[0]!));
  const handed = await startChain(state());
  const plain = await startChain(state());
  try {
    await handed.block([]);
    await plain.block([]);
    const bytes = txs.map((tx) => cosmosTxBytes(tx, from, DENOM, common));
    const before = txHandOffs.taken;
    for (const tx of bytes) expect((await handed.app.checkTx({ tx, type: 'new' })).code).toBe(0);
    expect(txHandOffs.taken).toBe(before + bytes.length);
    const a = await handed.block(bytes);

    // The same bytes with nothing handed off.
    setTxHandOff(false);
    for (const tx of bytes) expect((await plain.app.checkTx({ tx, type: 'new' })).code).toBe(0);
    const b = await plain.block(bytes);
    expect(txHandOffs.taken).toBe(before + bytes.length);
    expect(a.txResults.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(a.txResults).toEqual(b.txResults);
    expect(a.events).toEqual(b.events);
    expect(handed.store.lastCommitId().hash).toEqual(plain.store.lastCommitId().hash);
  } finally {
    await handed.close();
    await plain.close();
  }
});

test('a hand-off is not taken by a message with other data under the same hash, nor under another Common', async () => {
  const [legacy, , dynamic] = await signedTxs();
  const from = bytesToHex(recoverSender(dynamic!));
  cosmosTxBytes(dynamic!, from, DENOM, common);
  // A message claiming the dynamic tx's hash but carrying the legacy tx.
  const forged = msgFromTx(legacy!, from);
  forged.hash = bytesToHex(dynamic!.hash());
  const before = txHandOffs.taken;
  const { cachedTxFromMsg } = await import('../../../../src/node/modules/evm/ethTx.js');
  expect(bytesToHex(cachedTxFromMsg(forged, common).hash())).toBe(bytesToHex(legacy!.hash()));
  const genuine = msgFromTx(dynamic!, from);
  expect(cachedTxFromMsg(genuine, commonFor(CHAIN, 'shanghai'))).not.toBe(dynamic);
  expect(txHandOffs.taken).toBe(before);
  expect(cachedTxFromMsg(msgFromTx(dynamic!, from), common)).toBe(dynamic);
  expect(txHandOffs.taken).toBe(before + 1);
});

test('the hand-encoded Cosmos tx is byte for byte what protobuf-es encodes', async () => {
  const other = commonFor(0n, 'cancun');
  const txs: EthTx[] = [...(await signedTxs())];
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);
  for (let i = 0; i < 24; i++) {
    const nonce = [0, 1, 127, 128, 300, 2 ** 32, 2 ** 53 - 1][i % 7]!;
    const value = [0n, 1n, 10n ** 30n, 2n ** 255n][i % 4]!;
    const gasLimit = [21000n, 2n ** 40n, 25_000_000n][i % 3]!;
    const data = i % 5 === 0 ? '0x' : `0x${'ab'.repeat((i * 37) % 300)}`;
    const target = i % 6 === 0 ? undefined : `0x${(i + 1).toString(16).padStart(40, '0')}`;
    const accessList = i % 4 === 0 ? [] : [{ address: to, storageKeys: keys(i % 3) }, { address: `0x${'ff'.repeat(20)}`, storageKeys: keys(2) }];
    const gasPrice = [0n, 1n, 7n * GWEI][i % 3]!;
    const base = { chainId: CHAIN, nonce, value, gasLimit, data, to: target };
    const raw =
      i % 3 === 0
        ? await wallet.signTransaction({ ...base, type: 0, gasPrice })
        : i % 3 === 1
          ? await wallet.signTransaction({ ...base, type: 1, gasPrice, accessList })
          : await wallet.signTransaction({ ...base, type: 2, maxFeePerGas: gasPrice + 3n, maxPriorityFeePerGas: gasPrice, accessList });
    txs.push(txFromRaw(getBytes(raw), common));
  }
  // Unprotected legacy (v = 27/28).
  txs.push(txFromRaw(getBytes(await wallet.signTransaction({ type: 0, chainId: 0n, nonce: 5, to, value: 1n, gasLimit: 21000n, gasPrice: GWEI })), other));
  for (const tx of txs) {
    for (const sender of [wallet.address.toLowerCase(), '']) {
      expect(Buffer.from(cosmosTxBytes(tx, sender, DENOM)).toString('hex')).toBe(Buffer.from(cosmosTxBytesReflective(tx, sender, DENOM)).toString('hex'));
      // The decoding handed to the app's cache is what decoding the bytes gives, field for field.
      const built = cosmosTxWithDecoded(tx, sender, DENOM);
      expect(Buffer.from(built.bytes).toString('hex')).toBe(Buffer.from(cosmosTxBytes(tx, sender, DENOM)).toString('hex'));
      if (sender === '') {
        expect(built.decoded).toBeUndefined();
        expect(() => decodeTx(built.bytes)).toThrow();
      } else {
        expect(built.decoded).toStrictEqual(decodeTx(built.bytes));
        expect(built.decoded!.msgs[0]!.schema).toBe(decodeTx(built.bytes).msgs[0]!.schema);
      }
    }
  }
});

const nativeTest = isNativeSecp256k1Available() ? test : test.skip;

nativeTest('the app recovers senders on its workers; a bad signature recovers nothing there', async () => {
  const chain = await startChain(state(), { appOptions: { sigVerifyWorkers: 1 } });
  try {
    const txs = await signedTxs();
    const before = inlineSenderRecoveries.count;
    const senders = await Promise.all(txs.map((tx) => chain.app.recoverEthSender(senderRecoveryJobFor(tx)!)));
    expect(senders.map((s) => (s === undefined ? undefined : bytesToHex(s)))).toEqual(txs.map(() => wallet.address.toLowerCase()));
    expect(inlineSenderRecoveries.count).toBe(before);
    // r‖s of nothing recoverable (r = the field order): the job is made, the worker finds nothing.
    const job = senderRecoveryJobFor(txs[2]!)!;
    job.signature = new Uint8Array(64).fill(0xff);
    expect(await chain.app.recoverEthSender(job)).toBeUndefined();
  } finally {
    await chain.close();
  }
  // Without workers the app offers nothing and the RPC recovers inline.
  const inline = await startChain(state());
  try {
    expect(await inline.app.recoverEthSender(senderRecoveryJobFor((await signedTxs())[0]!)!)).toBeUndefined();
  } finally {
    await inline.close();
  }
});

test('the ante reads the evm params once per run: a change between two CheckTx runs is seen by the second', async () => {
  const chain = await startChain(state());
  try {
    await chain.block([]);
    const [, , dynamic] = await signedTxs();
    const first = await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 0, to, value: 1n, gasLimit: 21000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI });
    const from = bytesToHex(recoverSender(dynamic!));
    const carry = (raw: string) => cosmosTxBytes(txFromRaw(getBytes(raw), common), from, DENOM);
    expect((await chain.app.checkTx({ tx: carry(first), type: 'new' })).code).toBe(0);
    // enable_call turned off in the check state (as a governance change committed would be).
    const app = chain.app as unknown as { checkState: Context['multiStore']; checkHeader: ConstructorParameters<typeof Context>[0]['header']; manager: { keeper<T>(name: string): T } };
    const keeper = app.manager.keeper<EvmKeeper>('evm');
    const ctx = new Context({ mode: 'check', multiStore: app.checkState, header: app.checkHeader });
    keeper.setParams(ctx, { ...keeper.getParams(ctx), enableCall: false });
    const second = await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 1, to, value: 1n, gasLimit: 21000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI });
    const refused = await chain.app.checkTx({ tx: carry(second), type: 'new' });
    expect(refused.log).toBe('failed to call contract: EVM Call operation is disabled');
  } finally {
    await chain.close();
  }
});
