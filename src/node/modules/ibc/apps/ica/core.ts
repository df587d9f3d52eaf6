/**
 * IBC core for the interchain accounts submodules: the ibc module's connection, channel and port
 * keepers and the submodules' own capability scopes ("icacontroller", "icahost"), taken once when
 * the module is created (x/capability refuses a second scope of one name). Packets go out through
 * `ics4()` — the ICS-29 fee middleware over the channel keeper in the app's stack — which is read
 * when used, as the stack is built after the keepers.
 */
import type { Ics4Wrapper, ScopedKeeper } from '../../core/port/types.js';
import type { IcaCapabilityKeeper, IcaIbcCore, IcaIbcKeeper } from './expectedKeepers.js';

export function ibcCore(ibc: IcaIbcKeeper, capability: IcaCapabilityKeeper, modules: readonly string[], ics4: () => Ics4Wrapper): IcaIbcCore {
  const scopes = new Map<string, ScopedKeeper>(modules.map((module) => [module, capability.scopeToModule(module)]));
  return {
    connections: ibc.connectionKeeper,
    channels: ibc.channelKeeper,
    get ics4() {
      return ics4();
    },
    ports: ibc.portKeeper,
    scoped(module: string): ScopedKeeper {
      const scoped = scopes.get(module);
      if (scoped === undefined) throw new Error(`no capability scope for ${module}`);
      return scoped;
    },
  };
}
