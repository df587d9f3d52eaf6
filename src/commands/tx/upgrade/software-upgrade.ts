import { Args, Flags } from '@oclif/core';
import { TxCommand, txFlags } from '../../../cli/txCommand.js';
import type { TxOutcome } from '../../../node/client/broadcast.js';

export default class TxUpgradeSoftwareUpgrade extends TxCommand<typeof TxUpgradeSoftwareUpgrade> {
  static override summary = 'Submit a software-upgrade proposal: a gov proposal whose MsgSoftwareUpgrade schedules the plan if it passes';
  static override description =
    'As the SDK 0.47 command: signs /cosmos.gov.v1.MsgSubmitProposal from --from, carrying /cosmos.upgrade.v1beta1.MsgSoftwareUpgrade with ' +
    'the gov module account as authority and the plan {name, height, info}. At the plan height a node without a handler for the plan ' +
    'stops with "UPGRADE <name> NEEDED"; the release with the handler continues.';
  static override examples = [
    '<%= config.bin %> tx upgrade software-upgrade v2 --upgrade-height 120000 --upgrade-info "v2 release" --title "Upgrade to v2" --summary "…" --deposit 10000000attotoken --from alice --yes',
  ];
  static override args = {
    name: Args.string({ required: true, description: 'The plan name (the release\'s upgrade handler has this name)' }),
  };
  static override flags = {
    ...txFlags,
    'upgrade-height': Flags.string({ description: 'The height at which the upgrade happens', required: true }),
    'upgrade-info': Flags.string({ description: 'Info for the upgrade plan, e.g. release URLs (JSON or text)', default: '' }),
    title: Flags.string({ description: 'Proposal title', required: true }),
    summary: Flags.string({ description: 'Proposal summary', required: true }),
    deposit: Flags.string({ description: 'Initial deposit, e.g. 10000000attotoken', default: '' }),
    metadata: Flags.string({ description: 'Proposal metadata', default: '' }),
  };

  async execute(): Promise<TxOutcome> {
    const { softwareUpgradeProposal } = await import('../../../cli/upgradeProposals.js');
    const forProposer = softwareUpgradeProposal(this.args.name, this.flags);
    const key = await this.signingKey();
    return this.submit(key, [forProposer(key.address)]);
  }
}
