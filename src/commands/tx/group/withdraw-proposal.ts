import { groupTxCommand, idArg } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgWithdrawProposal',
  summary: 'Withdraw a proposal still being voted on (a proposer or the policy admin)',
  examples: ['<%= config.bin %> tx group withdraw-proposal 1 alice --yes'],
  args: { 'proposal-id': 'The proposal id', 'group-policy-admin-or-proposer': 'A proposer or the policy admin (key name or address), who signs' },
  signerArg: 'group-policy-admin-or-proposer',
  signerField: 'address',
  build: async (args) => ({ proposal_id: idArg(args['proposal-id']!, 'proposal id') }),
});
