import { groupTxCommand } from '../../../cli/groupTx.js';

export default groupTxCommand({
  msg: 'MsgUpdateGroupPolicyMetadata',
  summary: "Replace a group policy's metadata (aborts its open proposals)",
  examples: ['<%= config.bin %> tx group update-group-policy-metadata alice token1<policy>… "new metadata" --yes'],
  args: { admin: 'The policy admin (key name or address), who signs', 'group-policy-account': 'The group policy address', 'new-metadata': 'The new metadata' },
  signerField: 'admin',
  build: async (args) => ({ group_policy_address: args['group-policy-account']!, metadata: args['new-metadata']! }),
});
