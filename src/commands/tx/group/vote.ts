import { execFlag, groupTxCommand, idArg, voteOption } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgVote',
  summary: 'Vote on a group proposal as a member (--exec try: execute right after the vote)',
  description: 'Options: VOTE_OPTION_YES, VOTE_OPTION_NO, VOTE_OPTION_ABSTAIN, VOTE_OPTION_NO_WITH_VETO (or yes, no, abstain, no_with_veto).',
  examples: ['<%= config.bin %> tx group vote 1 bob VOTE_OPTION_YES "" --yes', '<%= config.bin %> tx group vote 1 bob yes "lgtm" --exec try --yes'],
  args: { 'proposal-id': 'The proposal id', voter: 'The voter (key name or address), who signs', 'vote-option': 'The option', metadata: 'Vote metadata ("" for none)' },
  signerArg: 'voter',
  signerField: 'voter',
  flags: { exec: { description: 'Set to "try" to execute the proposal right after this vote' } },
  build: async (args, flags) => {
    const exec = execFlag(flags.exec as string | undefined);
    return { proposal_id: idArg(args['proposal-id']!, 'proposal id'), option: voteOption(args['vote-option']!), metadata: args.metadata!, ...(exec === undefined ? {} : { exec }) };
  },
});
