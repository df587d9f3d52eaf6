/**
 * The RPC JSON renderers, checked two ways: exact CometBFT 0.38 shapes (COMPAT §1.3/§1.4), and by
 * feeding them to CosmJS's Comet38Client decoders through a fake RpcClient (CosmJS throws on any
 * shape it does not accept).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import {
  renderBlockMeta,
  renderBlockResult,
  renderBlockResults,
  renderBlockResultsText,
  renderEventData,
  renderCommitResult,
  renderConsensusParamsResult,
  renderGenesis,
  renderGenesisJsonText,
  renderSyncInfo,
  renderTxProof,
  renderValidatorInfo,
  renderValidatorsResult,
} from '../../../src/node/consensus/json.js';
import { txHash, txProof } from '../../../src/node/consensus/types/block.js';
import { toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { FilePV } from '../../../src/node/consensus/privval.js';
import { parseGenesisDoc } from '../../../src/node/consensus/types/genesis.js';
import type { ConsensusEvent } from '../../../src/node/consensus/events.js';
import { makeGenesis, makeNode, utf8, waitForHeight, type TestNode } from './helpers.js';

let node: TestNode;
let txHeight = 0;
const captured: ConsensusEvent[] = [];

beforeAll(async () => {
  const pv = FilePV.generate();
  node = await makeNode(makeGenesis([pv], 'json-chain'), pv);
  node.consensus.eventBus.subscribe((e) => {
    if (e.type === 'Tx' || (e.type === 'NewBlock' && e.data.block.data.txs.length > 0)) captured.push(e);
  });
  await node.consensus.start();
  await waitForHeight(node.consensus, 2);
  const waiter = node.consensus.eventBus.waitForTx(toHexUpper(txHash(utf8('hello=world'))), 10000);
  await node.consensus.mempool.checkTx(utf8('hello=world'));
  txHeight = (await waiter.promise).height;
  await waitForHeight(node.consensus, txHeight + 1);
  await node.consensus.stop();
});

afterAll(async () => {
  await node?.consensus.stop();
});

/** A JSON-RPC "server" answering from the renderers, as the RPC layer will. */
function result(method: string, params: Record<string, unknown>): unknown {
  const c = node.consensus;
  const latest = c.blockStore.height();
  const height = params['height'] ? Number(params['height']) : latest;
  switch (method) {
    case 'block': {
      const meta = c.blockStore.loadBlockMeta(height)!;
      return renderBlockResult(meta.blockId, c.blockStore.loadBlock(height)!);
    }
    case 'commit': {
      const canonical = height < latest;
      const commit = canonical ? c.blockStore.loadBlockCommit(height)! : c.blockStore.loadSeenCommit(height)!;
      return renderCommitResult(c.blockStore.loadBlockMeta(height)!.header, commit, canonical);
    }
    case 'validators': {
      const h = params['height'] ? height : latest + 1;
      const set = c.stateStore.loadValidators(h)!;
      return renderValidatorsResult(h, set.validators, set.size);
    }
    case 'block_results':
      return renderBlockResults(height, c.stateStore.loadFinalizeBlockResponse(height)!);
    case 'blockchain': {
      const metas = [];
      for (let h = latest; h >= 1; h--) metas.push(renderBlockMeta(c.blockStore.loadBlockMeta(h)!));
      return { last_height: String(latest), block_metas: metas };
    }
    case 'genesis':
      return { genesis: renderGenesis(c.genesis) };
    case 'consensus_params':
      return renderConsensusParamsResult(height, c.stateStore.loadConsensusParams(height)!);
    case 'status': {
      const s = c.status();
      return {
        node_info: {
          protocol_version: { p2p: '8', block: '11', app: '1' },
          id: 'aa'.repeat(20),
          listen_addr: 'tcp://0.0.0.0:26656',
          network: s.chainId,
          version: '0.38.17',
          channels: '40202122233038606100',
          moniker: 'test',
          other: { tx_index: 'on', rpc_address: 'tcp://127.0.0.1:26657' },
        },
        sync_info: renderSyncInfo(s),
        validator_info: renderValidatorInfo(s.validatorInfo!),
      };
    }
    default:
      throw new Error(`method ${method} not served in this test`);
  }
}

