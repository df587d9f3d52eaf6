/**
 * The stored form of a FinalizeBlock response's tx results and events: a binary record with a
 * string table. A block's events repeat the same strings over and over (attribute keys, event
 * types, the sender's and recipients' addresses, denominations), so each distinct string is
 * written once and referred to by its index.
 *
 * Tagged JSON (codec.ts) took tens of milliseconds to write and to read back for a block of a few
 * hundred sends, in one synchronous piece on the event loop after every block; this takes a few.
 *
 * Layout of both records (varints are unsigned LEB128): 0x01 (the format), the string table
 * (count, then per string its UTF-8 length and bytes), then the body. Events are written as their
 * count, then per event: type index, attribute count, per attribute: key index and value index × 2
 * + (1 if indexed). The body of the block-events record is its events; that of the response record:
 *   results: count, then per result: code, data length and bytes, log, info and codespace
 *            indexes, gas wanted and gas used (each as low 32 bits, high 32 bits), its events;
 *            then the length and bytes of the response's other fields as tagged JSON
 *
 * A record of tagged JSON starts with `{` or `[` and is still read, so data directories written
 * before this format keep working.
 */
import type { AbciEvent, ExecTxResult, ResponseFinalizeBlock } from '../../abci/types.js';
import { ConsensusError } from '../errors.js';
import { ProtoWriter } from '../types/proto.js';
import { decodeTagged, encodeTagged } from './codec.js';

export const RESULTS_FORMAT = 0x01;
const FORMAT_BYTE = new Uint8Array([RESULTS_FORMAT]);
const U32 = 0x1_0000_0000n;

class Writer {
  private readonly strings = new Map<string, number>();
  private readonly table: string[] = [];
  private readonly body = new ProtoWriter(4096);

  private indexOf(s: string): number {
    let index = this.strings.get(s);
    if (index === undefined) {
      index = this.table.length;
      this.strings.set(s, index);
      this.table.push(s);
    }
    return index;
  }

  uvarint(value: number): void {
    this.body.uvarint(value);
  }

  string(s: string): void {
    this.body.uvarint(this.indexOf(s));
  }

  bytes(b: Uint8Array): void {
    this.body.uvarint(b.length).raw(b);
  }

  uint64(value: bigint): void {
    if (value < 0n || value >= U32 * U32) throw new ConsensusError('STORE', `gas ${value} does not fit in 64 bits`);
    this.body.uvarint(Number(value % U32)).uvarint(Number(value / U32));
  }

  events(events: readonly AbciEvent[]): void {
    this.body.uvarint(events.length);
    for (const event of events) {
      this.string(event.type);
      this.body.uvarint(event.attributes.length);
      for (const attribute of event.attributes) {
        this.string(attribute.key);
        // The value's index doubled, plus the indexed flag, in one varint.
        this.body.uvarint(this.indexOf(attribute.value) * 2 + (attribute.index ? 1 : 0));
      }
    }
  }

  /** The record: the format byte, the string table, then the body. */
  finish(): Uint8Array {
    const head = new ProtoWriter(1024).raw(FORMAT_BYTE).uvarint(this.table.length);
    for (const s of this.table) {
      const utf8 = Buffer.from(s, 'utf8');
      head.uvarint(utf8.length).raw(utf8);
    }
    const prefix = head.finish();
    const body = this.body.finish();
    const out = new Uint8Array(prefix.length + body.length);
    out.set(prefix);
    out.set(body, prefix.length);
    return out;
  }
}

class Reader {
  private pos = 1;
  private readonly table: string[];

  constructor(private readonly buf: Buffer) {
    const count = this.uvarint();
    this.table = new Array<string>(count);
    for (let i = 0; i < count; i++) {
      const length = this.uvarint();
      const end = this.pos + length;
      if (end > buf.length) throw new Error('string past the end');
      this.table[i] = buf.toString('utf8', this.pos, end);
      this.pos = end;
    }
  }

