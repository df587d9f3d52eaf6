/**
 * The chain state after the last committed block (state/state.go `State`): what the next block
 * must build on (validator sets, params, app hash, last results hash, last block ID and time).
 */
import type { ConsensusParams } from '../../abci/types.js';
import { ConsensusError } from '../errors.js';
import { BLOCK_PROTOCOL, blockIdIsZero, zeroBlockId, type BlockId, type ConsensusVersion } from '../types/block.js';
import { EMPTY_BYTES } from '../types/bytes.js';
import type { GenesisDoc } from '../types/genesis.js';
import type { PubKey } from '../types/keys.js';
import { EMPTY_HASH } from '../types/merkle.js';
import { copyConsensusParams } from '../types/params.js';
import type { Timestamp } from '../types/time.js';
import { ValidatorSet, newValidator, type Validator } from '../types/validator.js';

export interface ChainState {
  version: { consensus: ConsensusVersion; software: string };
  chainId: string;
  initialHeight: number;
  /** 0 before the first block. */
  lastBlockHeight: number;
  lastBlockId: BlockId;
  /** Genesis time before the first block. */
  lastBlockTime: Timestamp;
  /** Validators for lastBlockHeight + 2. */
  nextValidators: ValidatorSet;
  /** Validators for lastBlockHeight + 1 (the block being decided). */
  validators: ValidatorSet;
  /** Validators of lastBlockHeight (signers of the next block's last_commit); empty at genesis. */
  lastValidators: ValidatorSet;
  lastHeightValidatorsChanged: number;
  consensusParams: ConsensusParams;
  lastHeightConsensusParamsChanged: number;
  lastResultsHash: Uint8Array;
  /** App hash after executing lastBlockHeight (goes into header lastBlockHeight + 1). */
  appHash: Uint8Array;
}

export const SOFTWARE_VERSION = '0.38.17';

export function copyChainState(s: ChainState): ChainState {
  return {
    version: { consensus: { ...s.version.consensus }, software: s.version.software },
    chainId: s.chainId,
    initialHeight: s.initialHeight,
    lastBlockHeight: s.lastBlockHeight,
    lastBlockId: s.lastBlockId,
    lastBlockTime: s.lastBlockTime,
    nextValidators: s.nextValidators.copy(),
    validators: s.validators.copy(),
    lastValidators: s.lastValidators.copy(),
    lastHeightValidatorsChanged: s.lastHeightValidatorsChanged,
    consensusParams: copyConsensusParams(s.consensusParams),
    lastHeightConsensusParamsChanged: s.lastHeightConsensusParamsChanged,
    lastResultsHash: s.lastResultsHash,
    appHash: s.appHash,
  };
}

/** Validators from a list of public keys and powers (genesis, InitChain). */
export function validatorSetFrom(entries: { pubKey: PubKey; power: bigint }[]): ValidatorSet {
  return ValidatorSet.create(entries.map((e) => newValidator(e.pubKey, e.power)));
}

/** State before the first block (MakeGenesisState). */
export function makeGenesisState(genesis: GenesisDoc): ChainState {
  const validators: Validator[] = genesis.validators.map((v) => newValidator(v.pubKey, v.power));
  const validatorSet = ValidatorSet.create(validators);
  const nextValidatorSet = validators.length ? ValidatorSet.create(validators).copyIncrementProposerPriority(1) : ValidatorSet.create([]);
  return {
    version: { consensus: { block: BLOCK_PROTOCOL, app: 0n }, software: SOFTWARE_VERSION },
    chainId: genesis.chainId,
    initialHeight: genesis.initialHeight,
    lastBlockHeight: 0,
    lastBlockId: zeroBlockId(),
    lastBlockTime: genesis.genesisTime,
    nextValidators: nextValidatorSet,
    validators: validatorSet,
    lastValidators: ValidatorSet.create([]),
    lastHeightValidatorsChanged: genesis.initialHeight,
    consensusParams: copyConsensusParams(genesis.consensusParams),
    lastHeightConsensusParamsChanged: genesis.initialHeight,
    lastResultsHash: EMPTY_HASH,
    appHash: genesis.appHash.length ? genesis.appHash : EMPTY_BYTES,
  };
}

/** Height of the next block to decide. */
export function nextHeight(s: ChainState): number {
  return s.lastBlockHeight === 0 ? s.initialHeight : s.lastBlockHeight + 1;
}

export function assertStateConsistent(s: ChainState): void {
  if (s.lastBlockHeight > 0 && blockIdIsZero(s.lastBlockId)) {
    throw new ConsensusError('STORE', `chain state at height ${s.lastBlockHeight} has no last block ID`);
  }
}

// ---- serialization (tagged JSON, see store/codec.ts) ----

export interface StoredValidator {
  address: Uint8Array;
  pubKeyType: PubKey['type'];
  pubKey: Uint8Array;
  votingPower: bigint;
  proposerPriority: bigint;
}

export interface StoredValidatorSet {
  validators: StoredValidator[];
  proposer?: Uint8Array;
}

export function serializeValidatorSet(set: ValidatorSet): StoredValidatorSet {
  const out: StoredValidatorSet = {
    validators: set.validators.map((v) => ({
      address: v.address,
      pubKeyType: v.pubKey.type,
      pubKey: v.pubKey.bytes,
      votingPower: v.votingPower,
      proposerPriority: v.proposerPriority,
    })),
  };
  if (set.proposer) out.proposer = set.proposer.address;
  return out;
}

export function deserializeValidatorSet(s: StoredValidatorSet): ValidatorSet {
  return ValidatorSet.restore(
    s.validators.map((v) => ({
      address: v.address,
      pubKey: { type: v.pubKeyType, bytes: v.pubKey },
      votingPower: v.votingPower,
      proposerPriority: v.proposerPriority,
    })),
    s.proposer,
  );
}

export interface StoredChainState extends Omit<ChainState, 'nextValidators' | 'validators' | 'lastValidators'> {
  nextValidators: StoredValidatorSet;
  validators: StoredValidatorSet;
  lastValidators: StoredValidatorSet;
}

export function serializeChainState(s: ChainState): StoredChainState {
  return {
    ...s,
    nextValidators: serializeValidatorSet(s.nextValidators),
    validators: serializeValidatorSet(s.validators),
    lastValidators: serializeValidatorSet(s.lastValidators),
  };
}

export function deserializeChainState(s: StoredChainState): ChainState {
  return {
    ...s,
    nextValidators: deserializeValidatorSet(s.nextValidators),
    validators: deserializeValidatorSet(s.validators),
    lastValidators: deserializeValidatorSet(s.lastValidators),
  };
}
