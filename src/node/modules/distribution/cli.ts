/**
 * The distribution module's command line (x/distribution autocli and its hand-written
 * commands' names): `query distribution …`, `tx distribution withdraw-rewards VALIDATOR
 * [--commission]`, `withdraw-all-rewards`, `set-withdraw-addr`, `fund-community-pool`.
 */
import { comments } from '../../../gen/cosmos/distribution/v1beta1/comments.js';
import { Query } from '../../../gen/cosmos/distribution/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/distribution/v1beta1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const distributionCli: ModuleCli = {
  module: 'distribution',
  comments,
  querySummary: 'Querying commands for the distribution module (rewards, commission, slashes, community pool)',
  txSummary: 'Distribution transactions subcommands',
  query: {
    service: Query,
    overrides: {
      ValidatorOutstandingRewards: { use: 'validator-outstanding-rewards', examples: ['<%= config.bin %> query distribution validator-outstanding-rewards tokenvaloper1…'] },
      ValidatorCommission: { use: 'commission', examples: ['<%= config.bin %> query distribution commission tokenvaloper1…'] },
      ValidatorSlashes: {
        use: 'slashes',
        positional: ['validator_address', 'starting_height', 'ending_height'],
        examples: ['<%= config.bin %> query distribution slashes tokenvaloper1… 0 100'],
      },
      DelegationRewards: {
        use: 'rewards-by-validator',
        positional: ['delegator_address', 'validator_address'],
        examples: ['<%= config.bin %> query distribution rewards-by-validator token1… tokenvaloper1…'],
      },
      DelegationTotalRewards: { use: 'rewards', examples: ['<%= config.bin %> query distribution rewards token1…'] },
      DelegatorValidators: { use: 'delegator-validators' },
      DelegatorWithdrawAddress: { use: 'delegator-withdraw-address' },
      CommunityPool: { examples: ['<%= config.bin %> query distribution community-pool'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      SetWithdrawAddress: { use: 'set-withdraw-addr', examples: ['<%= config.bin %> tx distribution set-withdraw-addr token1… --from alice'] },
      WithdrawDelegatorReward: { handWritten: 'tx:distribution:withdraw-rewards' },
      WithdrawValidatorCommission: { handWritten: 'tx:distribution:withdraw-rewards' },
      FundCommunityPool: { examples: ['<%= config.bin %> tx distribution fund-community-pool 100attotoken --from alice'] },
    },
  },
};
