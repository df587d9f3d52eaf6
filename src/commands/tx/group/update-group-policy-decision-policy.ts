import { decisionPolicyJson, groupTxCommand } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgUpdateGroupPolicyDecisionPolicy',
  summary: "Replace a group policy's decision policy (aborts its open proposals)",
  examples: ['<%= config.bin %> tx group update-group-policy-decision-policy alice token1<policy>… policy.json --yes'],
  args: { admin: 'The policy admin (key name or address), who signs', 'group-policy-account': 'The group policy address', 'decision-policy-json-file': 'JSON file with the decision policy' },
  signerField: 'admin',
  build: async (args) => ({ group_policy_address: args['group-policy-account']!, decision_policy: await decisionPolicyJson(args['decision-policy-json-file']!) }),
});
