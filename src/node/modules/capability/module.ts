/**
 * x/capability (cosmos-sdk v0.46), module "capability" with its store "capability": object
 * capabilities for IBC — core creates one per bound port and per channel, the owning application
 * claims it, and core authenticates it on every packet. Other modules get their ScopedKeeper
 * with `deps.keeper<CapabilityKeeper>('capability').scopeToModule(<their name>)` in `create`.
 * Its InitGenesis runs first and its BeginBlock rebuilds the in-memory lookups after a start.
 */
import { defineModule } from '../../platform/module.js';
import { CapabilityErrors } from './errors.js';
import { defaultCapabilityGenesis, exportCapabilityGenesis, initCapabilityGenesis, validateCapabilityGenesis } from './genesis.js';
import { CapabilityKeeper } from './keeper.js';
import { CAPABILITY_MODULE_NAME, capabilityStoreKey } from './keys.js';

export const capabilityModule = defineModule<CapabilityKeeper>({
  name: CAPABILITY_MODULE_NAME,
  storeKeys: [capabilityStoreKey],
  errors: CapabilityErrors,
  consensusVersion: 1,
  create() {
    const keeper = new CapabilityKeeper();
    return {
      keeper,
      genesis: {
        default: () => defaultCapabilityGenesis(),
        validate: (json) => validateCapabilityGenesis(json),
        init: (ctx, json) => initCapabilityGenesis(ctx, keeper, json),
        export: (ctx) => exportCapabilityGenesis(ctx, keeper),
      },
      beginBlock: async (ctx) => {
        if (!keeper.isInitialized()) await keeper.initMemStore(ctx);
      },
    };
  },
});
