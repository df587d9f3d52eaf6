/** Validation of the client submodule's v1beta1 proposal contents (ibc-go v6 02-client/types/proposal.go). */
import { equals } from '@bufbuild/protobuf';
import type { ClientUpdateProposal, UpgradeProposal } from '../../../../../gen/ibc/core/client/v1/client_pb.js';
import { wrapError } from '../../../shared/errors.js';
import { ClientStateSchema, zeroCustomFields } from '../../lightclients/tendermint/client.js';
import { clientIdentifierError } from '../host/identifiers.js';
import { ClientErrors } from './errors.js';
import { unpackClientState } from './keeper.js';

/** UpgradeProposal.ValidateBasic (gov checks title and description; x/upgrade the plan when scheduling). */
export function validateUpgradeProposal(proposal: UpgradeProposal): void {
  if (proposal.plan === undefined || proposal.plan.name.trim() === '') throw ClientErrors.InvalidUpgradeProposal.wrap('plan: name cannot be empty');
  if (proposal.plan.height <= 0n) throw ClientErrors.InvalidUpgradeProposal.wrap('plan: height must be greater than 0');
  if (proposal.upgradedClientState === undefined) throw ClientErrors.InvalidUpgradeProposal.wrap('upgraded client state cannot be nil');
  let clientState;
  try {
    clientState = unpackClientState(proposal.upgradedClientState);
  } catch (err) {
    throw wrapError(err, 'failed to unpack upgraded client state');
  }
  if (!equals(ClientStateSchema, clientState, zeroCustomFields(clientState))) throw ClientErrors.InvalidUpgradeProposal.wrap('upgraded client state is not zeroed out');
}

/** ClientUpdateProposal.ValidateBasic: two valid, different client identifiers. */
export function validateClientUpdateProposal(proposal: ClientUpdateProposal): void {
  const subject = clientIdentifierError(proposal.subjectClientId);
  if (subject !== undefined) throw subject;
  const substitute = clientIdentifierError(proposal.substituteClientId);
  if (substitute !== undefined) throw substitute;
  if (proposal.subjectClientId === proposal.substituteClientId) throw ClientErrors.InvalidSubstitute.wrap('subject and substitute client identifiers are equal');
}
