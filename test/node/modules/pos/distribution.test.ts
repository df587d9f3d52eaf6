/**
 * x/distribution on a four-validator chain: the fees of a block are allocated in the next one
 * (community tax, proposer reward, the rest by power, commission first) and a delegator
 * withdraws exactly the F1 amount computed by hand; commission withdrawal, withdraw addresses,
 * the community pool, the queries and the bad inputs. Invariants after every block.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import {
  MsgFundCommunityPoolSchema,
  MsgSetWithdrawAddressSchema,
  MsgWithdrawDelegatorRewardSchema,
  MsgWithdrawValidatorCommissionSchema,
} from '../../../../src/gen/cosmos/distribution/v1beta1/tx_pb.js';
import {
  QueryCommunityPoolRequestSchema,
  QueryCommunityPoolResponseSchema,
  QueryDelegationRewardsRequestSchema,
  QueryDelegationRewardsResponseSchema,
  QueryDelegationTotalRewardsRequestSchema,
  QueryDelegationTotalRewardsResponseSchema,
  QueryValidatorCommissionRequestSchema,
  QueryValidatorCommissionResponseSchema,
} from '../../../../src/gen/cosmos/distribution/v1beta1/query_pb.js';
import { MsgDelegateSchema } from '../../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import type { DistributionKeeper } from '../../../../src/node/modules/distribution/keeper.js';
import { coin, msgSend, pack, testKey, abciQuery } from '../../app/helpers.js';
import { TOKEN, balance, failedLog, failure, startPosChain, type PosChain } from './helpers.js';

const alice = testKey('dist-alice');
const bob = testKey('dist-bob');
const carol = testKey('dist-carol');
const FEE = 10n ** 12n;
const DEC = 10n ** 18n;

describe('x/distribution on a four-validator chain', () => {
  let pos: PosChain;

  beforeEach(async () => {
    pos = await startPosChain({ accounts: [[alice, 1000n * TOKEN], [bob, 1000n * TOKEN]] });
  });

  afterEach(async () => {
    await pos.close();
  });

  async function query<Res extends Parameters<typeof abciQuery>[3]>(path: string, bytes: Uint8Array, schema: Res) {
    const { value, response } = await abciQuery(pos.chain.app, path, bytes, schema);
    if (value === undefined) throw new Error(response.log);
    return value;
  }

  test('rewards withdrawn equal the hand computation of F1', async () => {
    const val1 = pos.validators[1]!.key;
    expect((await pos.tx(alice, [pack(MsgDelegateSchema, { delegatorAddress: alice.bech32, validatorAddress: val1.valoper, amount: coin(100n * TOKEN) })])).log).toBe('');
    // Total power now 500, val1 200. Bob pays FEE in one block (proposed by val0); the next block allocates it.
    expect((await pos.tx(bob, [msgSend(bob.bech32, carol.bech32, 1n)], { fee: FEE })).log).toBe('');
    await pos.block();
    // Hand computation: 93 % of the fee by power; val1 gets 200/500 of it; 10 % commission; alice holds half of val1's stake.
    const val1Reward = (FEE * 93n) / 100n * 2n / 5n; // 372 000 000 000
    const commission = val1Reward / 10n;
    const aliceShare = (val1Reward - commission) / 2n;
    expect(aliceShare).toBe(167_400_000_000n);
    const pending = await query('/cosmos.distribution.v1beta1.Query/DelegationRewards', toBinary(QueryDelegationRewardsRequestSchema, create(QueryDelegationRewardsRequestSchema, { delegatorAddress: alice.bech32, validatorAddress: val1.valoper })), QueryDelegationRewardsResponseSchema);
    expect(pending.rewards.map((c) => [c.denom, c.amount])).toEqual([['attotoken', (aliceShare * DEC).toString()]]);
    const total = await query('/cosmos.distribution.v1beta1.Query/DelegationTotalRewards', toBinary(QueryDelegationTotalRewardsRequestSchema, create(QueryDelegationTotalRewardsRequestSchema, { delegatorAddress: alice.bech32 })), QueryDelegationTotalRewardsResponseSchema);
    expect(total.total.map((c) => c.amount)).toEqual([(aliceShare * DEC).toString()]);
    const commissionNow = await query('/cosmos.distribution.v1beta1.Query/ValidatorCommission', toBinary(QueryValidatorCommissionRequestSchema, create(QueryValidatorCommissionRequestSchema, { validatorAddress: val1.valoper })), QueryValidatorCommissionResponseSchema);
    expect(commissionNow.commission!.commission.map((c) => c.amount)).toEqual([(commission * DEC).toString()]);

    const before = balance(pos, alice.address);
    const result = await pos.tx(alice, [pack(MsgWithdrawDelegatorRewardSchema, { delegatorAddress: alice.bech32, validatorAddress: val1.valoper })]);
    expect(result.log).toBe('');
    expect(balance(pos, alice.address)).toBe(before + aliceShare);
    // The community pool got the 2 % tax.
    const pool = await query('/cosmos.distribution.v1beta1.Query/CommunityPool', toBinary(QueryCommunityPoolRequestSchema, create(QueryCommunityPoolRequestSchema)), QueryCommunityPoolResponseSchema);
    expect(pool.pool.map((c) => c.amount)).toEqual([((FEE * 2n) / 100n * DEC).toString()]);
    // A second withdrawal right away pays nothing.
    const again = balance(pos, alice.address);
    expect((await pos.tx(alice, [pack(MsgWithdrawDelegatorRewardSchema, { delegatorAddress: alice.bech32, validatorAddress: val1.valoper })])).log).toBe('');
    expect(balance(pos, alice.address)).toBe(again);

    // The operator withdraws its commission to a withdraw address it set.
    expect((await pos.tx(val1, [pack(MsgSetWithdrawAddressSchema, { delegatorAddress: val1.bech32, withdrawAddress: carol.bech32 })])).log).toBe('');
    const carolBefore = balance(pos, carol.address);
    expect((await pos.tx(val1, [pack(MsgWithdrawValidatorCommissionSchema, { validatorAddress: val1.valoper })])).log).toBe('');
    expect(balance(pos, carol.address)).toBe(carolBefore + commission);
    expect(failure(await pos.tx(val1, [pack(MsgWithdrawValidatorCommissionSchema, { validatorAddress: val1.valoper })]))).toEqual([7, 'distribution', failedLog('no validator commission to withdraw')]);
  });

  test('the proposer gets base + bonus × precommit share; an absent validator still earns by power', async () => {
    const [val0, val3] = [pos.validators[0]!.key, pos.validators[3]!.key];
    await pos.tx(bob, [msgSend(bob.bech32, carol.bech32, 1n)], { fee: FEE, proposer: 2 });
    await pos.block({ absent: [3], proposer: 1 });
    const keeper = pos.keeper<DistributionKeeper>('distribution');
    // val2 proposed the fee block: 1 % + 4 % × 300/400 = 4 %.
    const proposerReward = (FEE * 4n) / 100n;
    // The vote share is what proposer reward and tax leave: 1 − 4 % − 2 % = 94 %, by power.
    const share = (FEE * 94n) / 100n / 4n;
    expect(keeper.outstanding(pos.ctx(), pos.validators[2]!.key.address).map((c) => c.amount)).toEqual([(proposerReward + share) * DEC]);
    expect(keeper.outstanding(pos.ctx(), val3.address).map((c) => c.amount)).toEqual([share * DEC]);
    expect(keeper.outstanding(pos.ctx(), val0.address).map((c) => c.amount)).toEqual([share * DEC]);
    // The community pool gets the 2 % tax.
    expect(keeper.communityPool(pos.ctx()).map((c) => c.amount)).toEqual([(FEE - proposerReward - 4n * share) * DEC]);
  });

  test('fund-community-pool moves coins into the pool', async () => {
    expect((await pos.tx(alice, [pack(MsgFundCommunityPoolSchema, { depositor: alice.bech32, amount: [coin(5000n)] })])).log).toBe('');
    expect(pos.keeper<DistributionKeeper>('distribution').communityPool(pos.ctx()).map((c) => c.amount)).toEqual([5000n * DEC]);
  });

  test.each([
    ['withdrawing from a validator without a delegation', () => pack(MsgWithdrawDelegatorRewardSchema, { delegatorAddress: bob.bech32, validatorAddress: pos.validators[0]!.key.valoper }), [5, 'distribution', failedLog('no delegation distribution info')]],
    ['withdrawing from an unknown validator', () => pack(MsgWithdrawDelegatorRewardSchema, { delegatorAddress: bob.bech32, validatorAddress: alice.valoper }), [6, 'distribution', failedLog('no validator distribution info')]],
    ['a withdraw address that is a module account', () => pack(MsgSetWithdrawAddressSchema, { delegatorAddress: bob.bech32, withdrawAddress: 'token1jv65s3grqf6v6jl3dp4t6c9t9rk99cd8yl9hl6' }), undefined],
    ['funding the pool with more than the balance', () => pack(MsgFundCommunityPoolSchema, { depositor: bob.bech32, amount: [coin(2000n * TOKEN)] }), [5, 'sdk', failedLog(`spendable balance ${1000n * TOKEN}attotoken is smaller than ${2000n * TOKEN}attotoken: insufficient funds`)]],
  ])('refuses %s', async (_name, msg, expected) => {
    const before = balance(pos, bob.address);
    const result = await pos.tx(bob, [msg()]);
    if (expected === undefined) expect(result.code).not.toBe(0);
    else expect(failure(result)).toEqual(expected);
    expect(balance(pos, bob.address)).toBe(before);
  });
});
