/**
 * Every bad-input case of the ante chain and message execution, with the SDK's exact code and log
 * (COMPAT §3.3/§3.4), in CheckTx and FinalizeBlock — and what each leaves behind: nothing, except
 * where the SDK keeps the ante writes (fee, sequence) of a tx whose messages fail.
 */
import { createModuleManager } from '../../../src/node/app/modules.js';
import { create, toBinary } from '@bufbuild/protobuf';
import { MsgSendResponseSchema } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { TxRawSchema } from '../../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { SignMode } from '../../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { FEE_COLLECTOR_NAME } from '../../../src/node/modules/auth/keys.js';
import { accString, moduleAddress } from '../../../src/node/modules/shared/address.js';
import { AccountKeeper } from '../../../src/node/modules/auth/keeper.js';
import { Context, emptyHeader } from '../../../src/node/modules/shared/context.js';
import { BankKeeper } from '../../../src/node/modules/bank/keeper.js';
import { CHAIN_ID, TOKEN, buildAppState, msgSend, pack, signTx, startChain, testKey, txParts, type Chain, type TestKey, type TxOptions } from './helpers.js';

const alice = testKey('alice');
const bob = testKey('bob');
const carol = testKey('carol', 'secp256k1');
const validator = testKey('validator');
const ALICE_FUNDS = 1000n * TOKEN;

interface Snapshot {
  alice: bigint;
  bob: bigint;
  feeCollector: bigint;
  aliceSequence: bigint;
}

function snapshot(chain: Chain): Snapshot {
  const ctx = new Context({ mode: 'query', multiStore: chain.store.branchCommitted(), header: emptyHeader(CHAIN_ID) });
  const modules = createModuleManager();
  const accounts = modules.keeper<AccountKeeper>('auth');
  const bank = modules.keeper<BankKeeper>('bank');
  return {
    alice: bank.getBalance(ctx, alice.address, 'attotoken'),
    bob: bank.getBalance(ctx, bob.address, 'attotoken'),
    feeCollector: bank.getBalance(ctx, moduleAddress(FEE_COLLECTOR_NAME), 'attotoken'),
    aliceSequence: accounts.getAccount(ctx, alice.address)!.sequence,
  };
}

function tx(overrides: Partial<TxOptions> = {}): Uint8Array {
  return signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 10n)], sequence: 0n, accountNumber: 0n, ...overrides });
}

