/**
 * The query router: ONE registry of every Query service method the app implements, built from
 * the modules' protobuf service descriptors. Each route is data —
 *
 *   { service, method, path, requestSchema, responseSchema, descriptor, handler }
 *
 * with path "/<pkg.Service>/<Method>" — so the same table serves the ABCI query path (below), the
 * gRPC server (method descriptors + handler) and the REST gateway (the descriptor's
 * google.api.http option, see codec/routes.ts). Handlers take the decoded request and a query
 * context (state pinned at a height) and resolve with the response message; they throw
 * `GrpcError`s (NotFound, InvalidArgument, …).
 *
 * ABCI mapping (COMPAT §3.5): request bytes decode with the request schema; height 0 = latest
 * committed; a GrpcError becomes code 22/18/4/6 with log "rpc error: code = X desc = …: <root>",
 * codespace "sdk", height set; an unknown path is 6 "unknown query path: unknown request".
 */
import { fromBinary, toBinary, type DescMessage, type DescMethod, type DescService, type Message } from '@bufbuild/protobuf';
import type { ResponseQuery } from '../abci/types.js';
import type { Context } from '../modules/shared/context.js';
import { SdkErrors, abciInfo, grpcToAbci, isGrpcError, toGrpcError, type SdkError } from '../modules/shared/errors.js';
import type { QueryHandler, QueryServiceImpl } from '../modules/shared/module.js';

export interface QueryRoute {
  /** Full service name, e.g. "cosmos.bank.v1beta1.Query". */
  readonly service: string;
  /** Method name, e.g. "AllBalances". */
  readonly method: string;
  /** "/cosmos.bank.v1beta1.Query/AllBalances": the ABCI path and the gRPC method path. */
  readonly path: string;
  readonly descriptor: DescMethod;
  readonly requestSchema: DescMessage;
  readonly responseSchema: DescMessage;
  readonly handler: QueryHandler;
}

export class QueryRegistry {
  private readonly byPath = new Map<string, QueryRoute>();
  private readonly serviceList: DescService[] = [];

  /** Registers every implemented method of a service (unimplemented ones stay unknown). */
  register(impl: QueryServiceImpl): void {
    if (!this.serviceList.includes(impl.service)) this.serviceList.push(impl.service);
    for (const method of impl.service.methods) {
      const handler = impl.handlers.get(method.localName);
      if (handler === undefined) continue;
      const path = `/${impl.service.typeName}/${method.name}`;
      if (this.byPath.has(path)) throw new Error(`query route ${path} is registered twice`);
      this.byPath.set(path, {
        service: impl.service.typeName,
        method: method.name,
        path,
        descriptor: method,
        requestSchema: method.input,
        responseSchema: method.output,
        handler,
      });
    }
  }

  lookup(path: string): QueryRoute | undefined {
    return this.byPath.get(path);
  }

  routes(): QueryRoute[] {
    return [...this.byPath.values()];
  }

  services(): DescService[] {
    return [...this.serviceList];
  }
}

/** A failed ABCI query response for any thrown value. */
export function queryErrorResponse(err: unknown, height: number): ResponseQuery {
  const sdkError: SdkError | unknown = isGrpcError(err) ? grpcToAbci(err) : err;
  const info = abciInfo(sdkError);
  return {
    code: info.code,
    log: info.log,
    info: '',
    index: 0n,
    key: new Uint8Array(0),
    value: new Uint8Array(0),
    height,
    codespace: info.codespace,
  };
}

export function queryOkResponse(value: Uint8Array, height: number, extra: Partial<ResponseQuery> = {}): ResponseQuery {
  return { code: 0, log: '', info: '', index: 0n, key: new Uint8Array(0), value, height, codespace: '', ...extra };
}

/**
 * Runs a route against `ctx` with request bytes, as the ABCI query path does. Undecodable
 * request bytes are InvalidRequest; handler errors that are not gRPC statuses become Unknown.
 */
export async function runQueryRoute(route: QueryRoute, data: Uint8Array, ctx: Context, height: number): Promise<ResponseQuery> {
  let request: Message;
  try {
    request = fromBinary(route.requestSchema, data);
  } catch (err) {
    return queryErrorResponse(SdkErrors.InvalidRequest.wrap(err instanceof Error ? err.message : String(err)), height);
  }
  try {
    const response = await route.handler(request, ctx);
    return queryOkResponse(toBinary(route.responseSchema, response), height);
  } catch (err) {
    return queryErrorResponse(toGrpcError(err), height);
  }
}

export const UNKNOWN_QUERY_PATH = (): SdkError => SdkErrors.UnknownRequest.wrap('unknown query path');
