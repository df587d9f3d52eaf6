/** x/feegrant genesis: every allowance (SDK 0.47 InitGenesis / ExportGenesis). */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { GenesisStateSchema, type GenesisState } from '../../../gen/cosmos/feegrant/v1beta1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { parseAccAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { decodeAllowance } from './allowances.js';
import { Allowances, AllowanceQueue } from './keys.js';
import type { FeegrantKeeper } from './keeper.js';

export function defaultFeegrantGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema)) as JsonObject;
}

function parse(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateFeegrantGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parse(json);
  } catch (err) {
    return [`invalid feegrant genesis: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  state.allowances.forEach((grant, i) => {
    const where = `fee allowance ${i} (granter ${JSON.stringify(grant.granter)}, grantee ${JSON.stringify(grant.grantee)})`;
    const granter = parseAccAddress(grant.granter);
    const grantee = parseAccAddress(grant.grantee);
    if (!granter.ok) problems.push(`${where}: invalid granter address: ${granter.error}`);
    if (!grantee.ok) problems.push(`${where}: invalid grantee address: ${grantee.error}`);
    if (grant.granter === grant.grantee) problems.push(`${where}: cannot self-grant fee authorization`);
    const pair = `${grant.granter}/${grant.grantee}`;
    if (seen.has(pair)) problems.push(`${where}: duplicate allowance for this pair`);
    seen.add(pair);
    try {
      decodeAllowance(grant.allowance).validateBasic();
    } catch (err) {
      problems.push(`${where}: ${(err as Error).message}`);
    }
  });
  return problems;
}

const acc = (text: string): Uint8Array => {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw new Error(`invalid address ${text}: ${parsed.error}`);
  return parsed.bytes;
};

/** Stores each allowance as it is (a periodic allowance keeps its exported period state). */
export async function initFeegrantGenesis(ctx: Context, json: JsonValue | undefined): Promise<void> {
  const state = parse(json);
  for (const grant of state.allowances) {
    const granter = acc(grant.granter);
    const grantee = acc(grant.grantee);
    const expires = decodeAllowance(grant.allowance).expiresAt();
    if (expires !== undefined) AllowanceQueue.set(ctx, [expires, grantee, granter]);
    Allowances.set(ctx, [grantee, granter], grant);
  }
}

export async function exportFeegrantGenesis(ctx: Context, keeper: FeegrantKeeper): Promise<JsonObject> {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { allowances: await keeper.allGrants(ctx) })) as JsonObject;
}
