/**
 * Signature verification is done once: CheckTx's result is reused by FinalizeBlock when the
 * facts it depended on still hold, and blocks nobody CheckTx'd are verified on worker threads.
 */
import { isNativeSecp256k1Available } from '../../../src/keyring/index.js';
import { signMessage } from '../../../src/keyring/keys.js';
import { keccak256 } from '../../../src/keyring/hash.js';
import { DecodedTxCache, decodeTx } from '../../../src/node/app/tx.js';
import { SignatureVerifierPool, VerifiedSignatureCache, ethRecoverKeyField, inlineVerifyStats, verifyJobLocally, type VerifyJob } from '../../../src/node/app/sigverify.js';
import { secp256k1 } from '../../../src/keyring/secp256k1.js';
import { TOKEN, buildAppState, msgSend, signTx, startChain, testKey } from './helpers.js';

const alice = testKey('alice');
const bob = testKey('bob');
const validator = testKey('validator');
const nativeTest = isNativeSecp256k1Available() ? test : test.skip;

describe('DecodedTxCache', () => {
  test('bounded: holds at most its capacity of decoded txs, the oldest going first', () => {
    const txs = Array.from({ length: 25 }, (_, i) => signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, BigInt(i + 1))], sequence: BigInt(i), accountNumber: 0n }));
    const cache = new DecodedTxCache(10);
    const decoded = txs.map((bytes, i) => {
      const tx = cache.decode(bytes);
      expect(cache.size).toBe(Math.min(i + 1, 10));
      return tx;
    });
    expect(cache.decode(txs[24]!)).toBe(decoded[24]); // remembered
    expect(cache.decode(txs[0]!)).not.toBe(decoded[0]); // long evicted: decoded anew
    expect(cache.decode(txs[0]!).hash).toEqual(decoded[0]!.hash);
    expect(cache.size).toBe(10);
    cache.forget(decoded[24]!);
    expect(cache.size).toBe(9);
    const none = new DecodedTxCache(0);
    none.decode(txs[1]!);
    expect(none.size).toBe(0);
  });

  test('the same bytes object and an equal copy find the same decoding; forget and eviction drop both ways in', () => {
    const txs = Array.from({ length: 4 }, (_, i) => signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, BigInt(i + 1))], sequence: BigInt(i), accountNumber: 0n }));
    const cache = new DecodedTxCache(2);
    const first = cache.decode(txs[0]!);
    expect(cache.decode(txs[0]!)).toBe(first);
    expect(cache.decode(Uint8Array.from(txs[0]!))).toBe(first);
    cache.forget(first);
    expect(cache.size).toBe(0);
    const again = cache.decode(txs[0]!);
    expect(again).not.toBe(first);
    expect(again.hash).toEqual(first.hash);
    cache.decode(txs[1]!);
    cache.decode(txs[2]!); // evicts txs[0]
    expect(cache.size).toBe(2);
    expect(cache.decode(txs[0]!)).not.toBe(again);
  });

  test('remember: a decoding made elsewhere is what decode returns for its bytes object and for equal bytes; bounded like the rest', () => {
    const txs = Array.from({ length: 3 }, (_, i) => signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, BigInt(i + 1))], sequence: BigInt(i), accountNumber: 0n }));
    const cache = new DecodedTxCache(2);
    const made = decodeTx(txs[0]!);
    cache.remember(made);
    expect(cache.decode(txs[0]!)).toBe(made);
    expect(cache.decode(Uint8Array.from(txs[0]!))).toBe(made);
    cache.remember(decodeTx(txs[1]!));
    cache.remember(decodeTx(txs[2]!)); // evicts txs[0]
    expect(cache.size).toBe(2);
    expect(cache.decode(txs[0]!)).not.toBe(made);
    const none = new DecodedTxCache(0);
    none.remember(made);
    expect(none.size).toBe(0);
  });
});

