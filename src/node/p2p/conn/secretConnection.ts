/**
 * CometBFT's authenticated, encrypted connection (p2p/conn/secret_connection.go, the STS
 * protocol):
 *
 *  1. both sides send an ephemeral X25519 public key (a length-prefixed google.protobuf.BytesValue);
 *  2. a Merlin transcript ("TENDERMINT_SECRET_CONNECTION_TRANSCRIPT_HASH") absorbs the two keys in
 *     lexical order and the Diffie-Hellman secret;
 *  3. HKDF-SHA256(dh secret, info "TENDERMINT_SECRET_CONNECTION_KEY_AND_CHALLENGE_GEN") gives two
 *     ChaCha20-Poly1305 keys: bytes 0–31 are the receive key of the side whose ephemeral key sorts
 *     first (and the send key of the other), bytes 32–63 the opposite;
 *  4. the 32-byte challenge is the transcript's "SECRET_CONNECTION_MAC" output; each side signs it
 *     with its ed25519 node key and sends, encrypted, tendermint.p2p.AuthSigMessage{pub_key, sig}.
 *
 * After that every frame is 4-byte little-endian length ‖ up to 1024 data bytes, zero-padded to
 * 1028 bytes and sealed (16-byte tag) with a 96-bit nonce whose last 8 bytes are a little-endian
 * counter, one counter per direction. Nothing is accepted unencrypted after the key exchange.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { x25519 } from '@noble/curves/ed25519.js';
import { compareBytes } from '../../consensus/types/bytes.js';
import { readPublicKey, verifySignature, writePublicKey, type Ed25519PrivateKey, type PubKey } from '../../consensus/types/keys.js';
import { ProtoWriter, encodeProto, readMessage } from '../../consensus/types/proto.js';
import { P2PError } from '../errors.js';
import { ByteQueue, delimit } from './byteQueue.js';
import { MerlinTranscript } from './merlin.js';

export const DATA_LEN_SIZE = 4;
export const DATA_MAX_SIZE = 1024;
export const TOTAL_FRAME_SIZE = DATA_MAX_SIZE + DATA_LEN_SIZE;
export const AEAD_TAG_SIZE = 16;
export const SEALED_FRAME_SIZE = TOTAL_FRAME_SIZE + AEAD_TAG_SIZE;
const AEAD_KEY_SIZE = 32;
const NONCE_SIZE = 12;
/** Largest handshake message accepted (CometBFT reads them with a 1 MiB limit). */
const MAX_HANDSHAKE_MSG_BYTES = 1024 * 1024;

const KEY_AND_CHALLENGE_GEN = 'TENDERMINT_SECRET_CONNECTION_KEY_AND_CHALLENGE_GEN';
const TRANSCRIPT_LABEL = 'TENDERMINT_SECRET_CONNECTION_TRANSCRIPT_HASH';

/**
 * The two AEAD keys from a Diffie-Hellman secret (deriveSecrets). `locIsLeast`: our ephemeral
 * public key sorts before the peer's.
 */
export function deriveSecrets(dhSecret: Uint8Array, locIsLeast: boolean): { recvSecret: Uint8Array; sendSecret: Uint8Array } {
  const okm = new Uint8Array(hkdfSync('sha256', dhSecret, new Uint8Array(0), KEY_AND_CHALLENGE_GEN, 2 * AEAD_KEY_SIZE + 32));
  const first = okm.slice(0, AEAD_KEY_SIZE);
  const second = okm.slice(AEAD_KEY_SIZE, 2 * AEAD_KEY_SIZE);
  return locIsLeast ? { recvSecret: first, sendSecret: second } : { recvSecret: second, sendSecret: first };
}

