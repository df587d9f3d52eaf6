/**
 * The gov module's command line: `tokend query gov …` from cosmos.gov.v1.Query, `tokend tx gov
 * submit-proposal|deposit|vote|weighted-vote …` from cosmos.gov.v1.Msg (SDK 0.47 shapes);
 * `tx gov submit-legacy-proposal` (v1beta1 contents) is hand-written.
 */
import { readFileSync } from 'node:fs';
import { comments as v1Comments } from '../../../gen/cosmos/gov/v1/comments.js';
import { comments as v1beta1Comments } from '../../../gen/cosmos/gov/v1beta1/comments.js';
import { Query } from '../../../gen/cosmos/gov/v1/query_pb.js';
import { Msg } from '../../../gen/cosmos/gov/v1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

const OPTIONS = ['yes', 'no', 'abstain', 'no_with_veto'];

function voteOption(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const name = text.trim().toLowerCase().replace(/-/g, '_');
  if (!OPTIONS.includes(name)) throw new Error(`invalid vote option "${text}": expected one of ${OPTIONS.join(', ')}`);
  return `VOTE_OPTION_${name.toUpperCase()}`;
}

/** "yes=0.6,no=0.4" → the options as JSON. */
function weightedOptions(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const options = text.split(',').map((part) => {
    const [option, weight, extra] = part.split('=');
    if (option === undefined || weight === undefined || extra !== undefined || weight.trim() === '') throw new Error(`invalid weighted vote option "${part}": expected option=weight, e.g. yes=0.6,no=0.4`);
    return { option: voteOption(option), weight: weight.trim() };
  });
  return JSON.stringify(options);
}

/** The SDK's proposal JSON file: messages, metadata, deposit, title, summary. */
function proposalFile(path: string | undefined): Record<string, string | undefined> {
  if (path === undefined) return {};
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`cannot read proposal file ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error(`proposal file ${path} must hold a JSON object`);
  const text = (key: string): string | undefined => (json[key] === undefined ? undefined : String(json[key]));
  return {
    messages: JSON.stringify(json.messages ?? []),
    initial_deposit: text('deposit'),
    metadata: text('metadata'),
    title: text('title'),
    summary: text('summary'),
  };
}

export const govCli: ModuleCli = {
  module: 'gov',
  comments: { ...v1beta1Comments, ...v1Comments },
  querySummary: 'Querying commands for the governance module (proposals, votes, deposits, tally, params)',
  txSummary: 'Governance transactions subcommands',
  query: {
    service: Query,
    overrides: {
      Proposal: { examples: ['<%= config.bin %> query gov proposal 1'] },
      Proposals: { examples: ['<%= config.bin %> query gov proposals --proposal-status PROPOSAL_STATUS_VOTING_PERIOD'] },
      Vote: { examples: ['<%= config.bin %> query gov vote 1 token1…'] },
      Votes: { examples: ['<%= config.bin %> query gov votes 1'] },
      Params: {
        use: 'params',
        aliases: ['param'],
        positional: [{ field: 'params_type', optional: true }],
        examples: ['<%= config.bin %> query gov params', '<%= config.bin %> query gov param voting', '<%= config.bin %> query gov param tallying'],
      },
      Deposit: { examples: ['<%= config.bin %> query gov deposit 1 token1…'] },
      Deposits: { examples: ['<%= config.bin %> query gov deposits 1'] },
      TallyResult: { use: 'tally', examples: ['<%= config.bin %> query gov tally 1'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      SubmitProposal: {
        examples: ['<%= config.bin %> tx gov submit-proposal proposal.json --from mykey'],
        friendly: {
          args: { 'proposal-file': { description: 'JSON file with messages, metadata, deposit, title and summary' } },
          toFields: ({ args }) => proposalFile(args['proposal-file']),
        },
      },
      ExecLegacyContent: { handWritten: 'tx:gov:submit-legacy-proposal' },
      Vote: {
        examples: ['<%= config.bin %> tx gov vote 1 yes --from mykey'],
        friendly: {
          args: { 'proposal-id': { description: 'The proposal id' }, option: { description: 'yes, no, abstain or no_with_veto' } },
          flags: { metadata: { description: 'Metadata attached to the vote' } },
          toFields: ({ args, flags }) => ({ proposal_id: args['proposal-id'], option: voteOption(args.option), metadata: flags.metadata }),
        },
      },
      VoteWeighted: {
        use: 'weighted-vote',
        examples: ['<%= config.bin %> tx gov weighted-vote 1 yes=0.6,no=0.4 --from mykey'],
        friendly: {
          args: { 'proposal-id': { description: 'The proposal id' }, options: { description: 'Weighted options, e.g. yes=0.6,no=0.4' } },
          flags: { metadata: { description: 'Metadata attached to the vote' } },
          toFields: ({ args, flags }) => ({ proposal_id: args['proposal-id'], options: weightedOptions(args.options), metadata: flags.metadata }),
        },
      },
      Deposit: { examples: ['<%= config.bin %> tx gov deposit 1 10000000attotoken --from mykey'] },
      UpdateParams: { positional: ['params'] },
    },
  },
};
