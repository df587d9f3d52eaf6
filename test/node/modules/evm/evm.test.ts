/**
 * The EVM module in-process: ethers-signed legacy / EIP-1559 txs carried in Cosmos txs, value
 * transfers seen as bank balances, contract creation and calls with storage and logs, and the
 * ante chain's refusals with Ethermint's texts.
 */
import { Wallet, getBytes, hexlify } from 'ethers';
import { bytesToHex } from '@ethereumjs/util';
import { commonFor, cosmosTxBytes, inlineSenderRecoveries, recoverAndRememberSender, recoverSender, txFromRaw } from '../../../../src/node/modules/evm/ethTx.js';
import { useSecp256k1Implementation, isNativeSecp256k1Available } from '../../../../src/keyring/secp256k1.js';
import type { EvmKeeper } from '../../../../src/node/modules/evm/keeper.js';
import type { BankKeeper } from '../../../../src/node/modules/bank/keeper.js';
import type { AccountKeeper } from '../../../../src/node/modules/auth/keeper.js';
import { Context } from '../../../../src/node/modules/shared/context.js';
import { DENOM, TOKEN, buildAppState, msgSend, signTx, startChain, testKey, type Chain } from '../../app/helpers.js';
import { exportAppState, validateAppState } from '../../../../src/node/app/genesis.js';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AuthInfoSchema, SignerInfoSchema, TxBodySchema, TxRawSchema, type AuthInfo, type TxBody } from '../../../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { defaultConsensusParams } from '../../../../src/node/consensus/types/params.js';

const alice = testKey('alice');
const bob = testKey('bob');
const validator = testKey('validator');
const wallet = new Wallet(hexlify(alice.privateKey));
const CHAIN = 9000n;
const GWEI = 10n ** 9n;

// Runtime: sstore(0, calldataload(0)); mstore(0, it); log1(0, 32, 0x2a); return(0, 32)
const RUNTIME = '600035806000556000526' + '02a60206000a160206000f3';
const INIT = '0x6016600c60003960166000f3' + RUNTIME;

function carry(raw: string): Uint8Array {
  const tx = txFromRaw(getBytes(raw), commonFor(CHAIN, 'cancun'));
  let from = '';
  try {
    from = tx.getSenderAddress().toString();
  } catch {
    from = '';
  }
  return cosmosTxBytes(tx, from, DENOM);
}

function queryCtx(chain: Chain): Context {
  return new Context({ mode: 'query', multiStore: chain.store, header: { height: chain.height, time: new Date(), chainId: 'testnet_9000-1', proposerAddress: new Uint8Array(0), hash: new Uint8Array(0), nextValidatorsHash: new Uint8Array(0) } });
}