describe('ante chain and message failures', () => {
  let chain: Chain;

  beforeEach(async () => {
    chain = await startChain(
      buildAppState({ accounts: [[alice, ALICE_FUNDS], [carol, 50n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }),
      { appOptions: { minGasPrices: '1attotoken' } },
    );
    await chain.block([]); // commit genesis so CheckTx sees it
  });

  afterEach(async () => {
    await chain.close();
  });

  /** Expects `bytes` to fail with code/log in CheckTx and FinalizeBlock, changing nothing. */
  async function rejected(bytes: Uint8Array, code: number, log: string, options: { codespace?: string; inCheckTx?: boolean } = {}): Promise<void> {
    const before = snapshot(chain);
    if (options.inCheckTx !== false) {
      const check = await chain.app.checkTx({ tx: bytes, type: 'new' });
      expect({ code: check.code, log: check.log, codespace: check.codespace }).toEqual({ code, log, codespace: options.codespace ?? 'sdk' });
    }
    const result = (await chain.block([bytes])).txResults[0]!;
    expect({ code: result.code, log: result.log, codespace: result.codespace }).toEqual({ code, log, codespace: options.codespace ?? 'sdk' });
    expect(result.data).toHaveLength(0);
    expect(snapshot(chain)).toEqual(before);
  }

  test('bad signature → 4, nothing changes', async () => {
    const garbage = new Uint8Array(65).fill(7);
    await rejected(
      tx({ signatures: [garbage], fee: 200_000n }),
      4,
      `signature verification failed; please verify account number (0) and chain-id (${CHAIN_ID}): (unable to verify single signer signature): unauthorized`,
    );
  });

  test('signed by another key → 4', async () => {
    await rejected(tx({ signWith: bob, fee: 200_000n }), 4, `signature verification failed; please verify account number (0) and chain-id (${CHAIN_ID}): (unable to verify single signer signature): unauthorized`);
  });

  test('wrong chain id shows up as a signature failure', async () => {
    await rejected(tx({ chainId: 'other_1-1', fee: 200_000n }), 4, `signature verification failed; please verify account number (0) and chain-id (${CHAIN_ID}): (unable to verify single signer signature): unauthorized`);
  });

  test('wrong account number → signature failure', async () => {
    await rejected(tx({ accountNumber: 5n, fee: 200_000n }), 4, `signature verification failed; please verify account number (0) and chain-id (${CHAIN_ID}): (unable to verify single signer signature): unauthorized`);
  });

  test('wrong sequence → 32 with the SDK text', async () => {
    await rejected(tx({ sequence: 5n, fee: 200_000n }), 32, 'account sequence mismatch, expected 0, got 5: incorrect account sequence');
  });

  test('fee below the minimum gas price: 13 in CheckTx, accepted in FinalizeBlock', async () => {
    const low = tx({ fee: 1000n, gas: 200_000n });
    const check = await chain.app.checkTx({ tx: low, type: 'new' });
    expect(check.code).toBe(13);
    expect(check.log).toBe('insufficient fees; got: 1000attotoken required: 200000attotoken: insufficient fee');
    const recheck = await chain.app.checkTx({ tx: low, type: 'recheck' });
    expect(recheck.code).toBe(13);
    const before = snapshot(chain);
    const result = (await chain.block([low])).txResults[0]!;
    expect(result.code).toBe(0);
    const after = snapshot(chain);
    expect(after.alice).toBe(before.alice - 1010n);
    expect(after.feeCollector).toBe(before.feeCollector + 1000n);
    expect(after.aliceSequence).toBe(1n);
  });

  test('enough fee passes CheckTx with priority = fee / gas', async () => {
    const check = await chain.app.checkTx({ tx: tx({ fee: 400_000n, gas: 200_000n }), type: 'new' });
    expect(check.code).toBe(0);
    expect(check.priority).toBe(2n);
  });

  test('fee above the balance → 5 (double root, as the SDK), nothing changes', async () => {
    await rejected(
      tx({ fee: ALICE_FUNDS + 1n, gas: 200_000n }),
      5,
      `spendable balance ${ALICE_FUNDS}attotoken is smaller than ${ALICE_FUNDS + 1n}attotoken: insufficient funds: insufficient funds`,
    );
  });

  test('send above the balance → 5 in FinalizeBlock; the ante writes (fee, sequence) persist', async () => {
    const bytes = tx({ msgs: [msgSend(alice.bech32, bob.bech32, ALICE_FUNDS)], fee: 200_000n });
    expect((await chain.app.checkTx({ tx: bytes, type: 'new' })).code).toBe(0); // messages do not run in CheckTx
    const before = snapshot(chain);
    const result = (await chain.block([bytes])).txResults[0]!;
    expect(result.code).toBe(5);
    expect(result.log).toBe(`failed to execute message; message index: 0: spendable balance ${ALICE_FUNDS - 200_000n}attotoken is smaller than ${ALICE_FUNDS}attotoken: insufficient funds`);
    expect(result.events.map((event) => event.type)).toEqual(['coin_spent', 'coin_received', 'transfer', 'message', 'tx', 'tx', 'tx']);
    const after = snapshot(chain);
    expect(after).toEqual({ ...before, alice: before.alice - 200_000n, feeCollector: before.feeCollector + 200_000n, aliceSequence: 1n });
  });

  test('unknown message type → 2 tx parse error', async () => {
    const unknown = { ...msgSend(alice.bech32, bob.bech32, 1n), typeUrl: '/foo.bar.v1.MsgNothing' };
    await rejected(tx({ msgs: [unknown] }), 2, 'unable to resolve type URL /foo.bar.v1.MsgNothing: tx parse error');
  });

  test('a known message without a handler → 6 before anything is charged', async () => {
    // Every module's Msg has a handler now: a Msg response type is known to the registry but routed nowhere.
    const response = pack(MsgSendResponseSchema, {});
    await rejected(tx({ msgs: [response], fee: 200_000n }), 6, 'no message handler found for /cosmos.bank.v1beta1.MsgSendResponse: unknown request');
  });

  test('undecodable bytes → 2', async () => {
    const check = await chain.app.checkTx({ tx: Uint8Array.of(0xff, 0xff, 0xff), type: 'new' });
    expect(check.code).toBe(2);
    expect(check.codespace).toBe('sdk');
    expect(check.log).toMatch(/: tx parse error$/);
    const result = (await chain.block([Uint8Array.of(0x0a, 0x05, 0x01)])).txResults[0]!;
    expect(result.code).toBe(2);
    expect(result.gasUsed).toBe(0n);
  });

  test('no messages → 18', async () => {
    await rejected(tx({ msgs: [] }), 18, 'must contain at least one message: invalid request');
  });

  test('memo over 256 bytes → 12', async () => {
    await rejected(tx({ memo: 'x'.repeat(257), fee: 200_000n }), 12, 'maximum number of characters is 256 but received 257 characters: memo too large');
  });

  test('no signatures → 15', async () => {
    await rejected(tx({ signatures: [], fee: 200_000n }), 15, 'no signatures supplied');
  });

  test('more signatures than signers → 4', async () => {
    const sig = new Uint8Array(65);
    await rejected(tx({ signatures: [sig, sig], fee: 200_000n }), 4, 'wrong number of signers; expected 1, got 2: unauthorized');
  });

  test('timeout height in the past → 30', async () => {
    await chain.block([]);
    await rejected(tx({ timeoutHeight: 1n, fee: 200_000n }), 30, `block height: ${chain.height + 1}, timeout height: 1: tx timeout height`, { inCheckTx: false });
    const check = await chain.app.checkTx({ tx: tx({ timeoutHeight: 1n, fee: 200_000n }), type: 'new' });
    expect(check.log).toBe(`block height: ${chain.height}, timeout height: 1: tx timeout height`);
  });

  test('zero gas runs out at the first metered read (as in the SDK, before the 41 check)', async () => {
    await rejected(tx({ gas: 0n }), 11, 'out of gas in location: ReadFlat; gasWanted: 0, gasUsed: 1000: out of gas');
  });

  test('extension options → 31', async () => {
    await rejected(tx({ extensionOptions: [msgSend(alice.bech32, bob.bech32, 1n)], fee: 200_000n }), 31, 'unknown extension options');
  });

  test('a signer-info key that is not the signer’s → 8', async () => {
    const parts = txParts({ signer: bob, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 0n, accountNumber: 0n, fee: 200_000n });
    const bytes = toBinary(TxRawSchema, create(TxRawSchema, { ...parts, signatures: [new Uint8Array(65)] }));
    await rejected(bytes, 8, `pubKey does not match signer address ${alice.bech32} with signer index: 0: invalid pubkey`);
  });

  test('unknown fee payer / unfunded sender → 9', async () => {
    const stranger = testKey('stranger');
    const bytes = signTx({ signer: stranger, msgs: [msgSend(stranger.bech32, bob.bech32, 1n)], sequence: 0n, accountNumber: 0n, fee: 200_000n });
    const before = snapshot(chain);
    const check = await chain.app.checkTx({ tx: bytes, type: 'new' });
    expect(check.code).toBe(9);
    expect(check.log).toBe(`fee payer address: ${stranger.bech32} does not exist: unknown address`);
    expect(snapshot(chain)).toEqual(before);
  });

  test('out of gas in the ante chain → 11 with location and amounts; nothing changes', async () => {
    const bytes = tx({ gas: 10_000n, fee: 10_000n });
    const before = snapshot(chain);
    const result = (await chain.block([bytes])).txResults[0]!;
    expect(result.code).toBe(11);
    expect(result.log).toMatch(/^out of gas in location: [A-Za-z: _]+; gasWanted: 10000, gasUsed: \d+: out of gas$/);
    expect(result.gasWanted).toBe(10_000n);
    expect(snapshot(chain)).toEqual(before);
  });

  test('sending to a module account → 4 (blocked address)', async () => {
    const collector = accString(moduleAddress(FEE_COLLECTOR_NAME));
    const result = (await chain.block([tx({ msgs: [msgSend(alice.bech32, collector, 1n)], fee: 200_000n })])).txResults[0]!;
    expect(result.code).toBe(4);
    expect(result.log).toBe(`failed to execute message; message index: 0: ${collector} is not allowed to receive funds: unauthorized`);
  });

  test('invalid amounts → 10', async () => {
    const result = (await chain.block([tx({ msgs: [msgSend(alice.bech32, bob.bech32, 0n)], fee: 200_000n })])).txResults[0]!;
    expect(result.code).toBe(10);
    expect(result.log).toBe('failed to execute message; message index: 0: 0attotoken: invalid coins');
  });

  test('unsupported sign mode → 4 naming it', async () => {
    await rejected(
      tx({ signMode: SignMode.TEXTUAL, fee: 200_000n }),
      4,
      `signature verification failed; please verify account number (0) and chain-id (${CHAIN_ID}): (unsupported sign mode SIGN_MODE_TEXTUAL): unauthorized`,
    );
  });
});

describe('accepted variants', () => {
  let chain: Chain;

  beforeAll(async () => {
    chain = await startChain(buildAppState({ accounts: [[alice, ALICE_FUNDS], [carol, 50n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
    await chain.block([]);
  });

  afterAll(async () => {
    await chain.close();
  });

  async function accepted(bytes: Uint8Array): Promise<void> {
    expect((await chain.app.checkTx({ tx: bytes, type: 'new' })).log).toBe('');
    const result = (await chain.block([bytes])).txResults[0]!;
    expect(result.log).toBe('');
    expect(result.code).toBe(0);
  }

  test('64-byte r||s signatures (CosmJS) and the /cosmos.evm key type, stored as the Ethermint key', async () => {
    await accepted(tx({ signatureLength: 64, pubKey: 'evm' }));
    const ctx = new Context({ mode: 'query', multiStore: chain.store.branchCommitted(), header: emptyHeader(CHAIN_ID) });
    const account = createModuleManager().keeper<AccountKeeper>('auth').getAccount(ctx, alice.address)!;
    expect(account.pubKey?.typeUrl).toBe('/ethermint.crypto.v1.ethsecp256k1.PubKey');
    expect(account.sequence).toBe(1n);
  });

  test('a Cosmos secp256k1 key signs with sha256 (its RIPEMD address)', async () => {
    const carolAccount = createModuleManager().keeper<AccountKeeper>('auth').getAccount(new Context({ mode: 'query', multiStore: chain.store.branchCommitted(), header: emptyHeader(CHAIN_ID) }), carol.address)!;
    await accepted(signTx({ signer: carol as TestKey, msgs: [msgSend(carol.bech32, bob.bech32, 5n)], sequence: 0n, accountNumber: carolAccount.accountNumber }));
  });

  test('the signer-info key can be omitted once the account has one', async () => {
    await accepted(tx({ sequence: 1n, pubKey: 'none' }));
  });
});
