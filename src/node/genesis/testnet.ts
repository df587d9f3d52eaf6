/**
 * `testnet init-files` (the SDK's initTestnetFiles): N validator homes under one output
 * directory, each with its own validator key, node key and funded account key (test keyring,
 * mnemonic in key_seed.json), one shared genesis built from every node's gentx, and config files
 * that let the nodes find each other on one machine: distinct ports per node and
 * `persistent_peers` listing every other node. As in the SDK, strict address routability is off
 * and several peers may share an IP.
 *
 * Ports of node i (base = --base-port, default 26656): p2p base+10i, RPC base+1+10i, REST
 * base+2+10i, gRPC base+3+10i, JSON-RPC base+4+10i (websocket base+5+10i), metrics base+6+10i.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { TokendError } from '../../util/errors.js';
import { toAccountAddress } from '../../keyring/address.js';
import { buildHdPath, generateMnemonic } from '../../keyring/hd.js';
import { openKeyring, parseKeyringBackend } from '../../keyring/open.js';
import type { KeyringBackendName } from '../../keyring/types.js';
import { appTomlPath, configTomlPath, loadAppConfig, loadNodeConfig, renderAppToml, renderConfigToml } from '../config/node.js';
import { defaultGenesisPath, readGenesisJson, writeGenesisJson } from './file.js';
import { addGenesisAccountToFile, collectGentxsIntoFile, createGentx, initHome } from './setup.js';

export const TESTNET_DENOM = 'attotoken';
/** Each validator's account: 1,000,000,000 token. */
const ACCOUNT_FUNDS = 10n ** 27n;
/** Each validator's self-delegation: 1,000,000 token. */
const SELF_DELEGATION = 10n ** 24n;
const PORTS_PER_NODE = 10;

export interface TestnetOptions {
  outputDir: string;
  validators: number;
  chainId?: string;
  startingIpAddress: string;
  nodeDirPrefix: string;
  nodeDaemonHome: string;
  keyringBackend: KeyringBackendName;
  minimumGasPrices: string;
  basePort: number;
}

export interface TestnetNode {
  moniker: string;
  home: string;
  node_id: string;
  validator_address: string;
  account_address: string;
  p2p: string;
  rpc: string;
  api: string;
  grpc: string;
}

export interface TestnetResult {
  chain_id: string;
  output_dir: string;
  nodes: TestnetNode[];
}

export function nodePorts(basePort: number, index: number): { p2p: number; rpc: number; api: number; grpc: number; jsonRpc: number; jsonRpcWs: number; metrics: number } {
  const base = basePort + PORTS_PER_NODE * index;
  return { p2p: base, rpc: base + 1, api: base + 2, grpc: base + 3, jsonRpc: base + 4, jsonRpcWs: base + 5, metrics: base + 6 };
}

/** The i-th address counting up from `start` (calculateIP). */
export function testnetIp(start: string, index: number): string {
  if (isIP(start) !== 4) throw new TokendError('INVALID_ARGUMENT', `--starting-ip-address ${start}: non ipv4 address`);
  const parts = start.split('.').map(Number);
  parts[3]! += index;
  if (parts[3]! > 255) throw new TokendError('INVALID_ARGUMENT', `--starting-ip-address ${start}: not enough addresses for ${index + 1} nodes`);
  return parts.join('.');
}

function randomChainId(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let s = 'chain-';
  for (let i = 0; i < 6; i++) s += letters[Math.floor(Math.random() * letters.length)];
  return s;
}

