/**
 * cosmos.authz.v1beta1.Msg (x/authz/keeper/msg_server.go with the messages' ValidateBasic, SDK
 * 0.47): Grant, Revoke and Exec.
 */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgExecResponseSchema, MsgGrantResponseSchema, MsgRevokeResponseSchema } from '../../../gen/cosmos/authz/v1beta1/tx_pb.js';
import { parseAccAddress } from '../shared/address.js';
import type { Context } from '../shared/context.js';
import { SdkErrors } from '../shared/errors.js';
import { bytesEqual } from '../shared/keys.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import { decodeAuthorization } from './authorizations.js';
import { AuthzErrors } from './errors.js';
import type { AuthzKeeper } from './keeper.js';

function address(text: string, what: string): Uint8Array {
  const parsed = parseAccAddress(text);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid ${what} address: ${parsed.error}`);
  return parsed.bytes;
}

export function authzMsgRoutes(keeper: AuthzKeeper): MsgRoute[] {
  return [
    msgRoute(Msg.method.grant, (ctx: Context, msg) => {
      const granter = address(msg.granter, 'granter');
      const grantee = address(msg.grantee, 'grantee');
      if (bytesEqual(granter, grantee)) throw AuthzErrors.GranteeIsGranter.error();
      const any = msg.grant?.authorization;
      const authorization = decodeAuthorization(any);
      authorization.validateBasic();
      const msgTypeUrl = authorization.msgTypeUrl();
      if (!keeper.hasRoute(msgTypeUrl)) throw SdkErrors.InvalidType.wrap(`${msgTypeUrl} doesn't exist.`);
      keeper.ensureAccount(ctx, grantee);
      keeper.saveGrant(ctx, granter, grantee, any!, msg.grant?.expiration);
      return create(MsgGrantResponseSchema);
    }),

    msgRoute(Msg.method.revoke, (ctx: Context, msg) => {
      const granter = address(msg.granter, 'granter');
      const grantee = address(msg.grantee, 'grantee');
      if (bytesEqual(granter, grantee)) throw SdkErrors.InvalidRequest.wrap('granter and grantee cannot be same');
      if (msg.msgTypeUrl === '') throw SdkErrors.InvalidRequest.wrap('missing method name');
      keeper.deleteGrant(ctx, granter, grantee, msg.msgTypeUrl);
      return create(MsgRevokeResponseSchema);
    }),

    msgRoute(Msg.method.exec, async (ctx: Context, msg) => {
      const grantee = address(msg.grantee, 'grantee');
      if (msg.msgs.length === 0) throw SdkErrors.InvalidRequest.wrap('messages cannot be empty');
      const results = await keeper.dispatchActions(ctx, grantee, msg.msgs);
      return create(MsgExecResponseSchema, { results });
    }),
  ];
}
