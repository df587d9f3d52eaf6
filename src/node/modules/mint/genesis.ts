/**
 * aioz.mint.v1 genesis: `{ params }` (field 2, as upstream). InitGenesis stores the params and
 * makes sure the mint module account exists; export gives the params back unchanged.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { GenesisStateSchema, type GenesisState } from '../../../gen/aioz/mint/v1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import type { Context } from '../shared/context.js';
import type { GenesisDefaults } from '../shared/module.js';
import type { MintKeeper } from './keeper.js';
import { defaultMintParams, validateMintParams } from './params.js';

export function defaultMintGenesis(defaults: GenesisDefaults): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: defaultMintParams(defaults.denom) })) as JsonObject;
}

export function parseMintGenesis(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateMintGenesis(json: JsonValue | undefined, blocked?: (address: Uint8Array) => boolean): string[] {
  let state: GenesisState;
  try {
    state = parseMintGenesis(json);
  } catch (err) {
    return [`invalid mint genesis: ${(err as Error).message}`];
  }
  if (state.params === undefined) return ['params are missing'];
  return validateMintParams(state.params, blocked).map((problem) => `params: ${problem}`);
}

export function initMintGenesis(ctx: Context, keeper: MintKeeper, json: JsonValue | undefined): void {
  const state = parseMintGenesis(json);
  if (state.params === undefined) throw new Error('params are missing');
  keeper.setParams(ctx, state.params);
  keeper.ensureModuleAccount(ctx);
}

export async function exportMintGenesis(ctx: Context, keeper: MintKeeper): Promise<JsonObject> {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: keeper.getParams(ctx) })) as JsonObject;
}
