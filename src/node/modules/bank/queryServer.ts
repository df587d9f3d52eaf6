/**
 * cosmos.bank.v1beta1.Query (x/bank/keeper/grpc_query.go, SDK 0.50). Every list is paginated
 * with the collections paginator (COMPAT §5).
 */
import { create } from '@bufbuild/protobuf';
import { SendEnabledSchema } from '../../../gen/cosmos/bank/v1beta1/bank_pb.js';
import {
  DenomOwnerSchema,
  Query,
  QueryAllBalancesResponseSchema,
  QueryBalanceResponseSchema,
  QueryDenomMetadataByQueryStringResponseSchema,
  QueryDenomMetadataResponseSchema,
  QueryDenomOwnersByQueryResponseSchema,
  QueryDenomOwnersResponseSchema,
  QueryDenomsMetadataResponseSchema,
  QueryParamsResponseSchema,
  QuerySendEnabledResponseSchema,
  QuerySpendableBalanceByDenomResponseSchema,
  QuerySpendableBalancesResponseSchema,
  QuerySupplyOfResponseSchema,
  QueryTotalSupplyResponseSchema,
} from '../../../gen/cosmos/bank/v1beta1/query_pb.js';
import type { PageRequest } from '../../../gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { accString, parseAccAddress } from '../shared/address.js';
import { coinToProto, denomError } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { grpcError } from '../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import { normalizePageRequest, paginate, type Page } from '../../collections/index.js';
import { PageResponseSchema } from '../../../gen/cosmos/base/query/v1beta1/pagination_pb.js';
import type { BankKeeper } from './keeper.js';
import { Balances, DenomMetadata, DenomOwners, SendEnabled, Supply } from './keys.js';
import type { Coin as ProtoCoin } from '../../../gen/cosmos/base/v1beta1/coin_pb.js';
import type { DenomOwner } from '../../../gen/cosmos/bank/v1beta1/query_pb.js';

function requireAddress(address: string): Uint8Array {
  if (address === '') throw grpcError('InvalidArgument', 'empty address string is not allowed');
  const parsed = parseAccAddress(address);
  if (!parsed.ok) throw grpcError('InvalidArgument', `invalid address: ${parsed.error}`);
  return parsed.bytes;
}

function requireDenom(denom: string): void {
  const bad = denomError(denom);
  if (bad !== undefined) throw grpcError('InvalidArgument', bad);
}

/** Balances of an address; with `resolveDenom` each denom is shown as its metadata display denom. */
async function balancesPage(ctx: Context, address: Uint8Array, pagination: PageRequest | undefined, resolveDenom?: (denom: string) => string): Promise<Page<ProtoCoin>> {
  return paginate(ctx, Balances, pagination, {
    prefix: [address],
    map: ([, denom], amount) => coinToProto({ denom: resolveDenom === undefined ? denom : resolveDenom(denom), amount }),
  });
}

async function denomOwnersPage(ctx: Context, keeper: BankKeeper, denom: string, pagination: PageRequest | undefined): Promise<Page<DenomOwner>> {
  return paginate(ctx, DenomOwners.keys, pagination, {
    prefix: [denom],
    map: ([, address]) => create(DenomOwnerSchema, { address: accString(address), balance: coinToProto({ denom, amount: keeper.getBalance(ctx, address, denom) }) }),
  });
}

