/**
 * x/bech32ibc genesis: `{ "nativeHRP": …, "hrpIBCRecords": [ … ] }` (upstream's camelCase proto
 * names). Upstream's default native prefix is "osmo"; this chain's default is its own account
 * prefix (src/keyring/prefixes.ts), which is what the field means.
 */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { GenesisStateSchema, type GenesisState } from '../../../gen/bech32ibc/bech32ibc/v1beta1/genesis_pb.js';
import { ACCOUNT_PREFIX } from '../../../keyring/prefixes.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import type { Context } from '../shared/context.js';
import { hrpProblem } from './errors.js';
import type { Bech32IbcKeeper } from './keeper.js';

export function defaultBech32IbcGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { nativeHRP: ACCOUNT_PREFIX })) as JsonObject;
}

function parse(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateBech32IbcGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parse(json);
  } catch (err) {
    return [`invalid bech32ibc genesis: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  const native = hrpProblem(state.nativeHRP);
  if (native !== undefined) problems.push(`invalid native HRP ${JSON.stringify(state.nativeHRP)}: ${native}`);
  const seen = new Set<string>();
  state.hrpIBCRecords.forEach((record, i) => {
    const problem = hrpProblem(record.hrp);
    if (problem !== undefined) problems.push(`hrp_ibc_record ${i}: invalid HRP ${JSON.stringify(record.hrp)}: ${problem}`);
    else if (seen.has(record.hrp)) problems.push(`hrp_ibc_record ${i}: duplicate record for HRP ${record.hrp}`);
    else if (record.hrp === state.nativeHRP) problems.push(`hrp_ibc_record ${i}: cannot set a record for the chain's native prefix ${record.hrp}`);
    seen.add(record.hrp);
    if (record.sourceChannel === '') problems.push(`hrp_ibc_record ${i}: empty source channel`);
  });
  return problems;
}

export async function initBech32IbcGenesis(ctx: Context, keeper: Bech32IbcKeeper, json: JsonValue | undefined): Promise<void> {
  const state = parse(json);
  keeper.setNativeHrp(ctx, state.nativeHRP);
  for (const record of state.hrpIBCRecords) keeper.setHrpIbcRecord(ctx, record);
}

export async function exportBech32IbcGenesis(ctx: Context, keeper: Bech32IbcKeeper): Promise<JsonObject> {
  const state = create(GenesisStateSchema, { nativeHRP: keeper.getNativeHrp(ctx), hrpIBCRecords: await keeper.getHrpIbcRecords(ctx) });
  return toGatewayJson(GenesisStateSchema, state) as JsonObject;
}
