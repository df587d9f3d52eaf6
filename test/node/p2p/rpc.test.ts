/**
 * The p2p parts of the RPC: net_info renders peers as CometBFT does (node info, direction,
 * connection status with cmtjson's string integers), and dial_seeds / dial_peers exist only when
 * [rpc] unsafe = true, refusing malformed addresses with CometBFT's texts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RpcServer, unsafeNetRoutes, type RpcEnvironment } from '../../../src/node/rpc/index.js';
import { parseNetAddress } from '../../../src/node/p2p/index.js';
import { call, startNode, type TestNode } from '../rpc/helpers.js';

let node: TestNode;
let unsafe: RpcServer;
let unsafeUrl: string;
const dialed: { kind: string; addrs: string[]; persistent?: boolean }[] = [];

beforeAll(async () => {
  node = await startNode();
  const env = (node.server as unknown as { env: RpcEnvironment }).env;
  const withP2P: RpcEnvironment = {
    ...env,
    netInfo: () => ({
      listening: true,
      listeners: ['Listener(@)'],
      peers: [
        {
          nodeInfo: { id: 'ab'.repeat(20), listenAddr: 'tcp://0.0.0.0:26656', network: 'c', version: '0.38.17', channels: '40202122233038606100', moniker: 'peer', other: { txIndex: 'on', rpcAddress: 'tcp://0.0.0.0:26657' } },
          isOutbound: true,
          remoteIp: '127.0.0.1',
          connectionStatus: {
            durationMs: 1500,
            sendMonitor: { startMs: Date.UTC(2024, 0, 1), bytes: 1000, curRate: 10, avgRate: 5, peakRate: 20, durationMs: 1500, idleMs: 100 },
            recvMonitor: { startMs: Date.UTC(2024, 0, 1), bytes: 2000, curRate: 11, avgRate: 6, peakRate: 21, durationMs: 1500, idleMs: 100 },
            channels: [{ id: 0x20, sendQueueCapacity: 100, sendQueueSize: 0, priority: 6, recentlySent: 42 }],
          },
        },
      ],
    }),
    p2p: {
      dialSeeds: (addrs) => {
        addrs.forEach((a) => parseNetAddress(a));
        dialed.push({ kind: 'seeds', addrs });
      },
      dialPeers: (addrs, o) => {
        addrs.forEach((a) => parseNetAddress(a));
        dialed.push({ kind: 'peers', addrs, persistent: o.persistent });
      },
    },
  };
  unsafe = new RpcServer({ env: withP2P, options: { laddr: 'tcp://127.0.0.1:0' }, routes: unsafeNetRoutes });
  unsafeUrl = (await unsafe.start()).url;
});

afterAll(async () => {
  await unsafe.stop();
  await node.stop();
});

async function raw(url: string, method: string, params: Record<string, unknown>): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string; data?: string } }> {
  const res = await fetch(url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: string } };
}

describe('p2p routes', () => {
  it('dial_seeds and dial_peers do not exist unless [rpc] unsafe = true', async () => {
    const res = await raw(node.address.url, 'dial_seeds', { seeds: ['ab'.repeat(20) + '@127.0.0.1:26656'] });
    expect(res.error?.code).toBe(-32601);
    expect((await raw(node.address.url, 'dial_peers', { peers: [] })).error?.code).toBe(-32601);
  });

  it('with unsafe: dials well-formed addresses and refuses malformed ones', async () => {
    const good = `${'ab'.repeat(20)}@127.0.0.1:26656`;
    expect((await raw(unsafeUrl, 'dial_seeds', { seeds: [good] })).result).toEqual({ log: 'Dialing seeds in progress. See /net_info for details' });
    expect((await raw(unsafeUrl, 'dial_peers', { peers: [good], persistent: true })).result).toEqual({ log: 'Dialing peers in progress. See /net_info for details' });
    expect(dialed).toEqual([
      { kind: 'seeds', addrs: [good] },
      { kind: 'peers', addrs: [good], persistent: true },
    ]);
    const noId = await raw(unsafeUrl, 'dial_peers', { peers: ['127.0.0.1:26656'] });
    expect(noId.error?.data).toMatch(/does not contain ID/);
    expect((await raw(unsafeUrl, 'dial_seeds', { seeds: [] })).error?.data).toBe('no seeds provided');
  });

  it('net_info lists peers with their node info and connection status', async () => {
    const info = (await call(unsafeUrl, 'net_info')) as Record<string, unknown>;
    expect(info).toMatchObject({ listening: true, listeners: ['Listener(@)'], n_peers: '1' });
    const peer = (info['peers'] as Record<string, unknown>[])[0]!;
    expect(peer['is_outbound']).toBe(true);
    expect(peer['remote_ip']).toBe('127.0.0.1');
    expect(peer['node_info']).toMatchObject({ id: 'ab'.repeat(20), moniker: 'peer', channels: '40202122233038606100', other: { tx_index: 'on', rpc_address: 'tcp://0.0.0.0:26657' } });
    expect(peer['connection_status']).toMatchObject({
      Duration: '1500000000',
      SendMonitor: { Start: '2024-01-01T00:00:00Z', Bytes: '1000', AvgRate: '5', Active: true },
      RecvMonitor: { Bytes: '2000' },
      Channels: [{ ID: 32, SendQueueCapacity: '100', SendQueueSize: '0', Priority: '6', RecentlySent: '42' }],
    });
  });
});
