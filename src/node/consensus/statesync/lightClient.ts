/**
 * A light client for state sync (light/verifier.go, light/provider/http): light blocks (signed
 * header + validator set) fetched over the CometBFT RPC of `rpc_servers` and verified from a
 * trusted height and hash.
 *
 * - The trusted block must hash to `trust_hash` and be within `trust_period`.
 * - A later block is accepted when the trusted block's next validators (over 1/3 of their power)
 *   and the block's own validators (over 2/3) signed it; otherwise the client bisects.
 * - Adjacent blocks must chain: validators_hash = previous next_validators_hash.
 * - Every verified header is compared with the same height from a witness (the second RPC
 *   server); a mismatch stops the sync.
 */
import { ConsensusError } from '../errors.js';
import { BLOCK_PROTOCOL, BlockIdFlag, blockIdsEqual, hashHeader, type BlockId, type Commit, type CommitSig, type Header } from '../types/block.js';
import { SOFTWARE_VERSION, type ChainState } from '../state/chainState.js';
import { bytesEqual, fromBase64, fromHex, toHexUpper } from '../types/bytes.js';
import { parseConsensusParamsJson, parsePubKeyJson } from '../types/genesis.js';
import { hashConsensusParams } from '../types/params.js';
import { verifySignature } from '../types/keys.js';
import { diffMillis, parseRfc3339, timestampNow, type Timestamp } from '../types/time.js';
import { ValidatorSet, type Validator } from '../types/validator.js';
import { commitSigToVote, voteSignBytes } from '../types/vote.js';
import type { ConsensusParams } from '../../abci/types.js';

export interface LightBlock {
  header: Header;
  commit: Commit;
  validators: ValidatorSet;
}

type Json = Record<string, unknown>;

function obj(value: unknown, what: string): Json {
  if (!value || typeof value !== 'object') throw new ConsensusError('DECODE', `light client: ${what} is not an object`);
  return value as Json;
}

function str(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new ConsensusError('DECODE', `light client: ${what} is not a string`);
  return value;
}

function num(value: unknown, what: string): number {
  const n = typeof value === 'number' ? value : Number(str(value, what));
  if (!Number.isSafeInteger(n)) throw new ConsensusError('DECODE', `light client: ${what} is not an integer`);
  return n;
}

function hex(value: unknown, what: string): Uint8Array {
  const text = value === null || value === undefined ? '' : str(value, what);
  return fromHex(text);
}

function time(value: unknown, what: string): Timestamp {
  const t = parseRfc3339(str(value, what));
  if (!t) throw new ConsensusError('DECODE', `light client: ${what} is not an RFC 3339 time`);
  return t;
}

function parseBlockId(value: unknown): BlockId {
  const o = obj(value, 'block_id');
  const parts = obj(o['parts'], 'block_id.parts');
  return { hash: hex(o['hash'], 'block_id.hash'), partSetHeader: { total: num(parts['total'], 'parts.total'), hash: hex(parts['hash'], 'parts.hash') } };
}

export function parseHeaderJson(value: unknown): Header {
  const h = obj(value, 'header');
  const version = obj(h['version'], 'header.version');
  return {
    version: { block: BigInt(str(version['block'], 'version.block')), app: BigInt(version['app'] === undefined ? '0' : str(version['app'], 'version.app')) },
    chainId: str(h['chain_id'], 'chain_id'),
    height: num(h['height'], 'height'),
    time: time(h['time'], 'time'),
    lastBlockId: parseBlockId(h['last_block_id']),
    lastCommitHash: hex(h['last_commit_hash'], 'last_commit_hash'),
    dataHash: hex(h['data_hash'], 'data_hash'),
    validatorsHash: hex(h['validators_hash'], 'validators_hash'),
    nextValidatorsHash: hex(h['next_validators_hash'], 'next_validators_hash'),
    consensusHash: hex(h['consensus_hash'], 'consensus_hash'),
    appHash: hex(h['app_hash'], 'app_hash'),
    lastResultsHash: hex(h['last_results_hash'], 'last_results_hash'),
    evidenceHash: hex(h['evidence_hash'], 'evidence_hash'),
    proposerAddress: hex(h['proposer_address'], 'proposer_address'),
  };
}

