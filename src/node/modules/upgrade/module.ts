/**
 * x/upgrade (cosmos.upgrade.v1beta1, SDK 0.47): plans by height; at the plan height PreBlock
 * carries out the upgrade with this binary's handler (src/node/app/upgrades.ts) — migrations of
 * the modules' consensus versions — or stops the node before the block when it has none.
 * Scheduling is for the authority (gov): MsgSoftwareUpgrade / MsgCancelUpgrade, or the legacy
 * v1beta1 proposal contents SoftwareUpgradeProposal / CancelSoftwareUpgradeProposal.
 */
import { Query } from '../../../gen/cosmos/upgrade/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/upgrade/v1beta1/tx_pb.js';
import { CancelSoftwareUpgradeProposalSchema, PlanSchema, SoftwareUpgradeProposalSchema } from '../../../gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { nullLogger } from '../../logger.js';
import { contentRoute } from '../../platform/content.js';
import { defineModule } from '../../platform/module.js';
import { create } from '@bufbuild/protobuf';
import { upgradeCli } from './cli.js';
import { defaultUpgradeGenesis, exportUpgradeGenesis, initUpgradeGenesis, validateUpgradeGenesis } from './genesis.js';
import { UpgradeKeeper } from './keeper.js';
import { MODULE_NAME, upgradeStoreKey } from './keys.js';
import { planError } from './plan.js';
import { upgradeMsgRoutes } from './msgServer.js';
import { upgradeQueryService } from './queryServer.js';

export const upgradeModule = defineModule<UpgradeKeeper>({
  name: MODULE_NAME,
  storeKeys: [upgradeStoreKey],
  msgService: Msg,
  queryServices: [Query],
  interfaces: [SoftwareUpgradeProposalSchema, CancelSoftwareUpgradeProposalSchema],
  cli: upgradeCli,
  consensusVersion: 2,
  create(deps) {
    const settings = deps.app.upgrades ?? { handlers: [], skipHeights: [], logger: nullLogger };
    const keeper = new UpgradeKeeper(deps.authority, settings, deps.migrator);
    return {
      keeper,
      msgRoutes: upgradeMsgRoutes(keeper),
      legacyContent: [
        contentRoute(
          SoftwareUpgradeProposalSchema,
          (ctx, proposal) => keeper.scheduleUpgrade(ctx, proposal.plan ?? create(PlanSchema)),
          (proposal) => {
            const invalid = planError(proposal.plan ?? create(PlanSchema));
            if (invalid !== undefined) throw invalid;
          },
        ),
        contentRoute(CancelSoftwareUpgradeProposalSchema, async (ctx) => keeper.clearUpgradePlan(ctx)),
      ],
      queryServices: [upgradeQueryService(keeper)],
      genesis: {
        default: () => defaultUpgradeGenesis(),
        validate: (json) => validateUpgradeGenesis(json),
        init: (ctx) => initUpgradeGenesis(ctx, keeper, deps.migrator),
        export: () => exportUpgradeGenesis(),
      },
      preBlock: async (ctx) => {
        await keeper.preBlock(ctx);
      },
    };
  },
});
