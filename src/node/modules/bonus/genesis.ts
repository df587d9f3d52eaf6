/**
 * aioz.bonus.v1 genesis: `{ params }`. The pool is funded in the bank genesis as a balance of the
 * bonus module account; InitGenesis stores the params and makes sure that account exists.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { GenesisStateSchema, type GenesisState } from '../../../gen/aioz/bonus/v1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import type { Context } from '../shared/context.js';
import type { GenesisDefaults } from '../shared/module.js';
import type { BonusKeeper } from './keeper.js';
import { defaultBonusParams, validateBonusParams } from './params.js';

export function defaultBonusGenesis(defaults: GenesisDefaults): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: defaultBonusParams(defaults.denom) })) as JsonObject;
}

export function parseBonusGenesis(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateBonusGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parseBonusGenesis(json);
  } catch (err) {
    return [`invalid bonus genesis: ${(err as Error).message}`];
  }
  if (state.params === undefined) return ['params are missing'];
  return validateBonusParams(state.params).map((problem) => `params: ${problem}`);
}

export function initBonusGenesis(ctx: Context, keeper: BonusKeeper, json: JsonValue | undefined): void {
  const state = parseBonusGenesis(json);
  if (state.params === undefined) throw new Error('params are missing');
  keeper.setParams(ctx, state.params);
  keeper.ensureModuleAccount(ctx);
}

export async function exportBonusGenesis(ctx: Context, keeper: BonusKeeper): Promise<JsonObject> {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: keeper.getParams(ctx) })) as JsonObject;
}
