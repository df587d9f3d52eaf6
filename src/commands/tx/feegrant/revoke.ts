import { Args } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxFeegrantRevoke extends TxCommand<typeof TxFeegrantRevoke> {
  static override summary = 'Revoke the fee allowance a granter gave a grantee';
  static override description = 'Signs /cosmos.feegrant.v1beta1.MsgRevokeAllowance from <granter>.';
  static override examples = ['<%= config.bin %> tx feegrant revoke alice token1…grantee --yes'];
  static override args = {
    granter: Args.string({ required: true, description: 'Key name or address that gave the allowance and signs' }),
    grantee: Args.string({ required: true, description: 'Address whose allowance is revoked' }),
  };
  static override flags = { ...txFlags };

  async execute(): Promise<TxOutcome> {
    const { create } = await import('@bufbuild/protobuf');
    const { MsgRevokeAllowanceSchema } = await import('../../../gen/cosmos/feegrant/v1beta1/tx_pb.js');
    const { accountArg } = await import('../../../node/client/grants.js');
    const { packMessage } = await import('../../../node/client/tx.js');
    const { toAccountAddress } = await import('../../../keyring/address.js');
    const { TokendError } = await import('../../../util/errors.js');
    const key = await this.signingKey(this.args.granter);
    const granter = toAccountAddress(key.address);
    const grantee = accountArg('grantee', this.args.grantee);
    if (granter === grantee) throw new TokendError('INVALID_ARGUMENT', 'granter and grantee must be different', { exitCode: 2 });
    return this.submit(key, [packMessage(MsgRevokeAllowanceSchema, create(MsgRevokeAllowanceSchema, { granter, grantee }))]);
  }
}
