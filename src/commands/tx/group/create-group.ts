import { groupTxCommand, membersJson } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgCreateGroup',
  summary: 'Create a group: an admin, members with weights (a JSON file) and metadata',
  description: 'members.json: {"members": [{"address": "token1…", "weight": "1", "metadata": "…"}]}',
  examples: ['<%= config.bin %> tx group create-group alice "treasury" members.json --yes'],
  args: { admin: 'The group admin (key name or address), who signs', metadata: 'Group metadata', 'members-json-file': 'JSON file with the members' },
  signerField: 'admin',
  build: async (args) => ({ metadata: args.metadata!, members: await membersJson(args['members-json-file']!) }),
});
