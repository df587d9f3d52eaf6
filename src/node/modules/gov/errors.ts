/** x/gov errors (codespace "gov", x/gov/types/errors.go, SDK 0.47). */
import { ErrNoProposalHandlerExists } from '../../platform/content.js';
import { ErrInvalidSigner } from '../../platform/authority.js';
import { registerError } from '../shared/errors.js';

export const GovErrors = {
  UnknownProposal: registerError('gov', 2, 'unknown proposal'),
  InactiveProposal: registerError('gov', 3, 'inactive proposal'),
  AlreadyActiveProposal: registerError('gov', 4, 'proposal already active'),
  InvalidProposalContent: registerError('gov', 5, 'invalid proposal content'),
  InvalidProposalType: registerError('gov', 6, 'invalid proposal type'),
  InvalidVote: registerError('gov', 7, 'invalid vote option'),
  InvalidGenesis: registerError('gov', 8, 'invalid genesis state'),
  NoProposalHandlerExists: ErrNoProposalHandlerExists,
  UnroutableProposalMsg: registerError('gov', 10, 'proposal message not recognized by router'),
  NoProposalMsgs: registerError('gov', 11, 'no messages proposed'),
  InvalidProposalMsg: registerError('gov', 12, 'invalid proposal message'),
  InvalidSigner: ErrInvalidSigner,
  InvalidSignalMsg: registerError('gov', 14, 'signal message is invalid'),
  MetadataTooLong: registerError('gov', 15, 'metadata too long'),
  MinDepositTooSmall: registerError('gov', 16, 'minimum deposit is too small'),
};
