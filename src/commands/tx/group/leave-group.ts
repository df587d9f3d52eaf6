import { groupTxCommand, idArg } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgLeaveGroup',
  summary: 'Leave a group as a member',
  examples: ['<%= config.bin %> tx group leave-group bob 1 --yes'],
  args: { 'member-address': 'The member leaving (key name or address), who signs', 'group-id': 'The group id' },
  signerField: 'address',
  build: async (args) => ({ group_id: idArg(args['group-id']!, 'group id') }),
});
