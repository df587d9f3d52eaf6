/**
 * 07-tendermint membership verification (ibc-go v6 client_state.go VerifyMembership): a value at
 * a path of the counterparty's store, proven with an ICS-23 MerkleProof against the root of the
 * client's consensus state at the proof height, once the delay period has passed since that
 * consensus state was stored (in time and in blocks).
 */
import { fromBinary } from '@bufbuild/protobuf';
import { MerkleProofSchema } from '../../../../../gen/ibc/core/commitment/v1/commitment_pb.js';
import type { Context } from '../../../shared/context.js';
import { SdkErrors } from '../../../shared/errors.js';
import { ClientErrors } from '../../core/client/errors.js';
import { compareHeights, formatHeight, parseHeight, selfHeight, type Height } from '../../core/client/height.js';
import { CommitmentErrors } from '../../core/commitment/errors.js';
import { verifyChainedMembership, verifyChainedNonMembership } from '../../core/commitment/merkle.js';
import { blockTimeNs, latestHeight, type ClientState, type TendermintStore } from './client.js';
import { TendermintErrors } from './errors.js';

/** verifyDelayPeriodPassed: the consensus state was processed long enough ago, in time and blocks. */
function checkDelayPassed(ctx: Context, store: TendermintStore, proofHeight: Height, delayTimeNs: bigint, delayBlocks: bigint): void {
  const processedTime = store.getProcessedTimeNs(proofHeight);
  if (processedTime === undefined) throw TendermintErrors.ProcessedTimeNotFound.wrap(`processed time not found for height: ${formatHeight(proofHeight)}`);
  const now = blockTimeNs(ctx);
  if (now < processedTime + delayTimeNs) {
    throw TendermintErrors.DelayPeriodNotPassed.wrap(`cannot verify packet until time: ${processedTime + delayTimeNs}, current time: ${now}`);
  }
  const processedHeight = store.getProcessedHeight(proofHeight);
  if (processedHeight === undefined) throw TendermintErrors.ProcessedHeightNotFound.wrap(`processed height not found for height: ${formatHeight(proofHeight)}`);
  const processed = parseHeight(processedHeight);
  const valid = { ...processed, revisionHeight: processed.revisionHeight + delayBlocks };
  const current = selfHeight(ctx);
  if (compareHeights(current, valid) < 0) {
    throw TendermintErrors.DelayPeriodNotPassed.wrap(`cannot verify packet until height: ${formatHeight(valid)}, current height: ${formatHeight(current)}`);
  }
}

export function verifyMembership(
  ctx: Context,
  store: TendermintStore,
  cs: ClientState,
  proofHeight: Height,
  delayTimeNs: bigint,
  delayBlocks: bigint,
  proof: Uint8Array,
  path: readonly string[],
  value: Uint8Array,
): void {
  if (compareHeights(latestHeight(cs), proofHeight) < 0) {
    throw SdkErrors.InvalidHeight.wrap(`client state height < proof height (${formatHeight(latestHeight(cs))} < ${formatHeight(proofHeight)}), please ensure the client has been updated`);
  }
  checkDelayPassed(ctx, store, proofHeight, delayTimeNs, delayBlocks);
  let merkleProof;
  try {
    merkleProof = fromBinary(MerkleProofSchema, proof);
  } catch {
    throw CommitmentErrors.InvalidProof.wrap('failed to unmarshal proof into ICS 23 commitment merkle proof');
  }
  const consensusState = store.getConsensusState(proofHeight);
  if (consensusState === undefined) throw ClientErrors.ConsensusStateNotFound.wrap('please ensure the proof was constructed against a height that exists on the client');
  verifyChainedMembership(cs.proofSpecs, consensusState.root?.hash ?? new Uint8Array(0), path, merkleProof.proofs, value);
}

/** VerifyNonMembership: nothing is stored at the path in the counterparty's store at the proof height. */
export function verifyNonMembership(ctx: Context, store: TendermintStore, cs: ClientState, proofHeight: Height, delayTimeNs: bigint, delayBlocks: bigint, proof: Uint8Array, path: readonly string[]): void {
  if (compareHeights(latestHeight(cs), proofHeight) < 0) {
    throw SdkErrors.InvalidHeight.wrap(`client state height < proof height (${formatHeight(latestHeight(cs))} < ${formatHeight(proofHeight)}), please ensure the client has been updated`);
  }
  checkDelayPassed(ctx, store, proofHeight, delayTimeNs, delayBlocks);
  let merkleProof;
  try {
    merkleProof = fromBinary(MerkleProofSchema, proof);
  } catch {
    throw CommitmentErrors.InvalidProof.wrap('failed to unmarshal proof into ICS 23 commitment merkle proof');
  }
  const consensusState = store.getConsensusState(proofHeight);
  if (consensusState === undefined) throw ClientErrors.ConsensusStateNotFound.wrap('please ensure the proof was constructed against a height that exists on the client');
  verifyChainedNonMembership(cs.proofSpecs, consensusState.root?.hash ?? new Uint8Array(0), path, merkleProof.proofs);
}