describe('VerifiedSignatureCache', () => {
  test('a hit needs the same chain id, signer index, account number and key', () => {
    const cache = new VerifiedSignatureCache(10);
    const hash = Uint8Array.of(1, 2, 3);
    const pubKey = { algo: 'eth_secp256k1' as const, key: alice.pubKey, typeUrl: '/ethermint.crypto.v1.ethsecp256k1.PubKey' };
    cache.add(hash, 'c-1', 0, { accountNumber: 4n, pubKey });
    expect(cache.has(hash, 'c-1', 0, 4n, pubKey)).toBe(true);
    expect(cache.has(hash, 'c-2', 0, 4n, pubKey)).toBe(false);
    expect(cache.has(hash, 'c-1', 1, 4n, pubKey)).toBe(false);
    expect(cache.has(hash, 'c-1', 0, 5n, pubKey)).toBe(false);
    expect(cache.has(hash, 'c-1', 0, 4n, { ...pubKey, key: bob.pubKey })).toBe(false);
    cache.forget(hash);
    expect(cache.has(hash, 'c-1', 0, 4n, pubKey)).toBe(false);
  });

  test('bounded: the oldest entries go first', () => {
    const cache = new VerifiedSignatureCache(2);
    const pubKey = { algo: 'eth_secp256k1' as const, key: alice.pubKey, typeUrl: '' };
    for (let i = 0; i < 3; i++) cache.add(Uint8Array.of(i), 'c', 0, { accountNumber: 0n, pubKey });
    expect(cache.size).toBe(2);
    expect(cache.has(Uint8Array.of(0), 'c', 0, 0n, pubKey)).toBe(false);
  });
});

describe('SignatureVerifierPool', () => {
  nativeTest('verifies batches on a worker thread, in job order, bad ones false', async () => {
    const pool = SignatureVerifierPool.create(1)!;
    try {
      const jobs = Array.from({ length: 50 }, (_, i) => {
        const message = new TextEncoder().encode(`message ${i}`);
        const signature = signMessage('eth_secp256k1', alice.privateKey, message).subarray(0, 64);
        const tampered = i % 7 === 3 ? Uint8Array.from(signature, (byte, j) => (j === 10 ? byte ^ 1 : byte)) : signature;
        return { algo: 'eth_secp256k1' as const, message, signature: tampered, pubKey: alice.pubKey };
      });
      const results = await pool.verifyAll(jobs);
      expect(results).toEqual(jobs.map((_, i) => i % 7 !== 3));
      // A Cosmos secp256k1 key is hashed with sha256 on the worker.
      const carol = testKey('carol', 'secp256k1');
      const message = new TextEncoder().encode('cosmos');
      const cosmos = pool.startShared([{ algo: 'secp256k1', message, signature: signMessage('secp256k1', carol.privateKey, message), pubKey: carol.pubKey }])!;
      await cosmos.done;
      expect(cosmos.state(0)).toBe(1);
      // Shared memory: results appear without an event-loop turn; cancel stops the rest.
      const shared = pool.startShared(jobs)!;
      await shared.done;
      expect(jobs.map((_, i) => shared.state(i))).toEqual(jobs.map((_, i) => (i % 7 !== 3 ? 1 : 2)));
      const cancelled = pool.startShared(jobs)!;
      cancelled.cancel();
      await cancelled.done;
      expect(jobs.every((_, i) => [0, 1, 2].includes(cancelled.state(i)))).toBe(true);
    } finally {
      await pool.close();
    }
  });
});

describe('SignatureVerifierPool.close', () => {
  nativeTest('jobs already sent finish and are answered; the workers then exit on their own', async () => {
    const pool = SignatureVerifierPool.create(2)!;
    const jobs = Array.from({ length: 400 }, (_, i) => {
      const message = new TextEncoder().encode(`closing ${i}`);
      return { algo: 'eth_secp256k1' as const, message, signature: signMessage('eth_secp256k1', alice.privateKey, message).subarray(0, 64), pubKey: alice.pubKey };
    });
    const inFlight = pool.verifyOnWorkers(jobs);
    // A grace far beyond the test's timeout: only the workers' own exit can end close().
    await pool.close(3_600_000);
    expect(await inFlight).toEqual(jobs.map(() => true));
    // Closed: later calls verify on the calling thread.
    expect(await pool.verifyOnWorkers(jobs.slice(0, 2))).toEqual([true, true]);
  });
});

