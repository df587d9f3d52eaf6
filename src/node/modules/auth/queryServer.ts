/**
 * cosmos.auth.v1beta1.Query (x/auth/keeper/grpc_query.go, SDK 0.50), with the SDK's status
 * codes and texts: a missing account is NotFound "account <addr> not found" (COMPAT §3.5).
 */
import { create } from '@bufbuild/protobuf';
import {
  AddressBytesToStringResponseSchema,
  AddressStringToBytesResponseSchema,
  Bech32PrefixResponseSchema,
  Query,
  QueryAccountAddressByIDResponseSchema,
  QueryAccountInfoResponseSchema,
  QueryAccountResponseSchema,
  QueryAccountsResponseSchema,
  QueryModuleAccountByNameResponseSchema,
  QueryModuleAccountsResponseSchema,
  QueryParamsResponseSchema,
} from '../../../gen/cosmos/auth/v1beta1/query_pb.js';
import { encodeBech32 } from '../../../keyring/address.js';
import { ACCOUNT_PREFIX, accString, parseAccAddress } from '../shared/address.js';
import { grpcError } from '../shared/errors.js';
import { defineQueryService, type QueryServiceImpl } from '../shared/module.js';
import { paginate } from '../../collections/index.js';
import { accountToAny, baseAccountOf, type Account } from './account.js';
import type { AccountKeeper } from './keeper.js';
import { Accounts } from './keys.js';

export function authQueryService(keeper: AccountKeeper): QueryServiceImpl {
  const accountOrNotFound = (ctx: Parameters<AccountKeeper['getAccount']>[0], address: string): Account => {
    if (address === '') throw grpcError('InvalidArgument', 'Address cannot be empty');
    const parsed = parseAccAddress(address);
    if (!parsed.ok) throw grpcError('InvalidArgument', parsed.error);
    const account = keeper.getAccount(ctx, parsed.bytes);
    if (account === undefined) throw grpcError('NotFound', `account ${address} not found`);
    return account;
  };

  return defineQueryService(Query, {
    async accounts(request, ctx) {
      const page = await paginate(ctx, Accounts, request.pagination, { map: (_address, account) => accountToAny(account) });
      return create(QueryAccountsResponseSchema, { accounts: page.items, pagination: page.pagination });
    },

    async account(request, ctx) {
      return create(QueryAccountResponseSchema, { account: accountToAny(accountOrNotFound(ctx, request.address)) });
    },

    async accountAddressByID(request, ctx) {
      if (request.id !== 0n) throw grpcError('InvalidArgument', "requesting with id isn't supported, try to request using account-id");
      const address = keeper.addressByAccountNumber(ctx, request.accountId);
      if (address === undefined) throw grpcError('NotFound', `account address not found with account number ${request.accountId}`);
      return create(QueryAccountAddressByIDResponseSchema, { accountAddress: accString(address) });
    },

    async params(_request, ctx) {
      return create(QueryParamsResponseSchema, { params: keeper.getParams(ctx) });
    },

    async moduleAccounts(_request, ctx) {
      const accounts = keeper.moduleAccountNames().map((name) => accountToAny(keeper.getModuleAccount(ctx, name)!));
      return create(QueryModuleAccountsResponseSchema, { accounts });
    },

    async moduleAccountByName(request, ctx) {
      if (request.name === '') throw grpcError('InvalidArgument', 'module name is empty');
      const account = keeper.getModuleAccount(ctx, request.name);
      if (account === undefined) throw grpcError('NotFound', `account ${request.name} not found`);
      return create(QueryModuleAccountByNameResponseSchema, { account: accountToAny(account) });
    },

    async bech32Prefix() {
      return create(Bech32PrefixResponseSchema, { bech32Prefix: ACCOUNT_PREFIX });
    },

    async addressBytesToString(request) {
      if (request.addressBytes.length === 0) throw grpcError('Unknown', 'empty address bytes is not allowed');
      if (request.addressBytes.length > 255) throw grpcError('Unknown', `address max length is 255, got ${request.addressBytes.length}: unknown address`);
      return create(AddressBytesToStringResponseSchema, { addressString: accStringAnyLength(request.addressBytes) });
    },

    async addressStringToBytes(request) {
      if (request.addressString.trim() === '') throw grpcError('Unknown', 'empty address string is not allowed');
      const parsed = parseAccAddress(request.addressString);
      if (!parsed.ok) throw grpcError('Unknown', parsed.error);
      return create(AddressStringToBytesResponseSchema, { addressBytes: parsed.bytes });
    },

    async accountInfo(request, ctx) {
      return create(QueryAccountInfoResponseSchema, { info: baseAccountOf(accountOrNotFound(ctx, request.address)) });
    },
  });
}


/** bech32 of any-length address bytes (the SDK's codec allows 1–255 bytes). */
function accStringAnyLength(bytes: Uint8Array): string {
  return bytes.length === 20 ? accString(bytes) : encodeBech32(ACCOUNT_PREFIX, bytes);
}
