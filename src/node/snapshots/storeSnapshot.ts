/**
 * Export and import of the state store for state-sync snapshots, as a stream of items:
 * `{kind:'store', name}` opens a module store, `{kind:'node', key, value, version, height}` is
 * one of its entries (the SDK's SnapshotStoreItem / SnapshotIAVLItem).
 *
 * When the store provides `exportSnapshot` / `importSnapshot` (the IAVL store does: its items are
 * tree nodes), those are used. Otherwise every key/value of every store at the version is
 * exported as a leaf (height 0), and import writes them into an empty store and commits it at
 * that version: the commitment of the flat store depends only on the key/value set, so the
 * imported root equals the exported one (the caller checks the app hash).
 */
import type { CommitId, CommitMultiStore } from '../store/interface.js';

export type SnapshotItem = { kind: 'store'; name: string } | { kind: 'node'; key: Uint8Array; value: Uint8Array | undefined; version: number; height: number };

interface SnapshottingStore extends CommitMultiStore {
  exportSnapshot?(version: number): AsyncIterable<SnapshotItem>;
  importSnapshot?(version: number, items: AsyncIterable<SnapshotItem>): Promise<CommitId>;
}

export async function* exportStoreSnapshot(store: CommitMultiStore, version: number): AsyncIterable<SnapshotItem> {
  const s = store as SnapshottingStore;
  if (typeof s.exportSnapshot === 'function') {
    yield* s.exportSnapshot(version);
    return;
  }
  for (const name of [...store.storeNames()].sort()) {
    yield { kind: 'store', name };
    for await (const [key, value] of store.storeAt(version, name).iterator()) yield { kind: 'node', key, value, version, height: 0 };
  }
}

/**
 * Import into an empty store and commit at `version`. With `expectedHash`, a state whose app hash
 * differs is refused before anything is committed (the fallback path can check the working hash;
 * a store's own importSnapshot is checked after its commit).
 */
export async function importStoreSnapshot(store: CommitMultiStore, version: number, items: AsyncIterable<SnapshotItem>, expectedHash?: Uint8Array): Promise<CommitId> {
  const s = store as SnapshottingStore;
  const matches = (hash: Uint8Array): boolean => !expectedHash || Buffer.compare(Buffer.from(hash), Buffer.from(expectedHash)) === 0;
  if (typeof s.importSnapshot === 'function') {
    const id = await s.importSnapshot(version, items);
    if (!matches(id.hash)) throw new Error(`restored app hash ${Buffer.from(id.hash).toString('hex')} does not match the trusted app hash`);
    return id;
  }
  if (store.latestVersion() !== 0) throw new Error(`cannot restore a snapshot into a store that has version ${store.latestVersion()}`);
  const known = new Set(store.storeNames());
  store.setInitialVersion(version);
  let current: ReturnType<CommitMultiStore['getStore']> | undefined;
  for await (const item of items) {
    if (item.kind === 'store') {
      if (!known.has(item.name)) throw new Error(`snapshot has unknown store "${item.name}"`);
      current = store.getStore(item.name);
      continue;
    }
    if (!current) throw new Error('snapshot node item before any store item');
    if (item.height !== 0 || item.value === undefined) continue; // inner tree nodes carry no state here
    current.set(item.key, item.value);
  }
  const working = store.workingHash();
  if (!matches(working)) {
    throw new Error(`restored app hash ${Buffer.from(working).toString('hex').toUpperCase()} does not match the trusted app hash ${Buffer.from(expectedHash!).toString('hex').toUpperCase()}`);
  }
  const id = await store.commit();
  if (id.version !== version) throw new Error(`restored store committed version ${id.version}, expected ${version}`);
  return id;
}
