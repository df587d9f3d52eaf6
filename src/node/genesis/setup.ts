/**
 * The genesis flow as library functions: init a home, add genesis accounts, create and collect
 * gentxs, validate a genesis file. The CLI commands and `devnet` are thin shells over these.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { TokendError } from '../../util/errors.js';
import type { Keyring } from '../../keyring/types.js';
import { toAccountAddress, toValidatorOperatorAddress } from '../../keyring/address.js';
import { configDir, dataDir, ensureWritableDir } from '../config/home.js';
import { CLIENT_CONFIG_DEFAULTS, readClientConfigFile, writeClientConfigFile, type ClientConfig } from '../config/client.js';
import { appTomlPath, configTomlPath, defaultAppConfig, defaultNodeConfig, homePath, loadNodeConfig, renderAppToml, renderConfigToml, type NodeConfig } from '../config/node.js';
import { FilePV, loadNodeKey, loadOrGenerateNodeKey } from '../consensus/privval.js';
import { parseGenesisDoc } from '../consensus/types/genesis.js';
import { DENOM_PATTERN, formatCoins, type CoinAmount } from '../client/coins.js';
import { DEFAULT_GAS_LIMIT, signTx, txFromParts } from '../client/tx.js';
import { anyPack, legacyDecToWire, registry, toGatewayJson } from '../codec/index.js';
import { MsgCreateValidatorSchema } from '../../gen/cosmos/staking/v1beta1/tx_pb.js';
import { CommissionRatesSchema, DescriptionSchema } from '../../gen/cosmos/staking/v1beta1/staking_pb.js';
import { CoinSchema } from '../../gen/cosmos/base/v1beta1/coin_pb.js';
import { PubKeySchema as Ed25519PubKeySchema } from '../../gen/cosmos/crypto/ed25519/keys_pb.js';
import { TxSchema } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { addGenesisAccount, collectGentxs, defaultAppState, genesisBalance, validateAppState } from '../app/genesis.js';
import { defaultGenesisPath, newGenesis, readGenesisJson, writeGenesisJson } from './file.js';

export interface InitOptions {
  home: string;
  moniker: string;
  chainId: string;
  denom: string;
  overwrite: boolean;
  initialHeight?: number;
  /** Extra client.toml settings for a new home (devnet sets keyring-backend=test). */
  clientConfig?: Partial<ClientConfig>;
  /** Tweak the generated config.toml before it is written. */
  nodeConfig?: (config: NodeConfig) => void;
}

export interface InitResult {
  moniker: string;
  chain_id: string;
  node_id: string;
  validator_address: string;
  gentxs_dir: string;
  genesis_file: string;
}

export function initHome(options: InitOptions): InitResult {
  const { home, moniker, chainId, denom } = options;
  if (moniker.trim() === '') throw new TokendError('INVALID_ARGUMENT', 'the moniker must not be empty');
  if (!DENOM_PATTERN.test(denom)) {
    throw new TokendError('INVALID_ARGUMENT', `invalid denom "${denom}"`, { hint: 'a denom is 3–128 characters: a letter, then letters, digits or /:._-' });
  }
  const genesisPath = defaultGenesisPath(home);
  if (existsSync(genesisPath) && !options.overwrite) {
    throw new TokendError('ALREADY_EXISTS', `genesis.json file already exists: ${genesisPath}`, { hint: 'pass --overwrite to replace it, or use another --home' });
  }
  const appState = defaultAppState({ denom });
  const nodeConfig = defaultNodeConfig(moniker);
  options.nodeConfig?.(nodeConfig);
  ensureWritableDir(home);
  mkdirSync(configDir(home), { recursive: true, mode: 0o700 });
  mkdirSync(dataDir(home), { recursive: true, mode: 0o700 });
  mkdirSync(join(configDir(home), 'gentx'), { recursive: true });
  writeFileSync(configTomlPath(home), renderConfigToml(nodeConfig));
  writeFileSync(appTomlPath(home), renderAppToml(defaultAppConfig(denom)));
  writeClientConfigFile(home, { ...CLIENT_CONFIG_DEFAULTS, ...readClientConfigFile(home), ...options.clientConfig, 'chain-id': chainId });
  // Keep an existing validator key, as CometBFT's init does: overwriting genesis must not lose it.
  const pv = FilePV.loadOrGenerate(homePath(home, nodeConfig.privValidatorKeyFile), homePath(home, nodeConfig.privValidatorStateFile));
  const nodeKey = loadOrGenerateNodeKey(homePath(home, nodeConfig.nodeKeyFile));
  writeGenesisJson(genesisPath, newGenesis({ chainId, appState, initialHeight: options.initialHeight }));
  return {
    moniker,
    chain_id: chainId,
    node_id: nodeKey.id,
    validator_address: Buffer.from(pv.address).toString('hex').toUpperCase(),
    gentxs_dir: join(configDir(home), 'gentx'),
    genesis_file: genesisPath,
  };
}

