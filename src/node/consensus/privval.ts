/**
 * The file-based private validator (privval/file.go): `priv_validator_key.json` holds the ed25519
 * key, `priv_validator_state.json` the last signed height/round/step with its sign bytes.
 *
 * Double-sign protection: a vote or proposal is never signed for a height/round/step lower than
 * the last one, and at the same H/R/S only the identical message is "re-signed" (the stored
 * signature is returned, with the stored timestamp when only the timestamp differs). The in-memory
 * state moves before a new signature is returned, so a second request in this process is checked
 * against it; the state file is written atomically (temp file, fsync, rename, fsync of the
 * directory) on libuv's thread pool, and `persisted()` resolves once the latest state is on disk.
 * The engine awaits it before a signed vote or proposal is used or sent, so no signature leaves
 * the process before the state that forbids a conflicting one is durable.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { mkdir, open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConsensusError } from './errors.js';
import { bytesEqual, fromBase64, fromHex, toBase64, toHexUpper } from './types/bytes.js';
import { AMINO_PRIVKEY_ED25519, AMINO_PUBKEY_NAMES, Ed25519PrivateKey, pubKeyAddress, type PubKey } from './types/keys.js';
import { SignedMsgType, proposalSignBytes, timestampFromSignBytes, voteSignBytes, type Proposal, type Vote } from './types/vote.js';

/** What the engine needs from a signer (local file or, later, a remote signer). */
export interface PrivValidator {
  readonly pubKey: PubKey;
  readonly address: Uint8Array;
  /** Sign in place (sets `signature`, possibly restores `timestamp`); throws DOUBLE_SIGN on conflict. */
  signVote(chainId: string, vote: Vote): void;
  signProposal(chainId: string, proposal: Proposal): void;
  /** Resolves once the sign state behind every signature returned so far is durable (rejects on a storage fault). */
  persisted?(): Promise<void>;
}

export enum SignStep {
  None = 0,
  Propose = 1,
  Prevote = 2,
  Precommit = 3,
}

export interface LastSignState {
  height: number;
  round: number;
  step: SignStep;
  signature?: Uint8Array;
  signBytes?: Uint8Array;
}

/** Write `data` to `path` atomically: temp file, fsync, rename, fsync the directory. */
export function writeFileAtomicSync(path: string, data: string, mode = 0o600): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  try {
    const dfd = openSync(dir, 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  }
}

/** writeFileAtomicSync on the thread pool: the event loop runs on while the disk flushes. */
export async function writeFileAtomic(path: string, data: string, mode = 0o600): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const file = await open(tmp, 'w', mode);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(tmp, path);
  try {
    const directory = await open(dir, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  }
}

function keyFileJson(key: Ed25519PrivateKey): string {
  return JSON.stringify(
    {
      address: toHexUpper(key.address),
      pub_key: { type: AMINO_PUBKEY_NAMES.ed25519, value: toBase64(key.pubKey.bytes) },
      priv_key: { type: AMINO_PRIVKEY_ED25519, value: toBase64(key.bytes) },
    },
    null,
    2,
  );
}

function stateFileJson(s: LastSignState): string {
  const out: Record<string, unknown> = { height: String(s.height), round: s.round, step: s.step };
  if (s.signature && s.signature.length) out['signature'] = toBase64(s.signature);
  if (s.signBytes && s.signBytes.length) out['signbytes'] = toHexUpper(s.signBytes);
  return JSON.stringify(out, null, 2);
}

function parseJsonFile(path: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConsensusError('INVALID_KEY', `cannot read ${what} ${path}: ${(err as Error).message}`);
  }
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
    return v as Record<string, unknown>;
  } catch (err) {
    throw new ConsensusError('INVALID_KEY', `error reading ${what} from ${path}: ${(err as Error).message}`);
  }
}

/** Parse {"type":"tendermint/PrivKeyEd25519","value":b64(64B)}. */
export function parsePrivKeyJson(value: unknown, where: string): Ed25519PrivateKey {
  const obj = value as { type?: unknown; value?: unknown } | null;
  if (!obj || obj.type !== AMINO_PRIVKEY_ED25519 || typeof obj.value !== 'string') {
    throw new ConsensusError('INVALID_KEY', `${where}: expected {"type":"${AMINO_PRIVKEY_ED25519}","value":<base64>}`);
  }
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(obj.value);
  } catch {
    throw new ConsensusError('INVALID_KEY', `${where}: value is not base64`);
  }
  return Ed25519PrivateKey.fromBytes(bytes);
}

