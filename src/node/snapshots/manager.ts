/**
 * State-sync snapshots of the application (the Cosmos SDK's snapshot manager, format 3):
 *
 * - Every `snapshot-interval` committed heights the store is exported at that height as
 *   length-prefixed cosmos.store.snapshots.v1.SnapshotItem protobufs, zlib-compressed, cut into
 *   chunks (10 MB by default). The snapshot hash is sha256 of all chunk bytes; its metadata
 *   (cosmos.store.snapshots.v1.Metadata) lists each chunk's sha256. The newest
 *   `snapshot-keep-recent` snapshots are kept under data/snapshots/<height>/<format>/.
 * - Serving: ListSnapshots / LoadSnapshotChunk.
 * - Restoring: OfferSnapshot accepts a format-3 snapshot for an empty store; each
 *   ApplySnapshotChunk must hash to its advertised value (otherwise the chunk is refetched and its
 *   sender rejected); after the last chunk the items are imported and the resulting app hash must
 *   equal the light-client-verified one, or the snapshot is rejected and nothing is kept.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import type {
  RequestApplySnapshotChunk,
  RequestLoadSnapshotChunk,
  RequestOfferSnapshot,
  ResponseApplySnapshotChunk,
  OfferSnapshotResult,
  Snapshot,
  SnapshotApplication,
} from '../abci/types.js';
import type { Logger } from '../logger.js';
import { nullLogger } from '../logger.js';
import { ProtoWriter, encodeProto, readMessage } from '../consensus/types/proto.js';
import type { CommitMultiStore } from '../store/interface.js';
import { exportStoreSnapshot, importStoreSnapshot, type SnapshotItem } from './storeSnapshot.js';

export const SNAPSHOT_FORMAT = 3;
const DEFAULT_CHUNK_BYTES = 10_000_000;
const COMPRESSION_LEVEL = 7;

export interface SnapshotOptions {
  /** Directory of the snapshot files (data/snapshots). */
  dir: string;
  /** snapshot-interval (0 = take none). */
  interval: number;
  /** snapshot-keep-recent (0 = keep all). */
  keepRecent: number;
  chunkBytes?: number;
}

function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

function uvarint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** One SnapshotItem protobuf (store = 1 {name}, iavl = 2 {key, value, version, height}). */
export function encodeSnapshotItem(item: SnapshotItem): Uint8Array {
  if (item.kind === 'store') return encodeProto((w) => w.messageAlways(1, (x) => x.stringField(1, item.name)), item.name.length + 8);
  return encodeProto(
    (w: ProtoWriter) =>
      w.messageAlways(2, (x) => {
        x.bytesField(1, item.key);
        if (item.value !== undefined) x.bytesAlways(2, item.value);
        x.varintField(3, item.version);
        x.varintField(4, item.height);
      }),
    item.key.length + (item.value?.length ?? 0) + 32,
  );
}

export function decodeSnapshotItem(bytes: Uint8Array): SnapshotItem | undefined {
  let out: SnapshotItem | undefined;
  readMessage(bytes, (field, wire, r) => {
    if (wire !== 2) return r.skip(wire);
    const inner = r.bytes();
    if (field === 1) {
      let name = '';
      readMessage(inner, (f, wt, rr) => {
        if (f === 1 && wt === 2) name = rr.string();
        else rr.skip(wt);
      });
      out = { kind: 'store', name };
    } else if (field === 2) {
      const node: SnapshotItem = { kind: 'node', key: new Uint8Array(0), value: undefined, version: 0, height: 0 };
      readMessage(inner, (f, wt, rr) => {
        if (f === 1 && wt === 2) node.key = rr.bytes().slice();
        else if (f === 2 && wt === 2) node.value = rr.bytes().slice();
        else if (f === 3 && wt === 0) node.version = rr.int64Number();
        else if (f === 4 && wt === 0) node.height = rr.int32();
        else rr.skip(wt);
      });
      out = node;
    }
  });
  return out;
}

export function encodeMetadata(chunkHashes: Uint8Array[]): Uint8Array {
  return encodeProto((w) => chunkHashes.forEach((h) => w.bytesAlways(1, h)), chunkHashes.length * 34 + 4);
}

export function decodeMetadata(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 2) out.push(r.bytes().slice());
    else r.skip(wire);
  });
  return out;
}