describe('eth_recover jobs', () => {
  // A job passes when the key recovered from the signature over keccak256(message) hashes to the
  // address in the key field — on a worker and on the calling thread alike.
  const message = new TextEncoder().encode('an Ethereum tx signing payload');
  const { signature, recovery } = secp256k1().sign(keccak256(message), alice.privateKey);
  const job = (address: Uint8Array, recid = recovery, sig = signature): VerifyJob => ({ algo: 'eth_recover', message, signature: sig, pubKey: ethRecoverKeyField(recid, address) });
  const jobs = [
    job(alice.address),
    job(bob.address),
    job(alice.address, 1 - recovery),
    job(alice.address, recovery, Uint8Array.from(signature, (byte, i) => (i === 5 ? byte ^ 1 : byte))),
    job(alice.address, recovery, new Uint8Array(64)),
  ];
  const expected = [true, false, false, false, false];

  test('on the calling thread', () => {
    expect(jobs.map((j) => verifyJobLocally(j))).toEqual(expected);
  });

  nativeTest('on a worker thread, batched and through shared memory', async () => {
    const pool = SignatureVerifierPool.create(1)!;
    try {
      expect(await pool.verifyOnWorkers(jobs)).toEqual(expected);
      const shared = pool.startShared(jobs)!;
      await shared.done;
      expect(jobs.map((_, i) => shared.state(i))).toEqual(expected.map((ok) => (ok ? 1 : 2)));
    } finally {
      await pool.close();
    }
  });
});

describe('FinalizeBlock reuse', () => {
  test('txs seen in CheckTx are not verified again', async () => {
    const chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
    await chain.block([]);
    const txs = [0n, 1n, 2n].map((sequence) => signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence, accountNumber: 0n }));
    for (const tx of txs) expect((await chain.app.checkTx({ tx, type: 'new' })).code).toBe(0);
    const hitsBefore = chain.app.sigCache.hits;
    const block = await chain.block(txs);
    expect(block.txResults.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(chain.app.sigCache.hits - hitsBefore).toBe(3);
    expect(chain.app.sigCache.size).toBe(0); // used entries are dropped
    await chain.close();
  });

  nativeTest('a block from a peer is verified on workers; a bad signature among them is still rejected', async () => {
    const chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }), {
      appOptions: { sigVerifyWorkers: 1, parallelVerifyThreshold: 1 },
    });
    expect(chain.app.verifierThreads).toBe(1);
    await chain.block([]);
    const good = [0n, 1n].map((sequence) => signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence, accountNumber: 0n }));
    const bad = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 2n, accountNumber: 0n, signWith: bob });
    const block = await chain.block([...good, bad]);
    // Whatever the workers finished in time was reused (timings.preverifiedHits), the rest was
    // verified inline; either way the forged signature is rejected.
    expect(block.txResults.map((r) => r.code)).toEqual([0, 0, 4]);
    expect(chain.app.timings.preverifiedHits).toBeLessThanOrEqual(2);
    await chain.close();
  });
});

describe('CheckTx with worker verification', () => {
  nativeTest('txs arriving together are verified on the workers; CheckTx then verifies nothing itself', async () => {
    const carol = testKey('carol');
    const chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [carol, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }), {
      appOptions: { sigVerifyWorkers: 1 },
    });
    await chain.block([]);
    const txs = [signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 0n, accountNumber: 0n }), signTx({ signer: carol, msgs: [msgSend(carol.bech32, bob.bech32, 1n)], sequence: 0n, accountNumber: 1n })];
    await Promise.all(txs.map((tx) => chain.app.precheckTx(tx)));
    const inlineBefore = inlineVerifyStats.count;
    for (const tx of txs) expect((await chain.app.checkTx({ tx, type: 'new' })).code).toBe(0);
    expect(inlineVerifyStats.count).toBe(inlineBefore);
    await chain.close();
  });

  nativeTest('a forged signature is left to CheckTx, which refuses it', async () => {
    const chain = await startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }), {
      appOptions: { sigVerifyWorkers: 1 },
    });
    await chain.block([]);
    const forged = signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, 1n)], sequence: 0n, accountNumber: 0n, signWith: bob });
    await chain.app.precheckTx(forged);
    const inlineBefore = inlineVerifyStats.count;
    const response = await chain.app.checkTx({ tx: forged, type: 'new' });
    expect(response.code).toBe(4);
    expect(inlineVerifyStats.count).toBe(inlineBefore + 1);
    // Garbage is not the precheck's business either: CheckTx answers the decode error.
    await chain.app.precheckTx(Uint8Array.of(1, 2, 3));
    expect((await chain.app.checkTx({ tx: Uint8Array.of(1, 2, 3), type: 'new' })).code).toBe(2);
    await chain.close();
  });
});
