/**
 * EVM parameters: defaults, validation, the fork in force at a height and the EIP-155 chain id.
 *
 * Chain id (Ethermint types/chain_id.go): a Cosmos chain id `name_N-V` (e.g. `aioz_168-1`) gives
 * N; any other chain id takes `chain_config.chain_id` from the genesis EVM params (tokend's
 * devnet uses "testnet" → 9000 by default).
 */
import { create } from '@bufbuild/protobuf';
import { ChainConfigSchema, ParamsSchema, type ChainConfig, type Params } from '../../../gen/ethermint/evm/v1/evm_pb.js';

export type EvmParams = Params;

export const DEFAULT_EIP155_CHAIN_ID = 9000n;

/**
 * Every fork active from genesis, through Cancun. Ethermint v0.22 leaves Shanghai and Cancun
 * unset; tokend activates them so that contracts from current compilers (PUSH0, MCOPY,
 * transient storage) run.
 */
export function defaultChainConfig(): ChainConfig {
  return create(ChainConfigSchema, {
    homesteadBlock: '0',
    daoForkBlock: '0',
    daoForkSupport: true,
    eip150Block: '0',
    eip150Hash: '0x0000000000000000000000000000000000000000000000000000000000000000',
    eip155Block: '0',
    eip158Block: '0',
    byzantiumBlock: '0',
    constantinopleBlock: '0',
    petersburgBlock: '0',
    istanbulBlock: '0',
    muirGlacierBlock: '0',
    berlinBlock: '0',
    londonBlock: '0',
    arrowGlacierBlock: '0',
    grayGlacierBlock: '0',
    mergeNetsplitBlock: '0',
    shanghaiBlock: '0',
    cancunBlock: '0',
    chainId: DEFAULT_EIP155_CHAIN_ID,
  });
}

export function defaultEvmParams(denom = 'attotoken'): EvmParams {
  return create(ParamsSchema, { evmDenom: denom, enableCreate: true, enableCall: true, extraEips: [], chainConfig: defaultChainConfig(), allowUnprotectedTxs: false });
}

/** @ethereumjs hardfork names (its Hardfork enum's values). */
const Hardfork = {
  Chainstart: 'chainstart',
  Homestead: 'homestead',
  Dao: 'dao',
  TangerineWhistle: 'tangerineWhistle',
  SpuriousDragon: 'spuriousDragon',
  Byzantium: 'byzantium',
  Constantinople: 'constantinople',
  Petersburg: 'petersburg',
  Istanbul: 'istanbul',
  MuirGlacier: 'muirGlacier',
  Berlin: 'berlin',
  London: 'london',
  ArrowGlacier: 'arrowGlacier',
  GrayGlacier: 'grayGlacier',
  Paris: 'paris',
  Shanghai: 'shanghai',
  Cancun: 'cancun',
} as const;

/** Fork fields in activation order with the @ethereumjs hardfork each one switches on. */
const FORKS: readonly [keyof ChainConfig, string, string][] = [
  ['homesteadBlock', 'homestead_block', Hardfork.Homestead],
  ['daoForkBlock', 'dao_fork_block', Hardfork.Dao],
  ['eip150Block', 'eip150_block', Hardfork.TangerineWhistle],
  ['eip158Block', 'eip158_block', Hardfork.SpuriousDragon],
  ['byzantiumBlock', 'byzantium_block', Hardfork.Byzantium],
  ['constantinopleBlock', 'constantinople_block', Hardfork.Constantinople],
  ['petersburgBlock', 'petersburg_block', Hardfork.Petersburg],
  ['istanbulBlock', 'istanbul_block', Hardfork.Istanbul],
  ['muirGlacierBlock', 'muir_glacier_block', Hardfork.MuirGlacier],
  ['berlinBlock', 'berlin_block', Hardfork.Berlin],
  ['londonBlock', 'london_block', Hardfork.London],
  ['arrowGlacierBlock', 'arrow_glacier_block', Hardfork.ArrowGlacier],
  ['grayGlacierBlock', 'gray_glacier_block', Hardfork.GrayGlacier],
  ['mergeNetsplitBlock', 'merge_netsplit_block', Hardfork.Paris],
  ['shanghaiBlock', 'shanghai_block', Hardfork.Shanghai],
  ['cancunBlock', 'cancun_block', Hardfork.Cancun],
];

