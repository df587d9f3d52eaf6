/**
 * Signature verification, the node's hot path, with two ways to avoid paying for it twice:
 *
 * 1. `VerifiedSignatureCache`: CheckTx remembers, per tx hash, the facts a successful
 *    verification depended on: the chain id and, per signer, the account number and public key.
 *    FinalizeBlock skips verification when the same tx comes with the same facts.
 *
 *    Why that is sound: a DIRECT signature is checked over SignDoc{body_bytes, auth_info_bytes,
 *    chain_id, account_number} with the signer's public key; a LEGACY_AMINO_JSON one over a JSON
 *    document made of the body's messages, memo and timeout, the auth info's fee and the signer
 *    info's sequence, plus the chain id and account number (the amino names used are fixed for
 *    the life of the process). The tx hash fixes body_bytes, auth_info_bytes and the signatures
 *    (sha256 over the TxRaw holding all three; a collision is out of reach). The chain id and
 *    each signer's account number and key (for a multisig: its amino encoding, which covers the
 *    threshold and every member) are compared on reuse, so if any of them differs (an account
 *    re-created with another number, a key set by an earlier tx of the block, another chain) the
 *    signature is verified again. Nothing else enters the check: the sequence is part of
 *    auth_info_bytes and is compared against the account by the ante chain on every run; the
 *    result of ECDSA verification is a pure function of (digest, signature, key). Only successes
 *    are remembered.
 *
 * 2. `SignModeHandler` builds the bytes each mode signs and `verifySignatureData` checks single
 *    and multisig signatures (threshold, bit array, each member in its own mode).
 *
 * 3. `SignatureVerifierPool`: signatures of a block that CheckTx never saw (blocks from peers,
 *    replay) are verified ahead of execution on worker threads with libsecp256k1, reading the
 *    jobs from and writing each result to shared memory. The ante chain, executing in order
 *    meanwhile, reuses a result the workers already produced for the same facts (read from the
 *    state before the block; re-checked at use) and verifies inline otherwise: it never waits, so
 *    a busy worker can only save work.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SignMode } from '../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { keccak256, sha256 } from '../../keyring/hash.js';
import { isNativeSecp256k1Available, verifySignature } from '../../keyring/index.js';
import { secp256k1, secp256k1ImplementationName } from '../../keyring/secp256k1.js';
import type { PubKey } from '../modules/auth/account.js';
import { AminoJsonError, AminoJsonSigner } from '../codec/aminoJson.js';
import { signDocBytes, type DecodedTx, type SignatureData } from './tx.js';
import { bytesEqual } from '../modules/shared/keys.js';

/** Time spent in inline (main-thread, ante chain) signature checks, for benchmarks. */
export const inlineVerifyStats = { count: 0, ms: 0 };

/** Verifies one single-key signature over `signBytes` (keccak256 for eth, sha256 for Cosmos). */
export function verifyWithPubKey(pubKey: PubKey, signBytes: Uint8Array, signature: Uint8Array): boolean {
  const started = performance.now();
  let ok = false;
  switch (pubKey.algo) {
    case 'eth_secp256k1':
      ok = verifySignature('eth_secp256k1', pubKey.key, signBytes, signature);
      break;
    case 'secp256k1':
      ok = verifySignature('secp256k1', pubKey.key, signBytes, signature);
      break;
  }
  inlineVerifyStats.count++;
  inlineVerifyStats.ms += performance.now() - started;
  return ok;
}

/** A worker job for a single-key signature over `signBytes`, or undefined when it cannot verify. */
export function verificationJob(pubKey: PubKey, signBytes: Uint8Array, signature: Uint8Array): VerifyJob | undefined {
  if (pubKey.key.length !== 33) return undefined;
  if (pubKey.algo === 'eth_secp256k1' && (signature.length === 64 || signature.length === 65)) {
    return { algo: 'eth_secp256k1', message: signBytes, signature: signature.subarray(0, 64), pubKey: pubKey.key };
  }
  if (pubKey.algo === 'secp256k1' && signature.length === 64) return { algo: 'secp256k1', message: signBytes, signature, pubKey: pubKey.key };
  return undefined;
}

export function signModeName(mode: SignMode | undefined): string {
  if (mode === undefined) return 'SIGN_MODE_UNSPECIFIED';
  return SignMode[mode] === undefined ? String(mode) : `SIGN_MODE_${SignMode[mode]}`;
}

