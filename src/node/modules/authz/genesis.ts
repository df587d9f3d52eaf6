/** x/authz genesis: every grant that has not expired (SDK 0.47 InitGenesis / ExportGenesis). */
import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { GrantAuthorizationSchema } from '../../../gen/cosmos/authz/v1beta1/authz_pb.js';
import { GenesisStateSchema, type GenesisState } from '../../../gen/cosmos/authz/v1beta1/genesis_pb.js';
import { fromGatewayJson, toGatewayJson } from '../../codec/index.js';
import { accString, parseAccAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { decodeAuthorization } from './authorizations.js';
import type { AuthzKeeper } from './keeper.js';

export function defaultAuthzGenesis(): JsonObject {
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema)) as JsonObject;
}

function parse(json: JsonValue | undefined): GenesisState {
  return fromGatewayJson(GenesisStateSchema, json ?? {});
}

export function validateAuthzGenesis(json: JsonValue | undefined): string[] {
  let state: GenesisState;
  try {
    state = parse(json);
  } catch (err) {
    return [`invalid authz genesis: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  state.authorization.forEach((entry, i) => {
    const where = `authz grant ${i} (granter ${JSON.stringify(entry.granter)}, grantee ${JSON.stringify(entry.grantee)})`;
    const granter = parseAccAddress(entry.granter);
    const grantee = parseAccAddress(entry.grantee);
    if (!granter.ok) problems.push(`${where}: invalid granter address: ${granter.error}`);
    if (!grantee.ok) problems.push(`${where}: invalid grantee address: ${grantee.error}`);
    if (entry.granter === entry.grantee) problems.push(`${where}: grantee and granter should be different`);
    try {
      const authorization = decodeAuthorization(entry.authorization);
      authorization.validateBasic();
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

/** Grants already expired at genesis time are skipped, as the SDK does. */
export async function initAuthzGenesis(ctx: Context, keeper: AuthzKeeper, json: JsonValue | undefined): Promise<void> {
  const state = parse(json);
  const now = ctx.blockTime.getTime();
  for (const entry of state.authorization) {
    if (entry.expiration !== undefined && timestampMs(entry.expiration) < now) continue;
    keeper.saveGrant(ctx, acc(entry.granter), acc(entry.grantee), entry.authorization!, entry.expiration);
  }
}

export async function exportAuthzGenesis(ctx: Context, keeper: AuthzKeeper): Promise<JsonObject> {
  const grants = await keeper.allGrants(ctx);
  const authorization = grants.map(({ granter, grantee, grant }) =>
    create(GrantAuthorizationSchema, { granter: accString(granter), grantee: accString(grantee), authorization: grant.authorization, expiration: grant.expiration }),
  );
  return toGatewayJson(GenesisStateSchema, create(GenesisStateSchema, { authorization })) as JsonObject;
}