/**
 * CosmJS is CommonJS that requires ESM-only @noble packages, which Jest's module runtime cannot
 * load; plain Node can. So the CosmJS check runs in a child process over canned responses.
 */
const COSMJS_SCRIPT = `
const { Comet38Client } = require('@cosmjs/tendermint-rpc');
const responses = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const key = (method, params) => method + ':' + (params && params.height !== undefined ? params.height : '');
const c = Comet38Client.create({
  execute: async (request) => {
    const r = responses[key(request.method, request.params)] ?? responses[request.method + ':'];
    if (!r) throw new Error('no canned response for ' + key(request.method, request.params));
    return { jsonrpc: '2.0', id: request.id, result: r };
  },
  disconnect: () => {},
});
(async () => {
  const out = {};
  const big = (v) => (typeof v === 'bigint' ? v.toString() : v);
  const args = JSON.parse(process.argv[1]);
  const block = await c.block(args.txHeight);
  out.blockHeight = block.block.header.height;
  out.blockTxs = block.block.txs.length;
  out.lastCommitSigs = block.block.lastCommit.signatures.length;
  out.firstLastCommit = (await c.block(1)).block.lastCommit;
  const commit = await c.commit(args.txHeight);
  out.commitCanonical = commit.canonical;
  out.commitParts = commit.commit.blockId.parts.total;
  out.latestCanonical = (await c.commit()).canonical;
  out.validatorPower = (await c.validators({})).validators[0].votingPower;
  out.resultCode = (await c.blockResults(args.txHeight)).results[0].code;
  out.metas = (await c.blockchain(1, args.latest)).blockMetas.length;
  out.genesisChainId = (await c.genesis()).chainId;
  const status = await c.status();
  out.statusHeight = status.syncInfo.latestBlockHeight;
  out.statusPower = status.validatorInfo.votingPower;
  process.stdout.write(JSON.stringify(out, (_k, v) => big(v)));
})().catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });
`;

