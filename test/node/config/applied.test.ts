/**
 * Settings written into config.toml / app.toml are applied by a running node (issue 14):
 * [rpc] max_body_bytes, cors_allowed_origins, timeout_read; [api] enabled-unsafe-cors,
 * rpc-max-body-bytes, [cache] recent-block-results, [json-rpc] http-thread, [grpc] http-thread; and
 * init's [rpc] http_thread = true with [cache] rpc-responses. The files are edited as an operator
 * would, then the node is started.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { appTomlPath, configTomlPath } from '../../../src/node/config/node.js';
import type { StateStore } from '../../../src/node/consensus/store/stateStore.js';
import type { RunningNode } from '../../../src/node/node.js';
import { devnetHome, removeHomes, startFast, waitFor } from '../faults/helpers.js';

jest.setTimeout(60_000);

const homes: string[] = [];
let node: RunningNode;

function edit(path: string, replacements: [RegExp, string][]): void {
  let text = readFileSync(path, 'utf8');
  for (const [re, value] of replacements) {
    if (!re.test(text)) throw new Error(`${re} not in ${path}`);
    text = text.replace(re, value);
  }
  writeFileSync(path, text);
}

beforeAll(async () => {
  const home = await devnetHome('applied', homes);
  edit(configTomlPath(home), [
    [/^max_body_bytes = .*$/m, 'max_body_bytes = 2000000'],
    [/^cors_allowed_origins = .*$/m, 'cors_allowed_origins = ["https://wallet.example"]'],
    [/^timeout_read = .*$/m, 'timeout_read = "1s"'],
  ]);
  edit(appTomlPath(home), [
    [/^enabled-unsafe-cors = .*$/m, 'enabled-unsafe-cors = true'],
    [/^rpc-max-body-bytes = .*$/m, 'rpc-max-body-bytes = 2000'],
    [/^recent-block-results = .*$/m, 'recent-block-results = 2'],
    // The second http-thread line is [json-rpc]'s ([api]'s comes first).
    [/(^\[json-rpc\]$[\s\S]*?^)http-thread = true$/m, '$1http-thread = false'],
    [/(^\[grpc\]$[\s\S]*?^)http-thread = true$/m, '$1http-thread = false'],
  ]);
  node = await startFast(home);
  await waitFor(() => node.consensus.status().latestBlockHeight >= 1, 'height 1');
});

afterAll(async () => {
  await node?.stop();
  removeHomes(homes);
});

function jsonRpcBody(bytes: number): string {
  const head = '{"jsonrpc":"2.0","id":1,"method":"health","params":{},"pad":"';
  return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
}

describe('written settings are applied', () => {
  it('[json-rpc] http-thread = false: the JSON-RPC answers on the main thread, so not while it is blocked', async () => {
    const url = node.jsonRpcAddress!.url;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
    const first = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(((await first.json()) as { result: string }).result).toMatch(/^0x[0-9a-f]+$/);
    // spawnSync blocks this (the main) thread until the child exits; the child gives up after 1 s.
    // With the HTTP side on its own thread the kept result would be answered meanwhile.
    const script =
      'fetch(process.argv[1], { method: "POST", headers: { "content-type": "application/json" }, body: process.argv[2], signal: AbortSignal.timeout(1000) }).then((r) => console.log(r.status), (e) => console.log("failed", e.name))';
    const child = spawnSync(process.execPath, ['-e', script, url, body], { encoding: 'utf8' });
    expect(child.stdout.trim()).toBe('failed TimeoutError');
  });

  it('[grpc] http-thread = false: gRPC answers on the main thread, so not while it is blocked', () => {
    // A unary call (bank Params, empty request) from a child that gives up after 1 s; spawnSync
    // blocks this (the main) thread until the child exits. On its own thread a kept answer would come.
    const script = `
      const session = require('node:http2').connect('http://' + process.argv[1]);
      session.on('error', () => undefined);
      const stream = session.request({ ':method': 'POST', ':path': '/cosmos.bank.v1beta1.Query/Params', 'content-type': 'application/grpc', te: 'trailers' });
      stream.on('trailers', (t) => { console.log('status', t['grpc-status']); process.exit(0); });
      stream.on('error', () => undefined);
      stream.end(Buffer.alloc(5));
      setTimeout(() => { console.log('timeout'); process.exit(0); }, 1000);`;
    const child = spawnSync(process.execPath, ['-e', script, node.grpcAddress!.target], { encoding: 'utf8' });
    expect(child.stdout.trim()).toBe('timeout');
  });

  it('[rpc] http_thread = true (init) with [cache] rpc-responses: a repeated abci_query is answered while the main thread is blocked', async () => {
    const url = `${node.rpcAddress.url}/abci_query?path=%22/cosmos.bank.v1beta1.Query/Params%22`;
    const script = 'fetch(process.argv[1], { signal: AbortSignal.timeout(2000) }).then(async (r) => console.log(r.status, await r.text()), (e) => console.log("failed", e.name))';
    // spawnSync blocks this (the main) thread: only the RPC's thread, from what it kept, can answer
    // the child. A block committed between the first answer and the child's call drops what was
    // kept (no block can come while this thread is blocked): then the check is made again.
    for (let attempt = 0; ; attempt++) {
      const first = await (await fetch(url)).text();
      const height = Number((JSON.parse(first) as { result: { response: { height: string } } }).result.response.height);
      const child = spawnSync(process.execPath, ['-e', script, url], { encoding: 'utf8' });
      if (child.stdout.trim() === `200 ${first}`) break;
      expect(node.consensus.status().latestBlockHeight).toBeGreaterThan(height);
      expect(attempt).toBeLessThan(4);
    }
  });

  it('[cache] recent-block-results: the state store keeps that many decoded FinalizeBlock responses', async () => {
    const from = node.consensus.status().latestBlockHeight;
    await waitFor(() => node.consensus.status().latestBlockHeight >= from + 3, `height ${from + 3}`);
    // The three heights below the latest (whose response may still be being stored).
    for (let h = from; h < from + 3; h++) expect(node.consensus.stateStore.loadFinalizeBlockResponse(h)).toBeDefined();
    expect((node.consensus.stateStore as StateStore).recentResponseCount).toBe(2);
  });

  it('[rpc] max_body_bytes: a 1.5 MB request is served, a 2.5 MB one is 413', async () => {
    const ok = await fetch(node.rpcAddress.url, { method: 'POST', body: jsonRpcBody(1_500_000) });
    expect(ok.status).toBe(200);
    const big = await fetch(node.rpcAddress.url, { method: 'POST', body: jsonRpcBody(2_500_000) });
    expect(big.status).toBe(413);
  });

  it('[rpc] cors_allowed_origins: the listed origin is allowed, another is not', async () => {
    const allowed = await fetch(`${node.rpcAddress.url}/health`, { headers: { origin: 'https://wallet.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://wallet.example');
    const other = await fetch(`${node.rpcAddress.url}/health`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('[rpc] timeout_read: a client that never finishes its request is disconnected', async () => {
    const socket = connect({ host: node.rpcAddress.host, port: node.rpcAddress.port });
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"jsonrpc"');
    // The server answers 408 and ends the connection ('end'; 'close' may not follow under jest).
    await new Promise<void>((resolve) => {
      socket.once('end', () => resolve());
      socket.once('close', () => resolve());
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    socket.destroy();
  });

  it('[api] enabled-unsafe-cors and rpc-max-body-bytes', async () => {
    const cors = await fetch(`${node.apiAddress!.url}/cosmos/base/tendermint/v1beta1/node_info`, { headers: { origin: 'https://any.example' } });
    expect(cors.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await fetch(`${node.apiAddress!.url}/cosmos/tx/v1beta1/simulate`, { method: 'OPTIONS', headers: { origin: 'https://any.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    const big = await fetch(`${node.apiAddress!.url}/cosmos/tx/v1beta1/simulate`, { method: 'POST', body: JSON.stringify({ tx_bytes: 'A'.repeat(4000) }) });
    expect(big.status).toBe(413);
  });
});
