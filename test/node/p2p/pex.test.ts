/**
 * Peer exchange and the address book: nodes that know only a seed learn each other's addresses
 * and connect; a seed answers one request and hangs up; private peer ids are never gossiped;
 * addr_book_strict keeps loopback addresses out; a peer that asks too often is banned; the book
 * is saved in CometBFT's addrbook.json layout. Also the MConnection's keep-alive and framing
 * checks over real sockets.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, connect, type Socket } from 'node:net';
import { generateNodeKey, type NodeKey } from '../../../src/node/consensus/privval.js';
import { Ed25519PrivateKey } from '../../../src/node/consensus/types/keys.js';
import { MemoryNetwork, P2PNode, type P2POptions } from '../../../src/node/p2p/index.js';
import { AddrBook } from '../../../src/node/p2p/pex/addrBook.js';
import { PEX_CHANNEL, encodePexMessage } from '../../../src/node/p2p/pex/reactor.js';
import { MConnection, defaultMConnectionOptions } from '../../../src/node/p2p/conn/mconnection.js';
import { makeSecretConnection } from '../../../src/node/p2p/conn/secretConnection.js';
import { delimit } from '../../../src/node/p2p/conn/byteQueue.js';

const nodes: P2PNode[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function until(cond: () => boolean, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function memNode(network: MemoryNetwork, key: NodeKey, port: number, options: Partial<P2POptions>, home?: string): P2PNode {
  const node = new P2PNode({
    nodeKey: key,
    network: 'pex-chain',
    moniker: `n${port}`,
    version: '0.38.17',
    memoryNetwork: network,
    home,
    ensurePeersPeriodMs: 400,
    options: { laddr: `tcp://127.0.0.1:${port}`, addrBookStrict: false, allowDuplicateIp: true, ...options },
  });
  nodes.push(node);
  return node;
}

describe('PEX', () => {
  it('nodes that only know a seed find each other; the seed hangs up after answering; the book is saved as addrbook.json', async () => {
    const network = new MemoryNetwork();
    const [seedKey, aKey, bKey, cKey] = [generateNodeKey(), generateNodeKey(), generateNodeKey(), generateNodeKey()];
    const seedAddr = `${seedKey.id}@127.0.0.1:23000`;
    const home = mkdtempSync(join(tmpdir(), 'tokend-pex-'));
    dirs.push(home);
    const seed = memNode(network, seedKey, 23000, { seedMode: true });
    const a = memNode(network, aKey, 23001, { seeds: seedAddr }, home);
    const b = memNode(network, bKey, 23002, { seeds: seedAddr });
    const c = memNode(network, cKey, 23003, { seeds: seedAddr });
    await seed.start();
    for (const n of [a, b, c]) await n.start();
    // Everyone ends up connected to the others without ever being told their addresses.
    await until(() => [a, b, c].every((n) => n.peerIds().filter((id) => id !== seedKey.id).length === 2), 20000);
    // The seed does not keep them.
    await until(() => seed.peerIds().length === 0, 15000);
    await a.stop();
    nodes.splice(nodes.indexOf(a), 1);
    const book = JSON.parse(readFileSync(join(home, 'config', 'addrbook.json'), 'utf8')) as { key: string; addrs: { addr: { id: string; ip: string; port: number }; bucket_type: number }[] };
    expect(typeof book.key).toBe('string');
    const ids = book.addrs.map((e) => e.addr.id);
    expect(ids).toEqual(expect.arrayContaining([bKey.id, cKey.id]));
    expect(book.addrs.find((e) => e.addr.id === bKey.id)!.addr).toEqual({ id: bKey.id, ip: '127.0.0.1', port: 23002 });
  }, 40000);

  it('never gossips private peer ids', () => {
    const book = new AddrBook({ strict: false, privateIds: ['aa'.repeat(20)] });
    const src = { id: 'bb'.repeat(20), host: '10.0.0.9', port: 1 };
    expect(book.addAddress({ id: 'aa'.repeat(20), host: '10.0.0.1', port: 26656 }, src)).toBe(false);
    expect(book.addAddress({ id: 'cc'.repeat(20), host: '10.0.0.2', port: 26656 }, src)).toBe(true);
    expect(book.getSelection().map((a) => a.id)).toEqual(['cc'.repeat(20)]);
  });

  it('addr_book_strict keeps non-routable addresses out', () => {
    const strict = new AddrBook({ strict: true, privateIds: [] });
    const src = { id: 'bb'.repeat(20), host: '8.8.8.8', port: 1 };
    for (const host of ['127.0.0.1', '10.1.2.3', '192.168.1.1', '172.16.0.1', '169.254.1.1', '::1']) expect(strict.addAddress({ id: 'cc'.repeat(20), host, port: 26656 }, src)).toBe(false);
    expect(strict.addAddress({ id: 'cc'.repeat(20), host: '8.8.4.4', port: 26656 }, src)).toBe(true);
    expect(new AddrBook({ strict: false, privateIds: [] }).addAddress({ id: 'dd'.repeat(20), host: '127.0.0.1', port: 26656 }, src)).toBe(true);
  });

  it('a peer that asks for addresses too often is disconnected and banned', async () => {
    const network = new MemoryNetwork();
    const [aKey, bKey] = [generateNodeKey(), generateNodeKey()];
    const a = memNode(network, aKey, 23010, {});
    const b = memNode(network, bKey, 23011, { persistentPeers: `${aKey.id}@127.0.0.1:23010` });
    await a.start();
    await b.start();
    await until(() => a.peerIds().includes(bKey.id));
    const peer = b.switch.peer(aKey.id)!;
    for (let i = 0; i < 3; i++) peer.send(PEX_CHANNEL, encodePexMessage({ type: 'request' }));
    await until(() => a.switch.isBanned(bKey.id));
    expect(a.peerIds()).not.toContain(bKey.id);
  });
});

describe('MConnection over a secret connection', () => {
  async function pair(): Promise<{ a: Socket; b: Socket; close: () => void }> {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const accepted = new Promise<Socket>((r) => server.once('connection', r));
    const a = connect((server.address() as { port: number }).port, '127.0.0.1');
    const b = await accepted;
    return { a, b, close: () => server.close() };
  }

  it('answers pings and fails a peer that never pongs', async () => {
    const { a, b, close } = await pair();
    const [sa, sb] = await Promise.all([makeSecretConnection(a, Ed25519PrivateKey.generate(), 5000), makeSecretConnection(b, Ed25519PrivateKey.generate(), 5000)]);
    const errors: Error[] = [];
    const options = { ...defaultMConnectionOptions, pingIntervalMs: 100, pongTimeoutMs: 300 };
    const ma = new MConnection(sa, [{ id: 1, priority: 1, sendQueueCapacity: 10, recvMessageCapacity: 1000 }], options, () => undefined, (e) => errors.push(e));
    const mb = new MConnection(sb, [{ id: 1, priority: 1, sendQueueCapacity: 10, recvMessageCapacity: 1000 }], { ...options, pingIntervalMs: 60_000 }, () => undefined, () => undefined);
    ma.start();
    mb.start();
    await new Promise((r) => setTimeout(r, 700));
    expect(errors).toEqual([]); // pongs came back
    // A peer that reads but never answers: raw secret connection without an MConnection.
    const { a: c, b: d, close: close2 } = await pair();
    const [sc, sd] = await Promise.all([makeSecretConnection(c, Ed25519PrivateKey.generate(), 5000), makeSecretConnection(d, Ed25519PrivateKey.generate(), 5000)]);
    sd.onData(() => undefined);
    const silentErrors: Error[] = [];
    const mc = new MConnection(sc, [{ id: 1, priority: 1, sendQueueCapacity: 10, recvMessageCapacity: 1000 }], options, () => undefined, (e) => silentErrors.push(e));
    mc.start();
    await until(() => silentErrors.length > 0, 3000);
    expect(silentErrors[0]!.message).toBe('pong timeout');
    ma.stop();
    mb.stop();
    mc.stop();
    sd.socket.destroy();
    sc.socket.destroy();
    sa.socket.destroy();
    sb.socket.destroy();
    close();
    close2();
  });

  it('fails on an unknown channel and on a packet larger than the maximum', async () => {
    for (const bad of [
      // PacketMsg on channel 0x55, which the receiver does not have.
      delimit(Uint8Array.of(0x1a, 0x06, 0x08, 0x55, 0x10, 0x01, 0x1a, 0x00)),
      // A length prefix far above max_packet_msg_payload_size.
      Uint8Array.of(0xff, 0xff, 0x03),
    ]) {
      const { a, b, close } = await pair();
      const [sa, sb] = await Promise.all([makeSecretConnection(a, Ed25519PrivateKey.generate(), 5000), makeSecretConnection(b, Ed25519PrivateKey.generate(), 5000)]);
      const errors: Error[] = [];
      const m = new MConnection(sb, [{ id: 1, priority: 1, sendQueueCapacity: 10, recvMessageCapacity: 1000 }], defaultMConnectionOptions, () => undefined, (e) => errors.push(e));
      m.start();
      sa.write(bad);
      await until(() => errors.length > 0, 3000);
      expect(errors[0]!.message).toMatch(/unknown channel 55|exceeds max size/);
      sa.socket.destroy();
      sb.socket.destroy();
      close();
    }
  });
});
