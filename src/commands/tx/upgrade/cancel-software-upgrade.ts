import { Flags } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxUpgradeCancelSoftwareUpgrade extends TxCommand<typeof TxUpgradeCancelSoftwareUpgrade> {
  static override summary = 'Submit a proposal to cancel the scheduled software upgrade (a gov proposal carrying MsgCancelUpgrade)';
  static override description = 'As the SDK 0.47 command: signs /cosmos.gov.v1.MsgSubmitProposal from --from, carrying /cosmos.upgrade.v1beta1.MsgCancelUpgrade with the gov module account as authority.';
  static override examples = ['<%= config.bin %> tx upgrade cancel-software-upgrade --title "Cancel v2" --summary "…" --deposit 10000000attotoken --from alice --yes'];
  static override flags = {
    ...txFlags,
    title: Flags.string({ description: 'Proposal title', required: true }),
    summary: Flags.string({ description: 'Proposal summary', required: true }),
    deposit: Flags.string({ description: 'Initial deposit, e.g. 10000000attotoken', default: '' }),
    metadata: Flags.string({ description: 'Proposal metadata', default: '' }),
  };

  async execute(): Promise<TxOutcome> {
    const { cancelUpgradeProposal } = await import('../../../cli/upgradeProposals.js');
    const forProposer = cancelUpgradeProposal(this.flags);
    const key = await this.signingKey();
    return this.submit(key, [forProposer(key.address)]);
  }
}