export function addGenesisAccountToFile(home: string, address: Uint8Array, coins: CoinAmount[]): { address: string; coins: string; genesis_file: string } {
  const path = defaultGenesisPath(home);
  const genesis = readGenesisJson(path);
  genesis.app_state = addGenesisAccount(genesis.app_state, address, coins);
  writeGenesisJson(path, genesis);
  return { address: toAccountAddress(address), coins: formatCoins(coins), genesis_file: path };
}

export interface GentxOptions {
  home: string;
  keyring: Keyring;
  keyName: string;
  amount: CoinAmount;
  chainId?: string;
  moniker?: string;
  commissionRate: string;
  commissionMaxRate: string;
  commissionMaxChangeRate: string;
  minSelfDelegation: string;
  details?: string;
  identity?: string;
  website?: string;
  securityContact?: string;
  ip?: string;
  /** The node's p2p port in the memo (default 26656). */
  p2pPort?: number;
  outputDocument?: string;
}

export interface GentxResult {
  file: string;
  validator_address: string;
  delegator_address: string;
  amount: string;
  txhash: string;
}

const DEC_PATTERN = /^(0|[1-9]\d*)(\.\d{1,18})?$/;

function checkRate(name: string, value: string): void {
  if (!DEC_PATTERN.test(value) || Number(value) > 1) throw new TokendError('INVALID_ARGUMENT', `--${name} must be a decimal from 0 to 1, got "${value}"`);
}

