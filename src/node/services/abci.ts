/**
 * Node-level services over ABCI queries. In the SDK the tx service (GetTx, GetTxsEvent,
 * GetBlockWithTxs, BroadcastTx …) and the tendermint service are registered on the app's gRPC
 * query router, so `abci_query` answers them too — CosmJS's tx extension calls
 * `/cosmos.tx.v1beta1.Service/GetTx` that way. `withNodeQueries` gives the RPC's `abci_query` the
 * same reach: a path the app does not serve but the node's query table does is answered by the
 * node entry, with the ABCI mapping of errors (COMPAT §3.5).
 */
import { fromBinary, toBinary, type Message } from '@bufbuild/protobuf';
import type { RequestQuery, ResponseQuery } from '../abci/types.js';
import { queryErrorResponse, queryOkResponse } from '../app/query.js';
import { SdkErrors, grpcError } from '../modules/shared/errors.js';
import type { RpcApp } from '../rpc/environment.js';
import { isQueryError, type QueryRouter } from './types.js';

/** `app`'s RPC connections, whose `query` also answers the node entries of `router()` (resolved per call). */
export function withNodeQueries(app: RpcApp, router: () => QueryRouter | undefined): RpcApp {
  const query = async (request: RequestQuery): Promise<ResponseQuery> => {
    const entry = router()?.lookup(request.path);
    if (entry === undefined || entry.source !== 'node') return app.query(request);
    let decoded: Message;
    try {
      decoded = fromBinary(entry.method.input, request.data);
    } catch (err) {
      return queryErrorResponse(SdkErrors.InvalidRequest.wrap(err instanceof Error ? err.message : String(err)), request.height);
    }
    try {
      const result = await entry.handle(decoded, { height: request.height });
      return queryOkResponse(toBinary(entry.method.output, result.response), result.height);
    } catch (err) {
      const status = isQueryError(err) ? grpcError(err.grpcName, err.message) : err;
      return queryErrorResponse(status, request.height === 0 ? (router()?.latestHeight() ?? 0) : request.height);
    }
  };
  const wrapped: RpcApp = { info: (request) => app.info(request), checkTx: (request) => app.checkTx(request), query };
  if (app.recoverEthSender !== undefined) wrapped.recoverEthSender = (job) => app.recoverEthSender!(job);
  if (app.rememberDecodedTx !== undefined) wrapped.rememberDecodedTx = (tx) => app.rememberDecodedTx!(tx);
  return wrapped;
}