  uvarint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error('varint past the end');
      const byte = this.buf[this.pos++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
      if (scale > 2 ** 56) throw new Error('varint too long');
    }
  }

  string(): string {
    return this.stringAt(this.uvarint());
  }

  private stringAt(index: number): string {
    const s = this.table[index];
    if (s === undefined) throw new Error(`string index ${index} out of range`);
    return s;
  }

  bytes(): Uint8Array {
    const length = this.uvarint();
    const end = this.pos + length;
    if (end > this.buf.length) throw new Error('bytes past the end');
    const out = new Uint8Array(length);
    out.set(this.buf.subarray(this.pos, end));
    this.pos = end;
    return out;
  }

  uint64(): bigint {
    const low = this.uvarint();
    const high = this.uvarint();
    return high === 0 ? BigInt(low) : BigInt(high) * U32 + BigInt(low);
  }

  events(): AbciEvent[] {
    const count = this.uvarint();
    const events = new Array<AbciEvent>(count);
    for (let i = 0; i < count; i++) {
      const type = this.string();
      const n = this.uvarint();
      const attributes = new Array<AbciEvent['attributes'][number]>(n);
      for (let j = 0; j < n; j++) {
        const key = this.string();
        const packed = this.uvarint();
        attributes[j] = { key, value: this.stringAt(Math.floor(packed / 2)), index: packed % 2 === 1 };
      }
      events[i] = { type, attributes };
    }
    return events;
  }

  end(): void {
    if (this.pos !== this.buf.length) throw new Error(`${this.buf.length - this.pos} bytes after the end`);
  }
}

/**
 * The record of a FinalizeBlock response without its block-level events (stored apart): the tx
 * results, then the rest (validator updates, consensus param updates, app hash) as tagged JSON
 * bytes — small, and rare to change shape.
 */
export function encodeResponse(response: ResponseFinalizeBlock): Uint8Array {
  const w = new Writer();
  const results = response.txResults;
  w.uvarint(results.length);
  for (const r of results) {
    w.uvarint(r.code);
    w.bytes(r.data);
    w.string(r.log);
    w.string(r.info);
    w.string(r.codespace);
    w.uint64(r.gasWanted);
    w.uint64(r.gasUsed);
    w.events(r.events);
  }
  w.bytes(encodeTagged({ validatorUpdates: response.validatorUpdates, consensusParamUpdates: response.consensusParamUpdates, appHash: response.appHash }));
  return w.finish();
}

/** A response record back, with no block-level events (`events: []`). */
export function decodeResponse(raw: Uint8Array, what: string): ResponseFinalizeBlock {
  return read(raw, what, (r) => {
    const count = r.uvarint();
    const results = new Array<ExecTxResult>(count);
    for (let i = 0; i < count; i++) {
      const code = r.uvarint();
      const data = r.bytes();
      const log = r.string();
      const info = r.string();
      const codespace = r.string();
      const gasWanted = r.uint64();
      const gasUsed = r.uint64();
      results[i] = { code, data, log, info, gasWanted, gasUsed, events: r.events(), codespace };
    }
    const rest = decodeTagged<Pick<ResponseFinalizeBlock, 'validatorUpdates' | 'consensusParamUpdates' | 'appHash'>>(r.bytes(), what);
    const response: ResponseFinalizeBlock = { events: [], txResults: results, validatorUpdates: rest.validatorUpdates, appHash: rest.appHash };
    if (rest.consensusParamUpdates !== undefined) response.consensusParamUpdates = rest.consensusParamUpdates;
    return response;
  });
}

/** The record of a block's block-level events. */
export function encodeEvents(events: readonly AbciEvent[]): Uint8Array {
  const w = new Writer();
  w.events(events);
  return w.finish();
}

export function decodeEvents(raw: Uint8Array, what: string): AbciEvent[] {
  return read(raw, what, (r) => r.events());
}

function read<T>(raw: Uint8Array, what: string, body: (r: Reader) => T): T {
  try {
    if (raw[0] !== RESULTS_FORMAT) throw new Error(`unknown format ${raw[0]}`);
    const r = new Reader(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength));
    const out = body(r);
    r.end();
    return out;
  } catch (err) {
    if (err instanceof ConsensusError) throw err;
    throw new ConsensusError('STORE', `corrupt ${what} in the state store: ${(err as Error).message}`);
  }
}