/** The ephemeral-key transcript and its challenge (steps 2 and 4 above). */
export function handshakeChallenge(locEphPub: Uint8Array, remEphPub: Uint8Array, dhSecret: Uint8Array): Uint8Array {
  const [lo, hi] = compareBytes(locEphPub, remEphPub) < 0 ? [locEphPub, remEphPub] : [remEphPub, locEphPub];
  const transcript = new MerlinTranscript(TRANSCRIPT_LABEL);
  transcript.appendMessage('EPHEMERAL_LOWER_PUBLIC_KEY', lo);
  transcript.appendMessage('EPHEMERAL_UPPER_PUBLIC_KEY', hi);
  transcript.appendMessage('DH_SECRET', dhSecret);
  return transcript.extractBytes('SECRET_CONNECTION_MAC', 32);
}

/** X25519 with the all-zero (low-order point) result refused, as Go's curve25519.X25519 does. */
export function computeDHSecret(remEphPub: Uint8Array, locEphPriv: Uint8Array): Uint8Array {
  let shared: Uint8Array;
  try {
    shared = x25519.getSharedSecret(locEphPriv, remEphPub);
  } catch {
    throw new P2PError('AUTH_FAILURE', 'detected low order point from remote peer');
  }
  if (shared.every((b) => b === 0)) throw new P2PError('AUTH_FAILURE', 'detected low order point from remote peer');
  return shared;
}

function bytesValue(bytes: Uint8Array): Uint8Array {
  return encodeProto((w) => w.bytesField(1, bytes), bytes.length + 4);
}

function readBytesValue(msg: Uint8Array): Uint8Array {
  let value = new Uint8Array(0);
  readMessage(msg, (field, wire, r) => {
    if (field === 1 && wire === 2) value = r.bytes().slice();
    else r.skip(wire);
  });
  return value;
}

function encodeAuthSig(pubKey: PubKey, sig: Uint8Array): Uint8Array {
  return encodeProto((w: ProtoWriter) => {
    w.messageAlways(1, (x) => writePublicKey(x, pubKey));
    w.bytesField(2, sig);
  });
}

function decodeAuthSig(msg: Uint8Array): { pubKey: PubKey; sig: Uint8Array } {
  let pubKey: PubKey | undefined;
  let sig = new Uint8Array(0);
  readMessage(msg, (field, wire, r) => {
    if (field === 1 && wire === 2) pubKey = readPublicKey(r.bytes());
    else if (field === 2 && wire === 2) sig = r.bytes().slice();
    else r.skip(wire);
  });
  if (!pubKey) throw new P2PError('AUTH_FAILURE', 'auth message without a public key');
  return { pubKey, sig };
}

/** 12-byte nonce: 4 zero bytes ‖ 64-bit little-endian counter. */
class Nonce {
  readonly bytes = Buffer.alloc(NONCE_SIZE);
  private lo = 0;
  private hi = 0;

  increment(): void {
    this.lo++;
    if (this.lo === 0x1_0000_0000) {
      this.lo = 0;
      this.hi++;
      if (this.hi === 0x1_0000_0000) throw new P2PError('PROTOCOL', "can't increase nonce without overflow");
    }
    this.bytes.writeUInt32LE(this.lo, 4);
    this.bytes.writeUInt32LE(this.hi, 8);
  }
}

/** Seal and open frames for one direction each. */
export class FrameCipher {
  private readonly sendNonce = new Nonce();
  private readonly recvNonce = new Nonce();
  private readonly frame = Buffer.alloc(TOTAL_FRAME_SIZE);

  constructor(
    private readonly sendKey: Uint8Array,
    private readonly recvKey: Uint8Array,
  ) {}

  /** Encrypt `data` as ceil(len/1024) sealed frames (at least one). */
  seal(data: Uint8Array): Buffer {
    const count = Math.max(1, Math.ceil(data.length / DATA_MAX_SIZE));
    const out = Buffer.allocUnsafe(count * SEALED_FRAME_SIZE);
    for (let i = 0; i < count; i++) {
      const chunk = data.subarray(i * DATA_MAX_SIZE, Math.min(data.length, (i + 1) * DATA_MAX_SIZE));
      this.frame.fill(0);
      this.frame.writeUInt32LE(chunk.length, 0);
      this.frame.set(chunk, DATA_LEN_SIZE);
      const cipher = createCipheriv('chacha20-poly1305', this.sendKey, this.sendNonce.bytes, { authTagLength: AEAD_TAG_SIZE });
      const offset = i * SEALED_FRAME_SIZE;
      const encrypted = cipher.update(this.frame);
      cipher.final();
      encrypted.copy(out, offset);
      cipher.getAuthTag().copy(out, offset + TOTAL_FRAME_SIZE);
      this.sendNonce.increment();
    }
    return out;
  }

