/** cosmos.distribution.v1beta1.Query (x/distribution/keeper/grpc_query.go): the 9 queries. */
import { create } from '@bufbuild/protobuf';
import {
  DelegationDelegatorRewardSchema,
  ValidatorAccumulatedCommissionSchema,
  ValidatorOutstandingRewardsSchema,
} from '../../../gen/cosmos/distribution/v1beta1/distribution_pb.js';
import {
  Query,
  QueryCommunityPoolResponseSchema,
  QueryDelegationRewardsResponseSchema,
  QueryDelegationTotalRewardsResponseSchema,
  QueryDelegatorValidatorsResponseSchema,
  QueryDelegatorWithdrawAddressResponseSchema,
  QueryParamsResponseSchema,
  QueryValidatorCommissionResponseSchema,
  QueryValidatorOutstandingRewardsResponseSchema,
  QueryValidatorSlashesResponseSchema,
} from '../../../gen/cosmos/distribution/v1beta1/query_pb.js';
import { paginate } from '../../collections/index.js';
import { accString, parseAccAddress, parseValAddress } from '../shared/address.js';
import { grpcError } from '../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import { decCoinsAdd, decCoinsToProto, type DecCoin } from './decCoins.js';
import { DistributionErrors } from './errors.js';
import type { DistributionKeeper } from './keeper.js';
import { SlashEvents } from './keys.js';

function delegator(text: string): Uint8Array {
  if (text === '') throw grpcError('InvalidArgument', 'empty delegator address');
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw grpcError('InvalidArgument', parsed.error);
  return parsed.bytes;
}

function validator(text: string): Uint8Array {
  if (text === '') throw grpcError('InvalidArgument', 'empty validator address');
  const parsed = parseValAddress(text);
  if (!parsed.ok) throw grpcError('InvalidArgument', parsed.error);
  return parsed.bytes;
}

export function distributionQueryService(keeper: DistributionKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async params(_request, ctx) {
      return create(QueryParamsResponseSchema, { params: keeper.getParams(ctx) });
    },

    async validatorOutstandingRewards(request, ctx) {
      const valAddr = validator(request.validatorAddress);
      if (keeper.stakingKeeper.getValidator(ctx, valAddr) === undefined) throw DistributionErrors.NoValidatorExists.wrap(request.validatorAddress);
      return create(QueryValidatorOutstandingRewardsResponseSchema, { rewards: create(ValidatorOutstandingRewardsSchema, { rewards: decCoinsToProto(keeper.outstanding(ctx, valAddr)) }) });
    },

    async validatorCommission(request, ctx) {
      const valAddr = validator(request.validatorAddress);
      if (keeper.stakingKeeper.getValidator(ctx, valAddr) === undefined) throw DistributionErrors.NoValidatorExists.wrap(request.validatorAddress);
      return create(QueryValidatorCommissionResponseSchema, { commission: create(ValidatorAccumulatedCommissionSchema, { commission: decCoinsToProto(keeper.commission(ctx, valAddr)) }) });
    },

    async validatorSlashes(request, ctx) {
      const valAddr = validator(request.validatorAddress);
      if (request.endingHeight < request.startingHeight) throw grpcError('InvalidArgument', 'starting height greater than ending height');
      const page = await paginate(ctx, SlashEvents, request.pagination, {
        prefix: [valAddr],
        filter: ([, height]) => height >= request.startingHeight && height <= request.endingHeight,
        map: (_key, event) => event,
      });
      return create(QueryValidatorSlashesResponseSchema, { slashes: page.items, pagination: page.pagination });
    },

    async delegationRewards(request, ctx) {
      const delAddr = delegator(request.delegatorAddress);
      const valAddr = validator(request.validatorAddress);
      const val = keeper.stakingKeeper.getValidator(ctx, valAddr);
      if (val === undefined) throw DistributionErrors.NoValidatorExists.wrap(request.validatorAddress);
      if (keeper.stakingKeeper.getDelegation(ctx, delAddr, valAddr) === undefined) throw DistributionErrors.NoDelegationExists.error();
      return create(QueryDelegationRewardsResponseSchema, { rewards: decCoinsToProto(await keeper.pendingRewards(ctx, val, delAddr)) });
    },

    async delegationTotalRewards(request, ctx) {
      const delAddr = delegator(request.delegatorAddress);
      let total: DecCoin[] = [];
      const rewards = [];
      for (const delegation of await keeper.stakingKeeper.getDelegatorDelegations(ctx, delAddr)) {
        const parsed = parseValAddress(delegation.validatorAddress);
        const val = parsed.ok ? keeper.stakingKeeper.getValidator(ctx, parsed.bytes) : undefined;
        if (val === undefined) continue;
        const reward = await keeper.pendingRewards(ctx, val, delAddr);
        rewards.push(create(DelegationDelegatorRewardSchema, { validatorAddress: delegation.validatorAddress, reward: decCoinsToProto(reward) }));
        total = decCoinsAdd(total, reward);
      }
      return create(QueryDelegationTotalRewardsResponseSchema, { rewards, total: decCoinsToProto(total) });
    },

    async delegatorValidators(request, ctx) {
      const delAddr = delegator(request.delegatorAddress);
      const validators = (await keeper.stakingKeeper.getDelegatorDelegations(ctx, delAddr)).map((delegation) => delegation.validatorAddress);
      return create(QueryDelegatorValidatorsResponseSchema, { validators });
    },

    async delegatorWithdrawAddress(request, ctx) {
      const delAddr = delegator(request.delegatorAddress);
      return create(QueryDelegatorWithdrawAddressResponseSchema, { withdrawAddress: accString(keeper.withdrawAddress(ctx, delAddr)) });
    },

    async communityPool(_request, ctx) {
      return create(QueryCommunityPoolResponseSchema, { pool: decCoinsToProto(keeper.communityPool(ctx)) });
    },
  });
}