/** Items → delimited protobuf stream → zlib → chunks. */
export async function buildSnapshotChunks(items: AsyncIterable<SnapshotItem>, chunkBytes: number): Promise<Uint8Array[]> {
  const parts: Buffer[] = [];
  for await (const item of items) {
    const body = encodeSnapshotItem(item);
    parts.push(Buffer.from(uvarint(body.length)), Buffer.from(body));
  }
  const compressed = deflateSync(Buffer.concat(parts), { level: COMPRESSION_LEVEL });
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < compressed.length; i += chunkBytes) chunks.push(new Uint8Array(compressed.subarray(i, i + chunkBytes)));
  if (chunks.length === 0) chunks.push(new Uint8Array(0));
  return chunks;
}

/** chunks → zlib → items. */
export async function* parseSnapshotChunks(chunks: readonly Uint8Array[]): AsyncIterable<SnapshotItem> {
  const stream = inflateSync(Buffer.concat(chunks.map((c) => Buffer.from(c))));
  let pos = 0;
  while (pos < stream.length) {
    let length = 0;
    let shift = 1;
    for (;;) {
      const b = stream[pos++];
      if (b === undefined) throw new Error('truncated snapshot item length');
      length += (b & 0x7f) * shift;
      shift *= 128;
      if (b < 0x80) break;
    }
    if (pos + length > stream.length) throw new Error('truncated snapshot item');
    const item = decodeSnapshotItem(stream.subarray(pos, pos + length));
    pos += length;
    if (item) yield item;
  }
}

interface StoredSnapshot {
  height: number;
  format: number;
  chunks: number;
  hash: string;
  metadata: string;
}

interface RestoreSession {
  snapshot: Snapshot;
  appHash: Uint8Array;
  chunkHashes: Uint8Array[];
  chunks: (Uint8Array | undefined)[];
  next: number;
}

export class SnapshotManager implements SnapshotApplication {
  private taking: Promise<void> | undefined;
  private restore: RestoreSession | undefined;
  private readonly logger: Logger;
  private readonly chunkBytes: number;

  constructor(
    private readonly store: CommitMultiStore,
    private readonly options: SnapshotOptions,
    logger?: Logger,
    /** Called after a restore committed the store (the node re-opens the app over it). */
    private readonly onRestored?: (height: number) => Promise<void>,
  ) {
    this.logger = logger ?? nullLogger;
    this.chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  }

  private snapshotDir(height: number, format: number): string {
    return join(this.options.dir, String(height), String(format));
  }

  /** After a commit: take a snapshot when the height is a multiple of snapshot-interval. */
  maybeSnapshot(height: number): void {
    if (this.options.interval <= 0 || height % this.options.interval !== 0) return;
    if (this.taking) {
      this.logger.info('skipping snapshot: another one is in progress', { height });
      return;
    }
    this.taking = this.take(height)
      .then(() => undefined)
      .catch((err: Error) => this.logger.error('failed to create state snapshot', { height, err: err.message }))
      .finally(() => {
        this.taking = undefined;
      });
  }

  /** Resolves when the snapshot being taken (if any) is written. */
  async idle(): Promise<void> {
    await this.taking;
  }

