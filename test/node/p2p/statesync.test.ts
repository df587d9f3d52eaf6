/**
 * Snapshots and state sync in process: a snapshot of a real state store restores to the same app
 * hash; a peer whose chunk does not hash to the advertised value is named in the log, banned, and
 * the chunk is fetched from another peer; a restored state whose app hash differs from the
 * trusted one is refused before anything is committed.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Snapshot, SnapshotApplication } from '../../../src/node/abci/types.js';
import { generateNodeKey, type NodeKey } from '../../../src/node/consensus/privval.js';
import { StateSyncReactor } from '../../../src/node/consensus/statesync/reactor.js';
import type { LightClient } from '../../../src/node/consensus/statesync/lightClient.js';
import { defaultConsensusParams } from '../../../src/node/consensus/types/params.js';
import { ValidatorSet, newValidator } from '../../../src/node/consensus/types/validator.js';
import { Ed25519PrivateKey } from '../../../src/node/consensus/types/keys.js';
import { emptyHeader, zeroBlockId, emptyCommit } from '../../../src/node/consensus/types/block.js';
import { MemoryNetwork, P2PNode } from '../../../src/node/p2p/index.js';
import { SnapshotManager } from '../../../src/node/snapshots/manager.js';
import { memoryDatabase } from '../../../src/node/store/db/database.js';
import { openCommitMultiStore, type RootMultiStore } from '../../../src/node/store/index.js';

const STORES = ['acc', 'bank'];
const dirs: string[] = [];
const nodes: P2PNode[] = [];
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'tokend-snap-'));
  dirs.push(d);
  return d;
}

async function sourceStore(height: number): Promise<RootMultiStore> {
  const store = await openCommitMultiStore(memoryDatabase(), { stores: STORES });
  for (let v = 1; v <= height; v++) {
    for (let i = 0; i < 50; i++) {
      store.getStore(STORES[i % 2]!).set(new TextEncoder().encode(`key-${v}-${i}`), new TextEncoder().encode(`value-${v * i}`));
    }
    await store.commit();
  }
  return store;
}

function recorder(): { lines: { msg: string; ctx?: Record<string, unknown> }[]; trace(): void; debug(): void; info(m: string, c?: Record<string, unknown>): void; warn(m: string, c?: Record<string, unknown>): void; error(m: string, c?: Record<string, unknown>): void } {
  const lines: { msg: string; ctx?: Record<string, unknown> }[] = [];
  const push = (msg: string, ctx?: Record<string, unknown>): void => void lines.push({ msg, ctx });
  return { lines, trace: () => undefined, debug: () => undefined, info: push, warn: push, error: push };
}

/** A light client stub that vouches for `appHash` at every height (the real one is tested end to end). */
function trustingLightClient(appHash: Uint8Array): LightClient {
  const vals = ValidatorSet.create([newValidator(Ed25519PrivateKey.generate().pubKey, 10n)]);
  const block = (height: number): unknown => ({ header: { ...emptyHeader(), height, appHash, version: { block: 11n, app: 0n } }, commit: { ...emptyCommit(), height, blockId: zeroBlockId() }, validators: vals });
  return { verifyLightBlockAtHeight: async (h: number) => block(h), consensusParams: async () => defaultConsensusParams() } as unknown as LightClient;
}

function p2pNode(network: MemoryNetwork, key: NodeKey, port: number, peers: string[], app: SnapshotApplication | undefined, logger = recorder()): { p2p: P2PNode; reactor: StateSyncReactor; logger: ReturnType<typeof recorder> } {
  const p2p = new P2PNode({
    nodeKey: key,
    network: 'snap-chain',
    moniker: `n${port}`,
    version: '0.38.17',
    memoryNetwork: network,
    logger,
    options: { laddr: `tcp://127.0.0.1:${port}`, pex: false, persistentPeers: peers.join(','), allowDuplicateIp: true, addrBookStrict: false },
  });
  const reactor = new StateSyncReactor(app, logger);
  p2p.addReactor(reactor);
  nodes.push(p2p);
  return { p2p, reactor, logger };
}

