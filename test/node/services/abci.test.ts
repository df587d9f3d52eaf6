/**
 * abci_query reaches the node-level services (as the SDK registers them on the app's query
 * router): a node entry answers with its response bytes and the ABCI error mapping; every other
 * path is the app's.
 */
import { create, toBinary, fromBinary } from '@bufbuild/protobuf';
import { GetTxRequestSchema, GetTxResponseSchema, Service as TxService } from '../../../src/gen/cosmos/tx/v1beta1/service_pb.js';
import type { RequestQuery, ResponseQuery } from '../../../src/node/abci/types.js';
import { queryError, withNodeQueries, type QueryEntry, type QueryRouter } from '../../../src/node/services/index.js';

const GET_TX = '/cosmos.tx.v1beta1.Service/GetTx';

function router(handle: QueryEntry['handle']): QueryRouter {
  const entry: QueryEntry = { path: GET_TX, method: TxService.method.getTx, source: 'node', handle };
  return { entries: () => [entry], lookup: (path) => (path === GET_TX ? entry : undefined), latestHeight: () => 42 };
}

const appCalls: string[] = [];
const app = {
  info: async () => ({ data: '', version: '', appVersion: 0n, lastBlockHeight: 0, lastBlockAppHash: new Uint8Array() }),
  checkTx: async () => ({ code: 0, data: new Uint8Array(), log: '', info: '', gasWanted: 0n, gasUsed: 0n, events: [], codespace: '' }),
  query: async (request: RequestQuery): Promise<ResponseQuery> => {
    appCalls.push(request.path);
    return { code: 6, log: 'unknown query path: unknown request', info: '', index: 0n, key: new Uint8Array(), value: new Uint8Array(), height: 0, codespace: 'sdk' };
  },
};

const request = (path: string, data: Uint8Array, height = 0): RequestQuery => ({ path, data, height, prove: false });

describe('withNodeQueries', () => {
  test('a node entry answers with its response and height', async () => {
    const wrapped = withNodeQueries(app, () => router(async (req) => ({ response: create(GetTxResponseSchema, { txResponse: { txhash: (req as unknown as { hash: string }).hash } }), height: 7 })));
    const res = await wrapped.query(request(GET_TX, toBinary(GetTxRequestSchema, create(GetTxRequestSchema, { hash: 'AB' }))));
    expect(res.code).toBe(0);
    expect(res.height).toBe(7);
    expect(fromBinary(GetTxResponseSchema, res.value).txResponse?.txhash).toBe('AB');
  });

  test('a NotFound is code 22 with the gRPC status text, at the latest height', async () => {
    const wrapped = withNodeQueries(app, () => router(async () => { throw queryError('NotFound', 'tx not found: AB'); }));
    const res = await wrapped.query(request(GET_TX, new Uint8Array()));
    expect(res).toMatchObject({ code: 22, codespace: 'sdk', height: 42, log: 'rpc error: code = NotFound desc = tx not found: AB: key not found' });
  });

  test('undecodable request bytes are code 18', async () => {
    const wrapped = withNodeQueries(app, () => router(async () => { throw new Error('not reached'); }));
    const res = await wrapped.query(request(GET_TX, Uint8Array.of(0xff, 0xff, 0xff)));
    expect(res.code).toBe(18);
  });

  test('other paths go to the app', async () => {
    const wrapped = withNodeQueries(app, () => router(async () => { throw new Error('not reached'); }));
    const res = await wrapped.query(request('/cosmos.bank.v1beta1.Query/Params', new Uint8Array()));
    expect(res.code).toBe(6);
    expect(appCalls).toContain('/cosmos.bank.v1beta1.Query/Params');
  });
});
