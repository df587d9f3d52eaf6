/**
 * IBC core for the interchain accounts submodules, resolved from the ibc module's keeper. The
 * connection keeper is there from the start; the channel keeper, port keeper and capability
 * scopes are taken when first used, so that an operation needing one that IBC core does not offer
 * fails with an error naming it (nothing else of the module depends on them).
 */
import { SdkErrors, type SdkError } from '../../../shared/errors.js';
import type { IbcModule, ScopedKeeper } from '../../core/port/types.js';
import type { IcaChannelKeeper, IcaConnectionKeeper, IcaIbcCore, IcaIbcKeeper, IcaPortKeeper } from './expectedKeepers.js';
import type { Ics4Wrapper } from '../../core/port/types.js';

function missing(what: string): SdkError {
  return SdkErrors.Logic.wrap(`IBC core offers no ${what} to interchain accounts`);
}

export function ibcCore(ibc: IcaIbcKeeper): IcaIbcCore {
  const scopes = new Map<string, ScopedKeeper>();
  return {
    get connections(): IcaConnectionKeeper {
      return ibc.connectionKeeper;
    },
    get channels(): IcaChannelKeeper {
      if (ibc.channelKeeper === undefined) throw missing('channel keeper (04-channel)');
      return ibc.channelKeeper;
    },
    get ics4(): Ics4Wrapper {
      if (ibc.channelKeeper === undefined) throw missing('channel keeper (04-channel)');
      return ibc.channelKeeper;
    },
    get ports(): IcaPortKeeper {
      if (ibc.portKeeper === undefined) throw missing('port keeper (05-port)');
      return ibc.portKeeper;
    },
    scoped(module: string): ScopedKeeper {
      let scoped = scopes.get(module);
      if (scoped === undefined) {
        if (ibc.scopeToModule === undefined) throw missing('capability scopes (x/capability)');
        scoped = ibc.scopeToModule(module);
        scopes.set(module, scoped);
      }
      return scoped;
    },
  };
}

/** Adds the submodules' callbacks to IBC core's port router when it has one. */
export function addIbcRoutes(ibc: IcaIbcKeeper, routes: Readonly<Record<string, IbcModule>>): void {
  if (ibc.addRoute === undefined) return;
  for (const [module, callbacks] of Object.entries(routes)) ibc.addRoute(module, callbacks);
}