  async take(height: number): Promise<Snapshot> {
    const started = Date.now();
    const chunks = await buildSnapshotChunks(exportStoreSnapshot(this.store, height), this.chunkBytes);
    const hash = sha256(Buffer.concat(chunks.map((c) => Buffer.from(c))));
    const metadata = encodeMetadata(chunks.map(sha256));
    const dir = this.snapshotDir(height, SNAPSHOT_FORMAT);
    const tmp = `${dir}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    chunks.forEach((chunk, i) => writeFileSync(join(tmp, String(i)), chunk));
    const stored: StoredSnapshot = { height, format: SNAPSHOT_FORMAT, chunks: chunks.length, hash: Buffer.from(hash).toString('hex'), metadata: Buffer.from(metadata).toString('hex') };
    writeFileSync(join(tmp, 'snapshot.json'), JSON.stringify(stored));
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    this.logger.info('completed state snapshot', { height, format: SNAPSHOT_FORMAT, chunks: chunks.length, ms: Date.now() - started });
    this.prune();
    return { height, format: SNAPSHOT_FORMAT, chunks: chunks.length, hash, metadata };
  }

  private prune(): void {
    const keep = this.options.keepRecent;
    if (keep <= 0) return;
    const heights = this.heights();
    for (const h of heights.slice(keep)) rmSync(join(this.options.dir, String(h)), { recursive: true, force: true });
  }

  private heights(): number[] {
    if (!existsSync(this.options.dir)) return [];
    return readdirSync(this.options.dir)
      .filter((d) => /^\d+$/.test(d))
      .map(Number)
      .sort((a, b) => b - a);
  }

  async listSnapshots(): Promise<Snapshot[]> {
    const out: Snapshot[] = [];
    for (const height of this.heights()) {
      const file = join(this.snapshotDir(height, SNAPSHOT_FORMAT), 'snapshot.json');
      if (!existsSync(file)) continue;
      const s = JSON.parse(readFileSync(file, 'utf8')) as StoredSnapshot;
      out.push({ height: s.height, format: s.format, chunks: s.chunks, hash: Buffer.from(s.hash, 'hex'), metadata: Buffer.from(s.metadata, 'hex') });
    }
    return out;
  }

  async loadSnapshotChunk(request: RequestLoadSnapshotChunk): Promise<{ chunk: Uint8Array | undefined }> {
    const file = join(this.snapshotDir(request.height, request.format), String(request.chunk));
    if (!/^\d+$/.test(String(request.chunk)) || !existsSync(file)) return { chunk: undefined };
    return { chunk: new Uint8Array(readFileSync(file)) };
  }

  async offerSnapshot(request: RequestOfferSnapshot): Promise<{ result: OfferSnapshotResult }> {
    const s = request.snapshot;
    if (s.format !== SNAPSHOT_FORMAT) return { result: 'reject_format' };
    if (this.store.latestVersion() !== 0) {
      this.logger.error('refusing to restore a snapshot into a store that already has state', { version: this.store.latestVersion() });
      return { result: 'abort' };
    }
    let chunkHashes: Uint8Array[];
    try {
      chunkHashes = decodeMetadata(s.metadata);
    } catch {
      return { result: 'reject' };
    }
    if (chunkHashes.length !== s.chunks || s.chunks === 0) return { result: 'reject' };
    this.restore = { snapshot: s, appHash: request.appHash, chunkHashes, chunks: new Array<Uint8Array | undefined>(s.chunks).fill(undefined), next: 0 };
    this.logger.info('restoring state snapshot', { height: s.height, chunks: s.chunks });
    return { result: 'accept' };
  }

  async applySnapshotChunk(request: RequestApplySnapshotChunk): Promise<ResponseApplySnapshotChunk> {
    const session = this.restore;
    if (!session) return { result: 'abort', refetchChunks: [], rejectSenders: [] };
    const expected = session.chunkHashes[request.index];
    if (!expected || request.index !== session.next) return { result: 'retry', refetchChunks: [session.next], rejectSenders: [] };
    const actual = sha256(request.chunk);
    if (Buffer.compare(Buffer.from(actual), Buffer.from(expected)) !== 0) {
      this.logger.error('snapshot chunk hash mismatch; rejecting its sender', {
        index: request.index,
        peer: request.sender,
        expected: Buffer.from(expected).toString('hex'),
        got: Buffer.from(actual).toString('hex'),
      });
      return { result: 'retry', refetchChunks: [request.index], rejectSenders: request.sender ? [request.sender] : [] };
    }
    session.chunks[request.index] = request.chunk;
    session.next++;
    if (session.next < session.snapshot.chunks) return { result: 'accept', refetchChunks: [], rejectSenders: [] };
    // Every chunk is in: the whole snapshot must hash as advertised, then import and check the app hash.
    const chunks = session.chunks as Uint8Array[];
    if (Buffer.compare(Buffer.from(sha256(Buffer.concat(chunks.map((c) => Buffer.from(c))))), Buffer.from(session.snapshot.hash)) !== 0) {
      this.restore = undefined;
      return { result: 'reject_snapshot', refetchChunks: [], rejectSenders: [] };
    }
    let id;
    try {
      id = await importStoreSnapshot(this.store, session.snapshot.height, parseSnapshotChunks(chunks), session.appHash);
    } catch (err) {
      this.restore = undefined;
      this.logger.error('snapshot restore failed; nothing was committed', { height: session.snapshot.height, err: (err as Error).message });
      return { result: 'reject_snapshot', refetchChunks: [], rejectSenders: [] };
    }
    this.restore = undefined;
    this.logger.info('restored state snapshot', { height: session.snapshot.height, appHash: Buffer.from(id.hash).toString('hex').toUpperCase() });
    await this.onRestored?.(session.snapshot.height);
    return { result: 'accept', refetchChunks: [], rejectSenders: [] };
  }
}
