import { groupTxCommand, idArg } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgUpdateGroupMetadata',
  summary: "Replace a group's metadata",
  examples: ['<%= config.bin %> tx group update-group-metadata alice 1 "new metadata" --yes'],
  args: { admin: 'The group admin (key name or address), who signs', 'group-id': 'The group id', metadata: 'The new metadata' },
  signerField: 'admin',
  build: async (args) => ({ group_id: idArg(args['group-id']!, 'group id'), metadata: args.metadata! }),
});