describe('state-sync snapshots', () => {
  it('a snapshot restores to the same app hash; chunks that do not hash as advertised get their sender banned', async () => {
    const source = await sourceStore(10);
    const sourceManager = new SnapshotManager(source, { dir: tmp(), interval: 5, keepRecent: 2, chunkBytes: 300 });
    const snapshot = await sourceManager.take(10);
    expect(snapshot.chunks).toBeGreaterThan(1);

    // The honest server answers a little later, so the client asks the cheater first.
    const honest: SnapshotApplication = {
      ...sourceManager,
      listSnapshots: async () => {
        await new Promise((r) => setTimeout(r, 150));
        return sourceManager.listSnapshots();
      },
      loadSnapshotChunk: (r) => sourceManager.loadSnapshotChunk(r),
      offerSnapshot: (r) => sourceManager.offerSnapshot(r),
      applySnapshotChunk: (r) => sourceManager.applySnapshotChunk(r),
    };
    const cheater: SnapshotApplication = {
      listSnapshots: () => sourceManager.listSnapshots(),
      loadSnapshotChunk: async (r) => {
        const { chunk } = await sourceManager.loadSnapshotChunk(r);
        const bad = Uint8Array.from(chunk!);
        bad[0]! ^= 0xff;
        return { chunk: bad };
      },
      offerSnapshot: async () => ({ result: 'reject' }),
      applySnapshotChunk: async () => ({ result: 'abort', refetchChunks: [], rejectSenders: [] }),
    };
    const network = new MemoryNetwork();
    const keys = [generateNodeKey(), generateNodeKey(), generateNodeKey()];
    const address = (i: number): string => `${keys[i]!.id}@127.0.0.1:${21900 + i}`;
    const target = await openCommitMultiStore(memoryDatabase(), { stores: STORES });
    const clientLogger = recorder();
    const targetManager = new SnapshotManager(target, { dir: tmp(), interval: 0, keepRecent: 0 }, clientLogger);
    const a = p2pNode(network, keys[0]!, 21900, [], honest);
    const b = p2pNode(network, keys[1]!, 21901, [], cheater);
    const c = p2pNode(network, keys[2]!, 21902, [address(1), address(0)], targetManager, clientLogger);
    for (const n of [a, b, c]) await n.p2p.start();
    await new Promise((r) => setTimeout(r, 700));

    const result = await c.reactor.sync(trustingLightClient(source.lastCommitId().hash), 'snap-chain', 1, { discoveryTimeMs: 400, chunkRequestTimeoutMs: 2000, chunkFetchers: 1 });
    expect(result.state.lastBlockHeight).toBe(10);
    expect(target.lastCommitId()).toEqual(source.lastCommitId());
    // The cheater is named and banned.
    const mismatch = clientLogger.lines.find((l) => l.msg === 'snapshot chunk hash mismatch; rejecting its sender');
    expect(mismatch?.ctx?.peer).toBe(keys[1]!.id);
    expect(c.p2p.switch.isBanned(keys[1]!.id)).toBe(true);
    expect(c.p2p.peerIds()).toEqual([keys[0]!.id]);
  }, 30000);

  it('a restore whose app hash is not the trusted one commits nothing', async () => {
    const source = await sourceStore(3);
    const manager = new SnapshotManager(source, { dir: tmp(), interval: 0, keepRecent: 0 });
    const snapshot: Snapshot = await manager.take(3);
    const target = await openCommitMultiStore(memoryDatabase(), { stores: STORES });
    const logger = recorder();
    const restorer = new SnapshotManager(target, { dir: tmp(), interval: 0, keepRecent: 0 }, logger);
    expect((await restorer.offerSnapshot({ snapshot, appHash: new Uint8Array(32).fill(1) })).result).toBe('accept');
    let last;
    for (let i = 0; i < snapshot.chunks; i++) last = await restorer.applySnapshotChunk({ index: i, chunk: (await manager.loadSnapshotChunk({ height: 3, format: 3, chunk: i })).chunk!, sender: 'peer' });
    expect(last!.result).toBe('reject_snapshot');
    expect(target.latestVersion()).toBe(0);
    expect(logger.lines.some((l) => /the imported state hashes to [0-9a-f]+, expected/.test(String(l.ctx?.err)))).toBe(true);
    // A second offer on a store that already has state is refused.
    expect((await new SnapshotManager(source, { dir: tmp(), interval: 0, keepRecent: 0 }).offerSnapshot({ snapshot, appHash: source.lastCommitId().hash })).result).toBe('abort');
  });

  it('keeps snapshot-keep-recent snapshots and takes one every snapshot-interval heights', async () => {
    const source = await sourceStore(12);
    const dir = tmp();
    const manager = new SnapshotManager(source, { dir, interval: 4, keepRecent: 2 });
    for (let h = 1; h <= 12; h++) {
      manager.maybeSnapshot(h);
      await manager.idle();
    }
    expect((await manager.listSnapshots()).map((s) => s.height)).toEqual([12, 8]);
  });
});
