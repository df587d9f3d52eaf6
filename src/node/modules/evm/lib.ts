/**
 * The @ethereumjs libraries are loaded once, when the app opens (`loadEvmLibraries`), not when
 * the module list is imported: CLI commands import the module list for its types and must not
 * pay for the EVM. The ante chain (synchronous) then reads them through `evmLibraries()`.
 */
import { loadFastKeccak } from '../../../util/hash.js';
import type * as EthTxModule from './ethTx.js';
import type * as ExecModule from './exec.js';
import type * as TraceModule from './trace.js';

export type EvmLibraries = typeof EthTxModule & typeof ExecModule & typeof TraceModule;

let loaded: EvmLibraries | undefined;
let loading: Promise<EvmLibraries> | undefined;

export function loadEvmLibraries(): Promise<EvmLibraries> {
  // trace.js after exec.js: both import @ethereumjs/evm, and jest's ESM loader trips over two
  // concurrent first imports of one package.
  loading ??= Promise.all([import('./ethTx.js'), import('./exec.js'), loadFastKeccak()]).then(async ([ethTx, exec]) => {
    const trace = await import('./trace.js');
    loaded = { ...ethTx, ...exec, ...trace };
    return loaded;
  });
  return loading;
}

export function evmLibraries(): EvmLibraries {
  if (loaded === undefined) throw new Error('the EVM libraries are not loaded (the app was not opened with openApp)');
  return loaded;
}
