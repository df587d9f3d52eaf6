/** x/bank through the app: MultiSend, send-enabled flags, supply bookkeeping. */
import { createModuleManager } from '../../../src/node/app/modules.js';
import { create } from '@bufbuild/protobuf';
import { InputSchema, OutputSchema } from '../../../src/gen/cosmos/bank/v1beta1/bank_pb.js';
import { MsgMultiSendSchema } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { AccountKeeper } from '../../../src/node/modules/auth/keeper.js';
import { BankKeeper } from '../../../src/node/modules/bank/keeper.js';
import { Context, emptyHeader } from '../../../src/node/modules/shared/context.js';
import { CHAIN_ID, TOKEN, buildAppState, coin, msgSend, pack, signTx, startChain, testKey, type Chain } from '../app/helpers.js';

const alice = testKey('alice');
const bob = testKey('bob');
const carol = testKey('carol');
const validator = testKey('validator');

function bank(chain: Chain): { keeper: BankKeeper; ctx: Context } {
  return { keeper: createModuleManager().keeper<BankKeeper>('bank'), ctx: new Context({ mode: 'query', multiStore: chain.store.branchCommitted(), header: emptyHeader(CHAIN_ID) }) };
}

describe('x/bank', () => {
  let chain: Chain;

  beforeEach(async () => {
    const state = buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }) as Record<string, any>;
    state.bank.send_enabled = [{ denom: 'frozen', enabled: false }];
    chain = await startChain(state);
  });

  afterEach(async () => {
    await chain.close();
  });

  test('MultiSend: one input, many outputs; creates recipient accounts; events per output', async () => {
    const msg = pack(MsgMultiSendSchema, {
      inputs: [create(InputSchema, { address: alice.bech32, coins: [coin(30n)] })],
      outputs: [create(OutputSchema, { address: bob.bech32, coins: [coin(10n)] }), create(OutputSchema, { address: carol.bech32, coins: [coin(20n)] })],
    });
    const result = (await chain.block([signTx({ signer: alice, msgs: [msg], sequence: 0n, accountNumber: 0n })])).txResults[0]!;
    expect(result.log).toBe('');
    const types = result.events.filter((event) => event.attributes.some((attr) => attr.key === 'msg_index')).map((event) => event.type);
    expect(types).toEqual(['message', 'coin_spent', 'message', 'coin_received', 'transfer', 'coin_received', 'transfer']);
    const { keeper, ctx } = bank(chain);
    expect(keeper.getBalance(ctx, bob.address, 'attotoken')).toBe(10n);
    expect(keeper.getBalance(ctx, carol.address, 'attotoken')).toBe(20n);
    expect(createModuleManager().keeper<AccountKeeper>('auth').getAccount(ctx, carol.address)?.kind).toBe('eth');
  });

  test('MultiSend errors: mismatch, several inputs', async () => {
    const mismatch = pack(MsgMultiSendSchema, {
      inputs: [create(InputSchema, { address: alice.bech32, coins: [coin(30n)] })],
      outputs: [create(OutputSchema, { address: bob.bech32, coins: [coin(10n)] })],
    });
    const twoInputs = pack(MsgMultiSendSchema, {
      inputs: [create(InputSchema, { address: alice.bech32, coins: [coin(1n)] }), create(InputSchema, { address: alice.bech32, coins: [coin(1n)] })],
      outputs: [create(OutputSchema, { address: bob.bech32, coins: [coin(2n)] })],
    });
    const results = (await chain.block([signTx({ signer: alice, msgs: [mismatch], sequence: 0n, accountNumber: 0n }), signTx({ signer: alice, msgs: [twoInputs], sequence: 1n, accountNumber: 0n })])).txResults;
    expect(results.map((r) => [r.code, r.codespace, r.log])).toEqual([
      [4, 'bank', 'failed to execute message; message index: 0: sum inputs != sum outputs'],
      [9, 'bank', 'failed to execute message; message index: 0: multiple senders not allowed'],
    ]);
  });

  test('a denom with sending disabled → bank code 5', async () => {
    const result = (await chain.block([signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n, 'frozen')], sequence: 0n, accountNumber: 0n })])).txResults[0]!;
    expect([result.code, result.codespace, result.log]).toEqual([5, 'bank', 'failed to execute message; message index: 0: frozen transfers are currently disabled: send transactions are disabled']);
  });

  test('supply stays the sum of balances after sends and fees', async () => {
    await chain.block([signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 5n)], sequence: 0n, accountNumber: 0n, fee: 1000n })]);
    const { keeper, ctx } = bank(chain);
    let total = 0n;
    for await (const [, coins] of keeper.iterateAllBalances(ctx)) total += coins.find((c) => c.denom === 'attotoken')?.amount ?? 0n;
    expect(keeper.getSupply(ctx, 'attotoken')).toBe(total);
    expect(total).toBe(1200n * TOKEN);
  });
});
