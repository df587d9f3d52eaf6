/**
 * The secret connection against CometBFT's published vectors (p2p/conn/testdata golden file:
 * HKDF key derivation), Merlin's published transcript vectors, an independent ChaCha20-Poly1305
 * (@noble/ciphers) for the frame format, and real handshakes over loopback TCP, including
 * peers that cheat.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { chacha20poly1305 } from '@noble/ciphers/chacha.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { Ed25519PrivateKey } from '../../../src/node/consensus/types/keys.js';
import { compareBytes } from '../../../src/node/consensus/types/bytes.js';
import { encodeProto } from '../../../src/node/consensus/types/proto.js';
import { MerlinTranscript } from '../../../src/node/p2p/conn/merlin.js';
import {
  FrameCipher,
  SEALED_FRAME_SIZE,
  computeDHSecret,
  deriveSecrets,
  handshakeChallenge,
  makeSecretConnection,
  type SecretConnection,
} from '../../../src/node/p2p/conn/secretConnection.js';
import { ByteQueue, delimit } from '../../../src/node/p2p/conn/byteQueue.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const FIXTURES = join(new URL('.', import.meta.url).pathname, 'fixtures');

describe('Merlin transcript (STROBE-128)', () => {
  it("reproduces merlin's simple transcript vector", () => {
    const t = new MerlinTranscript('test protocol');
    t.appendMessage('some label', 'some data');
    expect(hex(t.extractBytes('challenge', 32))).toBe('d5a21972d0d5fe320c0d263fac7fffb8145aa640af6e9bca177c03c7efcf0615');
  });

  it("reproduces merlin's complex transcript vector (multi-block absorb and squeeze)", () => {
    const t = new MerlinTranscript('test protocol');
    t.appendMessage('step1', 'some data');
    const data = new Uint8Array(1024).fill(0x63);
    let challenge: Uint8Array = new Uint8Array(0);
    for (let i = 0; i < 32; i++) {
      challenge = t.extractBytes('challenge', 32);
      t.appendMessage('bigdata', data);
      t.appendMessage('challengedata', challenge);
    }
    expect(hex(challenge)).toBe('a8c933f54fae76e3f9bea93648c1308e7dfa2152dd51674ff3ca438351cf003c');
  });
});

describe('key derivation (CometBFT TestDeriveSecretsAndChallengeGolden)', () => {
  const lines = readFileSync(join(FIXTURES, 'TestDeriveSecretsAndChallengeGolden.golden'), 'utf8').trim().split('\n');

  it('has the 32 published vectors', () => {
    expect(lines).toHaveLength(32);
  });

  it.each(lines.map((line, i) => [i, line]))('vector %d: receive and send keys', (_i, line) => {
    const [secret, locIsLeast, recv, send] = (line as string).split(',');
    const { recvSecret, sendSecret } = deriveSecrets(Buffer.from(secret!, 'hex'), locIsLeast === 'true');
    expect(hex(recvSecret)).toBe(recv);
    expect(hex(sendSecret)).toBe(send);
  });

  it('the two sides of a handshake derive mirrored keys and the same challenge', () => {
    const a = x25519.utils.randomSecretKey();
    const b = x25519.utils.randomSecretKey();
    const aPub = x25519.getPublicKey(a);
    const bPub = x25519.getPublicKey(b);
    const aDh = computeDHSecret(bPub, a);
    const bDh = computeDHSecret(aPub, b);
    expect(hex(aDh)).toBe(hex(bDh));
    const aLeast = compareBytes(aPub, bPub) < 0;
    const ka = deriveSecrets(aDh, aLeast);
    const kb = deriveSecrets(bDh, !aLeast);
    expect(hex(ka.sendSecret)).toBe(hex(kb.recvSecret));
    expect(hex(ka.recvSecret)).toBe(hex(kb.sendSecret));
    expect(hex(handshakeChallenge(aPub, bPub, aDh))).toBe(hex(handshakeChallenge(bPub, aPub, bDh)));
  });

  it('refuses a low-order ephemeral key (all-zero shared secret)', () => {
    expect(() => computeDHSecret(new Uint8Array(32), x25519.utils.randomSecretKey())).toThrow('detected low order point from remote peer');
  });
});

describe('frames', () => {
  it('are 4-byte LE length ‖ data padded to 1028 bytes, sealed with a 12-byte LE counter nonce (checked with @noble/ciphers)', () => {
    const sendKey = randomBytes(32);
    const cipher = new FrameCipher(sendKey, randomBytes(32));
    const data = randomBytes(1500); // two frames
    const sealed = cipher.seal(data);
    expect(sealed.length).toBe(2 * SEALED_FRAME_SIZE);
    for (let i = 0; i < 2; i++) {
      const nonce = new Uint8Array(12);
      nonce[4] = i;
      const frame = chacha20poly1305(sendKey, nonce).decrypt(sealed.subarray(i * SEALED_FRAME_SIZE, (i + 1) * SEALED_FRAME_SIZE));
      const length = Buffer.from(frame).readUInt32LE(0);
      expect(length).toBe(i === 0 ? 1024 : 476);
      expect(hex(frame.subarray(4, 4 + length))).toBe(hex(data.subarray(i * 1024, i * 1024 + length)));
      expect(frame.subarray(4 + length).every((b) => b === 0)).toBe(true);
    }
  });

  it('a tampered frame fails authentication', () => {
    const key = randomBytes(32);
    const sender = new FrameCipher(key, randomBytes(32));
    const receiver = new FrameCipher(randomBytes(32), key);
    const sealed = sender.seal(Buffer.from('hello'));
    sealed[10]! ^= 1;
    expect(() => receiver.open(sealed)).toThrow('failed to decrypt SecretConnection');
  });
});

// ---------------------------------------------------------------------------------------------
// Handshakes over loopback TCP

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) s.close();
});

async function socketPair(): Promise<[Socket, Socket]> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  const accepted = new Promise<Socket>((r) => server.once('connection', r));
  const client = connect(port, '127.0.0.1');
  await new Promise<void>((r) => client.once('connect', () => r()));
  const serverSide = await accepted;
  sockets.push(client, serverSide);
  return [client, serverSide];
}

function collect(conn: SecretConnection, bytes: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let total = 0;
    conn.onData((d) => {
      parts.push(d);
      total += d.length;
      if (total >= bytes) resolve(Buffer.concat(parts));
    });
  });
}

describe('handshake over TCP', () => {
  it('authenticates both node keys and carries data both ways (frames split and rejoined)', async () => {
    const [a, b] = await socketPair();
    const keyA = Ed25519PrivateKey.generate();
    const keyB = Ed25519PrivateKey.generate();
    const [ca, cb] = await Promise.all([makeSecretConnection(a, keyA, 5000), makeSecretConnection(b, keyB, 5000)]);
    expect(hex(ca.remotePubKey.bytes)).toBe(hex(keyB.pubKey.bytes));
    expect(hex(cb.remotePubKey.bytes)).toBe(hex(keyA.pubKey.bytes));
    const ab = randomBytes(5000);
    const ba = randomBytes(3000);
    const gotB = collect(cb, ab.length);
    const gotA = collect(ca, ba.length);
    ca.write(ab);
    cb.write(ba);
    expect((await gotB).equals(ab)).toBe(true);
    expect((await gotA).equals(ba)).toBe(true);
  });

  it('refuses a peer that sends a low-order ephemeral key', async () => {
    const [a, b] = await socketPair();
    b.write(delimit(encodeProto((w) => w.bytesField(1, new Uint8Array(32).fill(0)))));
    b.write(delimit(encodeProto((w) => w.bytesAlways(1, new Uint8Array(32)))));
    await expect(makeSecretConnection(a, Ed25519PrivateKey.generate(), 5000)).rejects.toThrow('detected low order point from remote peer');
  });

  it('refuses a peer whose challenge signature is wrong', async () => {
    const [a, b] = await socketPair();
    const honest = makeSecretConnection(a, Ed25519PrivateKey.generate(), 5000);
    // The cheater follows the key exchange but signs something else than the challenge.
    const cheaterKey = Ed25519PrivateKey.generate();
    const eph = x25519.utils.randomSecretKey();
    const ephPub = x25519.getPublicKey(eph);
    const queue = new ByteQueue();
    const theirEph = await new Promise<Uint8Array>((resolve) => {
      b.on('data', (d: Buffer) => {
        queue.push(d);
        const msg = queue.takeDelimited(1024);
        if (msg) resolve(msg.subarray(2, 34));
      });
    });
    b.write(delimit(encodeProto((w) => w.bytesField(1, ephPub))));
    const dh = computeDHSecret(theirEph, eph);
    const { sendSecret, recvSecret } = deriveSecrets(dh, compareBytes(ephPub, theirEph) < 0);
    const frames = new FrameCipher(sendSecret, recvSecret);
    const auth = encodeProto((w) => {
      w.messageAlways(1, (x) => x.bytesField(1, cheaterKey.pubKey.bytes));
      w.bytesField(2, cheaterKey.sign(new Uint8Array(32)));
    });
    b.write(frames.seal(delimit(auth)));
    await expect(honest).rejects.toThrow('challenge verification failed');
  });

  it('times out a peer that never answers', async () => {
    const [a] = await socketPair();
    await expect(makeSecretConnection(a, Ed25519PrivateKey.generate(), 200)).rejects.toThrow('timed out');
  });
});