function runCosmjs(): Record<string, unknown> {
  const latest = node.consensus.blockStore.height();
  const responses: Record<string, unknown> = {
    [`block:${txHeight}`]: result('block', { height: String(txHeight) }),
    'block:1': result('block', { height: '1' }),
    [`commit:${txHeight}`]: result('commit', { height: String(txHeight) }),
    'commit:': result('commit', {}),
    'validators:': result('validators', {}),
    [`block_results:${txHeight}`]: result('block_results', { height: String(txHeight) }),
    'blockchain:': result('blockchain', {}),
    'genesis:': result('genesis', {}),
    'status:': result('status', {}),
  };
  const out = execFileSync(process.execPath, ['-e', COSMJS_SCRIPT, JSON.stringify({ txHeight, latest })], {
    input: JSON.stringify(responses),
    cwd: process.cwd(),
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return JSON.parse(out.toString('utf8')) as Record<string, unknown>;
}

describe('RPC JSON renderers', () => {
  it('block at height 1 has the empty last_block_id and last_commit shapes', () => {
    const json = result('block', { height: '1' }) as { block_id: { hash: string; parts: { total: number } }; block: Record<string, Record<string, unknown>> };
    expect(json.block_id.hash).toMatch(/^[0-9A-F]{64}$/);
    expect(json.block_id.parts.total).toBe(1);
    const header = json.block['header']!;
    expect(header['version']).toEqual({ block: '11', app: '1' });
    expect(header['chain_id']).toBe('json-chain');
    expect(header['height']).toBe('1');
    expect(header['last_block_id']).toEqual({ hash: '', parts: { total: 0, hash: '' } });
    expect(header['last_commit_hash']).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
    expect(header['time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d*[1-9])?Z$/);
    expect(json.block['last_commit']).toEqual({ height: '0', round: 0, block_id: { hash: '', parts: { total: 0, hash: '' } }, signatures: [] });
    expect(json.block['data']).toEqual({ txs: [] });
    expect(json.block['evidence']).toEqual({ evidence: [] });
  });

  it('block with a tx: base64 txs, commit signatures with flag 2, int64 as strings', () => {
    const json = result('block', { height: String(txHeight) }) as { block: { data: { txs: string[] }; last_commit: { height: string; signatures: Record<string, unknown>[] } } };
    expect(json.block.data.txs).toEqual([Buffer.from('hello=world').toString('base64')]);
    expect(json.block.last_commit.height).toBe(String(txHeight - 1));
    const sig = json.block.last_commit.signatures[0]!;
    expect(sig['block_id_flag']).toBe(2);
    expect(sig['validator_address']).toBe(toHexUpper(node.pv.address));
    expect(typeof sig['signature']).toBe('string');
  });

  it('block_results uses protobuf-JSON ExecTxResults and a base64 app_hash', () => {
    const json = result('block_results', { height: String(txHeight) }) as Record<string, unknown>;
    expect(json['height']).toBe(String(txHeight));
    expect(json['txs_results']).toEqual([
      { code: 0, data: Buffer.from('hello').toString('base64'), log: '', info: '', gas_wanted: '1', gas_used: '1', events: [{ type: 'kv', attributes: [{ key: 'key', value: 'hello', index: true }] }], codespace: '' },
    ]);
    expect(json['validator_updates']).toBeNull();
    expect(json['consensus_param_updates']).toBeNull();
    expect(json['app_hash']).toBe(Buffer.from(node.consensus.stateStore.loadFinalizeBlockResponse(txHeight)!.appHash).toString('base64'));
  });

  it('consensus_params shows the CometBFT defaults', () => {
    expect(result('consensus_params', { height: '1' })).toEqual({
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

  it('validators shows amino pubkeys and string powers', () => {
    const json = result('validators', {}) as { block_height: string; validators: Record<string, unknown>[]; count: string; total: string };
    expect(json.count).toBe('1');
    expect(json.total).toBe('1');
    expect(json.validators[0]).toEqual({
      address: toHexUpper(node.pv.address),
      pub_key: { type: 'tendermint/PubKeyEd25519', value: Buffer.from(node.pv.pubKey.bytes).toString('base64') },
      voting_power: '10',
      proposer_priority: '0',
    });
  });

  it('websocket event data: Tx and NewBlock, with composite keys for queries', () => {
    const tx = captured.find((e) => e.type === 'Tx')!;
    expect(tx.events['tm.event']).toEqual(['Tx']);
    expect(tx.events['tx.hash']).toEqual([toHexUpper(txHash(utf8('hello=world')))]);
    expect(tx.events['tx.height']).toEqual([String(txHeight)]);
    expect(tx.events['kv.key']).toEqual(['hello']);
    const data = renderEventData(tx);
    expect(data.type).toBe('tendermint/event/Tx');
    expect(data.value).toEqual({
      TxResult: {
        height: String(txHeight),
        tx: Buffer.from('hello=world').toString('base64'),
        result: { code: 0, data: Buffer.from('hello').toString('base64'), log: '', info: '', gas_wanted: '1', gas_used: '1', events: [{ type: 'kv', attributes: [{ key: 'key', value: 'hello', index: true }] }], codespace: '' },
      },
    }); // index 0 is omitted (omitempty)
    const block = captured.find((e) => e.type === 'NewBlock')!;
    expect(block.events['tm.event']).toEqual(['NewBlock']);
    expect(block.events['block.height']).toEqual([String(txHeight)]);
    const bd = renderEventData(block).value as { block: { header: { height: string } }; block_id: { hash: string }; result_finalize_block: Record<string, unknown> };
    expect(bd.block.header.height).toBe(String(txHeight));
    expect(bd.block_id.hash).toMatch(/^[0-9A-F]{64}$/);
    expect(Object.keys(bd.result_finalize_block)).toEqual(['events', 'tx_results', 'validator_updates', 'app_hash']);
  });

  it('tx proof shape', () => {
    const block = node.consensus.blockStore.loadBlock(txHeight)!;
    const json = renderTxProof(txProof(block.data.txs, 0));
    expect(json.root_hash).toBe(toHexUpper(block.header.dataHash));
    expect(json.proof).toEqual({ total: '1', index: '0', leaf_hash: expect.any(String) });
  });

  it('genesis renders in CometBFT layout and app_state keeps its exact text', () => {
    const genesis = result('genesis', {}) as { genesis: Record<string, unknown> };
    expect(genesis.genesis['initial_height']).toBe('1');
    expect(genesis.genesis['app_state']).toEqual({ genesis: 'yes' });
    const doc = parseGenesisDoc('{"chain_id":"x","genesis_time":"2024-01-01T00:00:00Z","app_state":{"big":123456789012345678901234567890}}');
    expect(renderGenesisJsonText(doc)).toContain('"app_state":{"big":123456789012345678901234567890}');
  });

  it('CosmJS Comet38Client accepts block, commit, validators, block_results, blockchain, genesis and status', () => {
    const out = runCosmjs();
    expect(out).toEqual({
      blockHeight: txHeight,
      blockTxs: 1,
      lastCommitSigs: 1,
      firstLastCommit: null, // CosmJS maps the empty last commit of block 1 to null
      commitCanonical: true,
      commitParts: 1,
      latestCanonical: false,
      validatorPower: '10',
      resultCode: 0,
      metas: node.consensus.blockStore.height(),
      genesisChainId: 'json-chain',
      statusHeight: node.consensus.blockStore.height(),
      statusPower: '10',
    });
  });
});

describe('block_results rendered in slices', () => {
  const result = (i: number) => ({
    code: i % 3,
    data: i % 2 === 0 ? new Uint8Array([i % 256, 1]) : new Uint8Array(0),
    log: i % 3 === 0 ? '' : `failed "${i}" \\ ✓`,
    info: '',
    gasWanted: 200000n,
    gasUsed: BigInt(50000 + i),
    events: [{ type: 'transfer', attributes: [{ key: 'amount', value: `${i}token`, index: i % 2 === 0 }] }],
    codespace: i % 3 === 0 ? '' : 'sdk',
  });
  const response = (n: number) => ({
    events: [{ type: 'mint', attributes: [{ key: 'amount', value: '5', index: true }] }, { type: 'empty', attributes: [] }],
    txResults: Array.from({ length: n }, (_, i) => result(i)),
    validatorUpdates: n > 0 ? [{ pubKeyType: 'ed25519' as const, pubKey: new Uint8Array(32).fill(1), power: 5n }] : [],
    appHash: new Uint8Array(32).fill(7),
  });

  it('is the same text as rendering it whole, pausing between pieces or not', async () => {
    for (const n of [0, 1, 24, 25, 26, 130]) {
      const r = response(n);
      const whole = JSON.stringify(renderBlockResults(42, r));
      expect(await renderBlockResultsText(42, r, 0)).toBe(whole);
      // A slice this short is used up after every piece: the loop gets a turn each time.
      expect(await renderBlockResultsText(42, r, 0.000001)).toBe(whole);
    }
  });

  it('gives the event loop a turn between pieces, and none when slices are off', async () => {
    const turned = async (sliceMs: number): Promise<boolean> => {
      let ran = false;
      setImmediate(() => (ran = true));
      await renderBlockResultsText(42, response(130), sliceMs);
      const seen = ran;
      await new Promise((resolve) => setImmediate(resolve));
      return seen;
    };
    expect(await turned(0.000001)).toBe(true);
    expect(await turned(0)).toBe(false);
  });

  it('is what the block_results route answers for a big block, and the small ones still render whole', async () => {
    const { blockRoutes } = await import('../../../src/node/rpc/core/blocks.js');
    const { RawJson } = await import('../../../src/node/rpc/route.js');
    const route = blockRoutes.find((r) => r.name === 'block_results')!;
    for (const n of [3, 130]) {
      const r = response(n);
      const env = { blockStore: { height: () => 42, base: () => 1 }, stateStore: { loadFinalizeBlockResponse: (h: number) => (h === 42 ? r : undefined) } };
      const answer = await route.handler(env as never, { height: 42 }, {} as never);
      const text = answer instanceof RawJson ? answer.text : JSON.stringify(answer);
      expect(answer instanceof RawJson).toBe(n >= 100);
      expect(text).toBe(JSON.stringify(renderBlockResults(42, r)));
    }
  });
});
