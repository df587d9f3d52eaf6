/** The route table (CometBFT rpc/core/routes.go): one list served over POST, GET and the websocket. */
import { blockRoutes } from './core/blocks.js';
import { consensusRoutes } from './core/consensus.js';
import { infoRoutes } from './core/info.js';
import { txRoutes } from './core/txs.js';
import type { Route } from './route.js';

export const ROUTES: readonly Route[] = [...infoRoutes, ...blockRoutes, ...txRoutes, ...consensusRoutes];

/** Routes by name; `extra` routes override built-ins of the same name. */
export function routeTable(extra: readonly Route[] = []): Map<string, Route> {
  const table = new Map<string, Route>();
  for (const route of [...ROUTES, ...extra]) table.set(route.name, route);
  return table;
}
