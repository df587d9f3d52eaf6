import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxDistributionWithdrawAllRewards extends TxCommand<typeof TxDistributionWithdrawAllRewards> {
  static override summary = 'Withdraw the rewards of every delegation of the signer';
  static override description = 'Asks the node for the validators --from delegates to and signs one /cosmos.distribution.v1beta1.MsgWithdrawDelegatorReward per validator.';
  static override examples = ['<%= config.bin %> tx distribution withdraw-all-rewards --from alice --yes'];
  static override flags = { ...txFlags };

  async execute(): Promise<TxOutcome> {
    const { create } = await import('@bufbuild/protobuf');
    const { Query } = await import('../../../gen/cosmos/distribution/v1beta1/query_pb.js');
    const { MsgWithdrawDelegatorRewardSchema } = await import('../../../gen/cosmos/distribution/v1beta1/tx_pb.js');
    const { packMessage } = await import('../../../node/client/tx.js');
    const { queryMethod } = await import('../../../node/client/query.js');
    const { toAccountAddress } = await import('../../../keyring/address.js');
    const { TokendError } = await import('../../../util/errors.js');
    const key = await this.signingKey();
    const delegator = toAccountAddress(key.address);
    const { value } = await queryMethod(await this.rpc(), Query.method.delegatorValidators, { delegator_address: delegator });
    const validators = (value.validators as string[] | undefined) ?? [];
    if (validators.length === 0) throw new TokendError('NOT_FOUND', `${delegator} has no delegations`, { hint: 'delegate first: tx staking delegate VALIDATOR AMOUNT', exitCode: 1 });
    const messages = validators.map((validator) => packMessage(MsgWithdrawDelegatorRewardSchema, create(MsgWithdrawDelegatorRewardSchema, { delegatorAddress: delegator, validatorAddress: validator })));
    return this.submit(key, messages);
  }
}
