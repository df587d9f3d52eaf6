/** The evidence module (SDK 0.46 x/evidence): double signs from consensus and MsgSubmitEvidence, punished through slashing. */
import { EquivocationSchema } from '../../../gen/cosmos/evidence/v1beta1/evidence_pb.js';
import { Query } from '../../../gen/cosmos/evidence/v1beta1/query_pb.js';
import { Msg } from '../../../gen/cosmos/evidence/v1beta1/tx_pb.js';
import { defineModule } from '../../platform/module.js';
import { evidenceCli } from './cli.js';
import { EvidenceErrors } from './errors.js';
import type { EvidenceSlashingKeeper, EvidenceStakingKeeper } from './expectedKeepers.js';
import { defaultEvidenceGenesis, exportEvidenceGenesis, initEvidenceGenesis, validateEvidenceGenesis } from './genesis.js';
import { EvidenceKeeper } from './keeper.js';
import { MODULE_NAME, evidenceStoreKey } from './keys.js';
import { evidenceMsgRoutes } from './msgServer.js';
import { evidenceQueryService } from './queryServer.js';

export const evidenceModule = defineModule<EvidenceKeeper>({
  name: MODULE_NAME,
  storeKeys: [evidenceStoreKey],
  msgService: Msg,
  queryServices: [Query],
  interfaces: [EquivocationSchema],
  errors: EvidenceErrors,
  cli: evidenceCli,
  consensusVersion: 1,
  requires: ['staking', 'slashing'],
  create(deps) {
    const keeper = new EvidenceKeeper(deps.keeper<EvidenceStakingKeeper>('staking'), deps.keeper<EvidenceSlashingKeeper>('slashing'));
    return {
      keeper,
      msgRoutes: evidenceMsgRoutes(keeper),
      queryServices: [evidenceQueryService(keeper)],
      genesis: {
        default: () => defaultEvidenceGenesis(),
        validate: (json) => validateEvidenceGenesis(json),
        init: (ctx, json) => initEvidenceGenesis(ctx, keeper, json),
        export: (ctx) => exportEvidenceGenesis(ctx),
      },
      beginBlock: (ctx) => keeper.beginBlock(ctx),
    };
  },
});
