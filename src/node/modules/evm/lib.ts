/**
 * The @ethereumjs libraries are loaded once, when the app opens (`loadEvmLibraries`), not when
 * the module list is imported: CLI commands import the module list for its types and must not
 * pay for the EVM. The ante chain (synchronous) then reads them through `evmLibraries()`.
 */
import type * as EthTxModule from './ethTx.js';
import type * as ExecModule from './exec.js';

export type EvmLibraries = typeof EthTxModule & typeof ExecModule;

let loaded: EvmLibraries | undefined;
let loading: Promise<EvmLibraries> | undefined;

export function loadEvmLibraries(): Promise<EvmLibraries> {
  loading ??= Promise.all([import('./ethTx.js'), import('./exec.js')]).then(([ethTx, exec]) => {
    loaded = { ...ethTx, ...exec };
    return loaded;
  });
  return loading;
}

export function evmLibraries(): EvmLibraries {
  if (loaded === undefined) throw new Error('the EVM libraries are not loaded (the app was not opened with openApp)');
  return loaded;
}