describe('evm module', () => {
  let chain: Chain;
  const manager = () => (chain.app as unknown as { manager: { keeper<T>(name: string): T } }).manager;

  beforeEach(async () => {
    chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
  });
  afterEach(async () => {
    await chain.close();
  });

  test('a legacy EIP-155 value transfer moves the bank balance and bumps the sequence', async () => {
    const raw = await wallet.signTransaction({ type: 0, chainId: CHAIN, nonce: 0, to: bytesToHex(bob.address), value: 12345n, gasLimit: 21000n, gasPrice: 2n * GWEI });
    const result = (await chain.block([carry(raw)])).txResults[0]!;
    expect(result.log).toBe('');
    expect(result.code).toBe(0);
    expect(result.gasUsed).toBe(21000n);
    const ctx = queryCtx(chain);
    const bank = manager().keeper<BankKeeper>('bank');
    expect(bank.getBalance(ctx, bob.address, DENOM)).toBe(12345n);
    expect(bank.getBalance(ctx, alice.address, DENOM)).toBe(1000n * TOKEN - 12345n - 21000n * 2n * GWEI);
    expect(manager().keeper<AccountKeeper>('auth').getAccount(ctx, alice.address)?.sequence).toBe(1n);
    const ethTx = result.events.find((e) => e.type === 'ethereum_tx')!;
    expect(ethTx.attributes.find((a) => a.key === 'ethereumTxHash')?.value).toBe(txFromRaw(getBytes(raw), commonFor(CHAIN, 'cancun')).hash().reduce((s, b) => s + b.toString(16).padStart(2, '0'), '0x'));
  });

  test('EIP-1559 contract creation, then a call that stores and logs', async () => {
    const deploy = await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 0, data: INIT, gasLimit: 200000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI });
    const created = (await chain.block([carry(deploy)])).txResults[0]!;
    expect(created.code).toBe(0);
    const evm = manager().keeper<EvmKeeper>('evm');
    const { getCreateAddress } = await import('ethers');
    const contract = getCreateAddress({ from: wallet.address, nonce: 0 });
    expect(bytesToHex(evm.code(queryCtx(chain), getBytes(contract)))).toBe(`0x${RUNTIME}`);

    const value = '0x' + '07'.padStart(64, '0');
    const call = await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 1, to: contract, data: value, gasLimit: 100000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI });
    const called = (await chain.block([carry(call)])).txResults[0]!;
    expect(called.code).toBe(0);
    const log = JSON.parse(called.events.find((e) => e.type === 'tx_log')!.attributes[0]!.value) as { address: string; topics: string[] };
    expect(log.address.toLowerCase()).toBe(contract.toLowerCase());
    expect(log.topics).toEqual(['0x' + '2a'.padStart(64, '0')]);
    expect(bytesToHex(evm.storage(queryCtx(chain), getBytes(contract), new Uint8Array(32)))).toBe(value);
    // eth_call sees the stored value
    const result = await evm.call(queryCtx(chain), { to: getBytes(contract), data: getBytes('0x' + '09'.padStart(64, '0')) }, 25_000_000n);
    expect(bytesToHex(result.ret)).toBe('0x' + '09'.padStart(64, '0'));
    const estimate = await evm.estimateGas(queryCtx(chain), { from: getBytes(wallet.address), to: getBytes(contract), data: getBytes(value) }, 25_000_000n);
    expect(estimate.gas).toBeGreaterThan(21000n);
  });

  test('refusals carry Ethermint texts and change nothing', async () => {
    const to = bytesToHex(bob.address);
    const wrongChain = await wallet.signTransaction({ type: 2, chainId: 1n, nonce: 0, to, value: 1n, gasLimit: 21000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI });
    const tooLow = await wallet.signTransaction({ type: 0, chainId: CHAIN, nonce: 5, to, value: 1n, gasLimit: 21000n, gasPrice: 2n * GWEI });
    const broke = await new Wallet(hexlify(bob.privateKey)).signTransaction({ type: 0, chainId: CHAIN, nonce: 0, to, value: 1n, gasLimit: 21000n, gasPrice: 2n * GWEI });
    const unprotected = await wallet.signTransaction({ type: 0, nonce: 0, to, value: 1n, gasLimit: 21000n, gasPrice: 2n * GWEI });
    const underBase = await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 0, to, value: 1n, gasLimit: 21000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
    let wrongChainTx: Uint8Array | undefined;
    try {
      wrongChainTx = carry(wrongChain);
    } catch (err) {
      expect(String(err)).toMatch(/invalid chain id for signer/);
    }
    const results = (await chain.block([carry(tooLow), carry(broke), carry(unprotected), carry(underBase)])).txResults;
    expect(results[0]!.log).toBe('invalid nonce; got 5, expected 0: invalid sequence');
    expect(results[1]!.log).toMatch(/^failed to check sender balance: sender balance < tx cost \(0 < 42000000000001\)/);
    expect(results[1]!.code).toBe(5);
    expect(results[2]!.log).toMatch(/rejected unprotected Ethereum transaction/);
    expect(results[3]!.log).toMatch(/max fee per gas less than block base fee \(1 < \d+\)/);
    expect(wrongChainTx).toBeUndefined();
    const ctx = queryCtx(chain);
    expect(manager().keeper<BankKeeper>('bank').getBalance(ctx, alice.address, DENOM)).toBe(1000n * TOKEN);
  });

  test('enable_create = false refuses a deployment with Ethermint’s error; calls still work', async () => {
    await chain.close();
    const state = buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }) as Record<string, { params: Record<string, unknown> }>;
    state.evm!.params.enable_create = false;
    chain = await startChain(state as never);
    const deploy = await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 0, data: INIT, gasLimit: 200000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI });
    const refused = (await chain.block([carry(deploy)])).txResults[0]!;
    expect(refused.codespace).toBe('evm');
    expect(refused.code).toBe(10);
    expect(refused.log).toBe('failed to create new contract: EVM Create operation is disabled');
    const send = await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 0, to: bytesToHex(bob.address), value: 5n, gasLimit: 21000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI });
    expect((await chain.block([carry(send)])).txResults[0]!.code).toBe(0);
  });

  test('an EIP-2930 access-list tx; a reverted call pays its gas and keeps nothing; export re-imports code and storage', async () => {
    const deploy = await wallet.signTransaction({ type: 1, chainId: CHAIN, nonce: 0, data: INIT, gasLimit: 200000n, gasPrice: 2n * GWEI, accessList: [] });
    expect((await chain.block([carry(deploy)])).txResults[0]!.code).toBe(0);
    const { getCreateAddress } = await import('ethers');
    const contract = getCreateAddress({ from: wallet.address, nonce: 0 });
    const value = '0x' + '05'.padStart(64, '0');
    const call = await wallet.signTransaction({ type: 1, chainId: CHAIN, nonce: 1, to: contract, data: value, gasLimit: 100000n, gasPrice: 2n * GWEI, accessList: [{ address: contract, storageKeys: ['0x' + '00'.repeat(32)] }] });
    expect((await chain.block([carry(call)])).txResults[0]!.code).toBe(0);
    // Too little gas for the SSTORE: out of gas inside the EVM — included, fee charged, no state change.
    const starved = await wallet.signTransaction({ type: 0, chainId: CHAIN, nonce: 2, to: contract, data: '0x' + '09'.padStart(64, '0'), gasLimit: 22000n, gasPrice: 2n * GWEI });
    const failed = (await chain.block([carry(starved)])).txResults[0]!;
    expect(failed.code).toBe(0);
    expect(failed.events.find((e) => e.type === 'ethereum_tx')!.attributes.find((a) => a.key === 'ethereumTxFailed')?.value).toBe('out of gas');
    const evm = manager().keeper<EvmKeeper>('evm');
    expect(bytesToHex(evm.storage(queryCtx(chain), getBytes(contract), new Uint8Array(32)))).toBe(value);
    expect(manager().keeper<AccountKeeper>('auth').getAccount(queryCtx(chain), alice.address)?.sequence).toBe(3n);

    const exported = await exportAppState(chain.store);
    expect(validateAppState(exported, 'testnet_9000-1')).toEqual([]);
    const accounts = (exported as unknown as { evm: { accounts: { address: string; code: string; storage: { key: string; value: string }[] }[] } }).evm.accounts;
    expect(accounts).toEqual([{ address: contract.toLowerCase(), code: `0x${RUNTIME}`, storage: [{ key: '0x' + '00'.repeat(32), value }] }]);
    await chain.close();
    chain = await startChain(exported);
    await chain.block([]);
    const again = manager().keeper<EvmKeeper>('evm');
    expect(bytesToHex(again.code(queryCtx(chain), getBytes(contract)))).toBe(`0x${RUNTIME}`);
    expect(bytesToHex(again.storage(queryCtx(chain), getBytes(contract), new Uint8Array(32)))).toBe(value);
  });

  test('sender recovery: libsecp256k1 and @noble agree with ethers (legacy and EIP-1559)', async () => {
    const raw = await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 3, to: bytesToHex(bob.address), value: 1n, gasLimit: 21000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI });
    const legacy = await wallet.signTransaction({ type: 0, chainId: CHAIN, nonce: 3, to: bytesToHex(bob.address), value: 1n, gasLimit: 21000n, gasPrice: GWEI });
    const common = commonFor(CHAIN, 'cancun');
    for (const impl of isNativeSecp256k1Available() ? (['native', 'noble'] as const) : (['noble'] as const)) {
      useSecp256k1Implementation(impl);
      try {
        expect(bytesToHex(recoverSender(txFromRaw(getBytes(raw), common)))).toBe(wallet.address.toLowerCase());
        expect(bytesToHex(recoverSender(txFromRaw(getBytes(legacy), common)))).toBe(wallet.address.toLowerCase());
      } finally {
        useSecp256k1Implementation(isNativeSecp256k1Available() ? 'native' : 'noble');
      }
    }
  });

  test('the base fee follows the block\'s gas: max(gas wanted × min_gas_multiplier, gas used) of Ethereum and Cosmos txs', async () => {
    await chain.close();
    const params = defaultConsensusParams();
    params.block.maxGas = 2_000_000n; // target 1,000,000 (elasticity 2)
    chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }), { consensusParams: params });
    await chain.block([]);
    const market = () => manager().keeper<{ getParams(ctx: Context): { baseFee: string }; getBlockGas(ctx: Context): bigint }>('feemarket');
    // An Ethereum transfer asking for 1,500,000 gas (21,000 used, charged at least half the limit)
    // and a Cosmos send asking for 200,000.
    const eth = await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 0, to: bytesToHex(bob.address), value: 1n, gasLimit: 1_500_000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI });
    const carol = testKey('carol');
    const cosmos = signTx({ signer: validator, msgs: [msgSend(validator.bech32, carol.bech32, 1n)], sequence: 1n, accountNumber: 1n, fee: 200_000n * 2n * GWEI, gas: 200_000n });
    const block = await chain.block([carry(eth), cosmos]);
    expect(block.txResults.map((r) => r.code)).toEqual([0, 0]);
    const before = BigInt(market().getParams(queryCtx(chain)).baseFee); // the base fee of that block
    const used = block.txResults.reduce((sum, r) => sum + r.gasUsed, 0n);
    expect(block.txResults[0]!.gasUsed).toBe(750_000n);
    const wanted = (1_500_000n + 200_000n) / 2n; // × min_gas_multiplier 0.5
    const blockGas = wanted > used ? wanted : used;
    expect(market().getBlockGas(queryCtx(chain))).toBe(blockGas);
    expect(block.events.some((e) => e.type === 'block_gas' && e.attributes.some((a) => a.key === 'amount' && a.value === blockGas.toString()))).toBe(true);
    // The next block moves the base fee down by (target − gas) / target / 8.
    await chain.block([]);
    const after = BigInt(market().getParams(queryCtx(chain)).baseFee);
    expect(after).toBe(before - (before * (1_000_000n - blockGas)) / 1_000_000n / 8n);
  });

  describe('ante refusals', () => {
    const base = () => buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }) as unknown as Record<string, Record<string, unknown>>;
    const send = (nonce = 0) => wallet.signTransaction({ type: 0, chainId: CHAIN, nonce, to: bytesToHex(bob.address), value: 1n, gasLimit: 21000n, gasPrice: 2n * GWEI });

    /** The Cosmos tx carrying `raw`, changed by `edit` (body and auth info decoded). */
    async function tampered(raw: string, edit: (body: TxBody, authInfo: AuthInfo) => void): Promise<Uint8Array> {
      const txRaw = fromBinary(TxRawSchema, carry(raw));
      const body = fromBinary(TxBodySchema, txRaw.bodyBytes);
      const authInfo = fromBinary(AuthInfoSchema, txRaw.authInfoBytes);
      edit(body, authInfo);
      return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes: toBinary(TxBodySchema, body), authInfoBytes: toBinary(AuthInfoSchema, authInfo), signatures: txRaw.signatures }));
    }

    async function expectUnchanged(): Promise<void> {
      const ctx = queryCtx(chain);
      expect(manager().keeper<BankKeeper>('bank').getBalance(ctx, alice.address, DENOM)).toBe(1000n * TOKEN);
      expect(manager().keeper<AccountKeeper>('auth').getAccount(ctx, alice.address)?.sequence ?? 0n).toBe(0n);
    }

    test('enable_call = false refuses a call or transfer; a deployment still works', async () => {
      await chain.close();
      const state = base();
      (state.evm!.params as Record<string, unknown>).enable_call = false;
      chain = await startChain(state as never);
      const refused = (await chain.block([carry(await send())])).txResults[0]!;
      expect([refused.codespace, refused.code, refused.log]).toEqual(['evm', 11, 'failed to call contract: EVM Call operation is disabled']);
      await expectUnchanged();
      const deploy = await wallet.signTransaction({ type: 0, chainId: CHAIN, nonce: 0, data: INIT, gasLimit: 200000n, gasPrice: 2n * GWEI });
      expect((await chain.block([carry(deploy)])).txResults[0]!.code).toBe(0);
    });

    test('a sender with code is not an EOA', async () => {
      await chain.close();
      const state = base();
      (state.evm as { accounts: unknown[] }).accounts = [{ address: wallet.address.toLowerCase(), code: `0x${RUNTIME}`, storage: [] }];
      chain = await startChain(state as never);
      const refused = (await chain.block([carry(await send())])).txResults[0]!;
      expect(refused.code).toBe(29);
      expect(refused.log).toMatch(new RegExp(`^the sender is not EOA: address ${wallet.address.toLowerCase()}, codeHash <0x[0-9a-f]{64}>`));
      await expectUnchanged();
    });

    test('a gas price under the fee market\'s min_gas_price (no base fee) is under the global minimum fee', async () => {
      await chain.close();
      const state = base();
      const params = state.feemarket!.params as Record<string, unknown>;
      params.no_base_fee = true;
      params.min_gas_price = '1000000000000.000000000000000000';
      chain = await startChain(state as never);
      const refused = (await chain.block([carry(await send())])).txResults[0]!;
      expect(refused.code).toBe(13);
      expect(refused.log).toBe('provided fee < minimum global fee (42000000000000 < 21000000000000000). Please increase the priority tip (for EIP-1559 txs) or the gas prices (for access list or legacy txs): insufficient fee');
      await expectUnchanged();
    });

    test('the fee market\'s min_gas_price holds Cosmos txs too, in CheckTx and in blocks', async () => {
      await chain.close();
      const state = base();
      (state.feemarket!.params as Record<string, unknown>).min_gas_price = '1000.000000000000000000';
      chain = await startChain(state as never);
      await chain.block([]);
      const cheap = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 0n, accountNumber: 0n, fee: 1000n, gas: 100_000n });
      const expected = 'provided fee < minimum global fee (1000attotoken < 100000000attotoken). Please increase the gas price.: insufficient fee';
      const checked = await chain.app.checkTx({ tx: cheap, type: 'new' });
      expect([checked.code, checked.log]).toEqual([13, expected]);
      const delivered = (await chain.block([cheap])).txResults[0]!;
      expect([delivered.code, delivered.log]).toEqual([13, expected]);
      await expectUnchanged();
      const enough = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 0n, accountNumber: 0n, fee: 200_000_000n, gas: 200_000n });
      expect((await chain.block([enough])).txResults[0]!.code).toBe(0);
    });

    test('the node\'s minimum-gas-prices refuse a cheap Ethereum tx in CheckTx only', async () => {
      await chain.close();
      chain = await startChain(base() as never, { appOptions: { minGasPrices: `1000000000000${DENOM}` } });
      const tx = carry(await send());
      const checked = await chain.app.checkTx({ tx, type: 'new' });
      expect(checked.code).toBe(13);
      expect(checked.log).toBe(`insufficient fee; got: 42000000000000${DENOM} required: 21000000000000000${DENOM}: insufficient fee`);
      // A block proposer may still include it: FinalizeBlock does not apply the local minimum.
      expect((await chain.block([tx])).txResults[0]!.code).toBe(0);
    });

    test('a Cosmos gas limit other than the Ethereum txs\' sum, a memo, signer infos or another message are refused', async () => {
      const raw = await send();
      const wrongGas = await tampered(raw, (_body, authInfo) => void (authInfo.fee!.gasLimit = 50_000n));
      const memo = await tampered(raw, (body) => void (body.memo = 'hello'));
      const signers = await tampered(raw, (_body, authInfo) => authInfo.signerInfos.push(create(SignerInfoSchema, { sequence: 0n })));
      const mixed = await tampered(raw, (body) => body.messages.push(msgSend(alice.bech32, bob.bech32, 1n)));
      const results = (await chain.block([wrongGas, memo, signers, mixed])).txResults;
      expect(results.map((r) => r.log)).toEqual([
        'invalid gas limit; got 50000, expected 21000: invalid request',
        'for eth tx Body Memo should be empty: invalid request',
        'for eth tx AuthInfo SignerInfos should be empty: invalid request',
        'invalid message type /cosmos.bank.v1beta1.MsgSend, expected /ethermint.evm.v1.MsgEthereumTx: unknown request',
      ]);
      await expectUnchanged();
    });

    test('a tx with more gas than the block allows is refused', async () => {
      await chain.close();
      const params = defaultConsensusParams();
      params.block.maxGas = 200_000n; // the gentx's gas fits
      chain = await startChain(base() as never, { consensusParams: params });
      const big = await wallet.signTransaction({ type: 0, chainId: CHAIN, nonce: 0, to: bytesToHex(bob.address), value: 1n, gasLimit: 250_000n, gasPrice: 2n * GWEI });
      const refused = (await chain.block([carry(big)])).txResults[0]!;
      expect([refused.code, refused.log]).toEqual([11, 'tx gas (250000) exceeds block gas limit (200000): out of gas']);
      await expectUnchanged();
    });
  });
});