function parseState(obj: Record<string, unknown>, path: string): LastSignState {
  const height = typeof obj['height'] === 'string' || typeof obj['height'] === 'number' ? Number(obj['height']) : NaN;
  const round = Number(obj['round'] ?? 0);
  const step = Number(obj['step'] ?? 0);
  if (!Number.isSafeInteger(height) || height < 0 || !Number.isInteger(round) || round < 0 || ![0, 1, 2, 3].includes(step)) {
    throw new ConsensusError('INVALID_KEY', `priv validator state ${path} is malformed`);
  }
  const state: LastSignState = { height, round, step };
  if (typeof obj['signature'] === 'string' && obj['signature']) state.signature = fromBase64(obj['signature']);
  if (typeof obj['signbytes'] === 'string' && obj['signbytes']) state.signBytes = fromHex(obj['signbytes']);
  return state;
}

export interface FilePVPaths {
  keyFile?: string;
  /** Without a state file, double-sign protection holds only for this process's lifetime. */
  stateFile?: string;
}

export class FilePV implements PrivValidator {
  readonly pubKey: PubKey;
  readonly address: Uint8Array;
  private state: LastSignState;
  /** The state-file write last queued (resolves when it is durable). */
  private stateWrites: Promise<void> = Promise.resolve();
  private stateWriteQueued = false;

  constructor(
    private readonly key: Ed25519PrivateKey,
    private readonly paths: FilePVPaths = {},
    state?: LastSignState,
  ) {
    this.pubKey = key.pubKey;
    this.address = key.address;
    this.state = state ?? { height: 0, round: 0, step: SignStep.None };
  }

  /** A fresh key, written to disk when paths are given (GenFilePV + Save). */
  static generate(paths: FilePVPaths = {}): FilePV {
    const pv = new FilePV(Ed25519PrivateKey.generate(), paths);
    pv.save();
    return pv;
  }

  /** Load the key and state files; a missing state file starts from the zero state. */
  static load(keyFile: string, stateFile: string): FilePV {
    const keyJson = parseJsonFile(keyFile, 'PrivValidator key');
    const key = parsePrivKeyJson(keyJson['priv_key'], `PrivValidator key ${keyFile}`);
    if (typeof keyJson['address'] === 'string' && keyJson['address'] && !bytesEqual(fromHex(keyJson['address']), key.address)) {
      throw new ConsensusError('INVALID_KEY', `PrivValidator key ${keyFile}: address does not match the key`);
    }
    const state = existsSync(stateFile) ? parseState(parseJsonFile(stateFile, 'PrivValidator state'), stateFile) : undefined;
    const pv = new FilePV(key, { keyFile, stateFile }, state);
    if (!state) pv.saveState();
    return pv;
  }

  /** Load when the key file exists, else generate and save (LoadOrGenFilePV). */
  static loadOrGenerate(keyFile: string, stateFile: string): FilePV {
    return existsSync(keyFile) ? FilePV.load(keyFile, stateFile) : FilePV.generate({ keyFile, stateFile });
  }

  get lastSignState(): Readonly<LastSignState> {
    return this.state;
  }

  save(): void {
    if (this.paths.keyFile) writeFileAtomicSync(this.paths.keyFile, keyFileJson(this.key));
    this.saveState();
  }

  private saveState(): void {
    if (this.paths.stateFile) writeFileAtomicSync(this.paths.stateFile, stateFileJson(this.state));
  }

  /** Reset the sign state (unsafe-reset-all); only for operators who know no other signer is live. */
  reset(): void {
    this.state = { height: 0, round: 0, step: SignStep.None };
    this.saveState();
  }

  /** Returns true when H/R/S equals the last signed one (so the caller may re-sign the same bytes). */
  private checkHRS(height: number, round: number, step: SignStep): boolean {
    const s = this.state;
    const fail = (msg: string): never => {
      throw new ConsensusError('DOUBLE_SIGN', msg, { meta: { height, round, step } });
    };
    if (s.height > height) fail(`height regression. Got ${height}, last height ${s.height}`);
    if (s.height === height) {
      if (s.round > round) fail(`round regression at height ${height}. Got ${round}, last round ${s.round}`);
      if (s.round === round) {
        if (s.step > step) fail(`step regression at height ${height} round ${round}. Got ${step}, last step ${s.step}`);
        if (s.step === step) {
          if (s.signBytes && s.signature) return true;
          fail('no SignBytes found');
        }
      }
    }
    return false;
  }

  private persistSigned(height: number, round: number, step: SignStep, signBytes: Uint8Array, signature: Uint8Array): void {
    this.state = { height, round, step, signBytes, signature };
    this.queueStateWrite();
  }

