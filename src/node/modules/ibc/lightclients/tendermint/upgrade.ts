/**
 * 07-tendermint client upgrades (ibc-go v6 upgrade.go): before a planned upgrade the counterparty
 * chain stores the client state (and consensus state) it will have under its upgrade path
 * (`upgrade`, `upgradedIBCState/{last height}/upgradedClient|upgradedConsState`). A relayer proves
 * both against the consensus state at the client's latest height (the old chain's last height);
 * the client then carries on with the chain's new parameters and its own trust settings.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { MerkleProofSchema } from '../../../../../gen/ibc/core/commitment/v1/commitment_pb.js';
import { MerkleRootSchema } from '../../../../../gen/ibc/core/commitment/v1/commitment_pb.js';
import { SdkErrors, wrapError } from '../../../shared/errors.js';
import { ClientErrors } from '../../core/client/errors.js';
import { compareHeights, formatHeight, type Height } from '../../core/client/height.js';
import { CommitmentErrors } from '../../core/commitment/errors.js';
import { verifyChainedMembership } from '../../core/commitment/merkle.js';
import { ClientStateSchema, ConsensusStateSchema, clientStateError, latestHeight, packClientState, packConsensusState, type ClientState, type ConsensusState, type TendermintStore } from './client.js';

/** The root of an upgraded consensus state: a stand-in, since the new chain's state is not known yet. */
export const SENTINEL_ROOT = 'sentinel_root';
export const KEY_UPGRADED_CLIENT = 'upgradedClient';
export const KEY_UPGRADED_CONS_STATE = 'upgradedConsState';

/** [upgradePath[0..n-1], `${last}/${height}/${leaf}`]: where the old chain stored the upgraded state. */
export function upgradeMerklePath(upgradePath: readonly string[], lastHeight: Height, leaf: string): string[] {
  const head = upgradePath.slice(0, -1);
  return [...head, `${upgradePath[upgradePath.length - 1]}/${lastHeight.revisionHeight}/${leaf}`];
}

export function verifyUpgradeAndUpdateState(
  store: TendermintStore,
  cs: ClientState,
  upgradedClient: ClientState,
  upgradedConsState: ConsensusState,
  proofClient: Uint8Array,
  proofConsState: Uint8Array,
  _nowNs: bigint,
): { clientState: ClientState; consensusState: ConsensusState } {
  if (cs.upgradePath.length === 0) throw ClientErrors.InvalidUpgradeClient.wrap('cannot upgrade client, no upgrade path set');
  const lastHeight = latestHeight(cs);
  if (compareHeights(latestHeight(upgradedClient), lastHeight) <= 0) {
    throw SdkErrors.InvalidHeight.wrap(`upgraded client height ${formatHeight(latestHeight(upgradedClient))} must be at greater than current client height ${formatHeight(lastHeight)}`);
  }
  let clientProof, consProof;
  try {
    clientProof = fromBinary(MerkleProofSchema, proofClient);
  } catch (err) {
    throw CommitmentErrors.InvalidProof.wrap(`could not unmarshal client merkle proof: ${(err as Error).message}`);
  }
  try {
    consProof = fromBinary(MerkleProofSchema, proofConsState);
  } catch (err) {
    throw CommitmentErrors.InvalidProof.wrap(`could not unmarshal consensus state merkle proof: ${(err as Error).message}`);
  }
  const consState = store.getConsensusState(lastHeight);
  if (consState === undefined) throw ClientErrors.ConsensusStateNotFound.wrap('could not retrieve consensus state for lastHeight');
  const root = consState.root?.hash ?? new Uint8Array(0);

  const clientPath = upgradeMerklePath(cs.upgradePath, lastHeight, KEY_UPGRADED_CLIENT);
  try {
    verifyChainedMembership(cs.proofSpecs, root, clientPath, clientProof.proofs, toBinary(AnySchema, packClientState(upgradedClient)));
  } catch (err) {
    throw wrapError(err, `client state proof failed. Path: /${clientPath.map(encodeURIComponent).join('/')}`);
  }
  const consPath = upgradeMerklePath(cs.upgradePath, lastHeight, KEY_UPGRADED_CONS_STATE);
  try {
    verifyChainedMembership(cs.proofSpecs, root, consPath, consProof.proofs, toBinary(AnySchema, packConsensusState(upgradedConsState)));
  } catch (err) {
    throw wrapError(err, `consensus state proof failed. Path: /${consPath.map(encodeURIComponent).join('/')}`);
  }

  // Chain-chosen parameters from the committed client; client-chosen ones kept.
  const clientState = create(ClientStateSchema, {
    chainId: upgradedClient.chainId,
    trustLevel: cs.trustLevel,
    trustingPeriod: cs.trustingPeriod,
    unbondingPeriod: upgradedClient.unbondingPeriod,
    maxClockDrift: cs.maxClockDrift,
    frozenHeight: { revisionNumber: 0n, revisionHeight: 0n },
    latestHeight: upgradedClient.latestHeight,
    proofSpecs: upgradedClient.proofSpecs,
    upgradePath: upgradedClient.upgradePath,
    allowUpdateAfterExpiry: cs.allowUpdateAfterExpiry,
    allowUpdateAfterMisbehaviour: cs.allowUpdateAfterMisbehaviour,
  });
  const invalid = clientStateError(clientState);
  if (invalid !== undefined) throw wrapError(invalid, 'updated client state failed basic validation');
  const consensusState = create(ConsensusStateSchema, {
    timestamp: upgradedConsState.timestamp,
    root: create(MerkleRootSchema, { hash: new TextEncoder().encode(SENTINEL_ROOT) }),
    nextValidatorsHash: upgradedConsState.nextValidatorsHash,
  });
  return { clientState, consensusState };
}
