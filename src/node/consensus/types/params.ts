/**
 * Consensus parameters (types/params.go). The shape is the ABCI one from src/node/abci/types.ts
 * so the app and the engine share one type.
 */
import type { ConsensusParams } from '../../abci/types.js';
import { ConsensusError } from '../errors.js';
import { MAX_BLOCK_SIZE_BYTES } from './block.js';
import { sha256 } from './bytes.js';
import { encodeProto } from './proto.js';

export type { ConsensusParams };

/** 48 hours in nanoseconds. */
const DEFAULT_MAX_AGE_DURATION_NS = 48n * 3600n * 1_000_000_000n;

/** CometBFT 0.38 defaults (DefaultConsensusParams). */
export function defaultConsensusParams(): ConsensusParams {
  return {
    block: { maxBytes: 22020096n, maxGas: -1n },
    evidence: { maxAgeNumBlocks: 100000n, maxAgeDurationNs: DEFAULT_MAX_AGE_DURATION_NS, maxBytes: 1048576n },
    validator: { pubKeyTypes: ['ed25519'] },
    version: { app: 0n },
    abci: { voteExtensionsEnableHeight: 0n },
  };
}

export function copyConsensusParams(p: ConsensusParams): ConsensusParams {
  return {
    block: { ...p.block },
    evidence: { ...p.evidence },
    validator: { pubKeyTypes: [...p.validator.pubKeyTypes] },
    version: { ...p.version },
    abci: { ...p.abci },
  };
}

/** consensus_hash = SHA-256(HashedParams{block_max_bytes=1, block_max_gas=2}). */
export function hashConsensusParams(p: ConsensusParams): Uint8Array {
  return sha256(
    encodeProto((w) => {
      w.varintField(1, p.block.maxBytes);
      w.varintField(2, p.block.maxGas);
    }, 24),
  );
}

const KNOWN_PUBKEY_TYPES = new Set(['ed25519', 'secp256k1']);

/** ConsensusParams.ValidateBasic, with CometBFT's messages. */
export function validateConsensusParams(p: ConsensusParams): void {
  const fail = (msg: string): never => {
    throw new ConsensusError('INVALID_PARAMS', msg);
  };
  if (p.block.maxBytes === 0n) fail('block.MaxBytes cannot be 0');
  if (p.block.maxBytes < -1n) fail(`block.MaxBytes must be -1 or greater than 0. Got ${p.block.maxBytes}`);
  if (p.block.maxBytes > BigInt(MAX_BLOCK_SIZE_BYTES)) fail(`block.MaxBytes is too big. ${p.block.maxBytes} > ${MAX_BLOCK_SIZE_BYTES}`);
  if (p.block.maxGas < -1n) fail(`block.MaxGas must be greater or equal to -1. Got ${p.block.maxGas}`);
  if (p.evidence.maxAgeNumBlocks <= 0n) fail(`evidence.MaxAgeNumBlocks must be greater than 0. Got ${p.evidence.maxAgeNumBlocks}`);
  if (p.evidence.maxAgeDurationNs <= 0n) fail(`evidence.MaxAgeDuration must be grater than 0 if provided, Got ${p.evidence.maxAgeDurationNs}`);
  const maxBytes = p.block.maxBytes === -1n ? BigInt(MAX_BLOCK_SIZE_BYTES) : p.block.maxBytes;
  if (p.evidence.maxBytes > maxBytes) fail(`evidence.MaxBytesEvidence is greater than upper bound, ${p.evidence.maxBytes} > ${p.block.maxBytes}`);
  if (p.evidence.maxBytes < 0n) fail(`evidence.MaxBytes must be non negative. Got: ${p.evidence.maxBytes}`);
  if (p.abci.voteExtensionsEnableHeight < 0n) fail(`ABCI.VoteExtensionsEnableHeight cannot be negative. Got: ${p.abci.voteExtensionsEnableHeight}`);
  if (p.validator.pubKeyTypes.length === 0) fail('len(Validator.PubKeyTypes) must be greater than 0');
  p.validator.pubKeyTypes.forEach((t, i) => {
    if (!KNOWN_PUBKEY_TYPES.has(t)) fail(`params.Validator.PubKeyTypes[${i}], ${t}, is an unknown pubkey type`);
  });
}

/** Vote extensions are not implemented by this engine; refuse params that would enable them. */
export function assertVoteExtensionsDisabled(p: ConsensusParams): void {
  if (p.abci.voteExtensionsEnableHeight !== 0n) {
    throw new ConsensusError('INVALID_PARAMS', 'vote extensions are not supported by this node (abci.vote_extensions_enable_height must be 0)');
  }
}

/** Effective block max bytes (-1 means the hard cap). */
export function effectiveMaxBytes(p: ConsensusParams): number {
  return p.block.maxBytes === -1n ? MAX_BLOCK_SIZE_BYTES : Number(p.block.maxBytes);
}
