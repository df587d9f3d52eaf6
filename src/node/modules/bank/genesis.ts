/**
 * x/bank genesis: `{ params, balances: [{address, coins}], supply, denom_metadata, send_enabled }`.
 * InitGenesis stores balances and sets the supply to their sum; a given supply must equal it
 * ("genesis supply is incorrect, expected S, got T").
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { ParamsSchema, SendEnabledSchema } from '../../../gen/cosmos/bank/v1beta1/bank_pb.js';
import { BalanceSchema, GenesisStateSchema, type GenesisState } from '../../../gen/cosmos/bank/v1beta1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { accString, parseAccAddress } from '../shared/address.js';
import { addCoins, coinsEqual, coinsError, coinsFromProto, coinsToProto, coinsToString, type Coin } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import type { BankKeeper } from './keeper.js';
import { defaultBankParams, defaultDenomMetadata, metadataError, validateBankParams, validateSendEnabled } from './params.js';
import type { GenesisDefaults } from '../shared/module.js';
import { exportEntries, importEntries } from '../../collections/index.js';
import { DenomMetadata, SendEnabled } from './keys.js';

export function defaultBankGenesis(defaults: GenesisDefaults): JsonObject {
  const metadata = defaultDenomMetadata(defaults.denom);
  return toGatewayJson(
    GenesisStateSchema,
    create(GenesisStateSchema, { params: defaultBankParams(), balances: [], supply: [], denomMetadata: metadata === undefined ? [] : [metadata], sendEnabled: [] }),
  ) as JsonObject;
}

export function parseBankGenesis(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

/** Sum of all genesis balances. */
export function genesisBalancesTotal(state: GenesisState): Coin[] {
  let total: Coin[] = [];
  for (const balance of state.balances) total = addCoins(total, coinsFromProto(balance.coins));
  return total;
}

export function validateBankGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parseBankGenesis(json);
  } catch (err) {
    return [`invalid bank genesis: ${(err as Error).message}`];
  }
  const problems = validateBankParams(state.params ?? defaultBankParams());
  problems.push(...validateSendEnabled(state.sendEnabled));
  const seen = new Set<string>();
  let total: Coin[] = [];
  for (const balance of state.balances) {
    const parsed = parseAccAddress(balance.address);
    if (!parsed.ok) {
      problems.push(`balance of "${balance.address}": ${parsed.error}`);
      continue;
    }
    if (seen.has(balance.address)) problems.push(`duplicate balance for address ${balance.address}`);
    seen.add(balance.address);
    let coins: Coin[];
    try {
      coins = coinsFromProto(balance.coins);
    } catch (err) {
      problems.push(`balance of ${balance.address}: ${(err as Error).message}`);
      continue;
    }
    const bad = coinsError(coins);
    if (bad !== undefined) problems.push(`balance of ${balance.address}: ${bad}`);
    else total = addCoins(total, coins);
  }
  const bases = new Set<string>();
  for (const metadata of state.denomMetadata) {
    if (bases.has(metadata.base)) problems.push(`duplicate client metadata for denom ${metadata.base}`);
    bases.add(metadata.base);
    const bad = metadataError(metadata);
    if (bad !== undefined) problems.push(`denom metadata ${metadata.base}: ${bad}`);
  }
  if (state.supply.length > 0) {
    try {
      const supply = coinsFromProto(state.supply);
      const bad = coinsError(supply);
      if (bad !== undefined) problems.push(`supply: ${bad}`);
      else if (!coinsEqual(supply, total)) problems.push(`genesis supply is incorrect, expected ${coinsToString(supply)}, got ${coinsToString(total)}`);
    } catch (err) {
      problems.push(`supply: ${(err as Error).message}`);
    }
  }
  return problems;
}

export function initBankGenesis(ctx: Context, keeper: BankKeeper, json: JsonValue | undefined): void {
  const state = parseBankGenesis(json);
  const params = state.params ?? defaultBankParams();
  // Params.send_enabled is deprecated: its entries move to the per-denom table.
  const sendEnabled = [...params.sendEnabled, ...state.sendEnabled];
  keeper.setParams(ctx, create(ParamsSchema, { defaultSendEnabled: params.defaultSendEnabled, sendEnabled: [] }));
  for (const entry of sendEnabled) keeper.setSendEnabled(ctx, entry.denom, entry.enabled);
  let total: Coin[] = [];
  for (const balance of state.balances) {
    const parsed = parseAccAddress(balance.address);
    if (!parsed.ok) throw new Error(`invalid genesis balance address ${balance.address}: ${parsed.error}`);
    const coins = coinsFromProto(balance.coins);
    for (const coin of coins) keeper.setBalance(ctx, parsed.bytes, coin.denom, keeper.getBalance(ctx, parsed.bytes, coin.denom) + coin.amount);
    total = addCoins(total, coins);
  }
  if (state.supply.length > 0 && !coinsEqual(coinsFromProto(state.supply), total)) {
    throw new Error(`genesis supply is incorrect, expected ${coinsToString(coinsFromProto(state.supply))}, got ${coinsToString(total)}`);
  }
  for (const coin of total) keeper.setSupply(ctx, coin.denom, coin.amount);
  importEntries(ctx, DenomMetadata, state.denomMetadata.map((metadata) => [metadata.base, metadata] as const));
}

export async function exportBankGenesis(ctx: Context, keeper: BankKeeper): Promise<JsonObject> {
  const balances = [];
  for await (const [address, coins] of keeper.iterateAllBalances(ctx)) {
    balances.push(create(BalanceSchema, { address: accString(address), coins: coinsToProto(coins) }));
  }
  const sendEnabled = (await exportEntries(ctx, SendEnabled)).map(([denom, enabled]) => create(SendEnabledSchema, { denom, enabled }));
  return toGatewayJson(
    GenesisStateSchema,
    create(GenesisStateSchema, {
      params: keeper.getParams(ctx),
      balances,
      supply: coinsToProto(await keeper.getTotalSupply(ctx)),
      denomMetadata: await keeper.getAllDenomMetadata(ctx),
      sendEnabled,
    }),
  ) as JsonObject;
}
