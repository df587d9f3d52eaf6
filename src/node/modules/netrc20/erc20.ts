/**
 * The ERC-20 calls the converter makes, encoded and decoded with the ABI of the module-owned
 * token (contracts/ModuleERC20.sol, compiled at build time: src/contracts/artifacts.ts). ethers
 * is loaded on first use (the CLI imports the module list without it).
 */
import type { Interface } from 'ethers';
import { ModuleERC20 } from '../../../contracts/artifacts.js';

let iface: Interface | undefined;
let ethersModule: typeof import('ethers') | undefined;

export async function erc20Interface(): Promise<{ iface: Interface; ethers: typeof import('ethers') }> {
  if (iface === undefined || ethersModule === undefined) {
    ethersModule = await import('ethers');
    iface = new ethersModule.Interface(ModuleERC20.abi);
  }
  return { iface, ethers: ethersModule };
}

export function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.replace(/^0x/i, ''), 'hex'));
}

export function toHex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

/** The creation code of a module-owned token: bytecode ‖ abi.encode(name, symbol, decimals). */
export async function moduleTokenCreation(name: string, symbol: string, decimals: number): Promise<Uint8Array> {
  const { iface: i } = await erc20Interface();
  return hexBytes(ModuleERC20.bytecode + i.encodeDeploy([name, symbol, decimals]).slice(2));
}

/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
