/**
 * The plain-transfer path of block execution (issue 12, session 25): a value transfer to an
 * address without code is done without the interpreter. Every block here runs on two chains, one
 * with the path and one with every tx through the EVM, and must give the same tx results, events
 * and app hash — for the transfers the path takes and for the ones it must leave to the EVM.
 */
import { createHash } from 'node:crypto';
import { create, toBinary } from '@bufbuild/protobuf';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { Wallet, getBytes, getCreateAddress, hexlify } from 'ethers';
import { bytesToHex } from '@ethereumjs/util';
import { commonFor, cosmosTxBytes, gasFeeCap, msgFromTx, recoverSender, txFromRaw, type EthTx } from '../../../../src/node/modules/evm/ethTx.js';
import { plainTransferCount, setPlainTransfers } from '../../../../src/node/modules/evm/exec.js';
import { ExtensionOptionsEthereumTxSchema, MsgEthereumTxSchema } from '../../../../src/gen/ethermint/evm/v1/tx_pb.js';
import { AuthInfoSchema, FeeSchema, TxBodySchema, TxRawSchema } from '../../../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { CoinSchema } from '../../../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { DENOM, TOKEN, buildAppState, startChain, testKey } from '../../app/helpers.js';

const alice = testKey('alice');
const carol = testKey('carol');
const bob = testKey('bob');
const dave = testKey('dave', 'secp256k1'); // a Cosmos key: a BaseAccount, not an EthAccount
/** The fee collector's module account (address: the first 20 bytes of sha256 of its name). */
const feeCollector = `0x${createHash('sha256').update('fee_collector').digest('hex').slice(0, 40)}`;
const validator = testKey('validator');
const aliceWallet = new Wallet(hexlify(alice.privateKey));
const carolWallet = new Wallet(hexlify(carol.privateKey));
const CHAIN = 9000n;
const GWEI = 10n ** 9n;
const common = commonFor(CHAIN, 'cancun');
const fee = { type: 2, chainId: CHAIN, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI };
const state = () =>
  buildAppState({
    accounts: [
      [alice, 1000n * TOKEN],
      [carol, TOKEN],
      [dave, TOKEN],
      [validator, 200n * TOKEN],
    ],
    validator,
    selfDelegation: 100n * TOKEN,
  });

/** Init code that deploys `runtime` (hex, no 0x; under 256 bytes). */
function initCode(runtime: string): string {
  const length = (runtime.length / 2).toString(16).padStart(2, '0');
  return `0x60${length}600c60003960${length}6000f3${runtime}`;
}

const MSG_ETHEREUM_TX_URL = `/${MsgEthereumTxSchema.typeName}`;

/** One Cosmos tx carrying several MsgEthereumTx (the ante charges each fee before any runs). */
function multiTxBytes(txs: EthTx[], from: string): Uint8Array {
  const body = create(TxBodySchema, {
    messages: txs.map((tx) => create(AnySchema, { typeUrl: MSG_ETHEREUM_TX_URL, value: toBinary(MsgEthereumTxSchema, msgFromTx(tx, from)) })),
    extensionOptions: [create(AnySchema, { typeUrl: `/${ExtensionOptionsEthereumTxSchema.typeName}`, value: new Uint8Array(0) })],
  });
  const gasLimit = txs.reduce((sum, tx) => sum + tx.gasLimit, 0n);
  const amount = txs.reduce((sum, tx) => sum + tx.gasLimit * gasFeeCap(tx), 0n);
  const authInfo = create(AuthInfoSchema, { fee: create(FeeSchema, { amount: [create(CoinSchema, { denom: DENOM, amount: amount.toString() })], gasLimit }) });
  return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes: toBinary(TxBodySchema, body), authInfoBytes: toBinary(AuthInfoSchema, authInfo), signatures: [] }));
}

afterEach(() => setPlainTransfers(true));