// ------------------------------------------------------------------------------------- sign modes

/** Whose signature is being checked: the facts the sign bytes depend on besides the tx. */
export interface SignerData {
  readonly chainId: string;
  /** 0 at genesis (height 0), else the account's number. */
  readonly accountNumber: bigint;
  /** The sequence of the signer info (the ante chain has checked it equals the account's). */
  readonly sequence: bigint;
  readonly address: Uint8Array;
}

/** The sign bytes cannot be built for this mode (unsupported mode, message without an amino name …). */
export class SignBytesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignBytesError';
  }
}

/**
 * The sign modes the node accepts (the SDK's HandlerMap): SIGN_MODE_DIRECT and
 * SIGN_MODE_LEGACY_AMINO_JSON. Anything else is "unsupported sign mode <MODE>".
 */
export class SignModeHandler {
  constructor(readonly amino: AminoJsonSigner = new AminoJsonSigner()) {}

  signBytes(mode: SignMode, tx: DecodedTx, signer: SignerData): Uint8Array {
    switch (mode) {
      case SignMode.DIRECT:
        return signDocBytes(tx.bodyBytes, tx.authInfoBytes, signer.chainId, signer.accountNumber);
      case SignMode.LEGACY_AMINO_JSON:
        return this.aminoSignBytes(tx, signer);
      default:
        throw new SignBytesError(`unsupported sign mode ${signModeName(mode)}`);
    }
  }

  private aminoSignBytes(tx: DecodedTx, signer: SignerData): Uint8Array {
    const body = tx.body;
    // As x/tx's aminojson handler: the JSON has no place for these, so signing over it would not cover them.
    if (body.extensionOptions.length > 0 || body.nonCriticalExtensionOptions.length > 0) {
      throw new SignBytesError('SIGN_MODE_LEGACY_AMINO_JSON does not support protobuf extension options: invalid request');
    }
    if ((body.$unknown?.length ?? 0) > 0) throw new SignBytesError('SIGN_MODE_LEGACY_AMINO_JSON does not support unknown fields in the tx body');
    if (signer.address.length === 0) throw new SignBytesError('got empty address in SIGN_MODE_LEGACY_AMINO_JSON handler: invalid request');
    const fee = tx.authInfo.fee;
    try {
      return this.amino.signBytes({
        chainId: signer.chainId,
        accountNumber: signer.accountNumber,
        sequence: signer.sequence,
        timeoutHeight: body.timeoutHeight,
        memo: body.memo,
        // Already decoded by decodeTx: encode those objects rather than decoding the Anys again.
        msgs: tx.msgs,
        fee: { amount: fee?.amount ?? [], gasLimit: fee?.gasLimit ?? 0n, payer: fee?.payer ?? '', granter: fee?.granter ?? '' },
      });
    } catch (err) {
      if (err instanceof AminoJsonError) throw new SignBytesError(err.message);
      throw err;
    }
  }
}

/** Why a signature did not verify (the text the SDK puts in the "(…)" of code 4). */
export class SignatureFailure extends Error {
  constructor(
    message: string,
    /** True when the sign bytes could not be built (as opposed to a signature that does not match them). */
    readonly signBytesFailed = false,
  ) {
    super(message);
    this.name = 'SignatureFailure';
  }
}

/**
 * Verifies signature data against a key (x/auth/signing VerifySignature + the multisig key's
 * VerifyMultisignature). `signBytes(mode)` builds the bytes for one mode (memoise it: every
 * member of a multisig signs the same bytes). Throws SignatureFailure with the SDK's reason.
 */