  /**
   * Writes the state file after any write in flight, one at a time (never an older state over a
   * newer one); a write not yet started takes the latest state when it starts, so bursts coalesce.
   */
  private queueStateWrite(): void {
    const file = this.paths.stateFile;
    if (file === undefined || this.stateWriteQueued) return;
    this.stateWriteQueued = true;
    const write = this.stateWrites.then(() => {
      this.stateWriteQueued = false;
      return writeFileAtomic(file, stateFileJson(this.state));
    });
    // Awaited through persisted(); a failure must not also surface as an unhandled rejection.
    write.catch(() => undefined);
    this.stateWrites = write;
  }

  persisted(): Promise<void> {
    return this.stateWrites;
  }

  signVote(chainId: string, vote: Vote): void {
    const step = vote.type === SignedMsgType.Prevote ? SignStep.Prevote : SignStep.Precommit;
    if (vote.extension.length > 0) throw new ConsensusError('DOUBLE_SIGN', 'unexpected vote extension - extensions are not enabled');
    const sameHRS = this.checkHRS(vote.height, vote.round, step);
    const signBytes = voteSignBytes(chainId, vote);
    if (sameHRS) {
      const last = this.state;
      if (bytesEqual(signBytes, last.signBytes)) {
        vote.signature = last.signature!;
        return;
      }
      const lastTime = timestampFromSignBytes(last.signBytes!, 'vote');
      if (bytesEqual(voteSignBytes(chainId, { ...vote, timestamp: lastTime }), last.signBytes)) {
        vote.timestamp = lastTime;
        vote.signature = last.signature!;
        return;
      }
      throw new ConsensusError('DOUBLE_SIGN', 'error signing vote: conflicting data', {
        meta: { height: vote.height, round: vote.round, type: vote.type },
      });
    }
    const signature = this.key.sign(signBytes);
    this.persistSigned(vote.height, vote.round, step, signBytes, signature);
    vote.signature = signature;
  }

  signProposal(chainId: string, proposal: Proposal): void {
    const sameHRS = this.checkHRS(proposal.height, proposal.round, SignStep.Propose);
    const signBytes = proposalSignBytes(chainId, proposal);
    if (sameHRS) {
      const last = this.state;
      if (bytesEqual(signBytes, last.signBytes)) {
        proposal.signature = last.signature!;
        return;
      }
      const lastTime = timestampFromSignBytes(last.signBytes!, 'proposal');
      if (bytesEqual(proposalSignBytes(chainId, { ...proposal, timestamp: lastTime }), last.signBytes)) {
        proposal.timestamp = lastTime;
        proposal.signature = last.signature!;
        return;
      }
      throw new ConsensusError('DOUBLE_SIGN', 'error signing proposal: conflicting data', {
        meta: { height: proposal.height, round: proposal.round },
      });
    }
    const signature = this.key.sign(signBytes);
    this.persistSigned(proposal.height, proposal.round, SignStep.Propose, signBytes, signature);
    proposal.signature = signature;
  }
}

// ---------------------------------------------------------------------------------------------
// Node key (p2p/key.go)

export interface NodeKey {
  readonly privateKey: Ed25519PrivateKey;
  /** Lowercase hex of the first 20 bytes of SHA-256(pub key). */
  readonly id: string;
}

function nodeKeyFrom(privateKey: Ed25519PrivateKey): NodeKey {
  return { privateKey, id: Buffer.from(privateKey.address).toString('hex') };
}

/** Node ID of an ed25519 public key. */
export function nodeIdFromPubKey(pubKey: PubKey): string {
  return Buffer.from(pubKeyAddress(pubKey)).toString('hex');
}

export function generateNodeKey(): NodeKey {
  return nodeKeyFrom(Ed25519PrivateKey.generate());
}

/** node_key.json text: {"priv_key":{"type":"tendermint/PrivKeyEd25519","value":b64}} (compact, as CometBFT writes it). */
export function nodeKeyJson(key: NodeKey): string {
  return JSON.stringify({ priv_key: { type: AMINO_PRIVKEY_ED25519, value: toBase64(key.privateKey.bytes) } });
}

export function saveNodeKey(key: NodeKey, path: string): void {
  writeFileAtomicSync(path, nodeKeyJson(key));
}

export function loadNodeKey(path: string): NodeKey {
  const json = parseJsonFile(path, 'node key');
  return nodeKeyFrom(parsePrivKeyJson(json['priv_key'], `node key ${path}`));
}

export function loadOrGenerateNodeKey(path: string): NodeKey {
  if (existsSync(path)) return loadNodeKey(path);
  const key = generateNodeKey();
  saveNodeKey(key, path);
  return key;
}

/** Validator address (uppercase hex) of a priv validator key file's key. */
export function validatorAddressHex(pv: PrivValidator): string {
  return toHexUpper(pv.address);
}