export async function initTestnetFiles(options: TestnetOptions): Promise<TestnetResult> {
  const n = options.validators;
  if (!Number.isInteger(n) || n < 1) throw new TokendError('INVALID_ARGUMENT', `--v must be at least 1, got ${n}`);
  const maxPort = nodePorts(options.basePort, n - 1).metrics;
  if (options.basePort < 1 || maxPort > 65535) throw new TokendError('INVALID_ARGUMENT', `--base-port ${options.basePort} leaves no room for ${n} nodes (ports up to ${maxPort})`);
  parseKeyringBackend(options.keyringBackend);
  const chainId = options.chainId ?? randomChainId();
  const homes = Array.from({ length: n }, (_, i) => join(options.outputDir, `${options.nodeDirPrefix}${i}`, options.nodeDaemonHome));
  for (const home of homes) {
    if (existsSync(defaultGenesisPath(home))) throw new TokendError('ALREADY_EXISTS', `${home} already holds a node`, { hint: 'choose another --output-dir or remove it first' });
  }
  const ips = homes.map((_, i) => testnetIp(options.startingIpAddress, options.startingIpAddress.startsWith('127.') ? 0 : i));
  const created: string[] = [];
  try {
    // 1. Homes, keys and accounts.
    const nodes: TestnetNode[] = [];
    const keyAddresses: Uint8Array[] = [];
    for (let i = 0; i < n; i++) {
      const home = homes[i]!;
      const moniker = `${options.nodeDirPrefix}${i}`;
      created.push(join(options.outputDir, moniker));
      const init = initHome({ home, moniker, chainId, denom: TESTNET_DENOM, overwrite: false, clientConfig: { 'keyring-backend': options.keyringBackend } });
      const keyring = await openKeyring({ backend: options.keyringBackend, home });
      const mnemonic = generateMnemonic(24);
      const key = await keyring.create({ name: moniker, mnemonic, algo: 'eth_secp256k1', hdPath: buildHdPath({ algo: 'eth_secp256k1' }) });
      writeFileSync(join(home, 'key_seed.json'), `${JSON.stringify({ secret: mnemonic })}\n`, { mode: 0o600 });
      keyAddresses.push(key.address);
      const ports = nodePorts(options.basePort, i);
      nodes.push({
        moniker,
        home,
        node_id: init.node_id,
        validator_address: init.validator_address,
        account_address: toAccountAddress(key.address),
        p2p: `${init.node_id}@${ips[i]}:${ports.p2p}`,
        rpc: `tcp://${ips[i]}:${ports.rpc}`,
        api: `tcp://${ips[i]}:${ports.api}`,
        grpc: `${ips[i]}:${ports.grpc}`,
      });
    }
    // 2. One genesis with every account, in every home (each gentx checks its own home's).
    for (const address of keyAddresses) addGenesisAccountToFile(homes[0]!, address, [{ denom: TESTNET_DENOM, amount: ACCOUNT_FUNDS }]);
    const withAccounts = readFileSync(defaultGenesisPath(homes[0]!), 'utf8');
    for (const home of homes.slice(1)) writeFileSync(defaultGenesisPath(home), withAccounts);
    // 3. A gentx per validator into output-dir/gentxs, collected into one genesis.
    const gentxDir = join(options.outputDir, 'gentxs');
    mkdirSync(gentxDir, { recursive: true });
    created.push(gentxDir);
    for (let i = 0; i < n; i++) {
      const keyring = await openKeyring({ backend: options.keyringBackend, home: homes[i]! });
      await createGentx({
        home: homes[i]!,
        keyring,
        keyName: nodes[i]!.moniker,
        amount: { denom: TESTNET_DENOM, amount: SELF_DELEGATION },
        chainId,
        commissionRate: '0.1',
        commissionMaxRate: '0.2',
        commissionMaxChangeRate: '0.01',
        minSelfDelegation: '1',
        ip: ips[i],
        p2pPort: nodePorts(options.basePort, i).p2p,
        outputDocument: join(gentxDir, `${nodes[i]!.moniker}.json`),
      });
    }
    collectGentxsIntoFile(homes[0]!, gentxDir);
    const genesis = readGenesisJson(defaultGenesisPath(homes[0]!));
    genesis.genesis_time = new Date().toISOString();
    for (const home of homes) writeGenesisJson(defaultGenesisPath(home), genesis);
    // 4. Ports and peers.
    for (let i = 0; i < n; i++) {
      const home = homes[i]!;
      const ports = nodePorts(options.basePort, i);
      const config = loadNodeConfig(home);
      config.rpc.laddr = `tcp://${ips[i]}:${ports.rpc}`;
      config.p2p.laddr = `tcp://${ips[i]}:${ports.p2p}`;
      config.p2p.persistentPeers = nodes.filter((_, j) => j !== i).map((node) => node.p2p).join(',');
      config.p2p.addrBookStrict = false;
      config.p2p.allowDuplicateIp = true;
      config.instrumentation.prometheusListenAddr = `${ips[i]}:${ports.metrics}`;
      writeFileSync(configTomlPath(home), renderConfigToml(config));
      const app = loadAppConfig(home);
      app.minimumGasPrices = options.minimumGasPrices;
      app.api.address = `tcp://${ips[i]}:${ports.api}`;
      app.grpc.address = `${ips[i]}:${ports.grpc}`;
      app.jsonRpc.address = `${ips[i]}:${ports.jsonRpc}`;
      app.jsonRpc.wsAddress = `${ips[i]}:${ports.jsonRpcWs}`;
      writeFileSync(appTomlPath(home), renderAppToml(app));
    }
    return { chain_id: chainId, output_dir: options.outputDir, nodes };
  } catch (err) {
    // Nothing half-written is left behind.
    for (const dir of created) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
