/**
 * Export and import of the state store for state-sync snapshots: the store's own stream of
 * items (`{kind:'store', name}`, then that store's IAVL nodes — the SDK's SnapshotStoreItem /
 * SnapshotIAVLItem), so the importer rebuilds the identical trees and app hash.
 */
import type { CommitId, CommitMultiStore, SnapshotItem } from '../store/interface.js';

export type { SnapshotItem };

export function exportStoreSnapshot(store: CommitMultiStore, version: number): AsyncIterable<SnapshotItem> {
  return store.exportSnapshot(version);
}

/**
 * Import into an empty store and commit at `version`. With `expectedHash`, a state whose app hash
 * differs is refused and nothing is written (the store rebuilds and hashes every tree first).
 */
export function importStoreSnapshot(store: CommitMultiStore, version: number, items: AsyncIterable<SnapshotItem>, expectedHash?: Uint8Array): Promise<CommitId> {
  return store.importSnapshot(version, items, expectedHash);
}
