/**
 * The upgrade handlers of this binary (a Cosmos SDK app.go's SetUpgradeHandler calls): when an
 * upgrade plan named here falls due, x/upgrade runs its handler at the plan height and the chain
 * continues; a due plan whose name is not here stops the node before that block with
 * `UPGRADE "<name>" NEEDED at height: <h>: <info>` (and <home>/data/upgrade-info.json for
 * cosmovisor). A binary started before the plan height with the plan's handler refuses to run
 * ("BINARY UPDATED BEFORE TRIGGER"), and one without the handler of the last applied upgrade
 * refuses the state ("Wrong app version") — so keep the last release's handler in this list.
 *
 * Registering an upgrade is one entry:
 *
 *   { name: 'v2', handler: (ctx, plan, from, migrator) => migrator.runMigrations(ctx, from) },
 *
 * `runMigrations` takes every module from the versions stored on chain to this binary's
 * `consensusVersion` through its declared `migrations` (and runs InitGenesis of a new module).
 */
import type { UpgradeHandlerEntry } from '../platform/upgrades.js';

export const UPGRADE_HANDLERS: UpgradeHandlerEntry[] = [];
