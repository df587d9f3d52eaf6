/**
 * cosmos.staking.v1beta1.Query (x/staking/keeper/grpc_query.go): validators, delegations,
 * unbonding delegations, redelegations, pool, params, historical info; and the network's
 * aioz.staking.v1beta1.Query/Params (the SDK params plus accept_all_validators).
 */
import { ParamsSchema as NetParamsSchema } from '../../../gen/aioz/staking/v1beta1/staking_pb.js';
import { Query as NetQuery, QueryParamsResponseSchema as NetQueryParamsResponseSchema } from '../../../gen/aioz/staking/v1beta1/query_pb.js';
import { create } from '@bufbuild/protobuf';
import {
  Query,
  QueryDelegationResponseSchema,
  QueryDelegatorDelegationsResponseSchema,
  QueryDelegatorUnbondingDelegationsResponseSchema,
  QueryDelegatorValidatorResponseSchema,
  QueryDelegatorValidatorsResponseSchema,
  QueryHistoricalInfoResponseSchema,
  QueryParamsResponseSchema,
  QueryPoolResponseSchema,
  QueryRedelegationsResponseSchema,
  QueryValidatorDelegationsResponseSchema,
  QueryValidatorResponseSchema,
  QueryValidatorsResponseSchema,
  QueryValidatorUnbondingDelegationsResponseSchema,
  QueryUnbondingDelegationResponseSchema,
} from '../../../gen/cosmos/staking/v1beta1/query_pb.js';
import {
  DelegationResponseSchema,
  DelegationSchema,
  PoolSchema,
  RedelegationEntryResponseSchema,
  RedelegationResponseSchema,
  type Delegation,
  type DelegationResponse,
  type Redelegation,
  type RedelegationResponse,
  type Validator,
} from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import { parseAccAddress, parseValAddress } from '../shared/address.js';
import { coinToProto } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { decFromWire, decTruncate } from '../shared/dec.js';
import { grpcError } from '../shared/errors.js';
import { compareBytes } from '../shared/keys.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import { paginate } from '../../collections/index.js';
import { StakingErrors } from './errors.js';
import type { StakingKeeper } from './keeper.js';
import { Delegations, DelegationsByValidator, Redelegations, RedelegationsBySrc, UnbondingDelegations, UnbondingDelegationsByValidator, Validators } from './keys.js';
import { BOND_STATUS_NAMES, tokensFromShares } from './validator.js';

function requireDelegator(text: string): Uint8Array {
  if (text === '') throw grpcError('InvalidArgument', 'delegator address cannot be empty');
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw grpcError('InvalidArgument', parsed.error);
  return parsed.bytes;
}

function requireValidator(text: string): Uint8Array {
  if (text === '') throw grpcError('InvalidArgument', 'validator address cannot be empty');
  const parsed = parseValAddress(text);
  if (!parsed.ok) throw grpcError('InvalidArgument', parsed.error);
  return parsed.bytes;
}