  /** Decrypt one sealed frame; returns its data. */
  open(sealed: Uint8Array): Buffer {
    const decipher = createDecipheriv('chacha20-poly1305', this.recvKey, this.recvNonce.bytes, { authTagLength: AEAD_TAG_SIZE });
    decipher.setAuthTag(sealed.subarray(TOTAL_FRAME_SIZE, SEALED_FRAME_SIZE));
    let frame: Buffer;
    try {
      frame = decipher.update(sealed.subarray(0, TOTAL_FRAME_SIZE));
      decipher.final();
    } catch {
      throw new P2PError('AUTH_FAILURE', 'failed to decrypt SecretConnection: message authentication failed');
    }
    this.recvNonce.increment();
    const length = frame.readUInt32LE(0);
    if (length > DATA_MAX_SIZE) throw new P2PError('PROTOCOL', 'chunkLength is greater than dataMaxSize');
    return frame.subarray(DATA_LEN_SIZE, DATA_LEN_SIZE + length);
  }
}

export type DataHandler = (data: Buffer) => void;

/**
 * An established secret connection over a socket. It reads the socket itself; `write` encrypts;
 * decrypted data goes to the handler set with `onData` (data that arrived before a handler was
 * set is delivered then, in order).
 */
export class SecretConnection {
  private handler: DataHandler | undefined;
  private early: Buffer[] = [];
  private readonly sealed = new ByteQueue();
  private failure: Error | undefined;
  private errorHandler: ((err: Error) => void) | undefined;
  private remoteKey: PubKey | undefined;

  constructor(
    readonly socket: Socket,
    private readonly cipher: FrameCipher,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
  }

  /** The peer's authenticated ed25519 node key. */
  get remotePubKey(): PubKey {
    if (!this.remoteKey) throw new P2PError('AUTH_FAILURE', 'secret connection is not authenticated yet');
    return this.remoteKey;
  }

  /** Encrypt and write; false when the socket's buffer is full (wait for 'drain'). */
  write(data: Uint8Array): boolean {
    if (this.socket.destroyed) return false;
    return this.socket.write(this.cipher.seal(data));
  }

  onData(handler: DataHandler | undefined): void {
    this.handler = handler;
    if (!handler) return;
    const pending = this.early;
    this.early = [];
    for (const chunk of pending) handler(chunk);
  }

  /** Called once when decryption fails (the socket is destroyed). */
  onError(handler: (err: Error) => void): void {
    this.errorHandler = handler;
    if (this.failure) handler(this.failure);
  }

  /** Handshake internals: the key the peer proved, and plaintext the handshake read too far. */
  authenticated(remoteKey: PubKey, leftover: Buffer | undefined): void {
    this.remoteKey = remoteKey;
    this.detach(leftover);
  }

  /**
   * Stop delivering to the current handler; `leftover` (plaintext a reader took but did not use)
   * is delivered first to the next handler.
   */
  detach(leftover: Buffer | undefined): void {
    this.handler = undefined;
    if (leftover && leftover.length > 0) this.early.unshift(leftover);
  }

  /** Feed raw (sealed) socket bytes. */
  receive(raw: Buffer): void {
    if (this.failure) return;
    this.sealed.push(raw);
    while (this.sealed.length >= SEALED_FRAME_SIZE) {
      let data: Buffer;
      try {
        data = this.cipher.open(this.sealed.take(SEALED_FRAME_SIZE));
      } catch (err) {
        this.failure = err as Error;
        this.socket.destroy();
        this.errorHandler?.(this.failure);
        return;
      }
      if (data.length === 0) continue;
      // The frame buffer is reused by the next open(): hand out a copy.
      const copy = Buffer.from(data);
      if (this.handler) this.handler(copy);
      else this.early.push(copy);
    }
  }
}