export function verifySignatureData(pubKey: PubKey, data: SignatureData, signBytes: (mode: SignMode) => Uint8Array, fallback?: (key: PubKey, mode: SignMode, signature: Uint8Array) => boolean): void {
  if (data.kind === 'single') {
    if (pubKey.algo === 'multisig') throw new SignatureFailure('a multisig key needs multisignature data, got a single signature');
    let bytes: Uint8Array;
    try {
      bytes = signBytes(data.mode);
    } catch (err) {
      if (err instanceof SignBytesError) throw new SignatureFailure(err.message, true);
      throw err;
    }
    if (!verifyWithPubKey(pubKey, bytes, data.signature) && fallback?.(pubKey, data.mode, data.signature) !== true) throw new SignatureFailure('unable to verify single signer signature');
    return;
  }
  const multisig = pubKey.multisig;
  if (multisig === undefined) throw new SignatureFailure(`expected a multisig public key, got ${pubKey.typeUrl}`);
  const { bits, signatures } = data;
  const size = bits.size;
  const members = multisig.pubKeys;
  if (members.length !== size) throw new SignatureFailure(`bit array size is incorrect, expecting: ${members.length}`);
  if (signatures.length < multisig.threshold || signatures.length > size) throw new SignatureFailure(`signature size is incorrect ${signatures.length}`);
  const set = bits.count();
  if (set < multisig.threshold) throw new SignatureFailure(`not enough signatures set, have ${set}, expected ${multisig.threshold}`);
  let sigIndex = 0;
  for (let i = 0; i < size; i++) {
    if (!bits.get(i)) continue;
    const sub = signatures[sigIndex];
    if (sub === undefined) throw new SignatureFailure(`improper signature data type for index ${sigIndex}`);
    const member = members[i]!;
    if (sub.kind === 'single') {
      if (member.algo === 'multisig') throw new SignatureFailure(`unable to verify signature at index ${i}`);
      let bytes: Uint8Array;
      try {
        bytes = signBytes(sub.mode);
      } catch (err) {
        if (err instanceof SignBytesError) throw new SignatureFailure(err.message, true);
        throw err;
      }
      if (!verifyWithPubKey(member, bytes, sub.signature) && fallback?.(member, sub.mode, sub.signature) !== true) throw new SignatureFailure(`unable to verify signature at index ${i}`);
    } else {
      if (member.multisig === undefined) throw new SignatureFailure(`unable to parse pubkey of index ${i}`);
      verifySignatureData(member, sub, signBytes, fallback);
    }
    sigIndex++;
  }
}

/** True if every signature in `data` is SIGN_MODE_LEGACY_AMINO_JSON (the SDK's OnlyLegacyAminoSigners). */
export function onlyLegacyAminoSigners(data: SignatureData): boolean {
  return data.kind === 'single' ? data.mode === SignMode.LEGACY_AMINO_JSON : data.signatures.every(onlyLegacyAminoSigners);
}

// ------------------------------------------------------------------------------------- cache

export interface VerifiedSigner {
  readonly accountNumber: bigint;
  readonly pubKey: PubKey;
}

interface CacheEntry {
  chainId: string;
  signers: (VerifiedSigner | undefined)[];
}

export class VerifiedSignatureCache {
  private readonly entries = new Map<string, CacheEntry>();
  hits = 0;
  misses = 0;

  constructor(private readonly capacity: number) {}

  private key(hash: Uint8Array): string {
    return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('latin1');
  }

  /** True if signer `index` of tx `hash` was verified with exactly these facts. */
  has(hash: Uint8Array, chainId: string, index: number, accountNumber: bigint, pubKey: PubKey, count = true): boolean {
    const entry = this.entries.get(this.key(hash));
    const signer = entry?.signers[index];
    const hit =
      entry !== undefined &&
      signer !== undefined &&
      entry.chainId === chainId &&
      signer.accountNumber === accountNumber &&
      signer.pubKey.algo === pubKey.algo &&
      bytesEqual(signer.pubKey.key, pubKey.key);
    if (count) {
      if (hit) this.hits++;
      else this.misses++;
    }
    return hit;
  }

  /** Remembers that signer `index` of tx `hash` verified with these facts. */
  add(hash: Uint8Array, chainId: string, index: number, signer: VerifiedSigner): void {
    if (this.capacity <= 0) return;
    const key = this.key(hash);
    let entry = this.entries.get(key);
    if (entry === undefined || entry.chainId !== chainId) {
      if (this.entries.size >= this.capacity) {
        const oldest = this.entries.keys().next();
        if (oldest.done !== true) this.entries.delete(oldest.value);
      }
      entry = { chainId, signers: [] };
      this.entries.set(key, entry);
    }
    entry.signers[index] = signer;
  }

  forget(hash: Uint8Array): void {
    this.entries.delete(this.key(hash));
  }

  get size(): number {
    return this.entries.size;
  }
}

// ------------------------------------------------------------------------------------- workers

