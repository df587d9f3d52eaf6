/** The client submodule's params (ibc-go v6 02-client/types/params.go): allowed client types. */
import { create } from '@bufbuild/protobuf';
import { ParamsSchema, type Params } from '../../../../../gen/ibc/core/client/v1/client_pb.js';

export const SOLOMACHINE_CLIENT_TYPE = '06-solomachine';
export const TENDERMINT_CLIENT_TYPE = '07-tendermint';
export const LOCALHOST_CLIENT_TYPE = '09-localhost';

/** ibc-go v6's default: 06-solomachine and 07-tendermint. */
export function defaultClientParams(): Params {
  return create(ParamsSchema, { allowedClients: [SOLOMACHINE_CLIENT_TYPE, TENDERMINT_CLIENT_TYPE] });
}

/** The problem with the params (Params.Validate), or undefined. */
export function clientParamsError(params: Params): string | undefined {
  for (let i = 0; i < params.allowedClients.length; i++) {
    if (params.allowedClients[i]!.trim() === '') return `client type ${i} cannot be blank`;
  }
  return undefined;
}