export function parseCommitJson(value: unknown): Commit {
  const c = obj(value, 'commit');
  const sigs = c['signatures'];
  if (!Array.isArray(sigs)) throw new ConsensusError('DECODE', 'light client: commit.signatures is not a list');
  return {
    height: num(c['height'], 'commit.height'),
    round: num(c['round'], 'commit.round'),
    blockId: parseBlockId(c['block_id']),
    signatures: sigs.map((s): CommitSig => {
      const o = obj(s, 'commit signature');
      return {
        blockIdFlag: num(o['block_id_flag'], 'block_id_flag') as CommitSig['blockIdFlag'],
        validatorAddress: hex(o['validator_address'], 'validator_address'),
        timestamp: time(o['timestamp'], 'timestamp'),
        signature: o['signature'] ? fromBase64(str(o['signature'], 'signature')) : new Uint8Array(0),
      };
    }),
  };
}

function parseValidatorJson(value: unknown): Validator {
  const v = obj(value, 'validator');
  return {
    address: hex(v['address'], 'validator.address'),
    pubKey: parsePubKeyJson(v['pub_key'], 'validator.pub_key'),
    votingPower: BigInt(str(v['voting_power'], 'voting_power')),
    proposerPriority: BigInt(str(v['proposer_priority'] ?? '0', 'proposer_priority')),
  };
}

/** CometBFT JSON-RPC over HTTP (light/provider/http). */
export class RpcProvider {
  readonly url: string;

