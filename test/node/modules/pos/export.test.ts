/**
 * Genesis export of the proof-of-stake modules: a chain with delegations, an unbonding entry, a
 * redelegation, unpaid rewards, commission and a slash is exported; the export validates, starts
 * a new chain (module-account checks pass) with the same stakes and the same unpaid rewards,
 * and exports again to the same state.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { QueryDelegationTotalRewardsRequestSchema, QueryDelegationTotalRewardsResponseSchema } from '../../../../src/gen/cosmos/distribution/v1beta1/query_pb.js';
import { MsgBeginRedelegateSchema, MsgDelegateSchema, MsgUndelegateSchema } from '../../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { exportAppState, validateAppState } from '../../../../src/node/app/index.js';
import type { StakingKeeper } from '../../../../src/node/modules/staking/keeper.js';
import { abciQuery, coin, msgSend, pack, startChain, testKey, type Chain } from '../../app/helpers.js';
import { CHAIN_ID, TOKEN, startPosChain } from './helpers.js';

const alice = testKey('export-alice');
const bob = testKey('export-bob');

async function totalRewards(chain: Chain, address: string): Promise<string[]> {
  const { value } = await abciQuery(chain.app, '/cosmos.distribution.v1beta1.Query/DelegationTotalRewards', toBinary(QueryDelegationTotalRewardsRequestSchema, create(QueryDelegationTotalRewardsRequestSchema, { delegatorAddress: address })), QueryDelegationTotalRewardsResponseSchema);
  return value!.rewards.map((reward) => `${reward.validatorAddress}:${reward.reward.map((c) => c.amount).join(',')}`);
}

test('export → new chain keeps stakes and unpaid rewards; re-export is identical', async () => {
  const pos = await startPosChain({ accounts: [[alice, 1000n * TOKEN], [bob, 1000n * TOKEN]] });
  const [v0, v1, v2] = pos.validators.map((v) => v.key);
  await pos.tx(alice, [pack(MsgDelegateSchema, { delegatorAddress: alice.bech32, validatorAddress: v0!.valoper, amount: coin(50n * TOKEN) })]);
  await pos.tx(alice, [pack(MsgDelegateSchema, { delegatorAddress: alice.bech32, validatorAddress: v1!.valoper, amount: coin(30n * TOKEN) })]);
  await pos.tx(bob, [msgSend(bob.bech32, alice.bech32, 1n)], { fee: 10n ** 15n });
  await pos.tx(alice, [pack(MsgUndelegateSchema, { delegatorAddress: alice.bech32, validatorAddress: v0!.valoper, amount: coin(10n * TOKEN) })]);
  await pos.tx(alice, [pack(MsgBeginRedelegateSchema, { delegatorAddress: alice.bech32, validatorSrcAddress: v1!.valoper, validatorDstAddress: v2!.valoper, amount: coin(5n * TOKEN) })]);
  await pos.tx(bob, [msgSend(bob.bech32, alice.bech32, 1n)], { fee: 10n ** 15n });
  await pos.block();
  const rewardsBefore = await totalRewards(pos.chain, alice.bech32);
  expect(rewardsBefore.length).toBe(3);
  const staking = pos.keeper<StakingKeeper>('staking');
  const stakesBefore = (await staking.getAllDelegations(pos.ctx())).map((d) => `${d.delegatorAddress}/${d.validatorAddress}/${d.shares}`).sort();

  const exported = await exportAppState(pos.chain.store);
  await pos.close();
  expect(validateAppState(exported, CHAIN_ID)).toEqual([]);
  const next = await startChain(exported);
  try {
    await next.block([]);
    expect(await totalRewards(next, alice.bech32)).toEqual(rewardsBefore);
    const again = await exportAppState(next.store);
    // The new chain's first block had another proposer; everything else is as exported.
    const withoutProposer = (state: unknown): unknown => ({ ...(state as object), previous_proposer: '' });
    expect(withoutProposer(again.distribution)).toEqual(withoutProposer(exported.distribution));
    for (const module of ['staking', 'slashing', 'evidence'] as const) expect(again[module]).toEqual(exported[module]);
    const delegations = (again.staking as { delegations: { delegator_address: string; validator_address: string; shares: string }[] }).delegations;
    expect(delegations.map((d) => `${d.delegator_address}/${d.validator_address}/${d.shares.replace('.', '').replace(/^0+/, '')}`).sort()).toEqual(stakesBefore);
  } finally {
    await next.close();
  }
});
