/**
 * aioz.aiozrc20.v1 genesis: `{ params, token_pairs }`. Validation: each pair's address is 0x hex,
 * its denom valid, its owner module or external, and no address, denom or pair appears twice.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { Owner } from '../../../gen/aioz/aiozrc20/v1/aiozrc20_pb.js';
import { GenesisStateSchema, type GenesisState } from '../../../gen/aioz/aiozrc20/v1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { denomError } from '../shared/coins.js';
import type { Context } from '../shared/context.js';
import { HEX_ADDRESS, defaultAiozrc20Params, type Aiozrc20Keeper } from './keeper.js';
import { MODULE_NAME } from './keys.js';

export function defaultAiozrc20Genesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: defaultAiozrc20Params(), tokenPairs: [] })) as JsonObject;
}

export function parseAiozrc20Genesis(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateAiozrc20Genesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parseAiozrc20Genesis(json);
  } catch (err) {
    return [`invalid ${MODULE_NAME} genesis: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  const addresses = new Set<string>();
  const denoms = new Set<string>();
  state.tokenPairs.forEach((pair, i) => {
    const where = `token_pairs[${i}]`;
    if (!HEX_ADDRESS.test(pair.aiozrc20Address)) problems.push(`${where}: invalid ERC20 contract address ${JSON.stringify(pair.aiozrc20Address)}`);
    const denom = denomError(pair.denom);
    if (denom !== undefined) problems.push(`${where}: ${denom}`);
    if (pair.contractOwner !== Owner.MODULE && pair.contractOwner !== Owner.EXTERNAL) problems.push(`${where}: undefined owner of contract pair`);
    const address = pair.aiozrc20Address.toLowerCase();
    if (addresses.has(address)) problems.push(`${where}: duplicate ERC20 address ${pair.aiozrc20Address}`);
    if (denoms.has(pair.denom)) problems.push(`${where}: duplicate denomination ${pair.denom}`);
    addresses.add(address);
    denoms.add(pair.denom);
  });
  return problems;
}

export function initAiozrc20Genesis(ctx: Context, keeper: Aiozrc20Keeper, json: JsonValue | undefined): void {
  const state = parseAiozrc20Genesis(json);
  keeper.setParams(ctx, state.params ?? defaultAiozrc20Params());
  for (const pair of state.tokenPairs) keeper.setPair(ctx, pair);
  keeper.accounts.getModuleAccount(ctx, MODULE_NAME);
}

export async function exportAiozrc20Genesis(ctx: Context, keeper: Aiozrc20Keeper): Promise<JsonObject> {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { params: keeper.getParams(ctx), tokenPairs: await keeper.allPairs(ctx) })) as JsonObject;
}