  constructor(address: string, private readonly timeoutMs = 10_000) {
    this.url = address.replace(/^tcp:\/\//, 'http://').replace(/\/$/, '');
    if (!/^https?:\/\//.test(this.url)) this.url = `http://${this.url}`;
  }

  async call(method: string, params: Record<string, unknown>): Promise<Json> {
    let res: Response;
    try {
      res = await fetch(this.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new ConsensusError('TIMEOUT', `light client: rpc server ${this.url} unreachable: ${(err as Error).message}`);
    }
    const body = obj(await res.json(), 'rpc response');
    if (body['error']) {
      const e = obj(body['error'], 'rpc error');
      throw new ConsensusError('DECODE', `light client: ${this.url} ${method}: ${String(e['message'] ?? '')} ${String(e['data'] ?? '')}`.trim());
    }
    return obj(body['result'], `${method} result`);
  }

  async latestHeight(): Promise<number> {
    const status = await this.call('status', {});
    return num(obj(status['sync_info'], 'sync_info')['latest_block_height'], 'latest_block_height');
  }

  async lightBlock(height: number): Promise<LightBlock> {
    const result = await this.call('commit', { height: String(height) });
    const signed = obj(result['signed_header'], 'signed_header');
    const header = parseHeaderJson(signed['header']);
    const commit = parseCommitJson(signed['commit']);
    const validators: Validator[] = [];
    for (let page = 1; ; page++) {
      const vals = await this.call('validators', { height: String(height), page: String(page), per_page: '100' });
      const list = vals['validators'];
      if (!Array.isArray(list)) throw new ConsensusError('DECODE', 'light client: validators is not a list');
      validators.push(...list.map(parseValidatorJson));
      if (validators.length >= num(vals['total'], 'total') || list.length === 0) break;
    }
    return { header, commit, validators: ValidatorSet.restore(validators, undefined) };
  }

  async consensusParams(height: number): Promise<ConsensusParams> {
    const result = await this.call('consensus_params', { height: String(height) });
    return parseConsensusParamsJson(result['consensus_params']);
  }
}

/** Self-consistency of a light block (ValidateBasic of signed header + validator set). */
export function validateLightBlock(lb: LightBlock, chainId: string): void {
  const fail = (msg: string): never => {
    throw new ConsensusError('INVALID_COMMIT', `light block ${lb.header.height}: ${msg}`);
  };
  if (lb.header.chainId !== chainId) fail(`header belongs to another chain ${lb.header.chainId}, not ${chainId}`);
  if (lb.commit.height !== lb.header.height) fail(`header and commit height mismatch: ${lb.header.height} vs ${lb.commit.height}`);
  const hash = hashHeader(lb.header);
  if (!bytesEqual(hash, lb.commit.blockId.hash)) fail(`commit signs block ${toHexUpper(lb.commit.blockId.hash)}, header is block ${toHexUpper(hash)}`);
  if (!bytesEqual(lb.validators.hash(), lb.header.validatorsHash)) fail('expected validator hash of header to match validator set hash');
}

/** Power of `trusted` validators that signed `commit` for its block (VerifyCommitLightTrusting tally). */
function trustedPower(trusted: ValidatorSet, commit: Commit, chainId: string): bigint {
  let tallied = 0n;
  const seen = new Set<string>();
  commit.signatures.forEach((sig, idx) => {
    if (sig.blockIdFlag !== BlockIdFlag.Commit) return;
    const [, val] = trusted.getByAddress(sig.validatorAddress);
    if (!val) return;
    const key = toHexUpper(sig.validatorAddress);
    if (seen.has(key)) throw new ConsensusError('INVALID_COMMIT', `double vote from ${key}`);
    seen.add(key);
    const vote = commitSigToVote(commit, idx)!;
    if (!verifySignature(val.pubKey, voteSignBytes(chainId, vote), sig.signature)) throw new ConsensusError('INVALID_COMMIT', `wrong signature (#${idx})`);
    tallied += val.votingPower;
  });
  return tallied;
}

export interface TrustOptions {
  height: number;
  hash: Uint8Array;
  periodMs: number;
}

export class LightClient {
  private readonly verified = new Map<number, LightBlock>();
  private trusted: LightBlock | undefined;

  constructor(
    private readonly chainId: string,
    private readonly primary: RpcProvider,
    private readonly witnesses: RpcProvider[],
    private readonly trust: TrustOptions,
  ) {}

  /** Fetch and check the trusted block (hash = trust_hash, within the trusting period). */
  async initialize(): Promise<LightBlock> {
    const lb = await this.primary.lightBlock(this.trust.height);
    validateLightBlock(lb, this.chainId);
    const hash = hashHeader(lb.header);
    if (!bytesEqual(hash, this.trust.hash)) {
      throw new ConsensusError('INVALID_COMMIT', `statesync trust_hash ${toHexUpper(this.trust.hash)} does not match the header at trust_height ${this.trust.height} (${toHexUpper(hash)}) from ${this.primary.url}`, {
        hint: 'set [statesync] trust_hash to the hash of block trust_height from a source you trust',
      });
    }
    lb.validators.verifyCommit(this.chainId, lb.commit.blockId, lb.header.height, lb.commit);
    this.checkWithinTrustingPeriod(lb);
    this.trusted = lb;
    this.verified.set(lb.header.height, lb);
    return lb;
  }

  private checkWithinTrustingPeriod(lb: LightBlock): void {
    const age = diffMillis(timestampNow(), lb.header.time);
    if (age > this.trust.periodMs) {
      throw new ConsensusError('INVALID_COMMIT', `trusted header ${lb.header.height} is ${Math.round(age / 1000)}s old, beyond trust_period (${Math.round(this.trust.periodMs / 1000)}s)`);
    }
  }

  /** A verified light block at `height` (VerifyLightBlockAtHeight). */
  async verifyLightBlockAtHeight(height: number): Promise<LightBlock> {
    const known = this.verified.get(height);
    if (known) return known;
    if (!this.trusted) await this.initialize();
    // Verify forward from the closest verified block below.
    const below = [...this.verified.keys()].filter((h) => h < height).sort((a, b) => b - a)[0];
    if (below === undefined) throw new ConsensusError('INVALID_COMMIT', `cannot verify height ${height} below the trusted height ${this.trust.height}`);
    const target = await this.primary.lightBlock(height);
    validateLightBlock(target, this.chainId);
    await this.verifyFrom(this.verified.get(below)!, target);
    await this.compareWithWitnesses(target);
    this.verified.set(height, target);
    return target;
  }

  private async verifyFrom(trusted: LightBlock, target: LightBlock): Promise<void> {
    const chainId = this.chainId;
    if (target.header.height === trusted.header.height + 1) {
      if (!bytesEqual(target.header.validatorsHash, trusted.header.nextValidatorsHash)) {
        throw new ConsensusError('INVALID_COMMIT', `light block ${target.header.height}: validators hash does not match the trusted next validators hash`);
      }
      target.validators.verifyCommit(chainId, target.commit.blockId, target.header.height, target.commit);
      return;
    }
    // Skipping verification: over 1/3 of the trusted next validators signed the target.
    const trustedNext = trusted.header.height + 1 === target.header.height ? trusted.validators : await this.nextValidatorsOf(trusted);
    const power = trustedPower(trustedNext, target.commit, chainId);
    if (power * 3n > trustedNext.totalVotingPower()) {
      target.validators.verifyCommit(chainId, target.commit.blockId, target.header.height, target.commit);
      return;
    }
    // Not enough overlap: bisect.
    const middle = Math.floor((trusted.header.height + target.header.height) / 2);
    const pivot = await this.primary.lightBlock(middle);
    validateLightBlock(pivot, this.chainId);
    await this.verifyFrom(trusted, pivot);
    this.verified.set(middle, pivot);
    await this.verifyFrom(pivot, target);
  }

  /** The validators for the height after `lb` (their hash is lb's next_validators_hash). */
  private async nextValidatorsOf(lb: LightBlock): Promise<ValidatorSet> {
    const next = await this.primary.lightBlock(lb.header.height + 1);
    if (!bytesEqual(next.validators.hash(), lb.header.nextValidatorsHash)) {
      throw new ConsensusError('INVALID_COMMIT', `validators at ${lb.header.height + 1} do not match next_validators_hash of ${lb.header.height}`);
    }
    return next.validators;
  }

  /** Consensus params at `height`, checked against the verified header's consensus_hash. */
  async consensusParams(height: number): Promise<ConsensusParams> {
    const lb = await this.verifyLightBlockAtHeight(height);
    const params = await this.primary.consensusParams(height);
    if (!bytesEqual(hashConsensusParams(params), lb.header.consensusHash)) {
      throw new ConsensusError('INVALID_COMMIT', `consensus params at height ${height} from ${this.primary.url} do not match the header's consensus_hash`);
    }
    return params;
  }

  private async compareWithWitnesses(lb: LightBlock): Promise<void> {
    for (const witness of this.witnesses) {
      const other = await witness.lightBlock(lb.header.height);
      if (!blockIdsEqual(other.commit.blockId, lb.commit.blockId)) {
        throw new ConsensusError('INVALID_COMMIT', `witness ${witness.url} has another header at height ${lb.header.height} than primary ${this.primary.url}: possible attack, refusing to sync`);
      }
    }
  }
}

/** The chain state at `height` from verified light blocks H, H+1, H+2 (stateprovider.State). */
export async function stateFromLightClient(lc: LightClient, chainId: string, initialHeight: number, height: number): Promise<ChainState> {
  const last = await lc.verifyLightBlockAtHeight(height);
  const current = await lc.verifyLightBlockAtHeight(height + 1);
  const next = await lc.verifyLightBlockAtHeight(height + 2);
  const params = await lc.consensusParams(height + 1);
  return {
    version: { consensus: { block: current.header.version.block || BLOCK_PROTOCOL, app: current.header.version.app }, software: SOFTWARE_VERSION },
    chainId,
    initialHeight,
    lastBlockHeight: height,
    lastBlockId: last.commit.blockId,
    lastBlockTime: last.header.time,
    nextValidators: next.validators,
    validators: current.validators,
    lastValidators: last.validators,
    lastHeightValidatorsChanged: height + 2,
    consensusParams: params,
    lastHeightConsensusParamsChanged: height + 1,
    lastResultsHash: current.header.lastResultsHash,
    appHash: current.header.appHash,
  };
}
