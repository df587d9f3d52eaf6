import type { JsonObject } from '@bufbuild/protobuf';
import { TokendError } from '../../../util/errors.js';
import { execFlag, groupTxCommand, readJsonFile } from '../../../cli/groupTx.js';

function usage(message: string): TokendError {
  return new TokendError('INVALID_ARGUMENT', message, { exitCode: 2 });
}

export default groupTxCommand({
  msg: 'MsgSubmitProposal',
  summary: 'Submit a proposal to a group policy from a JSON file (signed by its proposer)',
  description:
    'proposal.json: {"group_policy_address": "token1…", "proposers": ["token1…"], "messages": [{"@type": "/cosmos.bank.v1beta1.MsgSend", "from_address": "<policy>", "to_address": "token1…", "amount": [{"denom": "attotoken", "amount": "10"}]}], "metadata": "", "title": "", "summary": ""}. ' +
    'Every message must be signed by the group policy account; the proposers must be group members. With --exec try the proposer counts as a YES vote and the proposal is executed if that is enough.',
  examples: ['<%= config.bin %> tx group submit-proposal proposal.json --yes', '<%= config.bin %> tx group submit-proposal proposal.json --exec try --yes'],
  args: { 'proposal-json-file': 'JSON file with the proposal' },
  signerOf: (fields) => (fields.proposers as string[])[0]!,
  flags: { exec: { description: 'Set to "try" to count the proposers as YES votes and execute at once' } },
  build: async (args, flags) => {
    const path = args['proposal-json-file']!;
    const json = await readJsonFile(path, 'proposal');
    if (json === null || typeof json !== 'object' || Array.isArray(json)) throw usage(`proposal file ${path}: expected a JSON object`);
    const proposers = json.proposers;
    if (!Array.isArray(proposers) || proposers.length === 0 || proposers.some((p) => typeof p !== 'string')) throw usage(`proposal file ${path}: "proposers" must list at least one address`);
    if (proposers.length > 1) throw usage(`proposal file ${path}: ${proposers.length} proposers need as many signatures; this command signs for one proposer`);
    if (typeof json.group_policy_address !== 'string' || json.group_policy_address === '') throw usage(`proposal file ${path}: "group_policy_address" is required`);
    if (!Array.isArray(json.messages) || json.messages.length === 0) throw usage(`proposal file ${path}: "messages" must list at least one message`);
    const exec = execFlag(flags.exec as string | undefined);
    const fields: JsonObject = {
      group_policy_address: json.group_policy_address,
      proposers,
      messages: json.messages,
      metadata: typeof json.metadata === 'string' ? json.metadata : '',
      title: typeof json.title === 'string' ? json.title : '',
      summary: typeof json.summary === 'string' ? json.summary : '',
    };
    if (exec !== undefined) fields.exec = exec;
    return fields;
  },
});
