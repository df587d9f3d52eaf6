/**
 * CosmJS against the live server: @cosmjs/tendermint-rpc must pick its Comet38 client from
 * `status` and decode every answer (its decoders throw on any shape they do not accept, COMPAT
 * §1.7), over HTTP and over the websocket.
 *
 * CosmJS is CommonJS requiring ESM-only @noble packages, which Jest's module runtime cannot load;
 * plain Node can, so the CosmJS side runs in a child process and prints what it decoded.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { txHash } from '../../../src/node/consensus/types/block.js';
import { toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { b64, call, startNode, utf8, type TestNode } from './helpers.js';

const RECIPIENT = 'token1qy352eufqy352eufqy352eufqy352euf0zpe4u';

const SCRIPT = `
const { connectComet, Comet38Client, WebsocketClient } = require('@cosmjs/tendermint-rpc');
const { StargateClient } = require('@cosmjs/stargate');
const [url, recipient, hashHex, heightText] = process.argv.slice(1);
const height = Number(heightText);
const hex = (b) => Buffer.from(b).toString('hex').toUpperCase();
(async () => {
  const out = {};
  const client = await connectComet(url);
  out.client = client instanceof Comet38Client ? 'Comet38Client' : client.constructor.name;
  out.health = await client.health();
  const status = await client.status();
  out.status = { network: status.nodeInfo.network, version: status.nodeInfo.version, height: status.syncInfo.latestBlockHeight > 0, votingPower: String(status.validatorInfo.votingPower) };
  const block = await client.block(height);
  out.block = { height: block.block.header.height, txs: block.block.txs.length, chainId: block.block.header.chainId };
  out.latestBlock = (await client.block()).block.header.height >= height;
  const chain = await client.blockchain();
  out.blockchain = { metas: chain.blockMetas.length > 0, lastHeight: chain.lastHeight >= height };
  out.blockResults = (await client.blockResults(height)).results.map((r) => r.code);
  out.commit = (await client.commit(height)).canonical;
  const vals = await client.validators({});
  out.validators = { total: vals.total, power: String(vals.validators[0].votingPower) };
  out.validatorsAll = (await client.validatorsAll()).validators.length;
  const search = await client.txSearch({ query: "transfer.recipient='" + recipient + "'" });
  out.txSearch = { total: search.totalCount, first: hex(search.txs[0].hash), height: search.txs[0].height, index: search.txs[0].index };
  out.txSearchAll = (await client.txSearchAll({ query: "transfer.recipient='" + recipient + "'", per_page: 1 })).txs.length;
  out.txByHashSearch = (await client.txSearch({ query: "tx.hash='" + hashHex + "'" })).totalCount;
  const tx = await client.tx({ hash: Buffer.from(hashHex, 'hex'), prove: true });
  out.tx = { height: tx.height, code: tx.result.code, proofTotal: tx.proof ? tx.proof.proof.total : -1 };
  out.blockSearch = (await client.blockSearch({ query: 'mint.amount=' + height * 10 })).totalCount;
  const info = await client.abciInfo();
  out.abciInfo = { data: info.data, lastBlockHeight: info.lastBlockHeight > 0 };
  const q = await client.abciQuery({ path: '/store/key', data: Buffer.from('color') });
  out.abciQuery = { code: q.code, value: Buffer.from(q.value).toString(), height: q.height > 0 };
  out.genesis = (await client.genesis()).chainId;
  out.numUnconfirmed = typeof (await client.numUnconfirmedTxs()).total;
  const sync = await client.broadcastTxSync({ tx: Buffer.from('send:cosmjs:sync:1token') });
  out.broadcastSync = { code: sync.code, hash: hex(sync.hash).length };
  const asyncRes = await client.broadcastTxAsync({ tx: Buffer.from('send:cosmjs:async:1token') });
  out.broadcastAsync = hex(asyncRes.hash).length;

  const ws = Comet38Client.create(new WebsocketClient(url.replace(/^http/, 'ws'), (err) => { throw err; }));
  const events = [];
  const gotTx = new Promise((resolve, reject) => {
    ws.subscribeTx("transfer.recipient='wsrecipient'").subscribe({ next: (e) => { events.push(e); resolve(e); }, error: reject, complete: () => {} });
  });
  let blockSeen = false;
  const gotBlock = new Promise((resolve, reject) => {
    const sub = ws.subscribeNewBlock().subscribe({ next: (b) => { blockSeen = true; sub.unsubscribe(); resolve(b); }, error: reject, complete: () => {} });
  });
  // The server handles one socket's frames in order: once a NewBlock event arrives, the Tx
  // subscription sent before it is active. Make blocks until one does (a condition, not a sleep).
  for (let i = 1; !blockSeen; i++) await client.broadcastTxCommit({ tx: Buffer.from('send:cosmjs:warmup:' + i + 'token') });
  const commit = await client.broadcastTxCommit({ tx: Buffer.from('send:cosmjs:wsrecipient:2token') });
  out.broadcastCommit = { checkTx: commit.checkTx.code, txResult: commit.txResult.code, height: commit.height > 0 };
  const ev = await gotTx;
  out.wsTx = { height: ev.height === commit.height, code: ev.result.code, hash: hex(ev.hash) };
  out.wsBlock = (await gotBlock).header.height > 0;
  ws.disconnect();

  const stargate = await StargateClient.connect(url);
  out.stargate = { chainId: await stargate.getChainId(), height: (await stargate.getHeight()) > 0 };
  stargate.disconnect();
  client.disconnect();
  // CosmJS keeps sockets (reconnecting websocket, keep-alive agent) open: exit explicitly.
  process.stdout.write(JSON.stringify(out), () => process.exit(0));
})().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
`;

let node: TestNode;
let height = 0;
let hash = '';

beforeAll(async () => {
  node = await startNode();
  await call(node.address.url, 'broadcast_tx_commit', { tx: b64('color=blue') });
  const tx = `send:alice:${RECIPIENT}:5token`;
  hash = toHexUpper(txHash(utf8(tx)));
  height = Number((await call(node.address.url, 'broadcast_tx_commit', { tx: b64(tx) })).height);
  await call(node.address.url, 'broadcast_tx_commit', { tx: b64(`send:bob:${RECIPIENT}:6token`) });
});

afterAll(async () => {
  await node?.stop();
});

function runCosmjs(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', SCRIPT, ...args], { cwd: process.cwd(), timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`CosmJS failed: ${stderr || err.message}`));
      else resolve(JSON.parse(stdout) as Record<string, unknown>);
    });
  });
}

describe('CosmJS', () => {
  it('connectComet picks Comet38Client and decodes every answer, over HTTP and the websocket', async () => {
    const out = await runCosmjs([node.address.url, RECIPIENT, hash, String(height)]);
    expect(out).toEqual({
      client: 'Comet38Client',
      health: null,
      status: { network: 'rpc-test', version: expect.stringMatching(/^0\.38\./), height: true, votingPower: '10' },
      block: { height, txs: 1, chainId: 'rpc-test' },
      latestBlock: true,
      blockchain: { metas: true, lastHeight: true },
      blockResults: [0],
      commit: true,
      validators: { total: 1, power: '10' },
      validatorsAll: 1,
      txSearch: { total: 2, first: hash, height, index: 0 },
      txSearchAll: 2,
      txByHashSearch: 1,
      tx: { height, code: 0, proofTotal: 1 },
      blockSearch: 1,
      abciInfo: { data: 'transferapp', lastBlockHeight: true },
      abciQuery: { code: 0, value: 'blue', height: true },
      genesis: 'rpc-test',
      numUnconfirmed: 'number',
      broadcastSync: { code: 0, hash: 64 },
      broadcastAsync: 64,
      broadcastCommit: { checkTx: 0, txResult: 0, height: true },
      wsTx: { height: true, code: 0, hash: toHexUpper(txHash(utf8('send:cosmjs:wsrecipient:2token'))) },
      wsBlock: true,
      stargate: { chainId: 'rpc-test', height: true },
    });
  }, 60_000);
});
