/**
 * Client side of "one contract per query": call any protobuf Query method of the node through
 * `abci_query` (path `/<pkg.Service>/<Method>`), with the request given as gateway JSON and the
 * response returned as gateway JSON — exactly what the REST gateway and gRPC would answer.
 */
import { fromBinary, toBinary, type DescMessage, type DescMethod, type MessageShape } from '@bufbuild/protobuf';
import { fromGatewayJson, toGatewayJson } from '../codec/json.js';
import { registry } from '../codec/registry.js';
import { carriesAny, registerAnyTypes } from '../codec/lazyTypes.js';
import { TokendError, type ErrorCode } from '../../util/errors.js';
import type { RpcClient } from './rpc.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** gRPC code name → our error code (the node's log says "rpc error: code = NotFound desc = …"). */
const GRPC_TO_ERROR: Record<string, ErrorCode> = {
  NotFound: 'NOT_FOUND',
  InvalidArgument: 'INVALID_ARGUMENT',
  FailedPrecondition: 'INVALID_ARGUMENT',
};

/** Turn a failed ABCI query into one clear error line. */
export function abciQueryError(response: { code: number; log: string; codespace: string }, path: string): TokendError {
  const match = /rpc error: code = (\w+) desc = (.*)$/s.exec(response.log);
  const grpcName = match?.[1];
  let text = match?.[2] ?? response.log;
  // "account X not found: key not found" → "account X not found"
  text = text.replace(/: key not found$/, '').replace(/: invalid request$/, '').trim();
  const code: ErrorCode = (grpcName && GRPC_TO_ERROR[grpcName]) || (response.code === 22 ? 'NOT_FOUND' : response.code === 6 && /unknown query path/.test(response.log) ? 'INVALID_ARGUMENT' : 'RPC_ERROR');
  return new TokendError(code, text || `query ${path} failed with code ${response.code}`, {
    meta: { path, code: response.code, codespace: response.codespace, log: response.log },
  });
}

export function methodPath(method: DescMethod): string {
  return `/${method.parent.typeName}/${method.name}`;
}

export interface QueryResult {
  height: number;
  value: JsonObject;
}

export { carriesAny };

/**
 * The codec registry with the app modules' types in it when `method`'s request can carry an Any;
 * a method that cannot (balances, params, accounts …) skips loading every module, which is most of
 * a query command's start-up (the Anys of its answer are resolved from the answer itself).
 */
async function registryFor(method: DescMethod): Promise<typeof registry> {
  if (carriesAny(method.input)) await import('../app/modules.js');
  return registry;
}

/** Call `method` with `request` (gateway JSON) at `height` (0/undefined = latest). */
export async function queryMethod(rpc: RpcClient, method: DescMethod, request: JsonObject, height?: number): Promise<QueryResult> {
  const registry = await registryFor(method);
  let requestMessage;
  try {
    requestMessage = fromGatewayJson(method.input, request, { registry });
  } catch (err) {
    throw new TokendError('INVALID_ARGUMENT', (err as Error).message);
  }
  const result = await queryMethodMessage(rpc, method, requestMessage, height);
  // The types of the answer's Anys (accounts, validators' keys, Msgs …): only their generated files, or else every module's.
  if (carriesAny(method.output) && !(await registerAnyTypes(method.output, result.message))) await import('../app/modules.js');
  return { height: result.height, value: toGatewayJson(method.output, result.message, { registry }) as JsonObject };
}

/** Call `method` with a request message at `height` (0/undefined = latest); the response as a message (no JSON, so no registry). */
export async function queryMethodMessage<I extends DescMessage, O extends DescMessage>(rpc: RpcClient, method: DescMethod & { input: I; output: O }, request: MessageShape<I>, height?: number): Promise<{ height: number; message: MessageShape<O> }> {
  const path = methodPath(method);
  const result = await rpc.abciQuery({ path, data: toBinary(method.input, request), height: height ?? 0 });
  const response = result.response;
  if (response.code !== 0) throw abciQueryError(response, path);
  const bytes = response.value ? Buffer.from(response.value, 'base64') : new Uint8Array(0);
  return { height: Number(response.height), message: fromBinary(method.output, bytes) };
}
