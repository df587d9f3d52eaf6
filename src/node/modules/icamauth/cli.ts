/**
 * The icamauth command line (Gaia v8's): `tx icamauth register --connection-id … [--version]`,
 * `tx icamauth submit <msg JSON or path/to/msg.json> --connection-id …`,
 * `query icamauth interchainaccounts <connection-id> <owner>`.
 */
import { readFileSync } from 'node:fs';
import { comments } from '../../../gen/aioz/icamauth/v1beta1/comments.js';
import { Query } from '../../../gen/aioz/icamauth/v1beta1/query_pb.js';
import { Msg } from '../../../gen/aioz/icamauth/v1beta1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

/** The message JSON (`{"@type": "/…", …}`): the argument itself when it is JSON, else the file it names. */
function messageJson(input: string | undefined): string | undefined {
  if (input === undefined) return undefined;
  try {
    JSON.parse(input);
    return input;
  } catch {
    // not JSON: a path
  }
  let text: string;
  try {
    text = readFileSync(input, 'utf8');
  } catch (err) {
    throw new Error(`neither JSON input nor path to .json file for sdk msg were provided: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    JSON.parse(text);
  } catch (err) {
    throw new Error(`error unmarshalling sdk msg file ${input}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return text;
}

export const icamauthCli: ModuleCli = {
  module: 'icamauth',
  comments,
  querySummary: 'Querying commands for the icamauth module',
  txSummary: 'icamauth transactions subcommands',
  query: {
    service: Query,
    overrides: {
      InterchainAccount: {
        use: 'interchainaccounts',
        positional: ['connection_id', 'owner'],
        examples: ['<%= config.bin %> query icamauth interchainaccounts connection-0 token1...'],
      },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      RegisterAccount: {
        use: 'register',
        examples: ['<%= config.bin %> tx icamauth register --connection-id connection-0 --from mykey'],
        friendly: {
          flags: {
            'connection-id': { description: 'The controller connection identifier', required: true },
            version: { description: 'The channel version: ICS-27 metadata JSON (no relayer fees), or the ICS-29 version around it; empty: the default metadata, fee-enabled' },
          },
          toFields: ({ flags }) => ({ connection_id: flags['connection-id'], version: flags.version }),
        },
      },
      SubmitTx: {
        use: 'submit',
        examples: ['<%= config.bin %> tx icamauth submit msg.json --connection-id connection-0 --from mykey'],
        friendly: {
          args: { msg: { description: 'The message for the interchain account as JSON ({"@type": "/…", …}), or a path to a .json file holding it' } },
          flags: { 'connection-id': { description: 'The controller connection identifier', required: true } },
          toFields: ({ args, flags }) => ({ connection_id: flags['connection-id'], msg: messageJson(args.msg) }),
        },
      },
    },
  },
};
