import { groupTxCommand } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgUpdateGroupPolicyAdmin',
  summary: 'Hand a group policy to a new admin (aborts its open proposals)',
  examples: ['<%= config.bin %> tx group update-group-policy-admin alice token1<policy>… token1<new>… --yes'],
  args: { admin: 'The policy admin (key name or address), who signs', 'group-policy-account': 'The group policy address', 'new-admin': 'The new admin address' },
  signerField: 'admin',
  build: async (args) => ({ group_policy_address: args['group-policy-account']!, new_admin: args['new-admin']! }),
});