/**
 * One signature check: the signed bytes (hashed by the worker: keccak256 for eth_secp256k1 and
 * eth_recover, sha256 for secp256k1), the 64-byte compact signature and a 33-byte key field:
 * the compressed public key, or for `eth_recover` (an Ethereum tx's sender, see
 * `ethRecoverKeyField`) the recovery id, the claimed 20-byte address and 12 zero bytes — the job
 * passes when the key recovered from the signature hashes to that address.
 */
export interface VerifyJob {
  algo: 'eth_secp256k1' | 'secp256k1' | 'eth_recover';
  message: Uint8Array;
  signature: Uint8Array;
  pubKey: Uint8Array;
}

/** The 33-byte key field of an `eth_recover` job: recovery id ‖ address[20] ‖ 0[12]. */
export function ethRecoverKeyField(recovery: number, address: Uint8Array): Uint8Array {
  const field = new Uint8Array(33);
  field[0] = recovery;
  field.set(address.subarray(0, 20), 1);
  return field;
}

/** Job record: u8 algo (0 eth, 1 cosmos, 2 eth recover) ‖ u32le message length ‖ message ‖ sig[64] ‖ key[33]. */
const JOB_FIXED = 1 + 4 + 64 + 33;

const ALGO_CODES = { eth_secp256k1: 0, secp256k1: 1, eth_recover: 2 } as const;

/**
 * The worker: a CommonJS script that loads the libsecp256k1 binding directly and noble's keccak
 * (ESM, by URL), hashes each message and verifies it.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const native = require(workerData.bindingPath);
let keccak;
const ready = import(workerData.sha3Url).then((m) => { keccak = m.keccak_256; });
function check(data, o) {
  const algo = data[o];
  const length = (data[o + 1] | (data[o + 2] << 8) | (data[o + 3] << 16) | (data[o + 4] << 24)) >>> 0;
  const message = data.subarray(o + 5, o + 5 + length);
  const signature = data.subarray(o + 5 + length, o + 69 + length);
  const pubKey = data.subarray(o + 69 + length, o + 102 + length);
  return checkOne(algo, message, signature, pubKey);
}
function checkOne(algo, message, signature, key) {
  try {
    if (algo === 2) {
      const recovered = native.ecdsaRecover(signature, key[0], keccak(message), false);
      const address = keccak(recovered.subarray(1)).subarray(12);
      for (let i = 0; i < 20; i++) if (address[i] !== key[1 + i]) return false;
      return true;
    }
    const digest = algo === 0 ? keccak(message) : createHash('sha256').update(message).digest();
    return native.ecdsaVerify(signature, digest, key);
  } catch {
    return false;
  }
}
function recoverAddress(message, signature, key) {
  try {
    const recovered = native.ecdsaRecover(signature, key[0], keccak(message), false);
    return keccak(recovered.subarray(1)).subarray(12);
  } catch {
    return undefined;
  }
}
parentPort.on('message', async (job) => {
  // Between jobs, never inside the native binding: ending the thread there (Worker.terminate)
  // can abort the whole process when the binding's C++ error handling meets the stopping thread.
  // Jobs that arrived earlier and wait for the hash module resume first (in arrival order).
  if (job.close) return ready.then(() => process.exit(0), () => process.exit(0));
  await ready;
  if (job.recover) {
    // Sender recovery: per job 1 ‖ address[20], or 21 zero bytes when nothing recovers.
    const data = new Uint8Array(job.buffer);
    const out = new Uint8Array(job.count * 21);
    let o = 0;
    for (let i = 0; i < job.count; i++) {
      const length = (data[o + 1] | (data[o + 2] << 8) | (data[o + 3] << 16) | (data[o + 4] << 24)) >>> 0;
      o += 5;
      const address = recoverAddress(data.subarray(o, o + length), data.subarray(o + length, o + length + 64), data.subarray(o + length + 64, o + length + 97));
      o += length + 97;
      if (address !== undefined) {
        out[i * 21] = 1;
        out.set(address, i * 21 + 1);
      }
    }
    parentPort.postMessage({ id: job.id, buffer: out.buffer }, [out.buffer]);
    return;
  }
  if (job.shared) {
    // Shared mode: results[i] = 1 ok / 2 bad as each job finishes; results[count] = 1 cancels.
    const data = new Uint8Array(job.data);
    const offsets = new Uint32Array(job.offsets);
    const results = new Int32Array(job.results);
    for (let i = job.start; i < job.count; i += job.stride) {
      if (Atomics.load(results, job.count) === 1) break;
      if (Atomics.load(results, i) !== 0) continue;
      Atomics.store(results, i, check(data, offsets[i]) ? 1 : 2);
    }
    parentPort.postMessage({ id: job.id, buffer: new ArrayBuffer(0) });
    return;
  }
  const data = new Uint8Array(job.buffer);
  const out = new Uint8Array(job.count);
  let o = 0;
  for (let i = 0; i < job.count; i++) {
    const algo = data[o];
    const length = (data[o + 1] | (data[o + 2] << 8) | (data[o + 3] << 16) | (data[o + 4] << 24)) >>> 0;
    o += 5;
    const message = data.subarray(o, o + length);
    o += length;
    const signature = data.subarray(o, o + 64);
    const pubKey = data.subarray(o + 64, o + 97);
    o += 97;
    out[i] = checkOne(algo, message, signature, pubKey) ? 1 : 0;
  }
  parentPort.postMessage({ id: job.id, buffer: out.buffer }, [out.buffer]);
});
`;

/** Checks a job on the calling thread (the same work as the worker). */
export function verifyJobLocally(job: VerifyJob): boolean {
  if (job.algo === 'eth_recover') {
    let recovered: Uint8Array;
    try {
      recovered = secp256k1().recover(keccak256(job.message), job.signature.subarray(0, 64), job.pubKey[0]!, false);
    } catch {
      return false;
    }
    const address = keccak256(recovered.subarray(1)).subarray(12);
    return address.every((byte, i) => byte === job.pubKey[1 + i]);
  }
  const digest = job.algo === 'eth_secp256k1' ? keccak256(job.message) : sha256(job.message);
  return secp256k1().verify(digest, job.signature, job.pubKey);
}