function forkHeight(config: ChainConfig, field: keyof ChainConfig): bigint | undefined {
  const value = config[field];
  if (typeof value !== 'string' || value === '') return undefined;
  return BigInt(value);
}

/**
 * The fork heights of a chain config, parsed once per config object (decoded params are shared
 * and never modified: collections' `shared` decoding), in FORKS order without the DAO fork.
 */
const parsedForks = new WeakMap<ChainConfig, readonly (readonly [bigint | undefined, string])[]>();

function forkHeights(config: ChainConfig): readonly (readonly [bigint | undefined, string])[] {
  let heights = parsedForks.get(config);
  if (heights === undefined) {
    heights = FORKS.filter(([field]) => field !== 'daoForkBlock').map(([field, , name]) => [forkHeight(config, field), name] as const);
    parsedForks.set(config, heights);
  }
  return heights;
}

/** The latest fork active at `height` (Chainstart when none is). */
export function hardforkAt(config: ChainConfig | undefined, height: bigint): string {
  let fork: string = Hardfork.Chainstart;
  if (config === undefined) return fork;
  for (const [at, name] of forkHeights(config)) {
    if (at !== undefined && at <= height) fork = name;
  }
  return fork;
}

/** True when London (EIP-1559) is active at `height`. */
export function isLondon(config: ChainConfig | undefined, height: bigint): boolean {
  const at = config === undefined ? undefined : forkHeight(config, 'londonBlock');
  return at !== undefined && at <= height;
}

const ETHERMINT_CHAIN_ID = /^([a-z]{1,})_([1-9][0-9]*)-([1-9][0-9]*)$/;

/** The EIP-155 chain id: N of `name_N-V`, else the params' chain_config.chain_id. */
export function eip155ChainId(cosmosChainId: string, params: EvmParams | undefined): bigint {
  let parsed = parsedChainIds.get(cosmosChainId);
  if (parsed === undefined) {
    const match = ETHERMINT_CHAIN_ID.exec(cosmosChainId);
    parsed = match === null ? null : BigInt(match[2]!);
    if (parsedChainIds.size >= 64) parsedChainIds.clear();
    parsedChainIds.set(cosmosChainId, parsed);
  }
  if (parsed !== null) return parsed;
  return params?.chainConfig?.chainId || DEFAULT_EIP155_CHAIN_ID;
}

/** N of `name_N-V` chain ids seen (null: not of that form); a process serves one or a few. */
const parsedChainIds = new Map<string, bigint | null>();

/** Problems of a parameter set, one line each. */
export function validateEvmParams(params: EvmParams): string[] {
  const problems: string[] = [];
  if (!/^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/.test(params.evmDenom)) problems.push(`invalid denom: ${params.evmDenom}`);
  const config = params.chainConfig;
  if (config === undefined) {
    problems.push('chain_config is required');
    return problems;
  }
  let previous: bigint | undefined;
  let previousName = '';
  for (const [field, name] of FORKS) {
    const value = config[field];
    if (typeof value === 'string' && value !== '') {
      if (!/^[0-9]+$/.test(value)) {
        problems.push(`invalid ${name}: "${value}" is not a non-negative integer`);
        continue;
      }
    }
    if (field === 'daoForkBlock' || field === 'muirGlacierBlock' || field === 'arrowGlacierBlock' || field === 'grayGlacierBlock' || field === 'mergeNetsplitBlock') continue;
    const at = forkHeight(config, field);
    if (at === undefined) continue;
    if (previous !== undefined && at < previous) problems.push(`invalid chain config: ${name} ${at} is before ${previousName} ${previous}`);
    previous = at;
    previousName = name;
  }
  for (const eip of params.extraEips) if (eip <= 0n) problems.push(`invalid extra EIP ${eip}`);
  return problems;
}
