/**
 * Test modules for the upgrade tests (test code only; the app's module list is untouched):
 *   - `driver`: carries out, at EndBlock, the messages queued for it with the gov authority, as
 *     gov does with a passed proposal (each on its own branch; the outcome is recorded);
 *   - `evolving(version)`: a module whose consensus version a "new binary" bumps, with a
 *     migration per step that records it ran.
 */
import type { Any } from '@bufbuild/protobuf/wkt';
import { APP_MODULES, MODULE_ORDERS } from '../../src/node/app/modules.js';
import type { AppOptions } from '../../src/node/app/options.js';
import { accString } from '../../src/node/modules/shared/address.js';
import type { Context } from '../../src/node/modules/shared/context.js';
import { defineModule, type ModuleDeclaration, type ModuleDeps } from '../../src/node/platform/module.js';

export interface DriverOutcome {
  height: number;
  typeUrl: string;
  /** undefined: the message succeeded; otherwise the error's message. */
  error: string | undefined;
  code?: number;
  codespace?: string;
}

export class UpgradeDriver {
  deps: ModuleDeps | undefined;
  private queue: { msg: Any | ((authority: string) => Any); signer?: Uint8Array }[] = [];
  readonly outcomes: DriverOutcome[] = [];
  /** Every migration run: "<module> <from>→<to> at <height>". */
  readonly migrations: string[] = [];

  /** Queue `msg` to run at the next EndBlock, signed by the authority (or `signer`); a function gets the authority's address. */
  send(msg: Any | ((authority: string) => Any), signer?: Uint8Array): void {
    this.queue.push(signer === undefined ? { msg } : { msg, signer });
  }

  readonly module: ModuleDeclaration = defineModule({
    name: 'driver',
    consensusVersion: 1,
    create: (deps) => {
      this.deps = deps;
      return {
        keeper: undefined,
        endBlock: async (ctx: Context) => {
          const queued = this.queue;
          this.queue = [];
          for (const { msg: queuedMsg, signer } of queued) {
            const msg = typeof queuedMsg === 'function' ? queuedMsg(accString(deps.authority)) : queuedMsg;
            const branch = ctx.multiStore.branch();
            try {
              await deps.router.dispatch(ctx.with({ multiStore: branch }), msg, [signer ?? deps.authority]);
              branch.write();
              this.outcomes.push({ height: ctx.blockHeight, typeUrl: msg.typeUrl, error: undefined });
            } catch (err) {
              branch.discard();
              const meta = (err as { meta?: { code?: number; codespace?: string } }).meta;
              this.outcomes.push({ height: ctx.blockHeight, typeUrl: msg.typeUrl, error: (err as Error).message, code: meta?.code, codespace: meta?.codespace });
            }
          }
        },
      };
    },
  });

  /** A module at `version` whose migrations from 1 up record that they ran. */
  evolving(version: number): ModuleDeclaration {
    const migrations: Record<number, (ctx: Context) => Promise<void>> = {};
    for (let from = 1; from < version; from++) {
      migrations[from] = async (ctx) => {
        this.migrations.push(`evolving ${from}→${from + 1} at ${ctx.blockHeight}`);
      };
    }
    return defineModule({ name: 'evolving', consensusVersion: version, migrations, create: () => ({ keeper: undefined, genesis: { default: () => ({}), validate: () => [], init: async () => undefined, export: async () => ({}) } }) });
  }

  /** The app's modules plus the driver and `evolving` at `version`. */
  moduleSet(version: number): NonNullable<AppOptions['moduleSet']> {
    return {
      modules: [...APP_MODULES, this.module, this.evolving(version)],
      orders: {
        ...MODULE_ORDERS,
        endBlock: [...MODULE_ORDERS.endBlock, 'driver'],
        initGenesis: [...MODULE_ORDERS.initGenesis, 'driver', 'evolving'],
        exportGenesis: [...MODULE_ORDERS.exportGenesis, 'driver', 'evolving'],
      },
    };
  }
}
