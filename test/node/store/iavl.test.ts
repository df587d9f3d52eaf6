/**
 * The IAVL tree against cosmos/iavl's own vectors: TestTreeHash (tree_test.go) replays 4 versions
 * of 4,096 random creates/updates/deletes from Go's math/rand seeded with 49872768940 and expects
 * these root hashes; the empty tree hashes to sha256(""). Plus structural invariants under
 * random operations (AVL balance, sizes, key order) and copy-on-write across versions.
 */
import { EMPTY_TREE_HASH, IavlTree, writeZigZag, type NodeView } from '../../../src/node/store/iavl/tree.js';
import { sha256 } from '../../../src/node/store/hash.js';
import { NODES_PER_CHUNK, NodeChunkEncoder, NodeReader, chunkNodeCount, decodeAddresses } from '../../../src/node/store/iavl/nodes.js';
import { memoryDatabase } from '../../../src/node/store/db/database.js';
import { GoRand } from './gorand.js';
import { hex, rng } from './helpers.js';

const TREE_HASH_VECTORS = [
  '58ec30fa27f338057e5964ed9ec3367e59b2b54bec4c194f10fde7fed16c2a1c',
  '91ad3ace227372f0064b2d63e8493ce8f4bdcbd16c7a8e4f4d54029c9db9570c',
  '92c25dce822c5968c228cfe7e686129ea281f79273d4a8fcf6f9130a47aa5421',
  'e44d170925554f42e00263155c19574837a38e3efed8910daccc7fa12f560fa0',
];

function commit(tree: IavlTree): Uint8Array {
  const hash = tree.workingHash();
  tree.newNodes();
  tree.commit();
  return hash;
}

function check(view: NodeView | undefined): { min: Uint8Array; max: Uint8Array; height: number; size: number } | undefined {
  if (view === undefined) return undefined;
  if (view.isLeaf) return { min: view.key, max: view.key, height: 0, size: 1 };
  const left = check(view.left())!;
  const right = check(view.right())!;
  expect(Math.abs(left.height - right.height)).toBeLessThanOrEqual(1);
  expect(view.height).toBe(Math.max(left.height, right.height) + 1);
  expect(view.size).toBe(left.size + right.size);
  expect(Buffer.compare(Buffer.from(left.max), Buffer.from(view.key))).toBeLessThan(0);
  expect(hex(view.key)).toBe(hex(right.min));
  return { min: left.min, max: right.max, height: view.height, size: view.size };
}

