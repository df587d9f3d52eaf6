import { groupTxCommand, idArg } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgUpdateGroupAdmin',
  summary: 'Hand a group to a new admin',
  examples: ['<%= config.bin %> tx group update-group-admin alice 1 token1… --yes'],
  args: { admin: 'The current group admin (key name or address), who signs', 'group-id': 'The group id', 'new-admin': 'The new admin address' },
  signerField: 'admin',
  build: async (args) => ({ group_id: idArg(args['group-id']!, 'group id'), new_admin: args['new-admin']! }),
});