export function stakingQueryService(keeper: StakingKeeper): QueryServiceImpl {
  const delegationResponse = (ctx: Context, delegation: Delegation): DelegationResponse => {
    const parsed = parseValAddress(delegation.validatorAddress);
    const validator = parsed.ok ? keeper.getValidator(ctx, parsed.bytes) : undefined;
    if (validator === undefined) throw StakingErrors.NoValidatorFound.error();
    const amount = decTruncate(tokensFromShares(validator, decFromWire(delegation.shares) ?? 0n));
    return create(DelegationResponseSchema, { delegation, balance: coinToProto({ denom: keeper.bondDenom(ctx), amount }) });
  };

  const redelegationResponse = (ctx: Context, red: Redelegation): RedelegationResponse => {
    const parsed = parseValAddress(red.validatorDstAddress);
    const validator = parsed.ok ? keeper.getValidator(ctx, parsed.bytes) : undefined;
    if (validator === undefined) throw StakingErrors.NoValidatorFound.error();
    return create(RedelegationResponseSchema, {
      redelegation: red,
      entries: red.entries.map((entry) =>
        create(RedelegationEntryResponseSchema, { redelegationEntry: entry, balance: decTruncate(tokensFromShares(validator, decFromWire(entry.sharesDst) ?? 0n)).toString() }),
      ),
    });
  };

  return defineQueryService(Query, {
    async validators(request, ctx) {
      if (request.status !== '' && BOND_STATUS_NAMES[request.status] === undefined) throw grpcError('InvalidArgument', `invalid validator status ${request.status}`);
      const wanted = request.status === '' ? undefined : BOND_STATUS_NAMES[request.status];
      const page = await paginate(ctx, Validators, request.pagination, {
        map: (_address, validator) => validator,
        filter: wanted === undefined ? undefined : (_address, validator) => validator.status === wanted,
      });
      return create(QueryValidatorsResponseSchema, { validators: page.items, pagination: page.pagination });
    },

    async validator(request, ctx) {
      const validator = keeper.getValidator(ctx, requireValidator(request.validatorAddr));
      if (validator === undefined) throw grpcError('NotFound', `validator ${request.validatorAddr} not found`);
      return create(QueryValidatorResponseSchema, { validator });
    },

    async validatorDelegations(request, ctx) {
      const valAddr = requireValidator(request.validatorAddr);
      const page = await paginate(ctx, DelegationsByValidator.keys, request.pagination, {
        prefix: [valAddr],
        map: ([, delAddr]) => delegationResponse(ctx, keeper.getDelegation(ctx, delAddr, valAddr) ?? create(DelegationSchema)),
      });
      return create(QueryValidatorDelegationsResponseSchema, { delegationResponses: page.items, pagination: page.pagination });
    },

    async validatorUnbondingDelegations(request, ctx) {
      const valAddr = requireValidator(request.validatorAddr);
      const page = await paginate(ctx, UnbondingDelegationsByValidator.keys, request.pagination, {
        prefix: [valAddr],
        map: ([, delAddr]) => keeper.getUnbondingDelegation(ctx, delAddr, valAddr)!,
      });
      return create(QueryValidatorUnbondingDelegationsResponseSchema, { unbondingResponses: page.items, pagination: page.pagination });
    },

    async delegation(request, ctx) {
      const delAddr = requireDelegator(request.delegatorAddr);
      const valAddr = requireValidator(request.validatorAddr);
      const delegation = keeper.getDelegation(ctx, delAddr, valAddr);
      if (delegation === undefined) throw grpcError('NotFound', `delegation with delegator ${request.delegatorAddr} not found for validator ${request.validatorAddr}`);
      return create(QueryDelegationResponseSchema, { delegationResponse: delegationResponse(ctx, delegation) });
    },

    async unbondingDelegation(request, ctx) {
      const delAddr = requireDelegator(request.delegatorAddr);
      const valAddr = requireValidator(request.validatorAddr);
      const unbond = keeper.getUnbondingDelegation(ctx, delAddr, valAddr);
      if (unbond === undefined) throw grpcError('NotFound', `unbonding delegation with delegator ${request.delegatorAddr} not found for validator ${request.validatorAddr}`);
      return create(QueryUnbondingDelegationResponseSchema, { unbond });
    },

    async delegatorDelegations(request, ctx) {
      const delAddr = requireDelegator(request.delegatorAddr);
      const page = await paginate(ctx, Delegations, request.pagination, { prefix: [delAddr], map: (_key, delegation) => delegationResponse(ctx, delegation) });
      return create(QueryDelegatorDelegationsResponseSchema, { delegationResponses: page.items, pagination: page.pagination });
    },

    async delegatorUnbondingDelegations(request, ctx) {
      const delAddr = requireDelegator(request.delegatorAddr);
      const page = await paginate(ctx, UnbondingDelegations, request.pagination, { prefix: [delAddr], map: (_key, ubd) => ubd });
      return create(QueryDelegatorUnbondingDelegationsResponseSchema, { unbondingResponses: page.items, pagination: page.pagination });
    },

    async redelegations(request, ctx) {
      const delAddr = request.delegatorAddr === '' ? undefined : requireDelegator(request.delegatorAddr);
      const src = request.srcValidatorAddr === '' ? undefined : requireValidator(request.srcValidatorAddr);
      const dst = request.dstValidatorAddr === '' ? undefined : requireValidator(request.dstValidatorAddr);
      if (delAddr !== undefined && src !== undefined && dst !== undefined) {
        const red = keeper.getRedelegation(ctx, delAddr, src, dst);
        if (red === undefined) {
          throw grpcError('NotFound', `redelegation not found for delegator address ${request.delegatorAddr} from validator address ${request.srcValidatorAddr}`);
        }
        return create(QueryRedelegationsResponseSchema, { redelegationResponses: [redelegationResponse(ctx, red)] });
      }
      if (delAddr === undefined && src !== undefined) {
        const page = await paginate(ctx, RedelegationsBySrc, request.pagination, {
          prefix: [src],
          map: ([, del, to]) => redelegationResponse(ctx, keeper.getRedelegation(ctx, del, src, to)!),
        });
        return create(QueryRedelegationsResponseSchema, { redelegationResponses: page.items, pagination: page.pagination });
      }
      if (delAddr === undefined) throw grpcError('InvalidArgument', 'delegator address cannot be empty');
      const page = await paginate(ctx, Redelegations, request.pagination, {
        prefix: [delAddr],
        filter: ([, from, to]) => (src === undefined || compareBytes(from, src) === 0) && (dst === undefined || compareBytes(to, dst) === 0),
        map: (_key, red) => redelegationResponse(ctx, red),
      });
      return create(QueryRedelegationsResponseSchema, { redelegationResponses: page.items, pagination: page.pagination });
    },

    async delegatorValidators(request, ctx) {
      const delAddr = requireDelegator(request.delegatorAddr);
      const page = await paginate(ctx, Delegations, request.pagination, {
        prefix: [delAddr],
        map: (_key, delegation): Validator => {
          const parsed = parseValAddress(delegation.validatorAddress);
          const validator = parsed.ok ? keeper.getValidator(ctx, parsed.bytes) : undefined;
          if (validator === undefined) throw StakingErrors.NoValidatorFound.error();
          return validator;
        },
      });
      return create(QueryDelegatorValidatorsResponseSchema, { validators: page.items, pagination: page.pagination });
    },

    async delegatorValidator(request, ctx) {
      const delAddr = requireDelegator(request.delegatorAddr);
      const valAddr = requireValidator(request.validatorAddr);
      if (keeper.getDelegation(ctx, delAddr, valAddr) === undefined) throw StakingErrors.NoDelegation.error();
      const validator = keeper.getValidator(ctx, valAddr);
      if (validator === undefined) throw StakingErrors.NoValidatorFound.error();
      return create(QueryDelegatorValidatorResponseSchema, { validator });
    },

    async historicalInfo(request, ctx) {
      if (request.height < 0n) throw grpcError('InvalidArgument', 'height cannot be negative');
      const hist = keeper.getHistoricalInfo(ctx, request.height);
      if (hist === undefined) throw grpcError('NotFound', `historical info for height ${request.height} not found`);
      return create(QueryHistoricalInfoResponseSchema, { hist });
    },

    async pool(_request, ctx) {
      const denom = keeper.bondDenom(ctx);
      return create(QueryPoolResponseSchema, {
        pool: create(PoolSchema, {
          notBondedTokens: keeper.bankKeeper.getBalance(ctx, keeper.notBondedPoolAddress(), denom).toString(),
          bondedTokens: keeper.bankKeeper.getBalance(ctx, keeper.bondedPoolAddress(), denom).toString(),
        }),
      });
    },

    async params(_request, ctx) {
      return create(QueryParamsResponseSchema, { params: keeper.getParams(ctx) });
    },
  });
}

/** aioz.staking.v1beta1.Query: the SDK params with the network's accept_all_validators. */
export function netStakingQueryService(keeper: StakingKeeper): QueryServiceImpl {
  return defineQueryService(NetQuery, {
    async params(_request, ctx) {
      const params = keeper.getParams(ctx);
      return create(NetQueryParamsResponseSchema, {
        params: create(NetParamsSchema, {
          unbondingTime: params.unbondingTime,
          maxValidators: params.maxValidators,
          maxEntries: params.maxEntries,
          historicalEntries: params.historicalEntries,
          bondDenom: params.bondDenom,
          minCommissionRate: params.minCommissionRate,
          acceptAllValidators: keeper.acceptAllValidators(ctx),
        }),
      });
    },
  });
}