/** Results of `startShared`, filled in by the workers while the caller goes on. */
export interface SharedVerification {
  /** 0 pending, 1 valid, 2 invalid. */
  state(index: number): number;
  /** Ask the workers to stop (the caller no longer needs the rest). */
  cancel(): void;
  /** Resolves when every worker has stopped. */
  done: Promise<void>;
}

interface Pending {
  resolve: (results: Uint8Array) => void;
  reject: (err: Error) => void;
}

/**
 * A small pool of worker threads verifying batches of signatures with the native binding. The
 * calling thread verifies its own share meanwhile, so `size` workers use size+1 cores.
 */
export class SignatureVerifierPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private nextWorker = 0;
  private closed = false;

  private constructor(size: number, bindingPath: string, sha3Url: string) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bindingPath, sha3Url } });
      worker.unref();
      worker.on('message', (message: { id: number; buffer: ArrayBuffer }) => {
        const entry = this.pending.get(message.id);
        if (entry === undefined) return;
        this.pending.delete(message.id);
        entry.resolve(new Uint8Array(message.buffer));
      });
      worker.on('error', (err) => {
        for (const entry of this.pending.values()) entry.reject(err);
        this.pending.clear();
      });
      this.workers.push(worker);
    }
  }

  /** A pool of `size` workers, or undefined when size is 0 or the native binding is missing. */
  static create(size: number): SignatureVerifierPool | undefined {
    if (size <= 0 || !isNativeSecp256k1Available() || secp256k1ImplementationName() !== 'native') return undefined;
    let bindingPath: string;
    let sha3Url: string;
    try {
      const require = createRequire(import.meta.url);
      bindingPath = require.resolve('secp256k1/bindings.js');
      sha3Url = pathToFileURL(require.resolve('@noble/hashes/sha3.js')).href;
    } catch {
      return undefined;
    }
    return new SignatureVerifierPool(size, bindingPath, sha3Url);
  }

  get size(): number {
    return this.workers.length;
  }

  /**
   * Verifies every job; `verifyLocal` checks the caller's share on this thread while the
   * workers run. Results are in job order.
   */
  async verifyAll(jobs: readonly VerifyJob[], verifyLocal: (job: VerifyJob) => boolean = verifyJobLocally): Promise<boolean[]> {
    if (this.closed || this.workers.length === 0 || jobs.length === 0) return jobs.map(verifyLocal);
    const shares = this.workers.length + 1;
    const chunk = Math.ceil(jobs.length / shares);
    const promises: Promise<Uint8Array>[] = [];
    for (let w = 0; w < this.workers.length; w++) {
      const from = (w + 1) * chunk;
      const to = Math.min(jobs.length, from + chunk);
      if (from >= to) break;
      promises.push(this.send(this.workers[w]!, jobs.slice(from, to)));
    }
    const results: boolean[] = new Array<boolean>(jobs.length);
    for (let i = 0; i < Math.min(chunk, jobs.length); i++) results[i] = verifyLocal(jobs[i]!);
    const remote = await Promise.all(promises);
    remote.forEach((out, w) => {
      const from = (w + 1) * chunk;
      for (let i = 0; i < out.length; i++) results[from + i] = out[i] === 1;
    });
    return results;
  }

  /**
   * Verifies every job on the workers only (the calling thread stays free for other work),
   * split evenly between them. Results are in job order.
   */
  async verifyOnWorkers(jobs: readonly VerifyJob[]): Promise<boolean[]> {
    if (this.closed || this.workers.length === 0) return jobs.map((job) => verifyJobLocally(job));
    const chunk = Math.ceil(jobs.length / this.workers.length);
    const promises: Promise<Uint8Array>[] = [];
    for (let from = 0, w = 0; from < jobs.length; from += chunk, w++) promises.push(this.send(this.workers[w]!, jobs.slice(from, from + chunk)));
    const results: boolean[] = [];
    for (const out of await Promise.all(promises)) for (let i = 0; i < out.length; i++) results.push(out[i] === 1);
    return results;
  }

  /**
   * Starts verifying `jobs` on every worker through shared memory and returns at once. Each
   * result appears in `state(i)` (0 pending, 1 valid, 2 invalid) as soon as a worker finishes
   * it, readable synchronously (no event-loop turn needed); `cancel()` stops the workers.
   */
  startShared(jobs: readonly VerifyJob[]): SharedVerification | undefined {
    if (this.closed || this.workers.length === 0 || jobs.length === 0) return undefined;
    let size = 0;
    for (const job of jobs) size += JOB_FIXED + job.message.length;
    const data = new SharedArrayBuffer(size);
    const view = new Uint8Array(data);
    const dataView = new DataView(data);
    const offsetsBuffer = new SharedArrayBuffer(4 * jobs.length);
    const offsets = new Uint32Array(offsetsBuffer);
    let o = 0;
    jobs.forEach((job, i) => {
      offsets[i] = o;
      view[o] = ALGO_CODES[job.algo];
      dataView.setUint32(o + 1, job.message.length, true);
      o += 5;
      view.set(job.message, o);
      o += job.message.length;
      view.set(job.signature.subarray(0, 64), o);
      view.set(job.pubKey, o + 64);
      o += 97;
    });
    const resultsBuffer = new SharedArrayBuffer(4 * (jobs.length + 1));
    const results = new Int32Array(resultsBuffer);
    const stride = this.workers.length;
    const done = this.workers.map(
      (worker, start) =>
        new Promise<void>((resolve) => {
          const id = this.nextId++;
          this.pending.set(id, { resolve: () => resolve(), reject: () => resolve() });
          worker.postMessage({ shared: true, id, data, offsets: offsetsBuffer, results: resultsBuffer, count: jobs.length, start, stride });
        }),
    );
    return {
      state: (i: number): number => Atomics.load(results, i),
      cancel: (): void => {
        Atomics.store(results, jobs.length, 1);
      },
      done: Promise.all(done).then(() => undefined),
    };
  }

  /**
   * Recovers the signer address of each `eth_recover` job on a worker (its claimed address is
   * ignored): 20 bytes, or undefined when no key recovers from the signature. Results in job order.
   */
  async recoverOnWorkers(jobs: readonly VerifyJob[]): Promise<(Uint8Array | undefined)[]> {
    if (this.closed || this.workers.length === 0) throw new Error('no signature workers');
    const worker = this.workers[this.nextWorker++ % this.workers.length]!;
    const out = await this.send(worker, jobs, true);
    return jobs.map((_, i) => (out[i * 21] === 1 ? out.slice(i * 21 + 1, i * 21 + 21) : undefined));
  }

  private send(worker: Worker, jobs: readonly VerifyJob[], recover = false): Promise<Uint8Array> {
    let size = 0;
    for (const job of jobs) size += JOB_FIXED + job.message.length;
    const buffer = new ArrayBuffer(size);
    const view = new Uint8Array(buffer);
    const data = new DataView(buffer);
    let o = 0;
    for (const job of jobs) {
      view[o] = ALGO_CODES[job.algo];
      data.setUint32(o + 1, job.message.length, true);
      o += 5;
      view.set(job.message, o);
      o += job.message.length;
      view.set(job.signature.subarray(0, 64), o);
      view.set(job.pubKey, o + 64);
      o += 97;
    }
    const id = this.nextId++;
    return new Promise<Uint8Array>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage(recover ? { recover: true, id, buffer, count: jobs.length } : { id, buffer, count: jobs.length }, [buffer]);
    });
  }

  /**
   * Stops the workers once the jobs already sent to them are done: each gets a close message after
   * its queued jobs and exits between jobs. One still running after `graceMs` is terminated.
   */
  async close(graceMs = 5000): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.threadId < 0) return resolve(); // already exited
            const timer = setTimeout(() => void worker.terminate(), graceMs);
            worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            worker.postMessage({ close: true });
          }),
      ),
    );
    this.workers.length = 0;
  }
}

