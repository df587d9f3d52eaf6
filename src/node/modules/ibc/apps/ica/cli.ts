/**
 * The interchain accounts command line (ibc-go v6's `interchain-accounts` commands):
 *   query interchain-accounts controller interchain-account <owner> <connection-id>
 *   query interchain-accounts controller params | host params
 *   tx interchain-accounts controller register <connection-id> [--version]
 *   tx interchain-accounts controller send-tx <connection-id> <packet-data.json> [--relative-packet-timeout]
 */
import { readFileSync } from 'node:fs';
import { comments as controllerComments } from '../../../../../gen/ibc/applications/interchain_accounts/controller/v1/comments.js';
import { Query as ControllerQuery } from '../../../../../gen/ibc/applications/interchain_accounts/controller/v1/query_pb.js';
import { Msg as ControllerMsg } from '../../../../../gen/ibc/applications/interchain_accounts/controller/v1/tx_pb.js';
import { comments as hostComments } from '../../../../../gen/ibc/applications/interchain_accounts/host/v1/comments.js';
import { Query as HostQuery } from '../../../../../gen/ibc/applications/interchain_accounts/host/v1/query_pb.js';
import type { ModuleCli } from '../../../../platform/cli.js';

/** ibc-go's DefaultRelativePacketTimeoutTimestamp: 10 minutes in nanoseconds. */
const DEFAULT_RELATIVE_TIMEOUT_NS = '600000000000';

/** The packet data JSON of a file (what `host generate-packet-data` prints upstream). */
function packetDataFile(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read packet data file ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    JSON.parse(text);
  } catch (err) {
    throw new Error(`packet data file ${path} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  return text;
}

export const icaCli: ModuleCli = {
  module: 'interchain-accounts',
  comments: { ...controllerComments, ...hostComments },
  querySummary: 'Querying commands for the interchain accounts module (controller and host)',
  txSummary: 'Interchain accounts transaction subcommands',
  query: [
    {
      service: ControllerQuery,
      overrides: {
        InterchainAccount: { use: 'controller:interchain-account', examples: ['<%= config.bin %> query interchain-accounts controller interchain-account token1... connection-0'] },
        Params: { use: 'controller:params', examples: ['<%= config.bin %> query interchain-accounts controller params'] },
      },
    },
    { service: HostQuery, overrides: { Params: { use: 'host:params', examples: ['<%= config.bin %> query interchain-accounts host params'] } } },
  ],
  tx: {
    service: ControllerMsg,
    overrides: {
      RegisterInterchainAccount: {
        use: 'controller:register',
        examples: ['<%= config.bin %> tx interchain-accounts controller register connection-0 --from mykey'],
        friendly: {
          args: { 'connection-id': { description: 'The controller connection identifier' } },
          flags: { version: { description: 'The channel version: ICS-27 metadata JSON (no relayer fees), or the ICS-29 version around it; empty: the default metadata, fee-enabled' } },
          toFields: ({ args, flags }) => ({ connection_id: args['connection-id'], version: flags.version }),
        },
      },
      SendTx: {
        use: 'controller:send-tx',
        examples: ['<%= config.bin %> tx interchain-accounts controller send-tx connection-0 packet-data.json --from mykey'],
        friendly: {
          args: {
            'connection-id': { description: 'The controller connection identifier' },
            'packet-data-file': { description: 'JSON file with the InterchainAccountPacketData (type, data, memo)' },
          },
          flags: { 'relative-packet-timeout': { description: 'Timeout in nanoseconds after the block time', default: DEFAULT_RELATIVE_TIMEOUT_NS } },
          toFields: ({ args, flags }) => ({ connection_id: args['connection-id'], packet_data: packetDataFile(args['packet-data-file']), relative_timeout: flags['relative-packet-timeout'] }),
        },
      },
    },
  },
};
