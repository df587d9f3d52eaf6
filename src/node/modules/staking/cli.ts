/**
 * The staking module's command line: `tokend query staking …`, `tokend tx staking …` (see
 * node/platform/cli.ts). Names and argument orders are the Cosmos SDK's (x/staking autocli).
 */
import { comments } from '../../../gen/cosmos/staking/v1beta1/comments.js';
import { Query } from '../../../gen/cosmos/staking/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/staking/v1beta1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

const DELEGATOR_THEN_VALIDATOR = ['delegator_addr', 'validator_addr'];

export const stakingCli: ModuleCli = {
  module: 'staking',
  comments,
  querySummary: 'Querying commands for the staking module (validators, delegations, pool, params)',
  txSummary: 'Staking transaction subcommands',
  query: {
    service: Query,
    overrides: {
      Validators: { examples: ['<%= config.bin %> query staking validators --status BOND_STATUS_BONDED -o json'] },
      ValidatorDelegations: { use: 'delegations-to' },
      ValidatorUnbondingDelegations: { use: 'unbonding-delegations-from' },
      // The REST path names the validator first; the SDK's command takes the delegator first.
      Delegation: { positional: DELEGATOR_THEN_VALIDATOR, examples: ['<%= config.bin %> query staking delegation token1… tokenvaloper1…'] },
      UnbondingDelegation: { positional: DELEGATOR_THEN_VALIDATOR },
      DelegatorDelegations: { use: 'delegations', examples: ['<%= config.bin %> query staking delegations token1…'] },
      DelegatorUnbondingDelegations: { use: 'unbonding-delegations' },
      Redelegations: {
        aliases: ['redelegation'],
        positional: ['delegator_addr', { field: 'src_validator_addr', optional: true }, { field: 'dst_validator_addr', optional: true }],
        examples: ['<%= config.bin %> query staking redelegations token1…', '<%= config.bin %> query staking redelegation token1… tokenvaloper1src… tokenvaloper1dst…'],
      },
      HistoricalInfo: { examples: ['<%= config.bin %> query staking historical-info 5'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      Delegate: { examples: ['<%= config.bin %> tx staking delegate tokenvaloper1… 1000attotoken --from alice'] },
      BeginRedelegate: { use: 'redelegate', examples: ['<%= config.bin %> tx staking redelegate tokenvaloper1src… tokenvaloper1dst… 1000attotoken --from alice'] },
      Undelegate: { use: 'unbond', examples: ['<%= config.bin %> tx staking unbond tokenvaloper1… 1000attotoken --from alice'] },
      CancelUnbondingDelegation: { use: 'cancel-unbond', examples: ['<%= config.bin %> tx staking cancel-unbond tokenvaloper1… 1000attotoken 120 --from alice'] },
      // Every field optional ("empty: unchanged"), so flags rather than positional arguments.
      EditValidator: { positional: [] },
      UpdateParams: { positional: ['params'] },
      // The flags of `gentx`, rather than JSON for the description and commission messages.
      CreateValidator: {
        examples: [
          '<%= config.bin %> tx staking create-validator 1000000attotoken --pubkey \'{"@type":"/cosmos.crypto.ed25519.PubKey","key":"…"}\' --moniker val1 --from alice',
        ],
        friendly: {
          args: { amount: { description: 'The first self-delegation, e.g. 1000000attotoken' } },
          flags: {
            pubkey: { description: 'Consensus public key as JSON, e.g. {"@type":"/cosmos.crypto.ed25519.PubKey","key":"…"}', required: true },
            moniker: { description: "The validator's name", required: true },
            'commission-rate': { description: 'Initial commission rate', default: '0.1' },
            'commission-max-rate': { description: 'Maximum commission rate', default: '0.2' },
            'commission-max-change-rate': { description: 'Maximum daily change of the commission rate', default: '0.01' },
            'min-self-delegation': { description: 'Minimum self-delegation the validator must keep', default: '1' },
            details: { description: 'Validator details' },
            identity: { description: 'Identity signature (e.g. Keybase)' },
            website: { description: 'Validator website' },
            'security-contact': { description: 'Security contact email' },
          },
          toFields: ({ args, flags }) => ({
            value: args.amount,
            pubkey: flags.pubkey,
            min_self_delegation: flags['min-self-delegation'],
            description: JSON.stringify({
              moniker: flags.moniker ?? '',
              identity: flags.identity ?? '',
              website: flags.website ?? '',
              security_contact: flags['security-contact'] ?? '',
              details: flags.details ?? '',
            }),
            commission: JSON.stringify({
              rate: flags['commission-rate'],
              max_rate: flags['commission-max-rate'],
              max_change_rate: flags['commission-max-change-rate'],
            }),
          }),
        },
      },
    },
  },
};
