import { Args, Flags } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxAuthzGrant extends TxCommand<typeof TxAuthzGrant> {
  static override summary = 'Grant an authorization to a grantee to execute messages on your behalf';
  static override description =
    'Signs /cosmos.authz.v1beta1.MsgGrant from --from (the granter). <authorization-type>: generic (any message of --msg-type), ' +
    'send (bank sends up to --spend-limit, only to --allow-list when given), delegate | unbond | redelegate (staking, up to ' +
    '--spend-limit as max tokens, with --allowed-validators or --deny-validators). A grant for the same message type replaces the old one.';
  static override examples = [
    '<%= config.bin %> tx authz grant token1…grantee send --spend-limit 1000attotoken --from alice --yes',
    '<%= config.bin %> tx authz grant token1…grantee generic --msg-type /cosmos.gov.v1beta1.MsgVote --expiration 2026-12-31T00:00:00Z --from alice --yes',
    '<%= config.bin %> tx authz grant token1…grantee delegate --allowed-validators tokenvaloper1… --spend-limit 500attotoken --from alice --yes',
  ];
  static override args = {
    grantee: Args.string({ required: true, description: 'Address that receives the authorization' }),
    'authorization-type': Args.string({ required: true, description: 'generic | send | delegate | unbond | redelegate' }),
  };
  static override flags = {
    ...txFlags,
    'msg-type': Flags.string({ description: 'Type URL of the message a generic authorization covers' }),
    'spend-limit': Flags.string({ description: 'send: coins the grantee may send; staking: the max tokens (one coin)' }),
    'allow-list': Flags.string({ description: 'send: comma-separated recipients the grantee may send to' }),
    expiration: Flags.string({ description: 'When the grant expires: Unix seconds or an RFC 3339 time' }),
    'allowed-validators': Flags.string({ description: 'staking: comma-separated validators the grantee may use' }),
    'deny-validators': Flags.string({ description: 'staking: comma-separated validators the grantee may not use' }),
  };

  async execute(): Promise<TxOutcome> {
    const { buildAuthzGrant } = await import('../../../node/client/grants.js');
    const { toAccountAddress } = await import('../../../keyring/address.js');
    const key = await this.signingKey();
    const msg = buildAuthzGrant({
      granter: toAccountAddress(key.address),
      grantee: this.args.grantee,
      type: this.args['authorization-type'],
      msgType: this.flags['msg-type'],
      spendLimit: this.flags['spend-limit'],
      allowList: this.flags['allow-list'],
      expiration: this.flags.expiration,
      allowedValidators: this.flags['allowed-validators'],
      denyValidators: this.flags['deny-validators'],
      nowMs: Date.now(),
    });
    return this.submit(key, [msg]);
  }
}
