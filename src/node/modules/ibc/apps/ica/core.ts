/**
 * IBC core for the interchain accounts submodules: the ibc module's connection, channel and port
 * keepers and the submodules' own capability scopes ("icacontroller", "icahost"), taken once when
 * the module is created (x/capability refuses a second scope of one name).
 */
import type { ScopedKeeper } from '../../core/port/types.js';
import type { IcaCapabilityKeeper, IcaIbcCore, IcaIbcKeeper } from './expectedKeepers.js';

export function ibcCore(ibc: IcaIbcKeeper, capability: IcaCapabilityKeeper, modules: readonly string[]): IcaIbcCore {
  const scopes = new Map<string, ScopedKeeper>(modules.map((module) => [module, capability.scopeToModule(module)]));
  return {
    connections: ibc.connectionKeeper,
    channels: ibc.channelKeeper,
    ics4: ibc.channelKeeper,
    ports: ibc.portKeeper,
    scoped(module: string): ScopedKeeper {
      const scoped = scopes.get(module);
      if (scoped === undefined) throw new Error(`no capability scope for ${module}`);
      return scoped;
    },
  };
}
