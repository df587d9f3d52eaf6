/**
 * The group module's command line (x/group's CLI names): queries derive from the Query service
 * with the SDK's command names; the tx commands that take JSON files or the admin as their first
 * argument (create-group, update-group-members, create-group-policy, create-group-with-policy,
 * update-group-policy-decision-policy, submit-proposal, …) are hand-written under
 * src/commands/tx/group, the rest derive with the SDK's argument order.
 */
import { comments } from '../../../gen/cosmos/group/v1/comments.js';
import { Query } from '../../../gen/cosmos/group/v1/query_pb.js';
import { Msg } from '../../../gen/cosmos/group/v1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const groupCli: ModuleCli = {
  module: 'group',
  comments,
  querySummary: 'Querying commands for the group module (groups, members, policies, proposals, votes, tallies)',
  txSummary: 'Group transaction subcommands',
  query: {
    service: Query,
    overrides: {
      GroupInfo: { use: 'group-info', examples: ['<%= config.bin %> query group group-info 1'] },
      GroupPolicyInfo: { use: 'group-policy-info', examples: ['<%= config.bin %> query group group-policy-info token1…'] },
      GroupMembers: { use: 'group-members', examples: ['<%= config.bin %> query group group-members 1'] },
      GroupsByAdmin: { use: 'groups-by-admin' },
      GroupPoliciesByGroup: { use: 'group-policies-by-group' },
      GroupPoliciesByAdmin: { use: 'group-policies-by-admin' },
      Proposal: { use: 'proposal', examples: ['<%= config.bin %> query group proposal 1'] },
      ProposalsByGroupPolicy: { use: 'proposals-by-group-policy' },
      VoteByProposalVoter: { use: 'vote', examples: ['<%= config.bin %> query group vote 1 token1…'] },
      VotesByProposal: { use: 'votes-by-proposal' },
      VotesByVoter: { use: 'votes-by-voter' },
      GroupsByMember: { use: 'groups-by-member' },
      TallyResult: { use: 'tally-result', examples: ['<%= config.bin %> query group tally-result 1'] },
      Groups: { use: 'groups' },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      CreateGroup: { handWritten: 'tx:group:create-group' },
      UpdateGroupMembers: { handWritten: 'tx:group:update-group-members' },
      UpdateGroupAdmin: { handWritten: 'tx:group:update-group-admin' },
      UpdateGroupMetadata: { handWritten: 'tx:group:update-group-metadata' },
      CreateGroupPolicy: { handWritten: 'tx:group:create-group-policy' },
      CreateGroupWithPolicy: { handWritten: 'tx:group:create-group-with-policy' },
      UpdateGroupPolicyAdmin: { handWritten: 'tx:group:update-group-policy-admin' },
      UpdateGroupPolicyDecisionPolicy: { handWritten: 'tx:group:update-group-policy-decision-policy' },
      UpdateGroupPolicyMetadata: { handWritten: 'tx:group:update-group-policy-metadata' },
      SubmitProposal: { handWritten: 'tx:group:submit-proposal' },
      WithdrawProposal: { handWritten: 'tx:group:withdraw-proposal' },
      Vote: { handWritten: 'tx:group:vote' },
      // `tx group exec <proposal-id> --from KEY`: the executor is the signing key.
      Exec: { positional: ['proposal_id'], examples: ['<%= config.bin %> tx group exec 1 --from alice'] },
      LeaveGroup: { handWritten: 'tx:group:leave-group' },
    },
  },
};
