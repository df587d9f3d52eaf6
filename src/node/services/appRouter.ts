/**
 * The adapter from the app's query registry (src/node/app/query.ts) to `QueryRouter`: every
 * registered Query-service method becomes an `app` entry that runs its handler against the
 * state pinned at the requested height (`App.createQueryContext`, 0 = latest committed).
 *
 * Errors follow the SDK's query path (COMPAT §3.5/§5): a handler's gRPC status keeps its code and
 * its message becomes the ABCI log ("rpc error: code = NotFound desc = account X not found: key
 * not found"), which is what the SDK's gateway and gRPC server show; an SdkError (bad height, …)
 * gets the gRPC code of its ABCI code (`grpcCodeOfAbci`) and its log as message.
 */
import type { Message } from '@bufbuild/protobuf';
import type { App } from '../app/app.js';
import type { QueryRoute } from '../app/query.js';
import { SDK_CODESPACE, grpcToAbci, isGrpcError, isSdkError } from '../modules/shared/errors.js';
import { isTokendError } from '../../util/errors.js';
import { QueryError, isQueryError, type GrpcStatusName, type QueryEntry, type QueryResult, type QueryRouter } from './types.js';

/** What the adapter needs of the App. */
export type AppQueryBackend = Pick<App, 'queryRouter' | 'createQueryContext'> & { readonly store: Pick<App['store'], 'latestVersion' | 'watchLatest'> };

/**
 * The gRPC code of an "sdk" ABCI error code, as the SDK's client maps query results
 * (sdkErrorToGRPCError), plus the codes whose meaning is unambiguous: 18 invalid request, 2 tx
 * parse error, 7 invalid address, 26 invalid height → InvalidArgument; 22 key not found, 38 not
 * found → NotFound; 4 unauthorized → Unauthenticated; everything else Unknown.
 */
export function grpcCodeOfAbci(codespace: string, code: number): GrpcStatusName {
  if (codespace !== SDK_CODESPACE) return 'Unknown';
  switch (code) {
    case 2:
    case 7:
    case 18:
    case 26:
      return 'InvalidArgument';
    case 22:
    case 38:
      return 'NotFound';
    case 4:
      return 'Unauthenticated';
    default:
      return 'Unknown';
  }
}

/** Any error thrown by an app query handler (or the query context) as a QueryError. */
export function appQueryError(err: unknown): QueryError {
  if (isQueryError(err)) return err;
  if (isGrpcError(err)) return new QueryError(err.grpcCode, grpcToAbci(err).log, { cause: err });
  if (isSdkError(err)) return new QueryError(grpcCodeOfAbci(err.codespace, err.abciCode), err.log, { cause: err });
  if (isTokendError(err) && err.code === 'INVALID_ARGUMENT') return new QueryError('InvalidArgument', err.message, { cause: err });
  return new QueryError('Unknown', err instanceof Error ? err.message : String(err), { cause: err });
}

function appEntry(app: AppQueryBackend, route: QueryRoute): QueryEntry {
  return {
    path: route.path,
    method: route.descriptor,
    source: 'app',
    async handle(request: Message, ctx): Promise<QueryResult> {
      try {
        const query = app.createQueryContext(ctx.height);
        const response = await route.handler(request, query.ctx);
        return { response, height: query.height };
      } catch (err) {
        throw appQueryError(err);
      }
    },
  };
}

/**
 * A QueryRouter over the app's registry. Routes are read once: register every service on the app
 * before building the router (the App registers its modules' services in its constructor).
 */
export function appQueryRouter(app: AppQueryBackend): QueryRouter {
  const byPath = new Map<string, QueryEntry>();
  for (const route of app.queryRouter.routes()) byPath.set(route.path, appEntry(app, route));
  return {
    entries: () => byPath.values(),
    lookup: (path) => byPath.get(path),
    latestHeight: () => app.store.latestVersion(),
  };
}
