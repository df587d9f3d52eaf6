/** x/evidence genesis: the evidence handled so far (Equivocations). */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { EquivocationSchema } from '../../../gen/cosmos/evidence/v1beta1/evidence_pb.js';
import { GenesisStateSchema, type GenesisState } from '../../../gen/cosmos/evidence/v1beta1/genesis_pb.js';
import { anyUnpackAs, fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import type { Context } from '../shared/context.js';
import { equivocationProblem, type EvidenceKeeper } from './keeper.js';
import { Evidence } from './keys.js';

export function defaultEvidenceGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema)) as JsonObject;
}

function parse(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateEvidenceGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parse(json);
  } catch (err) {
    return [`invalid evidence genesis: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  for (const any of state.evidence) {
    if (any.typeUrl !== `/${EquivocationSchema.typeName}`) {
      problems.push(`unsupported evidence type ${any.typeUrl}`);
      continue;
    }
    const problem = equivocationProblem(anyUnpackAs(any, EquivocationSchema));
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

export async function initEvidenceGenesis(ctx: Context, keeper: EvidenceKeeper, json: JsonValue | undefined): Promise<void> {
  for (const any of parse(json).evidence) keeper.setEvidence(ctx, anyUnpackAs(any, EquivocationSchema));
}

export async function exportEvidenceGenesis(ctx: Context): Promise<JsonObject> {
  const state = create(GenesisStateSchema);
  for await (const any of Evidence.values(ctx)) state.evidence.push(any);
  return toGatewayJson(GenesisStateSchema, state) as JsonObject;
}