export function bankQueryService(keeper: BankKeeper): QueryServiceImpl {
  return defineQueryService(Query, {
    async balance(request, ctx) {
      const address = requireAddress(request.address);
      requireDenom(request.denom);
      return create(QueryBalanceResponseSchema, { balance: coinToProto({ denom: request.denom, amount: keeper.getBalance(ctx, address, request.denom) }) });
    },

    async allBalances(request, ctx) {
      const address = requireAddress(request.address);
      const req = normalizePageRequest(request.pagination);
      // A first page in key order: answer from the cached denom list with synchronous reads.
      const firstPage = req.key.length === 0 && req.offset === 0n && !req.reverse && !request.resolveDenom;
      if (firstPage) {
        const denoms = keeper.cachedDenoms(ctx, address);
        if (denoms !== undefined) {
          const balances: ProtoCoin[] = [];
          for (const denom of denoms) {
            const amount = keeper.getBalance(ctx, address, denom);
            if (amount > 0n) balances.push(coinToProto({ denom, amount }));
          }
          if (BigInt(balances.length) <= req.limit) {
            const total = req.countTotal ? BigInt(balances.length) : 0n;
            return create(QueryAllBalancesResponseSchema, { balances, pagination: create(PageResponseSchema, { nextKey: new Uint8Array(0), total }) });
          }
        }
      }
      const resolve = request.resolveDenom ? (denom: string): string => keeper.getDenomMetadata(ctx, denom)?.display ?? denom : undefined;
      const height = ctx.blockHeight;
      const page = await balancesPage(ctx, address, request.pagination, resolve);
      if (firstPage && page.pagination?.nextKey.length === 0) keeper.rememberDenoms(height, address, page.items.map((coin) => coin.denom));
      return create(QueryAllBalancesResponseSchema, { balances: page.items, pagination: page.pagination });
    },

    async spendableBalances(request, ctx) {
      // No vesting or locks: spendable = balance.
      const page = await balancesPage(ctx, requireAddress(request.address), request.pagination);
      return create(QuerySpendableBalancesResponseSchema, { balances: page.items, pagination: page.pagination });
    },

    async spendableBalanceByDenom(request, ctx) {
      const address = requireAddress(request.address);
      requireDenom(request.denom);
      return create(QuerySpendableBalanceByDenomResponseSchema, {
        balance: coinToProto({ denom: request.denom, amount: keeper.getBalance(ctx, address, request.denom) }),
      });
    },

    async totalSupply(request, ctx) {
      const page = await paginate(ctx, Supply, request.pagination, { map: (denom, amount) => coinToProto({ denom, amount }) });
      return create(QueryTotalSupplyResponseSchema, { supply: page.items, pagination: page.pagination });
    },

    async supplyOf(request, ctx) {
      requireDenom(request.denom);
      return create(QuerySupplyOfResponseSchema, { amount: coinToProto({ denom: request.denom, amount: keeper.getSupply(ctx, request.denom) }) });
    },

    async params(_request, ctx) {
      return create(QueryParamsResponseSchema, { params: keeper.getParams(ctx) });
    },

    async denomMetadata(request, ctx) {
      requireDenom(request.denom);
      const metadata = keeper.getDenomMetadata(ctx, request.denom);
      if (metadata === undefined) throw grpcError('NotFound', `client metadata for denom ${request.denom}`);
      return create(QueryDenomMetadataResponseSchema, { metadata });
    },

    async denomMetadataByQueryString(request, ctx) {
      requireDenom(request.denom);
      const metadata = keeper.getDenomMetadata(ctx, request.denom);
      if (metadata === undefined) throw grpcError('NotFound', `client metadata for denom ${request.denom}`);
      return create(QueryDenomMetadataByQueryStringResponseSchema, { metadata });
    },

    async denomsMetadata(request, ctx) {
      const page = await paginate(ctx, DenomMetadata, request.pagination, { map: (_denom, metadata) => metadata });
      return create(QueryDenomsMetadataResponseSchema, { metadatas: page.items, pagination: page.pagination });
    },

    async denomOwners(request, ctx) {
      requireDenom(request.denom);
      const page = await denomOwnersPage(ctx, keeper, request.denom, request.pagination);
      return create(QueryDenomOwnersResponseSchema, { denomOwners: page.items, pagination: page.pagination });
    },

    async denomOwnersByQuery(request, ctx) {
      requireDenom(request.denom);
      const page = await denomOwnersPage(ctx, keeper, request.denom, request.pagination);
      return create(QueryDenomOwnersByQueryResponseSchema, { denomOwners: page.items, pagination: page.pagination });
    },

    async sendEnabled(request, ctx) {
      if (request.denoms.length > 0) {
        const sendEnabled = [];
        for (const denom of request.denoms) {
          const enabled = keeper.getSendEnabled(ctx, denom);
          if (enabled !== undefined) sendEnabled.push(create(SendEnabledSchema, { denom, enabled }));
        }
        return create(QuerySendEnabledResponseSchema, { sendEnabled });
      }
      const page = await paginate(ctx, SendEnabled, request.pagination, { map: (denom, enabled) => create(SendEnabledSchema, { denom, enabled }) });
      return create(QuerySendEnabledResponseSchema, { sendEnabled: page.items, pagination: page.pagination });
    },
  });
}
