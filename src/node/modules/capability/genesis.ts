/**
 * x/capability genesis (cosmos.capability.v1beta1.GenesisState): the next index and the owners of
 * every index below it, validated as the SDK's GenesisState.Validate, written and exported; the
 * in-memory lookups are rebuilt from them (InitGenesis ends with InitMemStore).
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { CapabilityOwnersSchema } from '../../../gen/cosmos/capability/v1beta1/capability_pb.js';
import { GenesisOwnersSchema, GenesisStateSchema, type GenesisState } from '../../../gen/cosmos/capability/v1beta1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import type { Context } from '../shared/context.js';
import { DEFAULT_INDEX, formatOwner, type CapabilityKeeper } from './keeper.js';
import { CapabilityOwnersByIndex } from './keys.js';

export function defaultCapabilityGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { index: DEFAULT_INDEX, owners: [] })) as JsonObject;
}

function parse(json: JsonValue | undefined): GenesisState {
  if (json === undefined || json === null) return create(GenesisStateSchema, { index: DEFAULT_INDEX });
  return fromGatewayJson(GenesisStateSchema, json);
}

/** GenesisState.Validate (the SDK stops at the first problem; so does this). */
function genesisError(gs: GenesisState): string | undefined {
  if (gs.index === 0n) return 'capability index must be non-zero';
  for (const entry of gs.owners) {
    const owners = entry.indexOwners?.owners ?? [];
    if (owners.length === 0) return 'empty owners in genesis';
    if (entry.index === 0n || entry.index >= gs.index) return `owners exist for index ${entry.index} outside of valid range: 1-${gs.index - 1n}`;
    for (const owner of owners) {
      if (owner.module.trim() === '') return `owner's module cannot be blank: ${formatOwner(owner)}`;
      if (owner.name.trim() === '') return `owner's name cannot be blank: ${formatOwner(owner)}`;
    }
  }
  return undefined;
}

export function validateCapabilityGenesis(json: JsonValue | undefined): string[] {
  let gs: GenesisState;
  try {
    gs = parse(json);
  } catch (err) {
    return [`capability: ${(err as Error).message}`];
  }
  const problem = genesisError(gs);
  return problem === undefined ? [] : [`capability: ${problem}`];
}

export async function initCapabilityGenesis(ctx: Context, keeper: CapabilityKeeper, json: JsonValue | undefined): Promise<void> {
  const problems = validateCapabilityGenesis(json);
  if (problems.length > 0) throw new Error(`invalid capability genesis: ${problems.join('; ')}`);
  const gs = parse(json);
  keeper.initializeIndex(ctx, gs.index);
  for (const entry of gs.owners) keeper.setOwners(ctx, entry.index, entry.indexOwners ?? create(CapabilityOwnersSchema));
  await keeper.initMemStore(ctx);
}

export async function exportCapabilityGenesis(ctx: Context, keeper: CapabilityKeeper): Promise<JsonObject> {
  const gs = create(GenesisStateSchema, { index: keeper.getLatestIndex(ctx) });
  for await (const [index, indexOwners] of CapabilityOwnersByIndex.iterate(ctx)) gs.owners.push(create(GenesisOwnersSchema, { index, indexOwners }));
  return toGatewayJson(GenesisStateSchema, gs) as JsonObject;
}