describe('Ethereum senders recovered on the worker threads (App.precheckTx)', () => {
  const nativeTest = isNativeSecp256k1Available() ? test : test.skip;

  nativeTest('prechecked senders are not recovered again, a forged `from` is left to CheckTx, and blocks match an app without workers', async () => {
    const state = buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN });
    const withWorkers = await startChain(state, { appOptions: { sigVerifyWorkers: 1 } });
    const inline = await startChain(state);
    try {
      await withWorkers.block([]);
      await inline.block([]);
      const to = bytesToHex(bob.address);
      const legacy = carry(await wallet.signTransaction({ type: 0, chainId: CHAIN, nonce: 0, to, value: 5n, gasLimit: 21000n, gasPrice: 2n * GWEI }));
      const dynamic = carry(await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 1, to, value: 7n, gasLimit: 21000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI }));
      // Signed by alice, claiming bob as its sender.
      const forgedTx = txFromRaw(getBytes(await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 2, to, value: 9n, gasLimit: 21000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI })), commonFor(CHAIN, 'cancun'));
      const forged = cosmosTxBytes(forgedTx, to, DENOM);

      await Promise.all([legacy, dynamic, forged].map((tx) => withWorkers.app.precheckTx(tx)));
      const before = inlineSenderRecoveries.count;
      for (const tx of [legacy, dynamic]) expect((await withWorkers.app.checkTx({ tx, type: 'new' })).code).toBe(0);
      expect(inlineSenderRecoveries.count).toBe(before);
      const refused = await withWorkers.app.checkTx({ tx: forged, type: 'new' });
      expect(refused.log).toBe(`expected ${to}, got ${wallet.address.toLowerCase()}: tx intended signer does not match the given signer`);
      expect(inlineSenderRecoveries.count).toBe(before + 1);

      const a = await withWorkers.block([legacy, dynamic, forged]);
      const b = await inline.block([legacy, dynamic, forged]);
      expect(a.txResults.map((r) => [r.code, r.gasUsed])).toEqual([
        [0, 21000n],
        [0, 21000n],
        [b.txResults[2]!.code, b.txResults[2]!.gasUsed],
      ]);
      expect(a.txResults[2]!.code).not.toBe(0);
      expect(a.txResults).toEqual(b.txResults);
      expect(withWorkers.store.lastCommitId().hash).toEqual(inline.store.lastCommitId().hash);
    } finally {
      await withWorkers.close();
      await inline.close();
    }
  });

  test('a sender eth_sendRawTransaction recovered is not recovered again by CheckTx or the block', async () => {
    const chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
    try {
      await chain.block([]);
      const raw = await wallet.signTransaction({ type: 2, chainId: CHAIN, nonce: 0, to: bytesToHex(bob.address), value: 3n, gasLimit: 21000n, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI });
      const tx = txFromRaw(getBytes(raw), commonFor(CHAIN, 'cancun'));
      const from = recoverAndRememberSender(tx);
      expect(bytesToHex(from)).toBe(wallet.address.toLowerCase());
      const bytes = cosmosTxBytes(tx, bytesToHex(from), DENOM);
      const before = inlineSenderRecoveries.count;
      expect((await chain.app.checkTx({ tx: bytes, type: 'new' })).code).toBe(0);
      const result = (await chain.block([bytes])).txResults[0]!;
      expect([result.code, result.gasUsed]).toEqual([0, 21000n]);
      expect(inlineSenderRecoveries.count).toBe(before);
    } finally {
      await chain.close();
    }
  });
});
