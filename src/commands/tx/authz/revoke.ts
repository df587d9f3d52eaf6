import { Args } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxAuthzRevoke extends TxCommand<typeof TxAuthzRevoke> {
  static override summary = 'Revoke the authorization for one message type that you gave a grantee';
  static override description = 'Signs /cosmos.authz.v1beta1.MsgRevoke from --from (the granter).';
  static override examples = ['<%= config.bin %> tx authz revoke token1…grantee /cosmos.bank.v1beta1.MsgSend --from alice --yes'];
  static override args = {
    grantee: Args.string({ required: true, description: 'Address that holds the grant' }),
    'msg-type-url': Args.string({ required: true, description: 'Type URL of the message whose grant is revoked' }),
  };
  static override flags = { ...txFlags };

  async execute(): Promise<TxOutcome> {
    const { buildAuthzRevoke } = await import('../../../node/client/grants.js');
    const { toAccountAddress } = await import('../../../keyring/address.js');
    const key = await this.signingKey();
    return this.submit(key, [buildAuthzRevoke(toAccountAddress(key.address), this.args.grantee, this.args['msg-type-url'])]);
  }
}
