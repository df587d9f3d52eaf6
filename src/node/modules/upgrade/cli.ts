/**
 * The upgrade module's command line, with the SDK's names: `tokend query upgrade plan`,
 * `applied <name>`, `module_versions [name]`, `authority`, `upgraded-consensus-state <height>`;
 * `tokend tx upgrade software-upgrade|cancel-software-upgrade` are hand-written
 * (src/commands/tx/upgrade): as in SDK 0.47 they submit gov proposals carrying the messages.
 */
import { comments } from '../../../gen/cosmos/upgrade/v1beta1/comments.js';
import { Query } from '../../../gen/cosmos/upgrade/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/upgrade/v1beta1/tx_pb.js';
import type { ModuleCli } from '../../platform/cli.js';

export const upgradeCli: ModuleCli = {
  module: 'upgrade',
  comments,
  querySummary: 'Querying commands for the upgrade module (scheduled plan, applied upgrades, module versions)',
  txSummary: 'Upgrade proposals: software-upgrade and cancel-software-upgrade submit gov proposals',
  query: {
    service: Query,
    overrides: {
      CurrentPlan: { use: 'plan', examples: ['<%= config.bin %> query upgrade plan'] },
      AppliedPlan: { use: 'applied', examples: ['<%= config.bin %> query upgrade applied v2'] },
      ModuleVersions: {
        use: 'module_versions',
        aliases: ['module-versions'],
        positional: [{ field: 'module_name', optional: true }],
        examples: ['<%= config.bin %> query upgrade module_versions', '<%= config.bin %> query upgrade module_versions bank'],
      },
      Authority: { examples: ['<%= config.bin %> query upgrade authority'] },
    },
  },
  tx: {
    service: Msg,
    overrides: {
      // As SDK 0.47: these submit gov proposals (the authority is the gov account).
      SoftwareUpgrade: { handWritten: 'tx:upgrade:software-upgrade' },
      CancelUpgrade: { handWritten: 'tx:upgrade:cancel-software-upgrade' },
    },
  },
};
