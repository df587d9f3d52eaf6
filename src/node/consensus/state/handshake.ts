/**
 * The startup handshake with the app (consensus/replay.go Handshaker): ask the app where it is
 * (Info), run InitChain at genesis, and replay stored blocks the app has not committed yet, so that
 * block store, state store and app agree on the last height and app hash before consensus starts.
 */
import type { Application, ResponseFinalizeBlock } from '../../abci/types.js';
import { ConsensusError } from '../errors.js';
import type { EventBus } from '../events.js';
import { nullLogger, type Logger } from '../../logger.js';
import type { BlockStore } from '../store/blockStore.js';
import type { StateStore } from '../store/stateStore.js';
import { BLOCK_PROTOCOL, P2P_PROTOCOL } from '../types/block.js';
import { bytesEqual, toHexUpper } from '../types/bytes.js';
import type { GenesisDoc } from '../types/genesis.js';
import { EMPTY_HASH } from '../types/merkle.js';
import { copyConsensusParams, validateConsensusParams } from '../types/params.js';
import { timestampToDate } from '../types/time.js';
import { ValidatorSet, newValidator } from '../types/validator.js';
import { SOFTWARE_VERSION, type ChainState } from './chainState.js';
import { BlockExecutor } from './execution.js';

export interface HandshakeDeps {
  app: Application;
  blockStore: BlockStore;
  stateStore: StateStore;
  genesis: GenesisDoc;
  eventBus?: EventBus;
  logger?: Logger;
}

export interface HandshakeResult {
  state: ChainState;
  appHash: Uint8Array;
  /** Blocks replayed into the app. */
  blocksReplayed: number;
}

function handshakeError(message: string): ConsensusError {
  return new ConsensusError('HANDSHAKE', message);
}

function assertAppHash(appHash: Uint8Array, expected: Uint8Array, where: string): void {
  if (!bytesEqual(appHash, expected)) {
    throw handshakeError(`${where}: app hash mismatch after replay. Got ${toHexUpper(appHash)}, expected ${toHexUpper(expected)}`);
  }
}

/** An app stand-in that returns a stored FinalizeBlock response (replay after the app committed but the state was not saved). */
function mockApp(response: ResponseFinalizeBlock): Application {
  const refuse = (): never => {
    throw handshakeError('mock app: unexpected call during replay');
  };
  return {
    info: refuse,
    initChain: refuse,
    checkTx: refuse,
    prepareProposal: refuse,
    processProposal: refuse,
    query: refuse,
    finalizeBlock: async () => response,
    commit: async () => ({ retainHeight: 0 }),
  };
}

