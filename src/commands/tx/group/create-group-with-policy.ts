import { decisionPolicyJson, groupTxCommand, membersJson } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgCreateGroupWithPolicy',
  summary: 'Create a group and a group policy in one message',
  description: 'With --group-policy-as-admin the policy account becomes the admin of the group and of the policy.',
  examples: ['<%= config.bin %> tx group create-group-with-policy alice "group" "policy" members.json policy.json --group-policy-as-admin --yes'],
  args: {
    admin: 'The admin (key name or address), who signs',
    'group-metadata': 'Group metadata',
    'group-policy-metadata': 'Policy metadata',
    'members-json-file': 'JSON file with the members',
    'decision-policy-json-file': 'JSON file with the decision policy',
  },
  signerField: 'admin',
  flags: { 'group-policy-as-admin': { description: 'Make the policy account the admin of the group and the policy', boolean: true } },
  build: async (args, flags) => ({
    group_metadata: args['group-metadata']!,
    group_policy_metadata: args['group-policy-metadata']!,
    members: await membersJson(args['members-json-file']!),
    decision_policy: await decisionPolicyJson(args['decision-policy-json-file']!),
    group_policy_as_admin: flags['group-policy-as-admin'] === true,
  }),
});
