/**
 * The converter's command line: `tokend query aiozrc20 …` (alias `netrc20`): token-pairs,
 * token-pair <token>, params, converter-address; `tokend tx aiozrc20 convert-coin <coin>
 * <receiver 0x…>` and `convert-aiozrc20 <contract> <amount> <receiver>` (the sender is --from).
 */
import { comments } from '../../../gen/aioz/aiozrc20/v1/comments.js';
import { Query } from '../../../gen/aioz/aiozrc20/v1/query_pb.js';
import { Msg } from '../../../gen/aioz/aiozrc20/v1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const aiozrc20Cli: ModuleCli = {
  module: 'aiozrc20',
  aliases: ['netrc20'],
  comments,
  querySummary: 'Querying commands for the coin ⇄ ERC-20 converter (aiozrc20, served at /net/netrc20/v1)',
  txSummary: 'Coin ⇄ ERC-20 conversion subcommands',
  query: {
    service: Query,
    overrides: {
      TokenPair: { positional: ['token'], examples: ['<%= config.bin %> query aiozrc20 token-pair stake', '<%= config.bin %> query aiozrc20 token-pair 0x…'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      ConvertCoin: { positional: ['coin', 'receiver'], examples: ['<%= config.bin %> tx aiozrc20 convert-coin 100stake 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 --from alice'] },
      ConvertAIOZRC20: {
        use: 'convert-aiozrc20',
        aliases: ['convert-erc20'],
        positional: ['contract_address', 'amount', 'receiver'],
        examples: ['<%= config.bin %> tx aiozrc20 convert-aiozrc20 0x… 100 token1… --from alice'],
      },
    },
  },
};
