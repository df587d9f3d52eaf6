import { groupTxCommand, idArg, membersJson } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgUpdateGroupMembers',
  summary: "Add, reweigh or remove (weight \"0\") a group's members",
  description: 'members.json: {"members": [{"address": "token1…", "weight": "0", "metadata": ""}]} — weight "0" removes the member.',
  examples: ['<%= config.bin %> tx group update-group-members alice 1 members.json --yes'],
  args: { admin: 'The group admin (key name or address), who signs', 'group-id': 'The group id', 'members-json-file': 'JSON file with the member updates' },
  signerField: 'admin',
  build: async (args) => ({ group_id: idArg(args['group-id']!, 'group id'), member_updates: await membersJson(args['members-json-file']!) }),
});
