import { Args, Flags } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxFeegrantGrant extends TxCommand<typeof TxFeegrantGrant> {
  static override summary = "Grant a fee allowance: the granter pays the grantee's fees";
  static override description =
    'Signs /cosmos.feegrant.v1beta1.MsgGrantAllowance from <granter>. Without flags the allowance is unlimited; --spend-limit caps the total, ' +
    '--expiration ends it, --period with --period-limit makes it periodic (at most --period-limit per period), --allowed-messages restricts ' +
    'it to the listed message types. The grantee names the granter with --fee-granter on its txs.';
  static override examples = [
    '<%= config.bin %> tx feegrant grant alice token1…grantee --spend-limit 100000attotoken --yes',
    '<%= config.bin %> tx feegrant grant alice token1…grantee --period 3600 --period-limit 1000attotoken --expiration 2026-12-31T00:00:00Z --yes',
    '<%= config.bin %> tx feegrant grant alice token1…grantee --allowed-messages /cosmos.bank.v1beta1.MsgSend --yes',
  ];
  static override args = {
    granter: Args.string({ required: true, description: 'Key name or address that pays the fees and signs' }),
    grantee: Args.string({ required: true, description: 'Address whose fees are paid' }),
  };
  static override flags = {
    ...txFlags,
    'spend-limit': Flags.string({ description: 'Total the grantee may spend on fees, e.g. 100000attotoken' }),
    expiration: Flags.string({ description: 'When the allowance expires: Unix seconds or an RFC 3339 time' }),
    period: Flags.string({ description: 'Period of a periodic allowance: seconds or 30s / 10m / 24h' }),
    'period-limit': Flags.string({ description: 'What may be spent in each period' }),
    'allowed-messages': Flags.string({ description: 'Comma-separated message type URLs the allowance pays for' }),
  };

  async execute(): Promise<TxOutcome> {
    const { buildFeeAllowance } = await import('../../../node/client/grants.js');
    const { toAccountAddress } = await import('../../../keyring/address.js');
    const key = await this.signingKey(this.args.granter);
    const msg = buildFeeAllowance({
      granter: toAccountAddress(key.address),
      grantee: this.args.grantee,
      spendLimit: this.flags['spend-limit'],
      expiration: this.flags.expiration,
      period: this.flags.period,
      periodLimit: this.flags['period-limit'],
      allowedMessages: this.flags['allowed-messages'],
      nowMs: Date.now(),
    });
    return this.submit(key, [msg]);
  }
}
