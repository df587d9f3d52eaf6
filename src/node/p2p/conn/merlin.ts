/**
 * Merlin transcripts (merlin.cool) over STROBE-128, as the secret connection uses them to derive
 * its challenge. Only the operations Merlin needs are implemented: meta-AD, AD and PRF.
 *
 * STROBE-128 keeps a 200-byte Keccak-f[1600] state with a rate of 166 bytes; every operation
 * absorbs its (old begin position, flags) pair first, and operations with the C or K flag force a
 * permutation before they start.
 */
import { keccakP } from '@noble/hashes/sha3.js';

const STROBE_RATE = 166;
const FLAG_I = 1;
const FLAG_A = 1 << 1;
const FLAG_C = 1 << 2;
const FLAG_T = 1 << 3;
const FLAG_M = 1 << 4;
const FLAG_K = 1 << 5;

const encoder = new TextEncoder();

class Strobe128 {
  private readonly state = new Uint8Array(200);
  private readonly lanes = new Uint32Array(this.state.buffer);
  private pos = 0;
  private posBegin = 0;
  private curFlags = 0;

  constructor(protocolLabel: Uint8Array) {
    this.state.set([1, STROBE_RATE + 2, 1, 0, 1, 96]);
    this.state.set(encoder.encode('STROBEv1.0.2'), 6);
    this.permute();
    this.metaAd(protocolLabel, false);
  }

  /** keccakP works on 32-bit words in host order; every host Node runs on is little-endian. */
  private permute(): void {
    keccakP(this.lanes, 24);
  }

  private runF(): void {
    this.state[this.pos]! ^= this.posBegin;
    this.state[this.pos + 1]! ^= 0x04;
    this.state[STROBE_RATE + 1]! ^= 0x80;
    this.permute();
    this.pos = 0;
    this.posBegin = 0;
  }

  private absorb(data: Uint8Array): void {
    for (const byte of data) {
      this.state[this.pos]! ^= byte;
      this.pos++;
      if (this.pos === STROBE_RATE) this.runF();
    }
  }

  private squeeze(out: Uint8Array): void {
    for (let i = 0; i < out.length; i++) {
      out[i] = this.state[this.pos]!;
      this.state[this.pos] = 0;
      this.pos++;
      if (this.pos === STROBE_RATE) this.runF();
    }
  }

  private beginOp(flags: number, more: boolean): void {
    if (more) {
      if (this.curFlags !== flags) throw new Error(`strobe: continued operation with flags ${flags} after ${this.curFlags}`);
      return;
    }
    if ((flags & FLAG_T) !== 0) throw new Error('strobe: transport operations are not supported');
    const oldBegin = this.posBegin;
    this.posBegin = this.pos + 1;
    this.curFlags = flags;
    this.absorb(Uint8Array.of(oldBegin, flags));
    if ((flags & (FLAG_C | FLAG_K)) !== 0 && this.pos !== 0) this.runF();
  }

  metaAd(data: Uint8Array, more: boolean): void {
    this.beginOp(FLAG_M | FLAG_A, more);
    this.absorb(data);
  }

  ad(data: Uint8Array, more: boolean): void {
    this.beginOp(FLAG_A, more);
    this.absorb(data);
  }

  prf(out: Uint8Array, more: boolean): void {
    this.beginOp(FLAG_I | FLAG_A | FLAG_C, more);
    this.squeeze(out);
  }
}

function le32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, true);
  return out;
}

function asBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? encoder.encode(value) : value;
}

/** A Merlin transcript: labelled messages in, labelled challenge bytes out. */
export class MerlinTranscript {
  private readonly strobe = new Strobe128(encoder.encode('Merlin v1.0'));

  constructor(label: string | Uint8Array) {
    this.appendMessage('dom-sep', label);
  }

  appendMessage(label: string | Uint8Array, message: string | Uint8Array): void {
    const data = asBytes(message);
    this.strobe.metaAd(asBytes(label), false);
    this.strobe.metaAd(le32(data.length), true);
    this.strobe.ad(data, false);
  }

  extractBytes(label: string | Uint8Array, length: number): Uint8Array {
    const out = new Uint8Array(length);
    this.strobe.metaAd(asBytes(label), false);
    this.strobe.metaAd(le32(length), true);
    this.strobe.prf(out, false);
    return out;
  }
}
