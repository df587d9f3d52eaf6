/**
 * The EVM library on its own (issue 12's evaluation): @ethereumjs/evm over its in-memory
 * SimpleStateManager, so the figures are the interpreter's, not tokend's store.
 *
 *   value transfer   runCall with value, no code (what an ether-style send costs the library)
 *   loop 10k         a contract looping 10,000 times (ADD/LT/JUMPI): interpreter gas/s
 *   sstore           a contract writing one fresh storage slot per call
 *   forks            which hardforks the library executes (Common hardfork list)
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { SimpleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, hexToBytes } from '@ethereumjs/util';

interface Row {
  name: string;
  value: number;
  unit: string;
}

/** Addresses 0xNN00…00 (never a precompile). */
function address(byte: number): Address {
  const bytes = new Uint8Array(20);
  bytes[0] = byte;
  return new Address(bytes);
}

// for (i = 0; i < 10000; i++) {}   — PUSH2 0x2710, PUSH1 0, JUMPDEST, PUSH1 1, ADD, DUP2, DUP2, LT, PUSH1 5, JUMPI, STOP
const LOOP = hexToBytes('0x61271060005b60010181811060055700');
// sstore(calldataload(0), 1)
const SSTORE = hexToBytes('0x600160003555');

export async function run(log: (line: string) => void = () => {}): Promise<Row[]> {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun });
  const stateManager = new SimpleStateManager();
  const evm = await createEVM({ common, stateManager });
  const caller = address(1);
  await stateManager.putAccount(caller, new Account(0n, 10n ** 30n));
  const loop = address(2);
  const store = address(3);
  await stateManager.putAccount(loop, new Account());
  await stateManager.putCode(loop, LOOP);
  await stateManager.putAccount(store, new Account());
  await stateManager.putCode(store, SSTORE);
  const rows: Row[] = [];

  const transfers = 20_000;
  let started = performance.now();
  for (let i = 0; i < transfers; i++) {
    await evm.runCall({ caller, to: address(100 + (i % 50)), value: 1n, gasLimit: 21_000n });
  }
  let seconds = (performance.now() - started) / 1000;
  rows.push({ name: 'evm value transfer', value: transfers / seconds, unit: 'calls/s' });
  log(`value transfers: ${(transfers / seconds).toFixed(0)}/s`);

  const loops = 50;
  let gas = 0n;
  started = performance.now();
  for (let i = 0; i < loops; i++) {
    const result = await evm.runCall({ caller, to: loop, gasLimit: 10_000_000n });
    if (result.execResult.exceptionError !== undefined) throw new Error(`loop failed: ${result.execResult.exceptionError.error}`);
    gas += result.execResult.executionGasUsed;
  }
  seconds = (performance.now() - started) / 1000;
  rows.push({ name: 'evm loop 10k', value: loops / seconds, unit: 'calls/s' });
  rows.push({ name: 'evm interpreter', value: Number(gas) / seconds / 1e6, unit: 'Mgas/s' });
  log(`loop: ${(loops / seconds).toFixed(1)}/s, ${(Number(gas) / seconds / 1e6).toFixed(1)} Mgas/s`);

  const writes = 5_000;
  started = performance.now();
  for (let i = 0; i < writes; i++) {
    const data = new Uint8Array(32);
    new DataView(data.buffer).setUint32(28, i);
    await evm.runCall({ caller, to: store, data, gasLimit: 100_000n });
  }
  seconds = (performance.now() - started) / 1000;
  rows.push({ name: 'evm sstore call', value: writes / seconds, unit: 'calls/s' });

  const forks = Object.values(Hardfork).filter((fork) => {
    try {
      new Common({ chain: Mainnet, hardfork: fork });
      return true;
    } catch {
      return false;
    }
  });
  rows.push({ name: `evm forks (${forks[0]}..${forks[forks.length - 1]})`, value: forks.length, unit: 'forks' });
  return rows;
}
