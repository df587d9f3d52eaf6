/**
 * Fixtures for the services, gateway and gRPC tests.
 *
 * `startFullNode()` runs the real stack in-process, as the node's composition root wires it: the
 * App (memory database) under the real consensus engine (one validator whose key is the gentx's
 * consensus key), the indexer service, the RPC environment built with rpc/wiring.ts, and the
 * QueryRouter over app + node services. `startAppChain()` is the app alone (InitChain →
 * FinalizeBlock → Commit driven by the test), for height-pinned queries.
 */
import { addGenesisAccount, collectGentxs, defaultAppState, openApp, type App, type AppStateJson } from '../../../src/node/app/index.js';
import type { AppOptions } from '../../../src/node/app/options.js';
import { createConsensus, type Consensus } from '../../../src/node/consensus/index.js';
import { FilePV, generateNodeKey } from '../../../src/node/consensus/privval.js';
import { defaultConsensusParams } from '../../../src/node/consensus/types/params.js';
import { timestampNow } from '../../../src/node/consensus/types/time.js';
import type { GenesisDoc } from '../../../src/node/consensus/types/genesis.js';
import { IndexerService } from '../../../src/node/indexer/service.js';
import { rpcEnvironment } from '../../../src/node/rpc/wiring.js';
import type { RpcEnvironment } from '../../../src/node/rpc/environment.js';
import { createQueryRouter, type QueryRouter } from '../../../src/node/services/index.js';
import { memoryDatabase, type Database } from '../../../src/node/store/db/database.js';
import { CHAIN_ID, DENOM, TOKEN, buildAppState, makeGentx, msgSend, signTx, startChain, testKey, type Chain, type TestKey } from '../app/helpers.js';

export { CHAIN_ID, DENOM, TOKEN, msgSend, signTx, testKey, type TestKey };

export const alice = testKey('alice');
export const bob = testKey('bob');
export const carol = testKey('carol');
export const validatorKey = testKey('validator');

export const RPC_ADDRESS = 'tcp://127.0.0.1:26657';

export interface FullNode {
  app: App;
  consensus: Consensus;
  indexer: IndexerService;
  env: RpcEnvironment;
  router: QueryRouter;
  db: Database;
  /** The consensus (ed25519) public key of the validator. */
  validatorConsKey: Uint8Array;
  /** Resolves once `height` is stored and committed by the app. */
  waitForHeight(height: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function waitFor(check: () => boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function startFullNode(
  options: { indexer?: 'kv' | 'null'; broadcastTimeoutMs?: number; chainId?: string; editAppState?: (state: AppStateJson) => AppStateJson; appOptions?: Partial<AppOptions> } = {},
): Promise<FullNode> {
  const chainId = options.chainId ?? CHAIN_ID;
  const pv = FilePV.generate();
  const nodeKey = generateNodeKey();
  let appState: AppStateJson = defaultAppState({ denom: DENOM });
  appState = addGenesisAccount(appState, alice.address, [{ denom: DENOM, amount: 1000n * TOKEN }]);
  appState = addGenesisAccount(appState, validatorKey.address, [{ denom: DENOM, amount: 200n * TOKEN }]);
  appState = collectGentxs(appState, [makeGentx(validatorKey, pv.pubKey.bytes, 100n * TOKEN, { chainId })], chainId);
  if (options.editAppState) appState = options.editAppState(appState);
  const db = memoryDatabase();
  const opened = await openApp(db, { chainId, sigVerifyWorkers: 0, ...options.appOptions }, { syncCommits: false });
  const genesis: GenesisDoc = {
    genesisTime: timestampNow(),
    chainId,
    initialHeight: 1,
    consensusParams: defaultConsensusParams(),
    validators: [],
    appHash: new Uint8Array(0),
    appStateJson: JSON.stringify(appState),
    layout: 'sdk',
  };
  const consensus = await createConsensus({
    db,
    app: opened.app,
    genesis,
    privValidator: pv,
    nodeKey,
    options: {
      timeoutProposeMs: 800,
      timeoutPrevoteMs: 200,
      timeoutPrecommitMs: 200,
      // The app's hash changes every block, so "no empty blocks" would still make one per height;
      // a short commit timeout paces them (and yields the event loop between heights).
      timeoutCommitMs: 100,
      skipTimeoutCommit: false,
      createEmptyBlocks: true,
      createEmptyBlocksIntervalMs: 0,
    },
  });
  const indexer = new IndexerService({ db, blockStore: consensus.blockStore, stateStore: consensus.stateStore, eventBus: consensus.eventBus, options: { indexer: options.indexer ?? 'kv' } });
  await indexer.start();
  const env = rpcEnvironment({
    consensus,
    app: opened.app,
    indexer,
    nodeInfo: { id: nodeKey.id, listenAddr: 'tcp://0.0.0.0:26656', network: chainId, moniker: 'services-test-node' },
  });
  await consensus.start();
  const router = createQueryRouter({ app: opened.app, node: env, options: { rpcAddress: RPC_ADDRESS, broadcastTimeoutMs: options.broadcastTimeoutMs ?? 10_000 } });
  const node: FullNode = {
    app: opened.app,
    consensus,
    indexer,
    env,
    router,
    db,
    validatorConsKey: pv.pubKey.bytes,
    // The block is stored before the app executes and commits it: wait for both.
    waitForHeight: (height, timeoutMs = 15_000) => waitFor(() => consensus.blockStore.height() >= height && opened.app.store.latestVersion() >= height, timeoutMs, `height ${height}`),
    async stop() {
      await consensus.stop();
      await indexer.stop();
      await opened.close();
    },
  };
  await node.waitForHeight(1);
  return node;
}

/** The app alone with alice and the validator funded; the test drives blocks. */
export async function startAppChain(): Promise<Chain> {
  return startChain(buildAppState({ accounts: [[alice, 1000n * TOKEN], [validatorKey, 200n * TOKEN]], validator: validatorKey, selfDelegation: 100n * TOKEN }));
}

/** A signed bank send alice → `to` (account number 0). */
export function aliceSends(to: TestKey, amount: bigint, sequence: bigint, accountNumber = 0n): Uint8Array {
  return signTx({ signer: alice, msgs: [msgSend(alice.bech32, to.bech32, amount)], sequence, accountNumber, fee: 2000n, gas: 200_000n });
}
