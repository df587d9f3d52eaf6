/**
 * Rolling consensus state back one height (CometBFT's state/rollback.go semantics).
 *
 * The chain state of height n is replaced by the state of height n-1, rebuilt from the block
 * store and the per-height validator/params records. The block of height n stays in the block
 * store, so the next start re-executes it against the (also rolled back) application: the node
 * resumes without re-signing anything at height n. Returns the new latest height and app hash.
 */
import { ConsensusError } from './errors.js';
import { copyChainState } from './state/chainState.js';
import type { BlockStore } from './store/blockStore.js';
import type { StateStore } from './store/stateStore.js';

export interface RollbackResult {
  /** The height the consensus state now stands at. */
  height: number;
  /** The app hash the application must have at that height. */
  appHash: Uint8Array;
}

export async function rollbackState(blockStore: BlockStore, stateStore: StateStore): Promise<RollbackResult> {
  const invalid = stateStore.load();
  if (!invalid) throw new ConsensusError('STORE', 'no consensus state found: nothing to roll back');
  const height = invalid.lastBlockHeight;
  const storeHeight = blockStore.height();
  // A crash between saving block n+1 and the state of n+1 leaves the state one behind already.
  if (storeHeight === height + 1) return { height, appHash: invalid.appHash };
  if (storeHeight !== height) {
    throw new ConsensusError('STORE', `statestore height (${height}) is not one below or equal to blockstore height (${storeHeight})`);
  }
  const rollbackHeight = height - 1;
  if (rollbackHeight < invalid.initialHeight) throw new ConsensusError('STORE', `cannot roll back below the first block (height ${invalid.initialHeight})`);
  const rollbackBlock = blockStore.loadBlockMeta(rollbackHeight);
  const latestBlock = blockStore.loadBlockMeta(height);
  if (!rollbackBlock || !latestBlock) throw new ConsensusError('STORE', `block ${rollbackHeight} or ${height} is missing from the block store (pruned?)`);
  const previousLastValidators = stateStore.loadValidators(rollbackHeight);
  const previousParams = stateStore.loadConsensusParams(rollbackHeight + 1);
  if (!previousLastValidators || !previousParams) throw new ConsensusError('STORE', `validators or params of height ${rollbackHeight} are missing (pruned?)`);

  const state = copyChainState(invalid);
  // Validators and params that changed at height n+1 or n+2 take effect one height earlier now.
  let valChangeHeight = invalid.lastHeightValidatorsChanged;
  if (valChangeHeight > rollbackHeight) valChangeHeight = rollbackHeight + 1;
  let paramsChangeHeight = invalid.lastHeightConsensusParamsChanged;
  if (paramsChangeHeight > rollbackHeight) paramsChangeHeight = rollbackHeight + 1;

  state.lastBlockHeight = rollbackHeight;
  state.lastBlockId = latestBlock.header.lastBlockId;
  state.lastBlockTime = rollbackBlock.header.time;
  state.nextValidators = invalid.validators;
  state.validators = invalid.lastValidators;
  state.lastValidators = previousLastValidators;
  state.lastHeightValidatorsChanged = valChangeHeight;
  state.consensusParams = previousParams;
  state.lastHeightConsensusParamsChanged = paramsChangeHeight;
  state.lastResultsHash = latestBlock.header.lastResultsHash;
  state.appHash = latestBlock.header.appHash;
  await stateStore.save(state);
  return { height: rollbackHeight, appHash: state.appHash };
}