describe('IAVL tree', () => {
  test('cosmos/iavl TestTreeHash: the same random operations give the same four root hashes', () => {
    const r = new GoRand(49872768940n);
    const tree = new IavlTree(undefined, 1);
    const keys: Uint8Array[] = [];
    const hashes: string[] = [];
    let mismatches = 0;
    for (let version = 0; version < 4; version++) {
      for (let op = 0; op < 4096; op++) {
        if (keys.length > 0 && r.float64() <= 0.2) {
          const index = r.intn(keys.length);
          const [key] = keys.splice(index, 1);
          if (!tree.remove(key!)) mismatches++;
        } else if (keys.length > 0 && r.float64() <= 0.4) {
          const key = keys[r.intn(keys.length)]!;
          const value = new Uint8Array(16);
          r.read(value);
          if (!tree.set(key, sha256(value))) mismatches++;
        } else {
          const key = new Uint8Array(16);
          const value = new Uint8Array(16);
          r.read(key);
          r.read(value);
          if (tree.set(key, sha256(value))) mismatches++;
          keys.push(key);
        }
      }
      hashes.push(hex(commit(tree))!);
    }
    expect(mismatches).toBe(0);
    expect(hashes).toEqual(TREE_HASH_VECTORS);
  });

  test('the empty tree hashes to sha256("") (cosmos/iavl basic_test)', () => {
    const tree = new IavlTree(undefined, 1);
    expect(hex(tree.workingHash())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(EMPTY_TREE_HASH)).toBe(hex(tree.workingHash()));
    tree.set(Uint8Array.of(1), sha256(Uint8Array.of(1)));
    expect(tree.remove(Uint8Array.of(1))).toBe(true);
    expect(tree.remove(Uint8Array.of(1))).toBe(false);
    expect(hex(tree.workingHash())).toBe(hex(EMPTY_TREE_HASH));
  });

  test('random sets and removes keep the AVL invariants; discarding restores the committed root', () => {
    const random = rng(11);
    const tree = new IavlTree(undefined, 1);
    const live = new Map<string, Uint8Array>();
    for (let version = 1; version <= 8; version++) {
      for (let op = 0; op < 150; op++) {
        const key = Uint8Array.of(Math.floor(random() * 40), Math.floor(random() * 40));
        if (random() < 0.35) {
          expect(tree.remove(key)).toBe(live.delete(hex(key)!));
        } else {
          expect(tree.set(key, sha256(key))).toBe(live.has(hex(key)!));
          live.set(hex(key)!, key);
        }
      }
      const before = hex(tree.committedHash());
      const working = hex(tree.workingHash());
      tree.discardWorking();
      expect(hex(tree.workingHash())).toBe(before);
      expect(working).not.toBeUndefined();
      // Re-apply the same final state differently is not equivalent in IAVL; rebuild the model instead.
      live.clear();
      const collect = (view: NodeView | undefined): void => {
        if (view === undefined) return;
        if (view.isLeaf) live.set(hex(view.key)!, view.key);
        else {
          collect(view.left());
          collect(view.right());
        }
      };
      collect(tree.committedView());
      for (let op = 0; op < 150; op++) {
        const key = Uint8Array.of(Math.floor(random() * 40), Math.floor(random() * 40));
        if (random() < 0.35) expect(tree.remove(key)).toBe(live.delete(hex(key)!));
        else {
          expect(tree.set(key, sha256(key))).toBe(live.has(hex(key)!));
          live.set(hex(key)!, key);
        }
      }
      commit(tree);
      const shape = check(tree.committedView());
      expect(shape?.size ?? 0).toBe(live.size);
    }
  });

  test('the orphan record lists the replaced path: an update of the last key orphans the right spine', () => {
    const tree = new IavlTree(undefined, 1);
    const keys = Array.from({ length: 300 }, (_, i) => Uint8Array.of(i >> 8, i & 0xff));
    for (const key of keys) tree.set(key, sha256(key));
    expect(tree.encodedOrphanAddresses()).toBeUndefined();
    tree.workingHash();
    const created = tree.newNodes();
    tree.commit();
    tree.set(keys[299]!, sha256(Uint8Array.of(9)));
    const orphans = decodeAddresses(tree.encodedOrphanAddresses()!);
    // Post-order puts the right spine (last leaf, its parent, …, the root) at the very end.
    expect(orphans.every((a) => a.version === 1)).toBe(true);
    const indexes = orphans.map((a) => a.index).sort((a, b) => a - b);
    expect(indexes.length).toBeGreaterThan(5);
    expect(indexes).toEqual(Array.from({ length: indexes.length }, (_, i) => created.length - indexes.length + i));
    commit(tree);
    expect(tree.encodedOrphanAddresses()).toBeUndefined();
  });

  test('node chunks written from shared slabs read back intact (every inner node checked against its children)', async () => {
    const tree = new IavlTree(undefined, 1);
    const keys = Array.from({ length: 6000 }, (_, i) => sha256(Uint8Array.of(i >> 8, i & 0xff)).subarray(0, 12)).sort((a, b) => Buffer.compare(a, b));
    for (const key of keys) tree.set(key, sha256(key));
    const root = tree.workingHash();
    const created = tree.newNodes();
    const encoder = new NodeChunkEncoder(3, 1);
    tree.encodeNodes(created, encoder);
    const ops = encoder.finish();
    // Several slabs' worth of chunks, each a separate view with its own header.
    expect(ops.length).toBeGreaterThan(60);
    expect(ops.reduce((n, op) => n + chunkNodeCount(op.value!), 0)).toBe(created.length);
    const address = tree.workingRootAddress()!;
    tree.commit();
    const db = memoryDatabase();
    await db.batch(ops);
    const reopened = new IavlTree(new NodeReader(db, 'test', 3), 2);
    reopened.reset(address, 2);
    expect(hex(reopened.committedHash())).toBe(hex(root));
    expect(reopened.preload(created.length)).toBe(created.length);
    for (const key of keys.slice(0, 200)) expect(reopened.has(key)).toBe(true);
  });

  test('encodeNewNodes writes the same records as newNodes + encodeNodes, version after version', () => {
    const twoPass = new IavlTree(undefined, 1);
    const onePass = new IavlTree(undefined, 1);
    const random = rng(7);
    for (let version = 1; version <= 4; version++) {
      for (let op = 0; op < 800; op++) {
        const key = Uint8Array.of(Math.floor(random() * 40), Math.floor(random() * 40));
        if (version > 1 && random() < 0.2) {
          twoPass.remove(key);
          onePass.remove(key);
        } else {
          twoPass.set(key, sha256(Uint8Array.of(version, op & 0xff)));
          onePass.set(key, sha256(Uint8Array.of(version, op & 0xff)));
        }
      }
      const a = new NodeChunkEncoder(1, version);
      const created = twoPass.newNodes();
      twoPass.encodeNodes(created, a);
      const b = new NodeChunkEncoder(1, version);
      expect(onePass.encodeNewNodes(b)).toBe(created.length);
      const opsA = a.finish();
      const opsB = b.finish();
      expect(opsB.map((op) => hex(op.key))).toEqual(opsA.map((op) => hex(op.key)));
      expect(opsB.map((op) => hex(op.value!))).toEqual(opsA.map((op) => hex(op.value!)));
      expect(onePass.workingRootAddress()).toEqual(twoPass.workingRootAddress());
      twoPass.commit();
      onePass.commit();
    }
  });

  test('encodeNewNodesSteps pauses only after each full chunk and writes the records encodeNewNodes does', () => {
    const whole = new IavlTree(undefined, 1);
    const steps = new IavlTree(undefined, 1);
    const random = rng(11);
    for (let version = 1; version <= 3; version++) {
      for (let op = 0; op < 1500; op++) {
        const key = Uint8Array.of(Math.floor(random() * 60), Math.floor(random() * 60));
        whole.set(key, sha256(Uint8Array.of(version, op & 0xff)));
        steps.set(key, sha256(Uint8Array.of(version, op & 0xff)));
      }
      const a = new NodeChunkEncoder(1, version);
      const count = whole.encodeNewNodes(a);
      const b = new NodeChunkEncoder(1, version);
      const walk = steps.encodeNewNodesSteps(b, NODES_PER_CHUNK);
      let pauses = 0;
      let step = walk.next();
      while (step.done !== true) {
        pauses++;
        // Each pause is at a chunk boundary: the chunks so far are complete, none part built.
        expect((b as unknown as { count: number }).count).toBe(0);
        step = walk.next();
      }
      expect(step.value).toBe(count);
      expect(pauses).toBe(Math.floor(count / NODES_PER_CHUNK));
      expect(pauses).toBeGreaterThan(2);
      const opsA = a.finish();
      const opsB = b.finish();
      expect(opsB.map((op) => `${hex(op.key)}:${hex(op.value!)}`)).toEqual(opsA.map((op) => `${hex(op.key)}:${hex(op.value!)}`));
      expect(hex(steps.workingHash())).toBe(hex(whole.workingHash()));
      whole.commit();
      steps.commit();
    }
  });

  test('zig-zag varints are Go binary.PutVarint, at every width edge and for negative values', () => {
    const reference = (value: number): string => {
      const bytes: number[] = [];
      let v = value < 0 ? -2n * BigInt(value) - 1n : BigInt(value) * 2n;
      while (v >= 0x80n) {
        bytes.push(Number(v & 0x7fn) | 0x80);
        v >>= 7n;
      }
      bytes.push(Number(v));
      return Buffer.from(bytes).toString('hex');
    };
    const out = new Uint8Array(16);
    for (const value of [0, 1, 63, 64, 65, 8191, 8192, 2 ** 20, 2 ** 27 - 1, 2 ** 27, 2 ** 30, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 5, 2 ** 53 - 1, -1, -2, -64, -65, -(2 ** 31), -(2 ** 31) - 1, -(2 ** 52)]) {
      expect(Buffer.from(out.subarray(3, writeZigZag(out, 3, value))).toString('hex')).toBe(reference(value));
    }
  });
});
