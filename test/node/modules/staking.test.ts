/** x/staking through the app: MsgCreateValidator after genesis, end-block validator updates, validation errors. */
import { createModuleManager } from '../../../src/node/app/modules.js';
import { create } from '@bufbuild/protobuf';
import { PubKeySchema as Ed25519PubKeySchema } from '../../../src/gen/cosmos/crypto/ed25519/keys_pb.js';
import { CommissionRatesSchema, DescriptionSchema } from '../../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import { MsgCreateValidatorSchema } from '../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { legacyDecToWire } from '../../../src/node/codec/index.js';
import { StakingKeeper } from '../../../src/node/modules/staking/keeper.js';
import { BondStatus } from '../../../src/node/modules/staking/validator.js';
import { Context, emptyHeader } from '../../../src/node/modules/shared/context.js';
import { CHAIN_ID, TOKEN, buildAppState, coin, consensusKey, pack, signTx, startChain, testKey, type Chain, type TestKey } from '../app/helpers.js';
import type { Any } from '@bufbuild/protobuf/wkt';

const alice = testKey('alice');
const validator = testKey('validator');

function createValidator(key: TestKey, amount: bigint, options: { rate?: string; maxRate?: string; minSelfDelegation?: string; denom?: string; moniker?: string; cons?: Uint8Array } = {}): Any {
  return pack(MsgCreateValidatorSchema, {
    description: create(DescriptionSchema, { moniker: options.moniker ?? 'second' }),
    commission: create(CommissionRatesSchema, { rate: legacyDecToWire(options.rate ?? '0.05'), maxRate: legacyDecToWire(options.maxRate ?? '0.2'), maxChangeRate: legacyDecToWire('0.01') }),
    minSelfDelegation: options.minSelfDelegation ?? '1',
    validatorAddress: key.valoper,
    pubkey: pack(Ed25519PubKeySchema, { key: options.cons ?? consensusKey(key.bech32) }),
    value: coin(amount, options.denom),
  });
}

function staking(chain: Chain): { keeper: StakingKeeper; ctx: Context } {
  return { keeper: createModuleManager().keeper<StakingKeeper>('staking'), ctx: new Context({ mode: 'query', multiStore: chain.store.branchCommitted(), header: emptyHeader(CHAIN_ID) }) };
}

describe('x/staking', () => {
  let chain: Chain;

  beforeEach(async () => {
    chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
  });

  afterEach(async () => {
    await chain.close();
  });

  test('a validator created by tx is bonded at end block and reported as an update', async () => {
    const block = await chain.block([signTx({ signer: alice, msgs: [createValidator(alice, 250n * TOKEN)], sequence: 0n, accountNumber: 0n, gas: 400_000n })]);
    expect(block.txResults[0]!.log).toBe('');
    const created = block.txResults[0]!.events.find((event) => event.type === 'create_validator')!;
    expect(created.attributes.map((attr) => [attr.key, attr.value])).toEqual([['validator', alice.valoper], ['amount', `${250n * TOKEN}attotoken`], ['msg_index', '0']]);
    expect(block.validatorUpdates).toEqual([{ pubKeyType: 'ed25519', pubKey: consensusKey(alice.bech32), power: 250n }]);
    expect(block.events.some((event) => event.attributes.some((attr) => attr.key === 'mode' && attr.value === 'EndBlock'))).toBe(true);
    const { keeper, ctx } = staking(chain);
    const stored = keeper.getValidator(ctx, alice.address)!;
    expect(stored.status).toBe(BondStatus.BONDED);
    expect(stored.tokens).toBe((250n * TOKEN).toString());
    expect(keeper.getLastTotalPower(ctx)).toBe(350n);
    expect(keeper.bankKeeper.getBalance(ctx, keeper.bondedPoolAddress(), 'attotoken')).toBe(350n * TOKEN);
    expect(keeper.bankKeeper.getBalance(ctx, keeper.notBondedPoolAddress(), 'attotoken')).toBe(0n);
    // No change next block → no updates.
    expect((await chain.block([])).validatorUpdates).toEqual([]);
  });

  test('a self-delegation under one token has no power and stays unbonded', async () => {
    const block = await chain.block([signTx({ signer: alice, msgs: [createValidator(alice, TOKEN - 1n)], sequence: 0n, accountNumber: 0n, gas: 400_000n })]);
    expect(block.txResults[0]!.code).toBe(0);
    expect(block.validatorUpdates).toEqual([]);
    const { keeper, ctx } = staking(chain);
    expect(keeper.getValidator(ctx, alice.address)!.status).toBe(BondStatus.UNBONDED);
    expect(keeper.bankKeeper.getBalance(ctx, keeper.notBondedPoolAddress(), 'attotoken')).toBe(TOKEN - 1n);
  });

  test('an operator that already has a validator → staking 4', async () => {
    // The validator's account signed its gentx at genesis: account number 1, sequence 1.
    const result = (await chain.block([signTx({ signer: validator, msgs: [createValidator(validator, TOKEN)], sequence: 1n, accountNumber: 1n, gas: 400_000n })])).txResults[0]!;
    expect([result.code, result.codespace, result.log]).toEqual([4, 'staking', 'failed to execute message; message index: 0: validator already exist for this operator address; must use new validator operator address']);
  });

  test.each([
    ['rate above max rate', () => createValidator(alice, TOKEN, { rate: '0.5', maxRate: '0.2' }), 11, 'staking', 'commission cannot be more than the max rate'],
    ['max rate above 100%', () => createValidator(alice, TOKEN, { maxRate: '1.5' }), 10, 'staking', 'commission cannot be more than 100%'],
    ['below min self delegation', () => createValidator(alice, 5n, { minSelfDelegation: '10' }), 16, 'staking', "validator's self delegation must be greater than their minimum self delegation"],
    ['wrong denom', () => createValidator(alice, 5n, { denom: 'other' }), 18, 'sdk', 'invalid coin denomination: got other, expected attotoken: invalid request'],
    ['taken consensus key', () => createValidator(alice, TOKEN, { cons: consensusKey(validator.bech32) }), 5, 'staking', 'validator already exist for this pubkey; must use new validator pubkey'],
    ['moniker too long', () => createValidator(alice, TOKEN, { moniker: 'm'.repeat(71) }), 18, 'sdk', 'invalid moniker length; got: 71, max: 70: invalid request'],
    ['more than the balance', () => createValidator(alice, 2000n * TOKEN), 5, 'sdk', `failed to delegate; ${1000n * TOKEN}attotoken is smaller than ${2000n * TOKEN}attotoken: insufficient funds`],
  ])('%s', async (_name, msg, code, codespace, log) => {
    const result = (await chain.block([signTx({ signer: alice, msgs: [msg()], sequence: 0n, accountNumber: 0n, gas: 400_000n })])).txResults[0]!;
    expect([result.code, result.codespace, result.log]).toEqual([code, codespace, `failed to execute message; message index: 0: ${log}`]);
  });
});