export async function createGentx(options: GentxOptions): Promise<GentxResult> {
  const { home, amount } = options;
  checkRate('commission-rate', options.commissionRate);
  checkRate('commission-max-rate', options.commissionMaxRate);
  checkRate('commission-max-change-rate', options.commissionMaxChangeRate);
  if (Number(options.commissionRate) > Number(options.commissionMaxRate)) throw new TokendError('INVALID_ARGUMENT', '--commission-rate cannot be more than --commission-max-rate');
  if (Number(options.commissionMaxChangeRate) > Number(options.commissionMaxRate)) throw new TokendError('INVALID_ARGUMENT', '--commission-max-change-rate cannot be more than --commission-max-rate');
  if (!/^[1-9]\d*$/.test(options.minSelfDelegation)) throw new TokendError('INVALID_ARGUMENT', `--min-self-delegation must be a positive integer, got "${options.minSelfDelegation}"`);
  if (BigInt(options.minSelfDelegation) > amount.amount) throw new TokendError('INVALID_ARGUMENT', 'the self-delegation is below --min-self-delegation');

  const genesis = readGenesisJson(defaultGenesisPath(home));
  const chainId = options.chainId ?? genesis.chain_id;
  if (chainId !== genesis.chain_id) throw new TokendError('INVALID_ARGUMENT', `--chain-id ${chainId} does not match genesis.json's chain id ${genesis.chain_id}`);
  const nodeConfig = loadNodeConfig(home);
  const keyFile = homePath(home, nodeConfig.privValidatorKeyFile);
  if (!existsSync(keyFile)) throw new TokendError('NOT_FOUND', `validator key ${keyFile} not found`, { hint: 'run `tokend init <moniker>` first' });
  const pv = FilePV.load(keyFile, homePath(home, nodeConfig.privValidatorStateFile));
  const nodeKey = loadNodeKey(homePath(home, nodeConfig.nodeKeyFile));

  const key = await options.keyring.get(options.keyName);
  const balance = genesisBalance(genesis.app_state, key.address, amount.denom);
  if (balance < amount.amount) {
    throw new TokendError('INVALID_ARGUMENT', `account ${options.keyName} holds ${balance}${amount.denom} in genesis, less than the self-delegation ${formatCoins([amount])}`, {
      hint: 'fund it first with `tokend add-genesis-account`',
    });
  }
  const valoper = toValidatorOperatorAddress(key.address);
  const msg = create(MsgCreateValidatorSchema, {
    description: create(DescriptionSchema, {
      moniker: options.moniker ?? nodeConfig.moniker,
      identity: options.identity ?? '',
      website: options.website ?? '',
      securityContact: options.securityContact ?? '',
      details: options.details ?? '',
    }),
    commission: create(CommissionRatesSchema, {
      rate: legacyDecToWire(options.commissionRate),
      maxRate: legacyDecToWire(options.commissionMaxRate),
      maxChangeRate: legacyDecToWire(options.commissionMaxChangeRate),
    }),
    minSelfDelegation: options.minSelfDelegation,
    delegatorAddress: '',
    validatorAddress: valoper,
    pubkey: anyPack(Ed25519PubKeySchema, create(Ed25519PubKeySchema, { key: pv.pubKey.bytes })),
    value: create(CoinSchema, { denom: amount.denom, amount: amount.amount.toString() }),
  });
  const content = { messages: [anyPack(MsgCreateValidatorSchema, msg)], memo: `${nodeKey.id}@${options.ip ?? '127.0.0.1'}:${options.p2pPort ?? 26656}`, fee: [], gasLimit: DEFAULT_GAS_LIMIT };
  const signed = await signTx(options.keyring, key.name, content, { algo: key.algo, pubKey: key.pubKey, accountNumber: 0n, sequence: 0n }, chainId);
  const json = toGatewayJson(TxSchema, txFromParts(signed.parts, [signed.signature]), { registry });
  const file = options.outputDocument ?? join(configDir(home), 'gentx', `gentx-${nodeKey.id}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(json)}\n`);
  return {
    file,
    validator_address: valoper,
    delegator_address: toAccountAddress(key.address),
    amount: formatCoins([amount]),
    txhash: createHash('sha256').update(signed.txBytes).digest('hex').toUpperCase(),
  };
}

export function collectGentxsIntoFile(home: string, gentxDir?: string): { genesis_file: string; gentxs: string[] } {
  const dir = gentxDir ?? join(configDir(home), 'gentx');
  if (!existsSync(dir)) throw new TokendError('NOT_FOUND', `gentx directory ${dir} does not exist`, { hint: 'create gentxs with `tokend gentx` first' });
  const files = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  if (files.length === 0) throw new TokendError('NOT_FOUND', `no gentx files in ${dir}`, { hint: 'create one with `tokend gentx <key> <amount>`' });
  const gentxs = files.map((name) => {
    try {
      return JSON.parse(readFileSync(join(dir, name), 'utf8')) as unknown;
    } catch (err) {
      throw new TokendError('INVALID_GENESIS', `${join(dir, name)} is not valid JSON: ${(err as Error).message}`);
    }
  });
  const path = defaultGenesisPath(home);
  const genesis = readGenesisJson(path);
  genesis.app_state = collectGentxs(genesis.app_state, gentxs, genesis.chain_id);
  writeGenesisJson(path, genesis);
  return { genesis_file: path, gentxs: files.map((name) => join(dir, name)) };
}

/** Validate a genesis file: the consensus part and every module's app state. Returns the chain id. */
export function validateGenesisFile(file: string): { chainId: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new TokendError('NOT_FOUND', `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let chainId: string;
  try {
    chainId = parseGenesisDoc(text).chainId;
  } catch (err) {
    throw new TokendError('INVALID_GENESIS', `${file}: ${(err as Error).message}`);
  }
  const appState = (JSON.parse(text) as { app_state?: unknown }).app_state ?? {};
  const problems = validateAppState(appState, chainId);
  if (problems.length > 0) throw new TokendError('INVALID_GENESIS', `${file} is invalid: ${problems.join('; ')}`, { meta: { problems } });
  return { chainId };
}
