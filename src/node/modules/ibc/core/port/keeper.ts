/**
 * 05-port (ibc-go v6 modules/core/05-port): binding a port creates the capability "ports/{port}"
 * owned by ibc, which the binding application claims; channel handshakes authenticate it, and the
 * modules owning it (ibc and the application) say which application a port routes to.
 */
import type { Context } from '../../../shared/context.js';
import type { StoreProvider } from '../../../../collections/index.js';
import { portIdentifierError } from '../host/identifiers.js';
import type { Capability, ScopedKeeper } from './types.js';

/** The ibc module's own scoped keeper: a ScopedKeeper that can also list a capability's owners. */
export interface IbcScopedKeeper extends ScopedKeeper {
  lookupModules(ctx: StoreProvider, name: string): { modules: string[]; capability: Capability };
}

/** What ibc needs of x/capability: its scoped keeper. */
export interface IbcCapabilityKeeper {
  scopeToModule(module: string): IbcScopedKeeper;
}

/** host.PortPath. */
export function portPath(portId: string): string {
  return `ports/${portId}`;
}

/** host.ChannelCapabilityPath. */
export function channelCapabilityPath(portId: string, channelId: string): string {
  return `capabilities/ports/${portId}/channels/${channelId}`;
}

/** GetModuleOwner: of the two owners of a port or channel capability, the one that is not ibc. */
export function moduleOwner(modules: readonly string[]): string {
  if (modules.length !== 2) {
    throw new Error(`capability should only be owned by port or channel owner and ibc module, multiple owners currently not supported, owners: [${modules.join(' ')}]`);
  }
  return modules[0] === 'ibc' ? modules[1]! : modules[0]!;
}

function checkPortId(portId: string): void {
  const invalid = portIdentifierError(portId);
  if (invalid !== undefined) throw invalid;
}

export class PortKeeper {
  constructor(readonly scopedKeeper: IbcScopedKeeper) {}

  isBound(ctx: Context, portId: string): boolean {
    return this.scopedKeeper.getCapability(ctx, portPath(portId)) !== undefined;
  }

  /**
   * BindPort: the port's capability, for the caller to claim with its own scoped keeper
   * (`claimCapability(ctx, cap, portPath(portId))`). An invalid or bound port is refused.
   */
  bindPort(ctx: Context, portId: string): Capability {
    checkPortId(portId);
    if (this.isBound(ctx, portId)) throw new Error(`port ${portId} is already bound`);
    return this.scopedKeeper.newCapability(ctx, portPath(portId));
  }

  authenticate(ctx: Context, cap: Capability, portId: string): boolean {
    checkPortId(portId);
    return this.scopedKeeper.authenticateCapability(ctx, cap, portPath(portId));
  }

  /** LookupModuleByPort: the application bound to the port, and the port capability. */
  lookupModuleByPort(ctx: Context, portId: string): { module: string; capability: Capability } {
    const { modules, capability } = this.scopedKeeper.lookupModules(ctx, portPath(portId));
    return { module: moduleOwner(modules), capability };
  }
}
