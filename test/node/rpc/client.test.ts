/** The CLI's JSON-RPC client (src/node/client/rpc.ts) against the server, and its error messages. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net';
import { isRpcCallError, resolveNodeAddress, RpcCallError, RpcClient } from '../../../src/node/client/rpc.js';
import { txHash } from '../../../src/node/consensus/types/block.js';
import { toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { TokendError } from '../../../src/util/errors.js';
import { startFakeServer, startNode, utf8, type TestNode } from './helpers.js';

let node: TestNode;
let client: RpcClient;

beforeAll(async () => {
  node = await startNode();
  client = new RpcClient(`tcp://127.0.0.1:${node.address.port}`);
});

afterAll(async () => {
  await client?.close();
  await node?.stop();
});

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function caught(promise: Promise<unknown>): Promise<TokendError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(TokendError);
    return err as TokendError;
  }
  throw new Error('expected a failure');
}

describe('RpcClient', () => {
  it('resolves --node addresses', () => {
    expect(resolveNodeAddress('tcp://localhost:26657')).toEqual({ origin: 'http://localhost:26657', basePath: '/', display: 'tcp://localhost:26657' });
    expect(resolveNodeAddress('localhost:26657').origin).toBe('http://localhost:26657');
    expect(resolveNodeAddress('https://rpc.example.com/cosmos').basePath).toBe('/cosmos/');
    expect(() => resolveNodeAddress('ftp://x:1')).toThrow('unsupported scheme ftp://');
  });

  it('calls every kind of method and returns the raw JSON results', async () => {
    expect(await client.health()).toEqual({});
    const status = await client.status();
    expect(status.node_info.network).toBe('rpc-test');
    const tx = utf8('send:cli:carl:3token');
    const committed = await client.broadcastTxCommit(tx);
    expect(committed.tx_result.code).toBe(0);
    const height = Number(committed.height);
    const hash = toHexUpper(txHash(tx));
    expect((await client.tx(hash)).height).toBe(String(height));
    expect((await client.tx(hash.toLowerCase(), true)).proof?.root_hash).toMatch(/^[0-9A-F]{64}$/);
    const search = await client.txSearch({ query: "transfer.recipient='carl'", perPage: 5 });
    expect(search.total_count).toBe('1');
    expect(await client.txSearchAll({ query: "transfer.recipient='carl'" })).toHaveLength(1);
    const block = await client.block(height);
    expect(block.block?.header.height).toBe(String(height));
    expect((await client.blockByHash(block.block_id.hash)).block_id).toEqual(block.block_id);
    expect((await client.headerByHash(block.block_id.hash)).header?.height).toBe(String(height));
    expect((await client.header(height)).header?.height).toBe(String(height));
    expect((await client.blockResults(height)).txs_results).toHaveLength(1);
    expect((await client.commit(height))?.signed_header.header.height).toBe(String(height));
    expect((await client.blockchain(1, height)).block_metas.length).toBeGreaterThan(0);
    expect((await client.validators({ perPage: 10 })).total).toBe('1');
    expect((await client.consensusParams()).consensus_params.block.max_gas).toBe('-1');
    expect((await client.blockSearch({ query: `mint.amount=${height * 10}` })).total_count).toBe('1');
    expect((await client.abciInfo()).response.data).toBe('transferapp');
    expect((await client.abciQuery({ path: '/store/key', data: utf8('balance/carl') })).response.value).toBe(Buffer.from('3token').toString('base64'));
    expect((await client.genesis()).genesis.chain_id).toBe('rpc-test');
    expect((await client.genesisChunked()).total).toBe('1');
    expect((await client.netInfo()).n_peers).toBe('0');
    expect((await client.numUnconfirmedTxs()).txs).toBeNull();
    expect((await client.unconfirmedTxs(5)).txs).toEqual(expect.any(Array));
    expect((await client.checkTx(utf8('garbage'))).code).toBe(2);
    expect((await client.broadcastTxSync(utf8('send:cli:dora:1token'))).hash).toMatch(/^[0-9A-F]{64}$/);
    expect((await client.broadcastTxAsync(utf8('send:cli:eve:1token'))).code).toBe(0);
    expect((await client.consensusState()).round_state).toBeDefined();
    expect((await client.dumpConsensusState()).peers).toEqual([]);
  });

  it('surfaces RPC errors with code, message and data', async () => {
    const err = await caught(client.tx('AB'.repeat(32)));
    expect(isRpcCallError(err)).toBe(true);
    const rpcErr = err as RpcCallError;
    expect(rpcErr.rpcCode).toBe(-32603);
    expect(rpcErr.rpcMessage).toBe('Internal error');
    expect(rpcErr.data).toBe(`tx (${'AB'.repeat(32)}) not found`);
    expect(rpcErr.message).toBe(`tx (${'AB'.repeat(32)}) not found`);
    expect(rpcErr.meta).toMatchObject({ method: 'tx', code: -32603 });
    const badHeight = await caught(client.block(10_000_000));
    expect(badHeight.message).toMatch(/^height 10000000 must be less than or equal to the current blockchain height \d+$/);
    await expect(client.call('no_such_method')).rejects.toMatchObject({ rpcCode: -32601, message: 'Method not found (code -32601)' });
    await expect(client.tx('xyz')).rejects.toThrow('invalid hash "xyz": expected hex');
  });

  it('connection refused: one clear line with a hint', async () => {
    const port = await freePort();
    const down = new RpcClient(`tcp://127.0.0.1:${port}`);
    try {
      const err = await caught(down.status());
      expect(err.code).toBe('NODE_UNREACHABLE');
      expect(err.message).toBe(`cannot reach node at tcp://127.0.0.1:${port}: connection refused`);
      expect(err.line).toContain('start a node');
      expect(err.line).toContain('--node');
    } finally {
      await down.close();
    }
  });

  it('a node that does not answer times out; a non-RPC answer is reported', async () => {
    const silent: Server = createNetServer((socket) => socket.on('data', () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const html = createHttpServer((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<html>not here</html>');
    });
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    const slow = new RpcClient(`127.0.0.1:${(silent.address() as AddressInfo).port}`, { timeoutMs: 200 });
    const wrong = new RpcClient(`http://127.0.0.1:${(html.address() as AddressInfo).port}`);
    try {
      const timeout = await caught(slow.status());
      expect(timeout.message).toBe(`node at 127.0.0.1:${(silent.address() as AddressInfo).port} did not answer status within 200 ms`);
      const notRpc = await caught(wrong.status());
      expect(notRpc.message).toMatch(/answered status with HTTP 404 and no JSON-RPC reply: <html>not here<\/html>/);
      expect(notRpc.line).toContain('26657');
    } finally {
      await slow.close();
      await wrong.close();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      silent.unref();
      await new Promise<void>((resolve) => html.close(() => resolve()));
    }
  });

  it('broadcast_tx_commit timing out: the error still carries the tx hash', async () => {
    const fake = await startFakeServer({}, { timeoutBroadcastTxCommitMs: 200 });
    const c = new RpcClient(fake.url);
    try {
      const tx = utf8('send:x:y:1token');
      const err = (await caught(c.broadcastTxCommit(tx))) as RpcCallError;
      expect(err.txHash).toBe(toHexUpper(txHash(tx)));
      expect(err.message).toContain('timed out waiting for tx to be included in a block');
      expect(err.line).toContain(`query tx ${toHexUpper(txHash(tx))}`);
    } finally {
      await c.close();
      await fake.server.stop();
    }
  });
});