export async function handshake(initialState: ChainState, deps: HandshakeDeps): Promise<HandshakeResult> {
  const logger = deps.logger ?? nullLogger;
  let state = initialState;
  const info = await deps.app.info({ version: SOFTWARE_VERSION, blockVersion: BLOCK_PROTOCOL, p2pVersion: P2P_PROTOCOL, abciVersion: '2.0.0' });
  const appHeight = info.lastBlockHeight;
  if (appHeight < 0) throw handshakeError(`got a negative last block height (${appHeight}) from the app`);
  let appHash = info.lastBlockAppHash;
  logger.info('ABCI handshake app info', { height: appHeight, hash: toHexUpper(appHash), softwareVersion: info.version, protocolVersion: info.appVersion });
  if (state.lastBlockHeight === 0) state.version.consensus.app = info.appVersion;

  const storeBase = deps.blockStore.base();
  const storeHeight = deps.blockStore.height();
  const stateHeight = state.lastBlockHeight;
  logger.info('ABCI replay blocks', { appHeight, storeHeight, stateHeight });
  let replayed = 0;

  if (appHeight === 0) {
    const genesis = deps.genesis;
    const genesisSet = ValidatorSet.create(genesis.validators.map((v) => newValidator(v.pubKey, v.power)));
    const res = await deps.app.initChain({
      time: timestampToDate(genesis.genesisTime),
      chainId: genesis.chainId,
      consensusParams: copyConsensusParams(genesis.consensusParams),
      validators: genesisSet.validators.map((v) => ({ pubKeyType: v.pubKey.type, pubKey: v.pubKey.bytes, power: v.votingPower })),
      appStateBytes: new TextEncoder().encode(genesis.appStateJson),
      initialHeight: genesis.initialHeight,
    });
    appHash = res.appHash;
    if (stateHeight === 0) {
      if (res.appHash.length > 0) state.appHash = res.appHash;
      if (res.validators.length > 0) {
        const vals = res.validators.map((u) => newValidator({ type: u.pubKeyType, bytes: u.pubKey }, u.power));
        state.validators = ValidatorSet.create(vals);
        state.nextValidators = ValidatorSet.create(vals).copyIncrementProposerPriority(1);
      } else if (genesis.validators.length === 0) {
        throw handshakeError('validator set is nil in genesis and still empty after InitChain');
      }
      if (res.consensusParams) {
        validateConsensusParams(res.consensusParams);
        state.consensusParams = copyConsensusParams(res.consensusParams);
        state.version.consensus.app = state.consensusParams.version.app;
      }
      state.lastResultsHash = EMPTY_HASH;
      await deps.stateStore.save(state);
    }
  }

  if (storeHeight === 0) {
    assertAppHash(appHash, state.appHash, 'genesis');
    return { state, appHash, blocksReplayed: 0 };
  }
  if (appHeight === 0 && state.initialHeight < storeBase) {
    throw handshakeError(`app block height ${appHeight} is too low: the block store starts at ${storeBase}; the app must be restored from a snapshot`);
  }
  if (appHeight > 0 && appHeight < storeBase - 1) {
    throw handshakeError(`app block height ${appHeight} is too low: the block store starts at ${storeBase}`);
  }
  if (storeHeight < appHeight) {
    throw handshakeError(`app block height (${appHeight}) is higher than the block store height (${storeHeight}); the node's data is behind the app's`);
  }
  if (storeHeight < stateHeight) throw handshakeError(`state height (${stateHeight}) > store height (${storeHeight})`);
  if (storeHeight > stateHeight + 1) throw handshakeError(`store height (${storeHeight}) > state height + 1 (${stateHeight + 1})`);

  const executor = new BlockExecutor({ app: deps.app, blockStore: deps.blockStore, stateStore: deps.stateStore, eventBus: deps.eventBus, logger });

  const replayRange = async (from: number, to: number): Promise<void> => {
    let first = from;
    if (first === 1) first = state.initialHeight;
    for (let h = first; h <= to; h++) {
      const block = deps.blockStore.loadBlock(h);
      if (!block) throw handshakeError(`block ${h} is missing from the block store`);
      if (appHash.length > 0) assertAppHash(appHash, block.header.appHash, `block ${h}`);
      logger.info('applying block', { height: h });
      const lastVals = h === state.initialHeight ? undefined : deps.stateStore.loadValidators(h - 1);
      appHash = await executor.execCommitBlock(block, lastVals, state.initialHeight);
      replayed++;
    }
  };

  const replayLastBlock = async (app: Application): Promise<void> => {
    const block = deps.blockStore.loadBlock(storeHeight);
    const meta = deps.blockStore.loadBlockMeta(storeHeight);
    if (!block || !meta) throw handshakeError(`block ${storeHeight} is missing from the block store`);
    const exec = new BlockExecutor({ app, blockStore: deps.blockStore, stateStore: deps.stateStore, eventBus: deps.eventBus, logger });
    state = await exec.applyBlock(state, meta.blockId, block, { validate: true });
    appHash = state.appHash;
    replayed++;
  };

  if (storeHeight === stateHeight) {
    if (appHeight < storeHeight) {
      await replayRange(appHeight + 1, storeHeight);
      assertAppHash(appHash, state.appHash, 'replay');
    } else {
      assertAppHash(appHash, state.appHash, 'handshake');
    }
  } else {
    // storeHeight === stateHeight + 1: the last block was saved but the state was not.
    if (appHeight < stateHeight) {
      await replayRange(appHeight + 1, storeHeight - 1);
      await replayLastBlock(deps.app);
    } else if (appHeight === stateHeight) {
      logger.info('replay last block using real app');
      await replayLastBlock(deps.app);
    } else {
      // The app committed the last block but the state was not saved: reuse the stored response.
      const response = deps.stateStore.loadFinalizeBlockResponse(storeHeight);
      if (!response) throw handshakeError(`no FinalizeBlock response stored for height ${storeHeight}`);
      if (response.appHash.length === 0) response.appHash = appHash;
      logger.info('replay last block using mock app');
      await replayLastBlock(mockApp(response));
    }
    assertAppHash(appHash, state.appHash, 'replay');
  }
  logger.info('ABCI handshake complete', { appHeight, appHash: toHexUpper(appHash), blocksReplayed: replayed });
  return { state, appHash, blocksReplayed: replayed };
}
