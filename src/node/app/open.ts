/**
 * Opening the app over a database: registers the app's stores with the state store (pruning from
 * the app options) and builds the App. The node's composition root calls this.
 */
import type { Database } from '../store/db/database.js';
import { openCommitMultiStore, type RootMultiStore } from '../store/index.js';
import { App } from './app.js';
import { APP_STORE_NAMES } from './modules.js';
import { resolveAppOptions, type AppOptions } from './options.js';

export interface OpenedApp {
  app: App;
  store: RootMultiStore;
  /** Stops the app's workers and releases the store (the database stays open). */
  close(): Promise<void>;
}

export async function openApp(db: Database, options: Partial<AppOptions> = {}, storeOptions: { syncCommits?: boolean; bucketCacheSize?: number } = {}): Promise<OpenedApp> {
  const resolved = resolveAppOptions(options);
  const store = await openCommitMultiStore(db, { stores: APP_STORE_NAMES, pruning: resolved.pruning, ...storeOptions });
  const app = new App(store, resolved);
  await app.ready();
  return {
    app,
    store,
    async close() {
      await app.close();
      await store.close();
    },
  };
}