test('blocks of transfers give the same results, events and app hash with and without the plain-transfer path', async () => {
  const fast = await startChain(state());
  const slow = await startChain(state());
  const nonces = new Map<Wallet, number>();
  const sign = async (wallet: Wallet, fields: Record<string, unknown>): Promise<EthTx> => {
    const nonce = nonces.get(wallet) ?? 0;
    nonces.set(wallet, nonce + 1);
    return txFromRaw(getBytes(await wallet.signTransaction({ ...fee, gasLimit: 21000n, ...fields, nonce })), common);
  };
  const carry = (tx: EthTx) => cosmosTxBytes(tx, bytesToHex(recoverSender(tx)), DENOM);
  /** Runs `txs` as one block on both chains; returns the fast chain's block and how many txs took the path. */
  const both = async (txs: Uint8Array[]) => {
    const before = plainTransferCount.count;
    setPlainTransfers(true);
    const a = await fast.block(txs);
    const taken = plainTransferCount.count - before;
    setPlainTransfers(false);
    const b = await slow.block(txs);
    setPlainTransfers(true);
    expect(plainTransferCount.count - before).toBe(taken);
    expect(a.txResults).toEqual(b.txResults);
    expect(a.events).toEqual(b.events);
    expect(fast.store.lastCommitId().hash).toEqual(slow.store.lastCommitId().hash);
    return { block: a, taken };
  };
  const fresh = `0x${'5a'.repeat(20)}`;
  try {
    await both([]);
    const stop = getCreateAddress({ from: aliceWallet.address, nonce: 0 });
    const reverting = getCreateAddress({ from: aliceWallet.address, nonce: 1 });
    const first = await both([
      carry(await sign(aliceWallet, { data: initCode('00'), gasLimit: 100000n })), // creation
      carry(await sign(aliceWallet, { data: initCode('60006000fd'), gasLimit: 100000n })), // creation
      carry(await sign(aliceWallet, { to: bytesToHex(bob.address), value: 5n })), // to an address without an account
      carry(await sign(aliceWallet, { to: aliceWallet.address, value: 7n })), // to self
      carry(await sign(aliceWallet, { to: fresh, value: 0n })), // nothing, to a fresh address
      carry(await sign(aliceWallet, { to: bytesToHex(validator.address), value: 9n, data: '0x0102', gasLimit: 30000n })), // with data, to an account (left to the EVM)
      carry(await sign(aliceWallet, { type: 0, gasPrice: 3n * GWEI, maxFeePerGas: undefined, maxPriorityFeePerGas: undefined, to: bytesToHex(bob.address), value: 11n })), // legacy
      carry(await sign(aliceWallet, { type: 1, gasPrice: 3n * GWEI, maxFeePerGas: undefined, maxPriorityFeePerGas: undefined, to: bytesToHex(bob.address), value: 12n, gasLimit: 30000n, accessList: [{ address: bytesToHex(bob.address), storageKeys: [`0x${'11'.repeat(32)}`] }] })),
      carry(await sign(aliceWallet, { to: `0x${'00'.repeat(19)}01`, value: 13n, gasLimit: 30000n })), // precompile (ecrecover)
      carry(await sign(aliceWallet, { to: `0x${'00'.repeat(19)}04`, value: 14n, data: '0xabcd', gasLimit: 30000n })), // precompile (identity)
      carry(await sign(aliceWallet, { to: bytesToHex(bob.address), value: 2000n * TOKEN })), // more than the balance: refused by the ante
    ]);
    expect(first.block.txResults.map((r) => r.code === 0)).toEqual([true, true, true, true, true, true, true, true, true, true, false]);
    expect(first.taken).toBe(5);
    nonces.set(aliceWallet, nonces.get(aliceWallet)! - 1); // the refused tx used no nonce

    // Carol's two transfers in one tx: the ante charges both fees first, then the first transfer
    // leaves too little for the second, which the EVM fails with "insufficient balance".
    const drain = [await sign(carolWallet, { to: bytesToHex(bob.address), value: (6n * TOKEN) / 10n }), await sign(carolWallet, { to: bytesToHex(bob.address), value: (6n * TOKEN) / 10n })];
    const second = await both([
      carry(await sign(aliceWallet, { to: stop, value: 15n, gasLimit: 50000n })), // to code that accepts it
      carry(await sign(aliceWallet, { to: reverting, value: 16n, gasLimit: 50000n })), // to code that reverts
      multiTxBytes(drain, carolWallet.address.toLowerCase()),
      carry(await sign(aliceWallet, { to: fresh, value: 17n })),
      carry(await sign(aliceWallet, { to: bytesToHex(dave.address), value: 18n })), // to a BaseAccount
      carry(await sign(aliceWallet, { to: feeCollector, value: 19n })), // to a module account
    ]);
    expect(second.block.txResults.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(second.taken).toBe(4); // carol's first and the last three
    const attributes = second.block.txResults.flatMap((r) => r.events).flatMap((e) => e.attributes.map((a) => `${a.key}=${a.value}`));
    expect(attributes).toContain('ethereumTxFailed=revert');
    expect(attributes).toContain('ethereumTxFailed=insufficient balance');
  } finally {
    await fast.close();
    await slow.close();
  }
});