/** Jobs per message to the workers when a turn's batch is split (see VerifyBatcher.flush). */
const BATCH_CHUNK_JOBS = 8;

/**
 * Batches verifications requested by many callers in the same event-loop turn (txs arriving for
 * CheckTx) into one message per worker: the first request of a turn schedules a flush, every
 * request until then joins it, and each caller gets its own results back.
 */
export class VerifyBatcher {
  private waiting: { jobs: readonly VerifyJob[]; resolve: (results: boolean[]) => void; reject: (err: Error) => void }[] = [];
  /** Jobs sent to the workers and batches flushed, for benchmarks. */
  readonly stats = { jobs: 0, batches: 0 };

  constructor(private readonly pool: SignatureVerifierPool) {}

  verify(jobs: readonly VerifyJob[]): Promise<boolean[]> {
    return new Promise<boolean[]>((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.flush());
      this.waiting.push({ jobs, resolve, reject });
    });
  }

  private flush(): void {
    const batch = this.waiting;
    this.waiting = [];
    // Small chunks, sent at once: the first results come back while the worker goes on with the
    // rest, so CheckTx of those txs overlaps the verification of the next ones.
    let chunk: typeof batch = [];
    let jobs = 0;
    for (const entry of batch) {
      chunk.push(entry);
      jobs += entry.jobs.length;
      if (jobs >= BATCH_CHUNK_JOBS) {
        this.send(chunk);
        chunk = [];
        jobs = 0;
      }
    }
    if (chunk.length > 0) this.send(chunk);
  }

  private send(chunk: { jobs: readonly VerifyJob[]; resolve: (results: boolean[]) => void; reject: (err: Error) => void }[]): void {
    const jobs = chunk.flatMap((entry) => entry.jobs);
    this.stats.jobs += jobs.length;
    this.stats.batches++;
    this.pool.verifyOnWorkers(jobs).then(
      (results) => {
        let at = 0;
        for (const entry of chunk) {
          entry.resolve(results.slice(at, at + entry.jobs.length));
          at += entry.jobs.length;
        }
      },
      (err: Error) => {
        for (const entry of chunk) entry.reject(err);
      },
    );
  }
}

/**
 * Batches sender recoveries requested in the same event-loop turn (eth_sendRawTransaction calls)
 * into one message to a worker; each caller gets its own address back (undefined: nothing
 * recovers, or the workers failed — the caller then recovers inline and reports its error).
 */
export class RecoverBatcher {
  private waiting: { job: VerifyJob; resolve: (address: Uint8Array | undefined) => void }[] = [];
  /** Jobs sent to the workers and batches flushed, for benchmarks and tests. */
  readonly stats = { jobs: 0, batches: 0 };

  constructor(private readonly pool: SignatureVerifierPool) {}

  recover(job: VerifyJob): Promise<Uint8Array | undefined> {
    return new Promise((resolve) => {
      if (this.waiting.length === 0) setImmediate(() => this.flush());
      this.waiting.push({ job, resolve });
    });
  }

  private flush(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.stats.jobs += batch.length;
    this.stats.batches++;
    this.pool.recoverOnWorkers(batch.map((entry) => entry.job)).then(
      (addresses) => batch.forEach((entry, i) => entry.resolve(addresses[i])),
      () => batch.forEach((entry) => entry.resolve(undefined)),
    );
  }
}
