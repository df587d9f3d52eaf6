/**
 * Hooks: one module observes another through a narrow interface the observed module defines
 * (the SDK's StakingHooks, GovHooks …). Observers register implementations in their
 * `ModuleInstance.hooks` under the observed module's name; the observed module calls one fan-out
 * object that runs every registered implementation in module-list order. A method an observer
 * leaves out is skipped for it. An error thrown by a hook propagates to the caller (as in the
 * SDK, where hook errors abort the message or the block).
 */

export class HookRegistry {
  private readonly byTarget = new Map<string, { owner: string; hooks: object }[]>();
  private readonly fanOuts = new Map<string, object>();

  /** `owner` implements some hooks of `target`. */
  register(target: string, owner: string, hooks: object): void {
    let list = this.byTarget.get(target);
    if (list === undefined) {
      list = [];
      this.byTarget.set(target, list);
    }
    list.push({ owner, hooks });
  }

  /** Modules that registered hooks on `target`, in registration order. */
  observersOf(target: string): string[] {
    return (this.byTarget.get(target) ?? []).map((entry) => entry.owner);
  }

  /** Every target that has observers. */
  targets(): string[] {
    return [...this.byTarget.keys()];
  }

  /**
   * The fan-out object for `target`. Property access returns a function that awaits each
   * registered implementation of that method in turn (registrations are read at call time, so
   * the object can be handed out before every module exists).
   */
  fanOut<T extends object>(target: string): T {
    let fanOut = this.fanOuts.get(target);
    if (fanOut === undefined) {
      const byTarget = this.byTarget;
      fanOut = new Proxy(
        {},
        {
          get(_object, property): unknown {
            if (typeof property !== 'string') return undefined;
            return async (...args: unknown[]): Promise<void> => {
              for (const { hooks } of byTarget.get(target) ?? []) {
                const method = (hooks as Record<string, unknown>)[property];
                if (typeof method === 'function') await (method as (...a: unknown[]) => unknown).apply(hooks, args);
              }
            };
          },
        },
      );
      this.fanOuts.set(target, fanOut);
    }
    return fanOut as T;
  }
}
