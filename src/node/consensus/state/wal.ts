/**
 * The consensus write-ahead log (consensus/wal.go).
 *
 * An append-only file of records framed as crc32c (4 bytes BE) ‖ length (4 bytes BE) ‖ payload,
 * the payload being a tendermint.consensus.TimedWALMessage. What is logged and when it is fsync'd
 * follows CometBFT: peer messages and timeouts are buffered (flushed at least every
 * `flushIntervalMs`), our own proposals/votes are fsync'd before they are processed and sent, and
 * an end-height marker is fsync'd after a block is saved. The engine uses the `…Async` forms: the
 * write itself is synchronous (into the page cache, in order), the fsync runs on libuv's thread
 * pool while the engine awaits it, so the event loop keeps serving RPC, REST and CheckTx during
 * the disk's flush instead of stalling for it.
 *
 * On restart the messages after the marker of the previous height are replayed. A torn or
 * corrupted tail (a crash mid-write) ends the replay at the last good record, and the file is
 * truncated there so new records follow good data.
 */
import { closeSync, existsSync, fstatSync, fsync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConsensusError } from '../errors.js';
import { nullLogger, type Logger } from '../../logger.js';
import { ProtoWriter, encodeProto, readMessage } from '../types/proto.js';
import { readTimestamp, timestampNow, writeTimestamp, type Timestamp } from '../types/time.js';
import { decodeConsensusMessage, writeConsensusMessage, type ConsensusMessage } from './messages.js';

export type WalMessage =
  | { kind: 'msgInfo'; msg: ConsensusMessage; peerId: string }
  | { kind: 'timeout'; durationMs: number; height: number; round: number; step: number }
  | { kind: 'endHeight'; height: number }
  | { kind: 'roundState'; height: number; round: number; step: string };

export interface TimedWalMessage {
  time: Timestamp;
  msg: WalMessage;
}

/** Largest record payload accepted (CometBFT maxMsgSize 1 MiB + 24). */
export const MAX_WAL_MSG_SIZE_BYTES = 1048576 + 24;

export interface WalReplay {
  /** Whether the end-height marker of `height - 1` was found. */
  found: boolean;
  /** Messages after that marker, in order. */
  messages: TimedWalMessage[];
  /** Set when a corrupted or torn tail was cut off. */
  corruption?: string;
}

export interface WAL {
  /** Buffered append. */
  write(msg: WalMessage): void;
  /** Append and fsync (own votes/proposals, end-height markers). */
  writeSync(msg: WalMessage): void;
  flushAndSync(): void;
  /** writeSync whose fsync runs off the event loop; resolves once the record is durable. */
  writeSyncAsync(msg: WalMessage): Promise<void>;
  /** Messages to replay for `height` (after the marker of `markerHeight`). */
  replayFrom(markerHeight: number, height: number): WalReplay;
  close(): void;
}

// ---- crc32c (Castagnoli), as CometBFT frames WAL records ----

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

