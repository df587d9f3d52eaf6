/**
 * Prometheus metrics (issue 14): with [instrumentation] prometheus = true a scrape of
 * prometheus_listen_addr shows CometBFT's metric names and the app's, with live values.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { RunningNode } from '../../../src/node/node.js';
import { rpcCall, TxLoad } from '../../helpers/load.js';
import { devnetHome, removeHomes, startFast, waitFor } from './helpers.js';

jest.setTimeout(60_000);

const homes: string[] = [];
let node: RunningNode;

beforeAll(async () => {
  node = await startFast(await devnetHome('metrics', homes), {
    nodeConfig: (c) => {
      c.instrumentation.prometheus = true;
      c.instrumentation.prometheusListenAddr = '127.0.0.1:0';
    },
  });
  await waitFor(() => node.consensus.status().latestBlockHeight >= 2, 'height 2');
});

afterAll(async () => {
  await node?.stop();
  removeHomes(homes);
});

/** name{labels} → value, from the text exposition format. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

function value(metrics: Map<string, number>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const [key, v] of metrics) {
    const brace = key.indexOf('{');
    const metricName = brace < 0 ? key : key.slice(0, brace);
    if (metricName !== name) continue;
    if (Object.entries(labels).every(([k, l]) => key.includes(`${k}="${l}"`))) return v;
  }
  return undefined;
}

describe('Prometheus metrics', () => {
  it('a scrape shows the CometBFT names and the app metrics with live values', async () => {
    expect(node.metricsAddress?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const load = await TxLoad.open(homes[0]!);
    await load.sync(node.rpcAddress.url);
    expect(await load.sendOne(node.rpcAddress.url)).toBe(true);
    // A tx CheckTx refuses (a failed tx) and a REST query (latency by route).
    const refused = await rpcCall<{ code: number }>(node.rpcAddress.url, 'broadcast_tx_sync', { tx: Buffer.from('not a tx').toString('base64') });
    expect(refused.result?.code).not.toBe(0);
    expect((await fetch(`${node.apiAddress!.url}/cosmos/base/tendermint/v1beta1/blocks/latest`)).status).toBe(200);
    const hash = load.accepted[0]!.hash;
    await waitFor(async () => (await rpcCall(node.rpcAddress.url, 'tx', { hash: Buffer.from(hash, 'hex').toString('base64') })).result !== undefined, 'the tx committed');

    const heightBefore = node.consensus.status().latestBlockHeight;
    const res = await fetch(node.metricsAddress!.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const m = parse(await res.text());
    // The gauges agree with `status` (read just before the scrape).
    expect(value(m, 'cometbft_consensus_height', { chain_id: 'testnet' })).toBeGreaterThanOrEqual(heightBefore);
    expect(value(m, 'cometbft_consensus_latest_block_height')).toBeGreaterThanOrEqual(2);
    expect(value(m, 'cometbft_consensus_rounds')).toBeGreaterThanOrEqual(0);
    expect(value(m, 'cometbft_consensus_validators')).toBe(1);
    expect(value(m, 'cometbft_consensus_validators_power')).toBeGreaterThan(0);
    expect(value(m, 'cometbft_consensus_missing_validators')).toBe(0);
    expect(value(m, 'cometbft_consensus_block_interval_seconds_count')).toBeGreaterThan(0);
    expect(value(m, 'cometbft_consensus_block_size_bytes')).toBeGreaterThan(0);
    expect(value(m, 'cometbft_consensus_num_txs')).toBeDefined();
    expect(value(m, 'cometbft_consensus_total_txs')).toBeGreaterThanOrEqual(1);
    expect(value(m, 'cometbft_mempool_size')).toBeDefined();
    expect(value(m, 'cometbft_mempool_failed_txs')).toBeGreaterThanOrEqual(1);
    expect(value(m, 'cometbft_p2p_peers')).toBe(0);
    expect(value(m, 'cometbft_state_block_processing_time_count')).toBeGreaterThanOrEqual(2);
    expect(value(m, 'tokend_app_txs_total', { code: '0' })).toBeGreaterThanOrEqual(1);
    expect(value(m, 'tokend_app_gas_used_total')).toBeGreaterThan(0);
    expect(value(m, 'tokend_app_query_duration_seconds_count', { route: '/cosmos.base.tendermint.v1beta1.Service/GetLatestBlock' })).toBe(1);
    expect(value(m, 'tokend_app_commit_duration_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(value(m, 'tokend_store_size_bytes')).toBeGreaterThan(0);
    expect(value(m, 'tokend_server_connections', { server: 'rpc' })).toBeGreaterThanOrEqual(0);
    expect(value(m, 'tokend_server_connections', { server: 'grpc' })).toBeGreaterThanOrEqual(0);
    // The same answer as /health and /ready.
    expect(value(m, 'tokend_node_healthy')).toBe(1);
    expect(value(m, 'tokend_node_ready')).toBe(1);
  });
});
