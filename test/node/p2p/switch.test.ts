/**
 * Nodes on loopback TCP: the handshakes, the checks that refuse a peer (another chain, another
 * block version, a wrong node id), channel messages of any size, misbehaving peers banned, limits,
 * and persistent peers reconnected after a restart.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { generateNodeKey, type NodeKey } from '../../../src/node/consensus/privval.js';
import type { Logger } from '../../../src/node/logger.js';
import { P2PNode, type Peer, type Reactor, type Switchboard, type P2POptions } from '../../../src/node/p2p/index.js';
import type { ChannelDescriptor } from '../../../src/node/p2p/conn/mconnection.js';
import { P2PError } from '../../../src/node/p2p/errors.js';

const TEST_CHANNEL = 0x77;

class EchoReactor implements Reactor {
  readonly name = 'echo';
  sw: Switchboard | undefined;
  readonly received: { peer: string; message: Buffer }[] = [];
  readonly added: string[] = [];
  readonly removed: string[] = [];
  private waiters: (() => void)[] = [];

  channels(): ChannelDescriptor[] {
    return [{ id: TEST_CHANNEL, priority: 5, sendQueueCapacity: 100, recvMessageCapacity: 100_000 }];
  }
  setSwitch(sw: Switchboard): void {
    this.sw = sw;
  }
  addPeer(peer: Peer): void {
    this.added.push(peer.id);
    this.wake();
  }
  removePeer(peer: Peer): void {
    this.removed.push(peer.id);
    this.wake();
  }
  receive(_ch: number, peer: Peer, message: Buffer): void {
    if (message.toString() === 'BAD') throw new P2PError('PROTOCOL', 'undecodable message');
    this.received.push({ peer: peer.id, message });
    this.wake();
  }
  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
  async until(cond: () => boolean, timeoutMs = 10000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!cond()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await Promise.race([new Promise<void>((r) => this.waiters.push(r)), new Promise((r) => setTimeout(r, 50))]);
    }
  }
}

function recordingLogger(): Logger & { lines: { level: string; msg: string; ctx?: Record<string, unknown> }[] } {
  const lines: { level: string; msg: string; ctx?: Record<string, unknown> }[] = [];
  const make = (level: string) => (msg: string, ctx?: Record<string, unknown>) => lines.push({ level, msg, ctx });
  return { lines, trace: make('trace'), debug: make('debug'), info: make('info'), warn: make('warn'), error: make('error') };
}

interface TestNode {
  p2p: P2PNode;
  echo: EchoReactor;
  key: NodeKey;
  logger: ReturnType<typeof recordingLogger>;
}

const nodes: TestNode[] = [];
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.p2p.stop();
});

async function startNode(options: Partial<P2POptions> = {}, extra: { network?: string; key?: NodeKey; blockVersion?: bigint } = {}): Promise<TestNode> {
  const key = extra.key ?? generateNodeKey();
  const logger = recordingLogger();
  const p2p = new P2PNode({
    nodeKey: key,
    network: extra.network ?? 'test-chain',
    moniker: 'node',
    version: '0.38.17',
    options: { laddr: 'tcp://127.0.0.1:0', pex: false, allowDuplicateIp: true, addrBookStrict: false, ...options },
    logger,
  });
  if (extra.blockVersion !== undefined) {
    const info = p2p.nodeInfo();
    info.protocolVersion.block = extra.blockVersion;
  }
  const echo = new EchoReactor();
  p2p.addReactor(echo);
  await p2p.start();
  const node = { p2p, echo, key, logger };
  nodes.push(node);
  return node;
}

describe('switch over loopback TCP', () => {
  it('connects persistent peers and carries messages of any size on a channel', async () => {
    const a = await startNode();
    const b = await startNode({ persistentPeers: a.p2p.dialAddress() });
    await a.echo.until(() => a.echo.added.includes(b.key.id));
    await b.echo.until(() => b.echo.added.includes(a.key.id));
    const big = Buffer.alloc(70_000, 7); // many 1024-byte packets
    b.p2p.switch.peer(a.key.id)!.send(TEST_CHANNEL, Buffer.from('hello'));
    b.p2p.switch.peer(a.key.id)!.send(TEST_CHANNEL, big);
    await a.echo.until(() => a.echo.received.length === 2);
    expect(a.echo.received[0]!.message.toString()).toBe('hello');
    expect(a.echo.received[1]!.message.equals(big)).toBe(true);
    const info = a.p2p.netInfo();
    expect(info.listening).toBe(true);
    expect(info.peers.map((p) => [p.nodeInfo.id, p.isOutbound])).toEqual([[b.key.id, false]]);
    expect(b.p2p.netInfo().peers.map((p) => [p.nodeInfo.id, p.isOutbound, p.nodeInfo.network])).toEqual([[a.key.id, true, 'test-chain']]);
  });

  it('announces external_address as its listen address', async () => {
    const a = await startNode();
    const b = await startNode({ persistentPeers: a.p2p.dialAddress(), externalAddress: 'tcp://203.0.113.7:26656' });
    await a.echo.until(() => a.echo.added.includes(b.key.id));
    expect(a.p2p.switch.peer(b.key.id)!.nodeInfo.listenAddr).toBe('tcp://203.0.113.7:26656');
  });

  it('refuses a peer on another chain, with a log line naming the peer', async () => {
    const a = await startNode();
    const b = await startNode({ persistentPeers: a.p2p.dialAddress() }, { network: 'other-chain' });
    await a.echo.until(() => a.logger.lines.some((l) => /rejected/.test(l.msg)));
    const line = a.logger.lines.find((l) => /rejected/.test(l.msg))!;
    expect(String(line.ctx?.err)).toContain('peer is on a different network. Got other-chain, expected test-chain');
    const dialLine = b.logger.lines.find((l) => /dialed peer rejected|error dialing/.test(l.msg));
    expect(dialLine).toBeDefined();
    expect(a.p2p.switch.peers()).toHaveLength(0);
    expect(b.p2p.switch.peers()).toHaveLength(0);
  });

  it('refuses a peer with another block protocol version', async () => {
    const a = await startNode();
    const b = await startNode({ persistentPeers: a.p2p.dialAddress() }, { blockVersion: 10n });
    await b.echo.until(() => b.logger.lines.some((l) => /peer is on a different Block version/.test(String(l.ctx?.err))));
    expect(a.p2p.switch.peers()).toHaveLength(0);
  });

  it('refuses an address whose node id is not the key the peer proves', async () => {
    const a = await startNode();
    const wrongId = generateNodeKey().id;
    const port = a.p2p.dialAddress().split(':').pop();
    const b = await startNode({ persistentPeers: `${wrongId}@127.0.0.1:${port}` });
    await b.echo.until(() => b.logger.lines.some((l) => /dialed ID .* mismatch/.test(String(l.ctx?.err))));
    const line = b.logger.lines.find((l) => /dialed ID .* mismatch/.test(String(l.ctx?.err)))!;
    expect(String(line.ctx?.address)).toContain(wrongId);
    expect(b.p2p.switch.peers()).toHaveLength(0);
  });

  it('refuses a malformed address in config with a message naming the setting', () => {
    expect(() => new P2PNode({ nodeKey: generateNodeKey(), network: 'c', moniker: 'm', version: 'v', options: { persistentPeers: 'abc@127.0.0.1:26656' } })).toThrow(
      /config.toml p2p.persistent_peers: .*abc@127.0.0.1:26656/,
    );
    expect(() => new P2PNode({ nodeKey: generateNodeKey(), network: 'c', moniker: 'm', version: 'v', options: { seeds: '127.0.0.1:26656' } })).toThrow(
      /config.toml p2p.seeds: address \(127.0.0.1:26656\) does not contain ID/,
    );
    expect(() => new P2PNode({ nodeKey: generateNodeKey(), network: 'c', moniker: 'm', version: 'v', options: { laddr: 'tcp://nowhere' } })).toThrow(/config.toml p2p.laddr/);
  });

  it('disconnects and bans a peer that sends an undecodable message', async () => {
    const a = await startNode({ banDurationMs: 60_000 });
    const b = await startNode({ persistentPeers: a.p2p.dialAddress() });
    await a.echo.until(() => a.echo.added.includes(b.key.id));
    b.p2p.switch.peer(a.key.id)!.send(TEST_CHANNEL, Buffer.from('BAD'));
    await a.echo.until(() => a.echo.removed.includes(b.key.id));
    expect(a.p2p.switch.isBanned(b.key.id)).toBe(true);
    expect(a.logger.lines.some((l) => l.msg === 'stopping peer for error' && l.ctx?.peer === b.key.id && /undecodable/.test(String(l.ctx?.err)))).toBe(true);
    // b keeps redialing (a is persistent for b), a keeps refusing while the ban lasts: two of b's
    // redials refused as banned, and no peer on a's side meanwhile.
    const refusals = (): number => a.logger.lines.filter((l) => l.msg === 'inbound peer not added' && l.ctx?.peer === b.key.id && /is banned/.test(String(l.ctx?.err))).length;
    await a.echo.until(() => refusals() >= 2);
    expect(a.p2p.switch.peers()).toHaveLength(0);
    expect(a.echo.added.filter((id) => id === b.key.id)).toHaveLength(1);
  });

  it('disconnects and bans a peer that sends a message over the channel capacity', async () => {
    const a = await startNode();
    const b = await startNode({ persistentPeers: a.p2p.dialAddress() });
    await a.echo.until(() => a.echo.added.includes(b.key.id));
    b.p2p.switch.peer(a.key.id)!.send(TEST_CHANNEL, Buffer.alloc(150_000));
    await a.echo.until(() => a.echo.removed.includes(b.key.id));
    expect(a.p2p.switch.isBanned(b.key.id)).toBe(true);
    expect(a.logger.lines.some((l) => /exceeds available capacity/.test(String(l.ctx?.err)))).toBe(true);
    expect(a.echo.received).toHaveLength(0);
  });

  it('keeps inbound peers within max_num_inbound_peers', async () => {
    const a = await startNode({ maxNumInboundPeers: 1 });
    const b = await startNode({ persistentPeers: a.p2p.dialAddress() });
    await a.echo.until(() => a.echo.added.includes(b.key.id));
    const c = await startNode({ persistentPeers: a.p2p.dialAddress() });
    await a.echo.until(() => a.logger.lines.some((l) => /enough inbound peers/.test(l.msg)));
    expect(a.p2p.switch.peers().map((p) => p.id)).toEqual([b.key.id]);
    // c's side of the handshake may complete before a closes the connection: c drops a once it
    // sees the close (it would keep a for good had a accepted it).
    await c.echo.until(() => c.p2p.switch.peers().length === 0);
    expect(a.p2p.switch.peers().map((p) => p.id)).toEqual([b.key.id]);
  });

  it('redials a persistent peer that restarted', async () => {
    const a = await startNode();
    const address = a.p2p.dialAddress();
    const port = Number(address.split(':').pop());
    const b = await startNode({ persistentPeers: address });
    await b.echo.until(() => b.echo.added.includes(a.key.id));
    await a.p2p.stop();
    nodes.splice(nodes.indexOf(a), 1);
    await b.echo.until(() => b.echo.removed.includes(a.key.id));
    const again = await startNode({ laddr: `tcp://127.0.0.1:${port}` }, { key: a.key });
    await b.echo.until(() => b.echo.added.filter((id) => id === a.key.id).length === 2, 15000);
    await again.echo.until(() => again.echo.added.includes(b.key.id));
  }, 30000);
});