export function crc32c(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = CRC32C_TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// ---- encoding (tendermint.consensus.TimedWALMessage) ----

function writeWalMessage(w: ProtoWriter, m: WalMessage): void {
  switch (m.kind) {
    case 'roundState':
      w.messageAlways(1, (x) => {
        x.varintField(1, m.height);
        x.varintField(2, m.round);
        x.stringField(3, m.step);
      });
      return;
    case 'msgInfo':
      w.messageAlways(2, (x) => {
        x.messageAlways(1, (y) => writeConsensusMessage(y, m.msg));
        x.stringField(2, m.peerId);
      });
      return;
    case 'timeout':
      w.messageAlways(3, (x) => {
        x.messageAlways(1, (y) => {
          const seconds = Math.floor(m.durationMs / 1000);
          y.varintField(1, seconds);
          y.varintField(2, Math.round((m.durationMs - seconds * 1000) * 1e6));
        });
        x.varintField(2, m.height);
        x.varintField(3, m.round);
        x.varintField(4, m.step);
      });
      return;
    case 'endHeight':
      w.messageAlways(4, (x) => x.varintField(1, m.height));
      return;
  }
}

export function encodeTimedWalMessage(t: TimedWalMessage): Uint8Array {
  const size = t.msg.kind === 'msgInfo' && t.msg.msg.type === 'blockPart' ? t.msg.msg.part.bytes.length + 600 : 256;
  return encodeProto((w) => {
    w.messageAlways(1, (x) => writeTimestamp(x, t.time));
    w.messageAlways(2, (x) => writeWalMessage(x, t.msg));
  }, size);
}

function decodeWalMessage(bytes: Uint8Array): WalMessage {
  let out: WalMessage | undefined;
  readMessage(bytes, (field, wire, r) => {
    if (wire !== 2) {
      r.skip(wire);
      return;
    }
    const b = r.bytes();
    if (field === 1) {
      const m = { kind: 'roundState' as const, height: 0, round: 0, step: '' };
      readMessage(b, (f, wt, rr) => {
        if (f === 1 && wt === 0) m.height = rr.int64Number();
        else if (f === 2 && wt === 0) m.round = rr.int32();
        else if (f === 3 && wt === 2) m.step = rr.string();
        else rr.skip(wt);
      });
      out = m;
    } else if (field === 2) {
      let msg: ConsensusMessage | undefined;
      let peerId = '';
      readMessage(b, (f, wt, rr) => {
        if (f === 1 && wt === 2) {
          const decoded = decodeConsensusMessage(rr.bytes());
          if (decoded.type === 'proposal' || decoded.type === 'blockPart' || decoded.type === 'vote') msg = decoded;
        }
        else if (f === 2 && wt === 2) peerId = rr.string();
        else rr.skip(wt);
      });
      if (!msg) throw new ConsensusError('WAL_CORRUPTED', 'WAL msg_info without a message');
      out = { kind: 'msgInfo', msg, peerId };
    } else if (field === 3) {
      const m = { kind: 'timeout' as const, durationMs: 0, height: 0, round: 0, step: 0 };
      readMessage(b, (f, wt, rr) => {
        if (f === 1 && wt === 2) {
          readMessage(rr.bytes(), (ff, ww, r3) => {
            if (ff === 1 && ww === 0) m.durationMs += r3.int64Number() * 1000;
            else if (ff === 2 && ww === 0) m.durationMs += r3.int32() / 1e6;
            else r3.skip(ww);
          });
        } else if (f === 2 && wt === 0) m.height = rr.int64Number();
        else if (f === 3 && wt === 0) m.round = rr.int32();
        else if (f === 4 && wt === 0) m.step = rr.uvarint();
        else rr.skip(wt);
      });
      out = m;
    } else if (field === 4) {
      let height = 0;
      readMessage(b, (f, wt, rr) => {
        if (f === 1 && wt === 0) height = rr.int64Number();
        else rr.skip(wt);
      });
      out = { kind: 'endHeight', height };
    }
  });
  if (!out) throw new ConsensusError('WAL_CORRUPTED', 'unknown WAL message');
  return out;
}

export function decodeTimedWalMessage(bytes: Uint8Array): TimedWalMessage {
  let time: Timestamp = { seconds: 0, nanos: 0 };
  let msg: WalMessage | undefined;
  readMessage(bytes, (field, wire, r) => {
    if (field === 1 && wire === 2) time = readTimestamp(r.bytes());
    else if (field === 2 && wire === 2) msg = decodeWalMessage(r.bytes());
    else r.skip(wire);
  });
  if (!msg) throw new ConsensusError('WAL_CORRUPTED', 'WAL record without a message');
  return { time, msg };
}

/** Frame one record: crc32c ‖ length ‖ payload. */
export function frameWalRecord(payload: Uint8Array): Uint8Array {
  if (payload.length > MAX_WAL_MSG_SIZE_BYTES) {
    throw new ConsensusError('WAL_CORRUPTED', `msg is too big: ${payload.length} bytes, max: ${MAX_WAL_MSG_SIZE_BYTES} bytes`);
  }
  const out = new Uint8Array(8 + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, crc32c(payload), false);
  view.setUint32(4, payload.length, false);
  out.set(payload, 8);
  return out;
}

export interface DecodedWal {
  records: TimedWalMessage[];
  /** Byte offset after the last good record. */
  goodLength: number;
  corruption?: string;
}

/** Decode all records of a WAL file's bytes, stopping at the first torn or corrupted one. */
export function decodeWalBytes(bytes: Uint8Array): DecodedWal {
  const records: TimedWalMessage[] = [];
  let pos = 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  while (pos < bytes.length) {
    if (pos + 8 > bytes.length) return { records, goodLength: pos, corruption: `torn record header at offset ${pos}` };
    const crc = view.getUint32(pos, false);
    const length = view.getUint32(pos + 4, false);
    if (length > MAX_WAL_MSG_SIZE_BYTES) {
      return { records, goodLength: pos, corruption: `length ${length} exceeded maximum possible value of ${MAX_WAL_MSG_SIZE_BYTES} bytes at offset ${pos}` };
    }
    if (pos + 8 + length > bytes.length) return { records, goodLength: pos, corruption: `torn record at offset ${pos} (wanted ${length} bytes)` };
    const payload = bytes.subarray(pos + 8, pos + 8 + length);
    const actual = crc32c(payload);
    if (actual !== crc) return { records, goodLength: pos, corruption: `checksums do not match at offset ${pos}: read: ${crc}, actual: ${actual}` };
    try {
      records.push(decodeTimedWalMessage(payload));
    } catch (err) {
      return { records, goodLength: pos, corruption: `failed to decode data at offset ${pos}: ${(err as Error).message}` };
    }
    pos += 8 + length;
  }
  return { records, goodLength: pos };
}

function replayAfterMarker(records: TimedWalMessage[], markerHeight: number, height: number): { found: boolean; messages: TimedWalMessage[] } {
  let start = -1;
  for (let i = records.length - 1; i >= 0; i--) {
    const m = records[i]!.msg;
    if (m.kind === 'endHeight' && m.height === height) {
      throw new ConsensusError('WAL_CORRUPTED', `wal should not contain #ENDHEIGHT ${height}`);
    }
    if (m.kind === 'endHeight' && m.height === markerHeight) {
      start = i + 1;
      break;
    }
  }
  if (start < 0) return { found: false, messages: [] };
  return { found: true, messages: records.slice(start) };
}

/** The file WAL (data/cs.wal/wal). */
export class FileWAL implements WAL {
  private fd: number;
  private buffer: Uint8Array[] = [];
  private bufferedBytes = 0;
  private size: number;
  private flushTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Bytes written since the last fsync. */
  private unsynced = false;
  private recovered: DecodedWal | undefined;
  /** Set by a failed write: the WAL refuses every later write. */
  private fault: ConsensusError | undefined;

  constructor(
    readonly path: string,
    private readonly options: { maxBytes: number; flushIntervalMs: number; onFault?: (err: Error) => void },
    private readonly logger: Logger = nullLogger,
  ) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const existed = existsSync(path);
    if (existed) {
      // Cut a torn tail before appending after it.
      const decoded = decodeWalBytes(new Uint8Array(readFileSync(path)));
      this.recovered = decoded;
      if (decoded.corruption) {
        logger.warn('WAL has a corrupted or torn tail; truncating to the last good record', { path, reason: decoded.corruption, goodLength: decoded.goodLength });
      }
    }
    this.fd = openSync(path, existed ? 'r+' : 'w+', 0o600);
    if (this.recovered?.corruption) {
      ftruncateSync(this.fd, this.recovered.goodLength);
      fsyncSync(this.fd);
    }
    this.size = fstatSync(this.fd).size;
    if (this.size === 0) this.writeSync({ kind: 'endHeight', height: 0 });
    if (options.flushIntervalMs > 0) {
      this.flushTimer = setInterval(() => {
        try {
          this.flush();
        } catch (err) {
          // Already recorded in this.fault (every later write throws it); tell the node now, as
          // the engine may be idle and not write again for a while.
          if (this.flushTimer) clearInterval(this.flushTimer);
          this.options.onFault?.(err as Error);
        }
      }, options.flushIntervalMs);
      this.flushTimer.unref();
    }
  }

  private append(msg: WalMessage): void {
    if (this.closed) throw new ConsensusError('STOPPED', 'WAL is closed');
    if (this.fault) throw this.fault;
    const record = frameWalRecord(encodeTimedWalMessage({ time: timestampNow(), msg }));
    this.buffer.push(record);
    this.bufferedBytes += record.length;
  }

  private flush(): void {
    if (this.fault) throw this.fault;
    if (this.buffer.length === 0 || this.closed) return;
    const data = this.buffer.length === 1 ? this.buffer[0]! : Buffer.concat(this.buffer, this.bufferedBytes);
    this.buffer = [];
    this.bufferedBytes = 0;
    let offset = 0;
    try {
      while (offset < data.length) offset += writeSync(this.fd, data, offset, data.length - offset, this.size + offset);
    } catch (err) {
      // The log now has a torn tail and lost records: nothing more may be appended in this
      // process (the next start truncates the torn tail and replays the rest).
      this.fault = new ConsensusError('STORE', `cannot write the consensus WAL ${this.path}: ${(err as Error).message}`, { cause: err });
      throw this.fault;
    }
    this.size += data.length;
    this.unsynced = true;
  }

  write(msg: WalMessage): void {
    this.append(msg);
    if (this.bufferedBytes > 1 << 20) this.flush();
  }

  writeSync(msg: WalMessage): void {
    this.append(msg);
    this.flushAndSync();
    if (msg.kind === 'endHeight' && this.size > this.options.maxBytes) this.rollOver(msg);
  }

  flushAndSync(): void {
    if (this.closed) return;
    this.flush();
    if (!this.unsynced) return;
    try {
      fsyncSync(this.fd);
    } catch (err) {
      throw this.syncFault(err);
    }
    this.unsynced = false;
  }

  async writeSyncAsync(msg: WalMessage): Promise<void> {
    this.append(msg);
    await this.flushAndSyncAsync();
    if (msg.kind === 'endHeight' && this.size > this.options.maxBytes) this.rollOver(msg);
  }

  /** flushAndSync with the fsync on the thread pool. Everything written before it began is durable when it resolves. */
  private async flushAndSyncAsync(): Promise<void> {
    if (this.closed) return;
    this.flush();
    if (!this.unsynced) return;
    // Records the flush timer writes while this fsync runs set `unsynced` again for the next one.
    this.unsynced = false;
    const fd = this.fd;
    await new Promise<void>((resolve, reject) => {
      fsync(fd, (err) => (err ? reject(this.syncFault(err)) : resolve()));
    });
  }

  private syncFault(err: unknown): ConsensusError {
    this.fault = new ConsensusError('STORE', `cannot sync the consensus WAL ${this.path}: ${(err as Error).message}`, { cause: err });
    return this.fault;
  }

  /** Start a fresh file that holds only the end-height marker just written (replay never needs more). */
  private rollOver(marker: WalMessage): void {
    const tmp = `${this.path}.rollover`;
    const fd = openSync(tmp, 'w', 0o600);
    const record = frameWalRecord(encodeTimedWalMessage({ time: timestampNow(), msg: marker }));
    writeSync(fd, record);
    fsyncSync(fd);
    closeSync(fd);
    closeSync(this.fd);
    renameSync(tmp, this.path);
    this.fd = openSync(this.path, 'r+', 0o600);
    this.size = record.length;
    this.logger.info('WAL rolled over', { path: this.path });
  }

  replayFrom(markerHeight: number, height: number): WalReplay {
    this.flush();
    const decoded = this.recovered ?? decodeWalBytes(new Uint8Array(readFileSync(this.path)));
    this.recovered = undefined;
    const result: WalReplay = replayAfterMarker(decoded.records, markerHeight, height);
    if (decoded.corruption) result.corruption = decoded.corruption;
    return result;
  }

  close(): void {
    if (this.closed) return;
    if (this.flushTimer) clearInterval(this.flushTimer);
    this.closed = true;
    try {
      if (!this.fault) {
        this.closed = false;
        this.flushAndSync();
        this.closed = true;
      }
    } finally {
      this.closed = true;
      closeSync(this.fd);
    }
  }
}

/** No WAL (in-memory tests): nothing is logged, nothing replayed. */
export class NullWAL implements WAL {
  write(): void {}
  writeSync(): void {}
  flushAndSync(): void {}
  async writeSyncAsync(): Promise<void> {}
  replayFrom(): WalReplay {
    return { found: false, messages: [] };
  }
  close(): void {}
}

/** An in-memory WAL that survives engine restarts within one process (tests of replay). */
export class MemoryWAL implements WAL {
  readonly records: TimedWalMessage[] = [{ time: timestampNow(), msg: { kind: 'endHeight', height: 0 } }];
  write(msg: WalMessage): void {
    this.records.push({ time: timestampNow(), msg });
  }
  writeSync(msg: WalMessage): void {
    this.write(msg);
  }
  flushAndSync(): void {}
  async writeSyncAsync(msg: WalMessage): Promise<void> {
    this.write(msg);
  }
  replayFrom(markerHeight: number, height: number): WalReplay {
    return replayAfterMarker(this.records, markerHeight, height);
  }
  close(): void {}
}
