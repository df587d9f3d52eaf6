import { Args, Flags } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxDistributionWithdrawRewards extends TxCommand<typeof TxDistributionWithdrawRewards> {
  static override summary = "Withdraw a delegation's rewards from one validator (and, with --commission, the validator's commission)";
  static override description =
    'Signs /cosmos.distribution.v1beta1.MsgWithdrawDelegatorReward from --from for <validator-addr>; with --commission also ' +
    '/cosmos.distribution.v1beta1.MsgWithdrawValidatorCommission (the signer must be that validator\'s operator). Without a validator, ' +
    'pass --commission alone to withdraw the signer\'s own validator commission, or use withdraw-all-rewards.';
  static override examples = [
    '<%= config.bin %> tx distribution withdraw-rewards tokenvaloper1… --from alice --yes',
    '<%= config.bin %> tx distribution withdraw-rewards tokenvaloper1… --commission --from validator --yes',
  ];
  static override args = {
    validator: Args.string({ required: false, description: 'Validator operator address (tokenvaloper1…)' }),
  };
  static override flags = { ...txFlags, commission: Flags.boolean({ description: "Also withdraw the validator's commission (signer must be its operator)" }) };

  async execute(): Promise<TxOutcome> {
    const { create } = await import('@bufbuild/protobuf');
    const { MsgWithdrawDelegatorRewardSchema, MsgWithdrawValidatorCommissionSchema } = await import('../../../gen/cosmos/distribution/v1beta1/tx_pb.js');
    const { packMessage } = await import('../../../node/client/tx.js');
    const { parseValAddress } = await import('../../../node/modules/shared/address.js');
    const { toAccountAddress, toValidatorOperatorAddress } = await import('../../../keyring/address.js');
    const { TokendError } = await import('../../../util/errors.js');
    const key = await this.signingKey();
    const delegator = toAccountAddress(key.address);
    const messages = [];
    if (this.args.validator !== undefined) {
      const parsed = parseValAddress(this.args.validator);
      if (!parsed.ok) throw new TokendError('INVALID_ARGUMENT', `invalid validator address ${this.args.validator}: ${parsed.error}`, { hint: 'pass a tokenvaloper1… address', exitCode: 2 });
      messages.push(packMessage(MsgWithdrawDelegatorRewardSchema, create(MsgWithdrawDelegatorRewardSchema, { delegatorAddress: delegator, validatorAddress: this.args.validator })));
    } else if (!this.flags.commission) {
      throw new TokendError('INVALID_ARGUMENT', 'no validator given', { hint: 'pass a validator address, --commission, or use withdraw-all-rewards', exitCode: 2 });
    }
    if (this.flags.commission) {
      const validator = this.args.validator ?? toValidatorOperatorAddress(key.address);
      messages.push(packMessage(MsgWithdrawValidatorCommissionSchema, create(MsgWithdrawValidatorCommissionSchema, { validatorAddress: validator })));
    }
    return this.submit(key, messages);
  }
}
