/**
 * The RPC server over a real node (consensus engine, one validator, indexer, transfer app):
 * every method's result shape (COMPAT §1.4), GET vs POST vs batch vs notification, and the error
 * envelope for bad input (COMPAT §1.1/§1.2).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { txHash } from '../../../src/node/consensus/types/block.js';
import { blockRoutes } from '../../../src/node/rpc/core/blocks.js';
import type { RpcEnvironment } from '../../../src/node/rpc/environment.js';
import type { RouteContext } from '../../../src/node/rpc/route.js';
import { toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { b64, call, get, post, startFakeServer, startNode, utf8, waitFor, type TestNode } from './helpers.js';

let node: TestNode;
let url: string;
let sendHeight = 0;
const SEND = 'send:alice:bob:5token';
const sendHash = toHexUpper(txHash(utf8(SEND)));

const H = /^[0-9A-F]{64}$/;
const S = /^\d+$/;

beforeAll(async () => {
  node = await startNode();
  url = node.address.url;
  // Land the first tx after block 1, so its block has a last_commit with signatures to check.
  await waitFor(() => node.consensus.blockStore.height() >= 1, 10000, 'height 1');
  const res = await call(url, 'broadcast_tx_commit', { tx: b64(SEND) });
  sendHeight = Number(res.height);
  await call(url, 'broadcast_tx_commit', { tx: b64('send:carol:bob:7token') });
  await call(url, 'broadcast_tx_commit', { tx: b64('send:alice:dave:1token') });
  await call(url, 'broadcast_tx_commit', { tx: b64('color=blue') });
  await call(url, 'broadcast_tx_commit', { tx: b64('fail:boom') });
  await waitFor(() => node.consensus.blockStore.height() >= 3, 10000, 'height 3');
});

afterAll(async () => {
  await node?.stop();
});

describe('info methods', () => {
  it('health → {}', async () => {
    expect(await call(url, 'health')).toEqual({});
  });

  it('status: node_info (0.38.x, tx_index on, rpc_address), sync_info strings, validator_info', async () => {
    const s = await call(url, 'status');
    expect(s.node_info).toEqual({
      protocol_version: { p2p: '8', block: '11', app: '0' },
      id: node.nodeKey.id,
      listen_addr: 'tcp://0.0.0.0:26656',
      network: 'rpc-test',
      version: expect.stringMatching(/^0\.38\./),
      channels: '40202122233038606100',
      moniker: 'rpc-test-node',
      other: { tx_index: 'on', rpc_address: `tcp://127.0.0.1:${node.address.port}` },
    });
    expect(s.sync_info.latest_block_hash).toMatch(H);
    expect(s.sync_info.latest_app_hash).toMatch(H);
    expect(s.sync_info.latest_block_height).toMatch(S);
    expect(Number(s.sync_info.latest_block_height)).toBeGreaterThanOrEqual(sendHeight);
    expect(s.sync_info.earliest_block_height).toBe('1');
    expect(s.sync_info.latest_block_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(s.sync_info.catching_up).toBe(false);
    expect(s.validator_info.pub_key.type).toBe('tendermint/PubKeyEd25519');
    expect(s.validator_info.voting_power).toBe('10');
    expect(s.validator_info.address).toMatch(/^[0-9A-F]{40}$/);
  });

  it('net_info', async () => {
    expect(await call(url, 'net_info')).toEqual({ listening: true, listeners: ['Listener(@tcp://0.0.0.0:26656)'], n_peers: '0', peers: [] });
  });

  it('genesis keeps app_state byte for byte; genesis_chunked returns base64 chunks', async () => {
    const res = await fetch(`${url}/genesis`);
    const text = await res.text();
    expect(text).toContain('"big":123456789012345678901234567890');
    const g = JSON.parse(text).result.genesis;
    expect(g.chain_id).toBe('rpc-test');
    expect(g.initial_height).toBe('1');
    expect(g.validators[0].power).toBe('10');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const chunk = await call(url, 'genesis_chunked', { chunk: '0' });
    expect(chunk.total).toBe('1');
    expect(chunk.chunk).toBe('0');
    expect(JSON.parse(Buffer.from(chunk.data, 'base64').toString()).chain_id).toBe('rpc-test');
    await expect(call(url, 'genesis_chunked', { chunk: '1' })).rejects.toMatchObject({ rpc: { code: -32603, data: 'there are 0 chunks, 1 is invalid' } });
  });

  it('abci_info omits zero fields and uses strings for int64', async () => {
    const { response } = await call(url, 'abci_info');
    expect(response.data).toBe('transferapp');
    expect(response.version).toBe('1.2.3');
    expect(response.app_version).toBe('1');
    expect(response.last_block_height).toMatch(S);
    expect(typeof response.last_block_app_hash).toBe('string');
  });

  it('abci_query: data as hex in, protobuf-JSON response out', async () => {
    const { response } = await call(url, 'abci_query', { path: '/store/key', data: Buffer.from('color').toString('hex') });
    expect(response).toEqual({
      code: 0,
      log: '',
      info: '',
      index: '0',
      key: b64('color'),
      value: b64('blue'),
      proofOps: null,
      height: expect.stringMatching(S),
      codespace: '',
    });
    const missing = await call(url, 'abci_query', { path: '/store/key', data: Buffer.from('nope').toString('hex'), height: '1' });
    expect(missing.response).toMatchObject({ code: 22, log: 'key not found', value: null, height: '1', codespace: 'sdk' });
    const viaGet = await get(`${url}/abci_query?path="/store/key"&data=0x${Buffer.from('color').toString('hex')}`);
    expect(viaGet.body.result.response.value).toBe(b64('blue'));
  });
});

describe('block methods', () => {
  it('block: by height (string or number), GET, latest; shapes of header and last_commit', async () => {
    const byString = await call(url, 'block', { height: String(sendHeight) });
    const byNumber = await call(url, 'block', { height: sendHeight });
    expect(byNumber).toEqual(byString);
    expect(byString.block_id.hash).toMatch(H);
    expect(byString.block_id.parts.total).toBe(1);
    expect(byString.block.header.height).toBe(String(sendHeight));
    expect(byString.block.data.txs).toContain(b64(SEND));
    expect(byString.block.evidence).toEqual({ evidence: [] });
    expect(byString.block.last_commit.signatures[0].block_id_flag).toBe(2);
    const viaGet = await get(`${url}/block?height=${sendHeight}`);
    expect(viaGet.status).toBe(200);
    expect(viaGet.body.id).toBe(-1);
    expect(viaGet.body.result).toEqual(byString);
    expect(viaGet.headers.get('cache-control')).toBe('public, max-age=86400');
    const latest = await call(url, 'block');
    expect(Number(latest.block.header.height)).toBeGreaterThanOrEqual(sendHeight);
    const first = await call(url, 'block', { height: '1' });
    expect(first.block.last_commit).toEqual({ height: '0', round: 0, block_id: { hash: '', parts: { total: 0, hash: '' } }, signatures: [] });
  });

  it('block: height errors use CometBFT texts', async () => {
    const latest = node.consensus.blockStore.height();
    await expect(call(url, 'block', { height: '0' })).rejects.toMatchObject({ rpc: { code: -32603, message: 'Internal error', data: 'height must be greater than 0, but got 0' } });
    await expect(call(url, 'block', { height: '-3' })).rejects.toMatchObject({ rpc: { data: 'height must be greater than 0, but got -3' } });
    const tooHigh = await post(url, { jsonrpc: '2.0', id: 1, method: 'block', params: { height: String(latest + 1000) } });
    expect(tooHigh.status).toBe(200);
    expect(tooHigh.body.error.data).toMatch(new RegExp(`^height ${latest + 1000} must be less than or equal to the current blockchain height \\d+$`));
    const viaGet = await get(`${url}/block?height=0`);
    expect(viaGet.status).toBe(500);
    expect(viaGet.body).toEqual({ jsonrpc: '2.0', id: -1, error: { code: -32603, message: 'Internal error', data: 'height must be greater than 0, but got 0' } });
  });

  it('block_by_hash (base64 or hex), header, header_by_hash', async () => {
    const b = await call(url, 'block', { height: String(sendHeight) });
    const hashB64 = Buffer.from(b.block_id.hash, 'hex').toString('base64');
    expect(await call(url, 'block_by_hash', { hash: hashB64 })).toEqual(b);
    expect(await call(url, 'block_by_hash', { hash: b.block_id.hash })).toEqual(b);
    expect(await call(url, 'block_by_hash', { hash: Buffer.alloc(32).toString('base64') })).toEqual({ block_id: { hash: '', parts: { total: 0, hash: '' } }, block: null });
    expect(await call(url, 'header', { height: String(sendHeight) })).toEqual({ header: b.block.header });
    expect(await call(url, 'header_by_hash', { hash: b.block_id.hash })).toEqual({ header: b.block.header });
    expect((await get(`${url}/header_by_hash?hash=0x${b.block_id.hash}`)).body.result).toEqual({ header: b.block.header });
    expect(await call(url, 'header_by_hash', { hash: '00'.repeat(32) })).toEqual({ header: null });
  });

  it('block_results: protobuf-JSON tx results, finalize_block_events, base64 app_hash', async () => {
    const r = await call(url, 'block_results', { height: String(sendHeight) });
    expect(r.height).toBe(String(sendHeight));
    expect(r.txs_results[0]).toMatchObject({ code: 0, data: b64('sent'), log: '', info: '', gas_wanted: '100', gas_used: '60', codespace: '' });
    expect(r.txs_results[0].events[3]).toEqual({
      type: 'transfer',
      attributes: [
        { key: 'recipient', value: 'bob', index: true },
        { key: 'sender', value: 'alice', index: true },
        { key: 'amount', value: '5token', index: true },
        { key: 'msg_index', value: '0', index: true },
      ],
    });
    expect(r.finalize_block_events[0]).toEqual({ type: 'mint', attributes: [{ key: 'amount', value: String(sendHeight * 10), index: true }, { key: 'mode', value: 'BeginBlock', index: true }] });
    expect(r.validator_updates).toBeNull();
    expect(r.consensus_param_updates).toBeNull();
    expect(Buffer.from(r.app_hash, 'base64')).toHaveLength(32);
  });

  it('commit: canonical below the latest height, the seen commit at the latest', async () => {
    const c = await call(url, 'commit', { height: String(sendHeight) });
    expect(c.canonical).toBe(true);
    expect(c.signed_header.commit.height).toBe(String(sendHeight));
    expect(c.signed_header.header.height).toBe(String(sendHeight));
    const latest = await call(url, 'commit');
    expect(latest.canonical).toBe(false);
  });

  it('commit of the latest height while the next block is being saved: the canonical one (the seen commit is gone)', () => {
    // The block store's height moves after its batch lands; a request in between sees the old
    // height, whose seen commit that batch deleted and whose canonical commit it wrote.
    const real = node.consensus.blockStore;
    const top = real.height();
    const stale = Object.create(real, { height: { value: () => top - 1 } }) as typeof real;
    expect(stale.loadSeenCommit(top - 1)).toBeUndefined();
    const route = blockRoutes.find((r) => r.name === 'commit')!;
    const result = route.handler({ blockStore: stale } as unknown as RpcEnvironment, {}, {} as RouteContext) as { canonical: boolean; signed_header: { commit: { height: string } } };
    expect(result.canonical).toBe(true);
    expect(result.signed_header.commit.height).toBe(String(top - 1));
  });

  it('blockchain: newest first, at most 20, bounded by min/max', async () => {
    const r = await call(url, 'blockchain', { minHeight: '1', maxHeight: '2' });
    expect(r.last_height).toMatch(S);
    expect(r.block_metas.map((m: { header: { height: string } }) => m.header.height)).toEqual(['2', '1']);
    expect(r.block_metas[0]).toMatchObject({ block_size: expect.stringMatching(S), num_txs: expect.stringMatching(S) });
    await expect(call(url, 'blockchain', { minHeight: '5', maxHeight: '2' })).rejects.toMatchObject({ rpc: { data: "min height 5 can't be greater than max height 2" } });
    await expect(call(url, 'blockchain', { minHeight: '-1' })).rejects.toMatchObject({ rpc: { data: 'heights must be non-negative' } });
  });

  it('validators (default height latest+1, paging) and consensus_params', async () => {
    const latest = node.consensus.blockStore.height();
    const v = await call(url, 'validators');
    expect(Number(v.block_height)).toBeGreaterThanOrEqual(latest + 1);
    expect(v).toMatchObject({ count: '1', total: '1' });
    expect(v.validators[0]).toMatchObject({ voting_power: '10', proposer_priority: expect.stringMatching(/^-?\d+$/), pub_key: { type: 'tendermint/PubKeyEd25519' } });
    await expect(call(url, 'validators', { height: '1', page: '2' })).rejects.toMatchObject({ rpc: { data: 'page should be within [1, 1] range, given 2' } });
    const p = await call(url, 'consensus_params', { height: '1' });
    expect(p).toEqual({
      block_height: '1',
      consensus_params: {
        block: { max_bytes: '22020096', max_gas: '-1' },
        evidence: { max_age_num_blocks: '100000', max_age_duration: '172800000000000', max_bytes: '1048576' },
        validator: { pub_key_types: ['ed25519'] },
        version: { app: '0' },
        abci: { vote_extensions_enable_height: '0' },
      },
    });
  });

  it('consensus_state and dump_consensus_state summarise the round state', async () => {
    const cs = await call(url, 'consensus_state');
    expect(cs.round_state['height/round/step']).toMatch(/^\d+\/\d+\/\d$/);
    const dump = await call(url, 'dump_consensus_state');
    expect(dump.round_state.height).toMatch(S);
    expect(dump.peers).toEqual([]);
  });
});

describe('tx methods', () => {
  it('tx: by base64 hash, by GET 0x-hex, with a proof when asked', async () => {
    const hashB64 = Buffer.from(sendHash, 'hex').toString('base64');
    const t = await call(url, 'tx', { hash: hashB64 });
    expect(t).toEqual({
      hash: sendHash,
      height: String(sendHeight),
      index: 0,
      tx_result: expect.objectContaining({ code: 0, gas_used: '60' }),
      tx: b64(SEND),
    });
    const viaGet = await get(`${url}/tx?hash=0x${sendHash}&prove=true`);
    expect(viaGet.body.result.proof).toMatchObject({ root_hash: H, data: b64(SEND), proof: { total: expect.stringMatching(S), index: '0', leaf_hash: expect.any(String) } });
    const missing = 'AB'.repeat(32);
    await expect(call(url, 'tx', { hash: Buffer.from(missing, 'hex').toString('base64') })).rejects.toMatchObject({ rpc: { code: -32603, data: `tx (${missing}) not found` } });
  });

  it('tx_search: by recipient with totals, paging and order; queries with errors', async () => {
    const all = await call(url, 'tx_search', { query: "transfer.recipient='bob'" });
    expect(all.total_count).toBe('2');
    expect(all.txs.map((t: { tx: string }) => Buffer.from(t.tx, 'base64').toString())).toEqual([SEND, 'send:carol:bob:7token']);
    expect(all.txs[0]).toMatchObject({ hash: sendHash, height: String(sendHeight), index: 0 });
    const page2 = await call(url, 'tx_search', { query: "transfer.recipient='bob'", page: '2', per_page: '1' });
    expect(page2.total_count).toBe('2');
    expect(Buffer.from(page2.txs[0].tx, 'base64').toString()).toBe('send:carol:bob:7token');
    const desc = await call(url, 'tx_search', { query: "transfer.recipient='bob'", order_by: 'desc', per_page: '1' });
    expect(Buffer.from(desc.txs[0].tx, 'base64').toString()).toBe('send:carol:bob:7token');
    const both = await call(url, 'tx_search', { query: "tm.event='Tx' AND message.sender='alice' AND transfer.recipient='dave'" });
    expect(both.total_count).toBe('1');
    const byHash = await call(url, 'tx_search', { query: `tx.hash='${sendHash.toLowerCase()}'`, prove: true });
    expect(byHash.txs[0].proof.root_hash).toMatch(H);
    const failed = await call(url, 'tx_search', { query: `tx.height>=1` });
    expect(failed.txs.some((t: { tx_result: { code: number } }) => t.tx_result.code === 5)).toBe(true);
    const viaGet = await get(`${url}/tx_search?query="transfer.recipient='bob'"&per_page=1`);
    expect(viaGet.body.result.total_count).toBe('2');
    expect(viaGet.body.result.txs).toHaveLength(1);

    await expect(call(url, 'tx_search', { query: "transfer.recipient='bob'", page: '3', per_page: '1' })).rejects.toMatchObject({
      rpc: { code: -32603, data: 'page should be within [1, 2] range, given 3' },
    });
    await expect(call(url, 'tx_search', { query: "transfer.recipient='bob'", order_by: 'newest' })).rejects.toMatchObject({
      rpc: { data: 'expected order_by to be either `asc` or `desc` or empty' },
    });
    await expect(call(url, 'tx_search', { query: "transfer.recipient 'bob'" })).rejects.toMatchObject({ rpc: { code: -32603, data: expect.stringMatching(/^offset 19: got string, wanted/) } });
    await expect(call(url, 'tx_search', { query: `a.b='${'x'.repeat(600)}'` })).rejects.toMatchObject({ rpc: { data: 'maximum query length exceeded' } });
  });

  it('block_search finds blocks by finalize_block_events', async () => {
    const r = await call(url, 'block_search', { query: `mint.amount=${sendHeight * 10}` });
    expect(r.total_count).toBe('1');
    expect(r.blocks[0].block.header.height).toBe(String(sendHeight));
    expect(r.blocks[0].block_id.hash).toMatch(H);
    const odd = await call(url, 'block_search', { query: "block_parity.parity='odd'", per_page: '2' });
    expect(Number(odd.blocks[0].block.header.height)).toBeGreaterThan(Number(odd.blocks[1].block.header.height));
  });

  it('check_tx runs CheckTx without adding to the mempool', async () => {
    expect(await call(url, 'check_tx', { tx: b64('send:x:y:1token') })).toEqual({
      code: 0,
      data: null,
      log: '',
      info: '',
      gas_wanted: '100',
      gas_used: '50',
      events: [],
      codespace: '',
    });
    expect(await call(url, 'check_tx', { tx: b64('garbage') })).toMatchObject({ code: 2, log: 'tx parse error', codespace: 'sdk' });
  });

  it('broadcast_tx_sync / async return the hash; duplicates are -32603 with the CometBFT text', async () => {
    const tx = 'send:erin:frank:3token';
    const res = await call(url, 'broadcast_tx_sync', { tx: b64(tx) });
    expect(res).toEqual({ code: 0, data: '', log: '', codespace: '', hash: toHexUpper(txHash(utf8(tx))) });
    await expect(call(url, 'broadcast_tx_sync', { tx: b64(tx) })).rejects.toMatchObject({ rpc: { code: -32603, message: 'Internal error', data: 'tx already exists in cache' } });
    const bad = await call(url, 'broadcast_tx_sync', { tx: b64('garbage!') });
    expect(bad).toMatchObject({ code: 2, log: 'tx parse error', codespace: 'sdk' });
    const asyncTx = 'send:gina:hal:4token';
    const a = await call(url, 'broadcast_tx_async', { tx: b64(asyncTx) });
    expect(a).toEqual({ code: 0, data: '', log: '', codespace: '', hash: toHexUpper(txHash(utf8(asyncTx))) });
    await expect(call(url, 'broadcast_tx_async', { tx: b64(asyncTx) })).rejects.toMatchObject({ rpc: { data: 'tx already exists in cache' } });
  });

  it('broadcast_tx_commit: committed result, or at once with the failed CheckTx', async () => {
    const tx = 'send:ivy:jon:9token';
    const res = await call(url, 'broadcast_tx_commit', { tx: b64(tx) });
    expect(res.check_tx).toMatchObject({ code: 0, gas_wanted: '100' });
    expect(res.tx_result).toMatchObject({ code: 0, data: b64('sent') });
    expect(res.hash).toBe(toHexUpper(txHash(utf8(tx))));
    expect(Number(res.height)).toBeGreaterThan(0);
    // The tx is already indexed when broadcast_tx_commit returns.
    expect((await call(url, 'tx_search', { query: "transfer.recipient='jon'" })).total_count).toBe('1');
    const rejected = await call(url, 'broadcast_tx_commit', { tx: b64('nonsense') });
    expect(rejected).toEqual({
      check_tx: expect.objectContaining({ code: 2, log: 'tx parse error' }),
      tx_result: { code: 0, data: null, log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' },
      hash: toHexUpper(txHash(utf8('nonsense'))),
      height: '0',
    });
    await expect(call(url, 'broadcast_tx_commit', { tx: b64(tx) })).rejects.toMatchObject({ rpc: { data: 'error on broadcastTxCommit: tx already exists in cache' } });
  });

  it('unconfirmed_txs and num_unconfirmed_txs', async () => {
    const u = await call(url, 'unconfirmed_txs', { limit: '5' });
    expect(u).toEqual({ n_txs: expect.stringMatching(S), total: expect.stringMatching(S), total_bytes: expect.stringMatching(S), txs: expect.any(Array) });
    const n = await call(url, 'num_unconfirmed_txs');
    expect(n).toEqual({ n_txs: expect.stringMatching(S), total: expect.stringMatching(S), total_bytes: expect.stringMatching(S), txs: null });
  });

  it('broadcast_evidence is refused', async () => {
    await expect(call(url, 'broadcast_evidence', { evidence: { type: 'tendermint/DuplicateVoteEvidence', value: {} } })).rejects.toMatchObject({
      rpc: { code: -32603, data: expect.stringContaining('not supported') },
    });
  });
});

describe('envelope and bad input', () => {
  it('batch: array in, array out, in order; notifications get no reply', async () => {
    const { status, body } = await post(url, [
      { jsonrpc: '2.0', id: 'a', method: 'health' },
      { jsonrpc: '2.0', method: 'health' },
      { jsonrpc: '2.0', id: 2, method: 'nope' },
      { jsonrpc: '2.0', id: 3, method: 'block', params: { height: 'x' } },
    ]);
    expect(status).toBe(200);
    expect(body).toEqual([
      { jsonrpc: '2.0', id: 'a', result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Invalid params', data: expect.stringMatching(/^error converting json params to arguments: height: invalid integer "x"/) } },
    ]);
    const single = await post(url, [{ jsonrpc: '2.0', id: 9, method: 'health' }]);
    expect(single.body).toEqual([{ jsonrpc: '2.0', id: 9, result: {} }]);
    const onlyNotifications = await post(url, { jsonrpc: '2.0', method: 'health' });
    expect(onlyNotifications.status).toBe(200);
    expect(onlyNotifications.body).toBe('');
  });

  it('parse errors are -32700 with HTTP 500 and id null', async () => {
    for (const bad of ['{"jsonrpc":"2.0","id":1,', 'not json', '[1,2]', '{"id":{"x":1},"method":"health"}', '"text"']) {
      const { status, body } = await post(url, bad, true);
      expect(status).toBe(500);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error. Invalid JSON', data: expect.stringMatching(/^error unmarshaling request: /) } });
    }
  });

  it('unknown method -32601; wrong param types -32602; positional params by count', async () => {
    expect((await post(url, { jsonrpc: '2.0', id: 5, method: 'no_such_method' })).body).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'Method not found' } });
    const wrong = await post(url, { jsonrpc: '2.0', id: 6, method: 'tx_search', params: { query: 5 } });
    expect(wrong.body.error).toMatchObject({ code: -32602, message: 'Invalid params' });
    const badTx = await post(url, { jsonrpc: '2.0', id: 7, method: 'broadcast_tx_sync', params: { tx: '%%%not-base64%%%' } });
    expect(badTx.body.error).toEqual({ code: -32602, message: 'Invalid params', data: 'error converting json params to arguments: tx: illegal base64 data' });
    const positional = await post(url, { jsonrpc: '2.0', id: 8, method: 'block', params: ['1'] });
    expect(positional.body.result.block.header.height).toBe('1');
    const wrongCount = await post(url, { jsonrpc: '2.0', id: 9, method: 'block', params: ['1', '2'] });
    expect(wrongCount.body.error.data).toBe('error converting json params to arguments: expected 1 parameters (height), got 2');
    const notObject = await post(url, { jsonrpc: '2.0', id: 10, method: 'block', params: 'x' });
    expect(notObject.body.error.code).toBe(-32602);
    expect((await post(url, { jsonrpc: '2.0', id: 11, method: 'subscribe', params: { query: "tm.event='Tx'" } })).body.error.code).toBe(-32601);
  });

  it('GET: unknown path 404, / lists endpoints, bad args HTTP 500 with id -1, ws-only methods 404', async () => {
    const notFound = await get(`${url}/no_such_method`);
    expect(notFound.status).toBe(404);
    const root = await fetch(`${url}/`);
    expect(root.headers.get('content-type')).toBe('text/html');
    expect(await root.text()).toContain('/tx_search?query=_&amp;prove=_&amp;page=_&amp;per_page=_&amp;order_by=_');
    const bad = await get(`${url}/block?height=abc`);
    expect(bad.status).toBe(500);
    expect(bad.body).toEqual({ jsonrpc: '2.0', id: -1, error: { code: -32602, message: 'Invalid params', data: 'error converting http params to arguments: height: invalid integer "abc"' } });
    const hexInt = await get(`${url}/block?height=0x10`);
    expect(hexInt.body.error.data).toContain("got a hex string arg, but expected 'int'");
    const ws = await get(`${url}/subscribe?query="tm.event='Tx'"`);
    expect(ws.status).toBe(404);
    expect(ws.body.error.code).toBe(-32601);
  });

  it('an oversized body is refused with 413 and the server keeps serving', async () => {
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'broadcast_tx_sync', params: { tx: 'A'.repeat(1_100_000) } });
    const { status, body } = await post(url, huge, true);
    expect(status).toBe(413);
    expect(body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request', data: 'error reading request body: http: request body too large' } });
    expect(await call(url, 'health')).toEqual({});
  });

  it('more than max_request_batch_size requests is -32600', async () => {
    const batch = Array.from({ length: 11 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'health' }));
    const { status, body } = await post(url, batch);
    expect(status).toBe(200);
    expect(body.error).toEqual({ code: -32600, message: 'Invalid Request', data: 'batch request exceeds maximum (10) allowed number of requests' });
  });

  it('an empty POST body lists the endpoints', async () => {
    const res = await fetch(url, { method: 'POST', body: '' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Available endpoints');
  });
});

describe('without a node', () => {
  it('tx_index "null": tx and tx_search say indexing is disabled; status shows tx_index off', async () => {
    const { server, url: u } = await startFakeServer();
    try {
      expect((await call(u, 'status')).node_info.other.tx_index).toBe('off');
      await expect(call(u, 'tx', { hash: Buffer.alloc(32).toString('base64') })).rejects.toMatchObject({ rpc: { data: 'transaction indexing is disabled' } });
      await expect(call(u, 'tx_search', { query: "a.b='c'" })).rejects.toMatchObject({ rpc: { data: 'transaction indexing is disabled' } });
      await expect(call(u, 'block_search', { query: "a.b='c'" })).rejects.toMatchObject({ rpc: { data: 'block indexing is disabled' } });
      // Before block 1: empty hashes, height 0, the epoch.
      expect((await call(u, 'status')).sync_info).toMatchObject({ latest_block_hash: '', latest_block_height: '0', latest_block_time: '1970-01-01T00:00:00Z' });
      expect(await call(u, 'block')).toEqual({ block_id: { hash: '', parts: { total: 0, hash: '' } }, block: null });
      await expect(call(u, 'consensus_state')).rejects.toMatchObject({ rpc: { data: expect.stringContaining('not running') } });
    } finally {
      await server.stop();
    }
  });

  it('broadcast_tx_commit timing out still tells the tx hash', async () => {
    const { server, url: u } = await startFakeServer({}, { timeoutBroadcastTxCommitMs: 300 });
    try {
      const tx = 'send:a:b:1token';
      const hash = toHexUpper(txHash(utf8(tx)));
      const { body } = await post(u, { jsonrpc: '2.0', id: 1, method: 'broadcast_tx_commit', params: { tx: b64(tx) } });
      expect(body.error).toEqual({ code: -32603, message: 'Internal error', data: `timed out waiting for tx to be included in a block (tx hash ${hash})` });
    } finally {
      await server.stop();
    }
  });

  it('broadcast_tx_commit returns when the Tx event arrives', async () => {
    const { server, url: u, bus } = await startFakeServer();
    try {
      const tx = utf8('send:a:c:2token');
      // Publish only once the handler waits for the tx (a condition, not a sleep).
      const waiting = new Promise<void>((resolve) => {
        const original = bus.waitForTx.bind(bus);
        bus.waitForTx = (hashHex, timeoutMs) => {
          const waiter = original(hashHex, timeoutMs);
          resolve();
          return waiter;
        };
      });
      const pending = post(u, { jsonrpc: '2.0', id: 1, method: 'broadcast_tx_commit', params: { tx: Buffer.from(tx).toString('base64') } });
      await waiting;
      bus.publishTx({ height: 42, index: 3, tx, result: { code: 0, data: new Uint8Array(0), log: '', info: '', gasWanted: 1n, gasUsed: 1n, events: [], codespace: '' } });
      const { body } = await pending;
      expect(body.result).toMatchObject({ height: '42', hash: toHexUpper(txHash(tx)), tx_result: { code: 0 } });
    } finally {
      await server.stop();
    }
  });

  it('CORS when allowed origins are configured', async () => {
    const { server, url: u } = await startFakeServer({}, { corsAllowedOrigins: ['http://wallet.example'] });
    try {
      const pre = await fetch(u, { method: 'OPTIONS', headers: { Origin: 'http://wallet.example', 'Access-Control-Request-Method': 'POST' } });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('http://wallet.example');
      const other = await fetch(`${u}/health`, { headers: { Origin: 'http://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await server.stop();
    }
  });
});
