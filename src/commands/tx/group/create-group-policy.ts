import { decisionPolicyJson, groupTxCommand, idArg } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgCreateGroupPolicy',
  summary: 'Create a group policy (an account of the group) with a decision policy from a JSON file',
  description:
    'decision-policy.json: {"@type": "/cosmos.group.v1.ThresholdDecisionPolicy", "threshold": "2", "windows": {"voting_period": "120h", "min_execution_period": "0s"}} ' +
    'or a /cosmos.group.v1.PercentageDecisionPolicy with "percentage": "0.5".',
  examples: ['<%= config.bin %> tx group create-group-policy alice 1 "multisig" policy.json --yes'],
  args: { admin: 'The group admin (key name or address), who signs', 'group-id': 'The group id', metadata: 'Policy metadata', 'decision-policy-json-file': 'JSON file with the decision policy' },
  signerField: 'admin',
  build: async (args) => ({ group_id: idArg(args['group-id']!, 'group id'), metadata: args.metadata!, decision_policy: await decisionPolicyJson(args['decision-policy-json-file']!) }),
});
