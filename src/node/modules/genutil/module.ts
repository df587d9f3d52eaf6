/**
 * The genutil module: delivers the genesis transactions at InitChain (through the app's normal
 * finalize path, so signatures, account number 0, sequences and funds are checked) and returns
 * the validator set they create.
 */
import type { ValidatorUpdate } from '../../abci/types.js';
import { defineModule } from '../../platform/module.js';
import type { Context } from '../shared/context.js';
import { MODULE_NAME, defaultGenutilGenesis, genTxsOf, parseGenTx, txRawBytes, validateGenutilGenesis } from './genesis.js';

/** What genutil needs of staking: the validator set after the gentxs. */
export interface GenutilStakingKeeper {
  applyAndReturnValidatorSetUpdates(ctx: Context): Promise<ValidatorUpdate[]>;
}

export const genutilModule = defineModule<undefined>({
  name: MODULE_NAME,
  consensusVersion: 1,
  requires: ['staking'],
  create(deps) {
    const stakingKeeper = deps.keeper<GenutilStakingKeeper>('staking');
    return {
      keeper: undefined,
      genesis: {
        default: () => defaultGenutilGenesis(),
        validate: (json) => validateGenutilGenesis(json),
        async init(ctx, json) {
          const txs = genTxsOf(json);
          if (txs.length === 0) return [];
          for (const tx of txs) {
            const result = await deps.app.deliverTx(ctx, txRawBytes(parseGenTx(tx)));
            if (result.code !== 0) throw new Error(`failed to execute DeliverTx for '${JSON.stringify(tx)}': ${result.log}`);
          }
          return stakingKeeper.applyAndReturnValidatorSetUpdates(ctx);
        },
        export: async () => defaultGenutilGenesis(),
      },
    };
  },
});
