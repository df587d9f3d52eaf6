/**
 * The IBC router (ibc-go v6 05-port/types/router.go): application module name → its IbcModule
 * (the top of its middleware stack). Applications add their route in their module's `create`
 * through the ibc keeper (`ibcKeeper.router.addRoute('transfer', stack)`); a middleware created
 * later may wrap an existing route (`wrapRoute`). Core looks routes up at run time, by the module
 * that owns a port's or channel's capability.
 */
import type { IbcModule } from './types.js';

export class IbcRouter {
  private readonly routes = new Map<string, IbcModule>();

  addRoute(module: string, callbacks: IbcModule): this {
    if (!/^[a-zA-Z0-9]+$/.test(module)) throw new Error(`route expressions can only contain alphanumeric characters, got ${JSON.stringify(module)}`);
    if (this.routes.has(module)) throw new Error(`route ${module} has already been registered`);
    this.routes.set(module, callbacks);
    return this;
  }

  /** Replaces a route by a middleware over it (the middleware receives the current stack). */
  wrapRoute(module: string, wrap: (inner: IbcModule) => IbcModule): this {
    const inner = this.routes.get(module);
    if (inner === undefined) throw new Error(`route ${module} has not been registered`);
    this.routes.set(module, wrap(inner));
    return this;
  }

  hasRoute(module: string): boolean {
    return this.routes.has(module);
  }

  getRoute(module: string): IbcModule | undefined {
    return this.routes.get(module);
  }
}
