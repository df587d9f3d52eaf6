/**
 * aioz.mint.v1 Params: defaults and validation (one line per problem).
 *
 * Defaults are the network's testnet genesis (aioztestnet_4102-1): 6 311 520 blocks per year
 * (5 s blocks), a per-block rate of 0.000000013654032124 (which compounds to 9 % a year), and
 * minting from block 51 840, the block at which the testnet's bonus pool ran out. A chain that
 * wants another schedule says so in its genesis (or by governance, MsgUpdateParams).
 */
import { create } from '@bufbuild/protobuf';
import { ParamsSchema, type Params } from '../../../gen/aioz/mint/v1/mint_pb.js';
import { accString, parseAccAddress } from '../shared/address.js';
import { denomError } from '../shared/coins.js';
import { DEC_ONE, decFromWire, decToString, type Dec } from '../shared/dec.js';

export type MintParams = Params;

export const DEFAULT_BLOCKS_PER_YEAR = 6_311_520n;
export const DEFAULT_START_HEIGHT = 51_840n;
/** 0.000000013654032124 on the wire (LegacyDec × 10^18). */
export const DEFAULT_INFLATION_WIRE = '13654032124';

export function defaultMintParams(denom: string): MintParams {
  return create(ParamsSchema, {
    mintDenom: denom,
    blocksPerYear: DEFAULT_BLOCKS_PER_YEAR,
    startHeight: DEFAULT_START_HEIGHT,
    inflation: DEFAULT_INFLATION_WIRE,
    additionalAllocations: [],
  });
}

/** A decimal between 0 and 1 from its wire text, or the problem with it. */
function rate(wire: string, what: string): { value: Dec } | { error: string } {
  const value = decFromWire(wire);
  if (value === undefined) return { error: `${what} is not a decimal: ${wire}` };
  if (value < 0n) return { error: `${what} cannot be negative: ${decToString(value)}` };
  if (value > DEC_ONE) return { error: `${what} cannot be greater than 1: ${decToString(value)}` };
  return { value };
}

/**
 * Problems of a params value. `blocked`: addresses that may not receive allocations (module
 * accounts: paying them would bypass their own bookkeeping).
 */
export function validateMintParams(params: MintParams, blocked: (address: Uint8Array) => boolean = () => false): string[] {
  const problems: string[] = [];
  const badDenom = denomError(params.mintDenom);
  if (badDenom !== undefined) problems.push(`mint denom: ${badDenom}`);
  if (params.blocksPerYear === 0n) problems.push('blocks per year must be positive: 0');
  if (params.startHeight < 0n) problems.push(`start height cannot be negative: ${params.startHeight}`);
  const inflation = rate(params.inflation, 'inflation');
  if ('error' in inflation) problems.push(inflation.error);
  let total = 0n;
  const seen = new Set<string>();
  for (const [i, allocation] of params.additionalAllocations.entries()) {
    const where = `additional allocation ${i}`;
    const parsed = parseAccAddress(allocation.address);
    if (!parsed.ok) {
      problems.push(`${where}: invalid address "${allocation.address}": ${parsed.error}`);
    } else {
      const canonical = accString(parsed.bytes);
      if (seen.has(canonical)) problems.push(`${where}: duplicate address ${canonical}`);
      seen.add(canonical);
      if (blocked(parsed.bytes)) problems.push(`${where}: ${canonical} is a module account and cannot receive allocations`);
    }
    const share = rate(allocation.rate, `${where}: rate`);
    if ('error' in share) problems.push(share.error);
    else total += share.value;
  }
  if (total > DEC_ONE) problems.push(`additional allocation rates add up to ${decToString(total)}, more than 1`);
  return problems;
}

/** The per-block rate of valid params. */
export function inflationOf(params: MintParams): Dec {
  return decFromWire(params.inflation) ?? 0n;
}
