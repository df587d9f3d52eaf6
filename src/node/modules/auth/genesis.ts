/**
 * x/auth genesis: `{ params, accounts: [Any] }` (SDK JSON). InitGenesis sanitizes account
 * numbers (duplicates get the lowest unused numbers, then accounts are sorted by number), stores
 * them advancing the global counter past each, then creates the fee collector module account.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { GenesisStateSchema, type GenesisState } from '../../../gen/cosmos/auth/v1beta1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { accString, moduleAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { bytesEqual } from '../shared/keys.js';
import { accountFromAny, accountToAny, pubKeyAddress, type Account } from './account.js';
import type { AccountKeeper } from './keeper.js';
import { FEE_COLLECTOR_NAME } from './keys.js';
import { defaultAuthParams, validateAuthParams } from './params.js';

export function defaultAuthGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: defaultAuthParams(), accounts: [] })) as JsonObject;
}

export function parseAuthGenesis(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

/** The accounts of a genesis state, decoded (throws on the first bad one). */
export function genesisAccounts(state: GenesisState): Account[] {
  return state.accounts.map((any) => accountFromAny(any));
}

/** Validates params and every account (address, pubkey/address match, module derivation, duplicates). */
export function validateAuthGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parseAuthGenesis(json);
  } catch (err) {
    return [`invalid auth genesis: ${(err as Error).message}`];
  }
  const problems = validateAuthParams(state.params ?? defaultAuthParams());
  const seen = new Set<string>();
  state.accounts.forEach((any, i) => {
    let account: Account;
    try {
      account = accountFromAny(any);
    } catch (err) {
      problems.push(`account ${i}: ${(err as Error).message}`);
      return;
    }
    const address = Buffer.from(account.address).toString('hex');
    if (seen.has(address)) problems.push(`duplicate account found in genesis state; address: ${bech32Of(account)}`);
    seen.add(address);
    if (account.pubKey !== undefined) {
      const derived = pubKeyAddress(account.pubKey);
      if (derived !== undefined && !bytesEqual(derived, account.address)) problems.push(`account ${bech32Of(account)}: account address and pubkey address do not match`);
    }
    if (account.kind === 'module') {
      if (account.name.trim() === '') problems.push(`account ${bech32Of(account)}: module account name cannot be blank`);
      // A module's derived account (a group policy) is named by its own address (x/group 0.46's shape).
      else if (!bytesEqual(moduleAddress(account.name), account.address) && account.name !== bech32Of(account)) {
        problems.push(`address ${bech32Of(account)} cannot be derived from the module name '${account.name}'`);
      }
    }
    if (account.kind === 'interchain' && (account.accountOwner ?? '').trim() === '') {
      problems.push(`account ${bech32Of(account)}: AccountOwner cannot be empty: invalid account address`);
    }
    if (account.kind === 'eth' && !/^0x[0-9a-fA-F]{64}$/.test(account.codeHash)) {
      problems.push(`account ${bech32Of(account)}: invalid code_hash "${account.codeHash}"`);
    }
  });
  return problems;
}

function bech32Of(account: Account): string {
  return accString(account.address);
}

/** SanitizeGenesisAccounts: fix duplicate numbers with the lowest unused ones, sort by number. */
export function sanitizeGenesisAccounts(accounts: readonly Account[]): Account[] {
  const seen = new Set<bigint>();
  const duplicates = new Map<bigint, number[]>();
  accounts.forEach((account, i) => {
    if (!seen.has(account.accountNumber)) seen.add(account.accountNumber);
    else duplicates.set(account.accountNumber, [...(duplicates.get(account.accountNumber) ?? []), i]);
  });
  const result = [...accounts];
  let next = 0n;
  for (const number of [...duplicates.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const i of duplicates.get(number)!) {
      while (seen.has(next)) next++;
      result[i] = { ...result[i]!, accountNumber: next };
      seen.add(next);
    }
  }
  return result.sort((a, b) => (a.accountNumber < b.accountNumber ? -1 : a.accountNumber > b.accountNumber ? 1 : 0));
}

export function initAuthGenesis(ctx: Context, keeper: AccountKeeper, json: JsonValue | undefined): void {
  const state = parseAuthGenesis(json);
  keeper.setParams(ctx, state.params ?? defaultAuthParams());
  for (const account of sanitizeGenesisAccounts(genesisAccounts(state))) {
    while (keeper.nextAccountNumber(ctx) < account.accountNumber) {
      // advance the counter past the account's number, as the SDK's InitGenesis does
    }
    keeper.setAccount(ctx, account);
  }
  keeper.getModuleAccount(ctx, FEE_COLLECTOR_NAME);
}

export async function exportAuthGenesis(ctx: Context, keeper: AccountKeeper): Promise<JsonObject> {
  const accounts = [];
  for await (const account of keeper.iterateAccounts(ctx)) accounts.push(accountToAny(account));
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: keeper.getParams(ctx), accounts })) as JsonObject;
}