/**
 * Run the handshake on a connected socket with our node key. Resolves with the connection (its
 * `remotePubKey` is the peer's authenticated key); rejects, and destroys the socket, on any
 * failure or after `timeoutMs`.
 */
export function makeSecretConnection(socket: Socket, nodeKey: Ed25519PrivateKey, timeoutMs: number): Promise<SecretConnection> {
  return new Promise<SecretConnection>((resolve, reject) => {
    const raw = new ByteQueue();
    const plain = new ByteQueue();
    let conn: SecretConnection | undefined;
    let settled = false;
    const locEphPriv = new Uint8Array(randomBytes(32));
    const locEphPub = x25519.getPublicKey(locEphPriv);
    let challenge: Uint8Array | undefined;

    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      cleanup();
      socket.destroy();
      reject(err instanceof P2PError ? err : new P2PError('AUTH_FAILURE', `secret connection handshake failed: ${(err as Error).message}`, { cause: err }));
    };
    const timer = setTimeout(() => fail(new P2PError('TIMEOUT', `secret connection handshake timed out after ${timeoutMs}ms`)), timeoutMs);
    const onClose = (): void => fail(new P2PError('CLOSED', 'connection closed during the secret connection handshake'));
    const onError = (err: Error): void => fail(new P2PError('CLOSED', `connection error during the handshake: ${err.message}`, { cause: err }));
    const cleanup = (): void => {
      clearTimeout(timer);
      socket.off('data', onRawData);
      socket.off('close', onClose);
      socket.off('error', onError);
    };

    const onPlain = (data: Buffer): void => {
      try {
        plain.push(data);
        const msg = plain.takeDelimited(MAX_HANDSHAKE_MSG_BYTES);
        if (!msg || !conn || !challenge) return;
        const { pubKey, sig } = decodeAuthSig(msg);
        if (pubKey.type !== 'ed25519') throw new P2PError('AUTH_FAILURE', `expected ed25519 pubkey, got ${pubKey.type}`);
        if (!verifySignature(pubKey, challenge, sig)) throw new P2PError('AUTH_FAILURE', 'challenge verification failed');
        settled = true;
        cleanup();
        conn.authenticated(pubKey, plain.length > 0 ? plain.take(plain.length) : undefined);
        resolve(conn);
      } catch (err) {
        fail(err);
      }
    };

    const onRawData = (chunk: Buffer): void => {
      if (conn) return; // the secret connection reads the socket itself from now on
      try {
        raw.push(chunk);
        const msg = raw.takeDelimited(MAX_HANDSHAKE_MSG_BYTES);
        if (!msg) return;
        const remEphPub = readBytesValue(msg);
        if (remEphPub.length !== 32) throw new P2PError('AUTH_FAILURE', `ephemeral public key must be 32 bytes, got ${remEphPub.length}`);
        const dhSecret = computeDHSecret(remEphPub, locEphPriv);
        const { recvSecret, sendSecret } = deriveSecrets(dhSecret, compareBytes(locEphPub, remEphPub) < 0);
        challenge = handshakeChallenge(locEphPub, remEphPub, dhSecret);
        conn = new SecretConnection(socket, new FrameCipher(sendSecret, recvSecret));
        conn.onError(fail);
        conn.onData(onPlain);
        conn.write(delimit(encodeAuthSig(nodeKey.pubKey, nodeKey.sign(challenge))));
        // Bytes after the ephemeral key (same chunk) are already sealed frames.
        if (raw.length > 0) conn.receive(raw.take(raw.length));
      } catch (err) {
        fail(err);
      }
    };
    socket.on('data', onRawData);
    socket.once('close', onClose);
    socket.on('error', onError);
    socket.write(delimit(bytesValue(locEphPub)));
  });
}
