/**
 * The consensus params and chain id the app was initialised with, kept in the "consensus" store
 * (as the SDK's x/consensus does) so they survive restarts: the ante chain needs the block max
 * gas, MsgCreateValidator the allowed validator key types, signatures the chain id.
 *
 *   0x00 → tendermint.types.ConsensusParams
 *   0x01 → chain id (utf8)
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { durationFromMs, durationMs } from '@bufbuild/protobuf/wkt';
import { ABCIParamsSchema, BlockParamsSchema, ConsensusParamsSchema, EvidenceParamsSchema, ValidatorParamsSchema, VersionParamsSchema } from '../../gen/tendermint/types/params_pb.js';
import type { ConsensusParams } from '../abci/types.js';
import type { KVStore } from '../store/index.js';

export const CONSENSUS_PARAMS_KEY = Uint8Array.of(0x00);
export const CHAIN_ID_KEY = Uint8Array.of(0x01);

export function encodeConsensusParams(params: ConsensusParams): Uint8Array {
  return toBinary(
    ConsensusParamsSchema,
    create(ConsensusParamsSchema, {
      block: create(BlockParamsSchema, { maxBytes: params.block.maxBytes, maxGas: params.block.maxGas }),
      evidence: create(EvidenceParamsSchema, {
        maxAgeNumBlocks: params.evidence.maxAgeNumBlocks,
        maxAgeDuration: durationFromMs(Number(params.evidence.maxAgeDurationNs / 1_000_000n)),
        maxBytes: params.evidence.maxBytes,
      }),
      validator: create(ValidatorParamsSchema, { pubKeyTypes: [...params.validator.pubKeyTypes] }),
      version: create(VersionParamsSchema, { app: params.version.app }),
      abci: create(ABCIParamsSchema, { voteExtensionsEnableHeight: params.abci.voteExtensionsEnableHeight }),
    }),
  );
}

export function decodeConsensusParams(bytes: Uint8Array): ConsensusParams {
  const proto = fromBinary(ConsensusParamsSchema, bytes);
  return {
    block: { maxBytes: proto.block?.maxBytes ?? 0n, maxGas: proto.block?.maxGas ?? -1n },
    evidence: {
      maxAgeNumBlocks: proto.evidence?.maxAgeNumBlocks ?? 0n,
      maxAgeDurationNs: proto.evidence?.maxAgeDuration === undefined ? 0n : BigInt(durationMs(proto.evidence.maxAgeDuration)) * 1_000_000n,
      maxBytes: proto.evidence?.maxBytes ?? 0n,
    },
    validator: { pubKeyTypes: proto.validator?.pubKeyTypes ?? ['ed25519'] },
    version: { app: proto.version?.app ?? 0n },
    abci: { voteExtensionsEnableHeight: proto.abci?.voteExtensionsEnableHeight ?? 0n },
  };
}

export function loadConsensusParams(store: KVStore): ConsensusParams | undefined {
  const bytes = store.get(CONSENSUS_PARAMS_KEY);
  return bytes === undefined ? undefined : decodeConsensusParams(bytes);
}

export function loadChainId(store: KVStore): string | undefined {
  const bytes = store.get(CHAIN_ID_KEY);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

export function saveConsensusState(store: KVStore, params: ConsensusParams, chainId: string): void {
  store.set(CONSENSUS_PARAMS_KEY, encodeConsensusParams(params));
  store.set(CHAIN_ID_KEY, new TextEncoder().encode(chainId));
}
