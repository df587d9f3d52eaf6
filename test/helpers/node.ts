/** Running the real binary as a node in the background, for end-to-end tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, runCli } from './cli.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Shorten consensus timeouts in config.toml, as an operator would by editing the file. */
export function fastBlocks(home: string, timeoutCommit = '200ms'): void {
  const path = join(home, 'config', 'config.toml');
  const text = readFileSync(path, 'utf8').replace(/^timeout_commit = .*$/m, `timeout_commit = "${timeoutCommit}"`).replace(/^timeout_propose = .*$/m, 'timeout_propose = "1s"');
  writeFileSync(path, text);
}

export interface BackgroundNode {
  child: ChildProcess;
  node: string;
  /** http://127.0.0.1:<port> of the REST gateway. */
  api: string;
  /** 127.0.0.1:<port> of gRPC. */
  grpc: string;
  logs(): string;
  exited: Promise<number | null>;
}

/**
 * Start `tokend start` on loopback ports: `port` for the RPC, and free ports for REST and gRPC;
 * `bin` runs another build (test/helpers/upgradeBuild.ts) instead of this checkout's.
 */
export async function startBackground(home: string, port: number, extra: string[] = [], bin: string = BIN): Promise<BackgroundNode> {
  const apiPort = await freePort();
  const grpcPort = await freePort();
  const jsonRpc = [
    ...(extra.includes('--json-rpc.address') ? [] : ['--json-rpc.address', `127.0.0.1:${await freePort()}`]),
    ...(extra.includes('--json-rpc.ws-address') ? [] : ['--json-rpc.ws-address', `127.0.0.1:${await freePort()}`]),
  ];
  // A free p2p port too (unless the test chooses one), so parallel test files never collide.
  const p2p = extra.includes('--p2p.laddr') ? [] : ['--p2p.laddr', 'tcp://127.0.0.1:0'];
  const args = [bin, 'start', '--home', home, '--rpc.laddr', `tcp://127.0.0.1:${port}`, '--api.address', `tcp://127.0.0.1:${apiPort}`, '--grpc.address', `127.0.0.1:${grpcPort}`, ...p2p, ...jsonRpc, ...extra];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  child.stdout!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, node: `tcp://127.0.0.1:${port}`, api: `http://127.0.0.1:${apiPort}`, grpc: `127.0.0.1:${grpcPort}`, logs: () => logs, exited };
}

export async function status(node: string): Promise<{ height: number; appHash: string; blockHash: string } | undefined> {
  const result = await runCli(['status', '--node', node, '-o', 'json'], { timeoutMs: 10000 });
  if (result.code !== 0) return undefined;
  const sync = JSON.parse(result.stdout).sync_info;
  return { height: Number(sync.latest_block_height), appHash: sync.latest_app_hash, blockHash: sync.latest_block_hash };
}

export async function waitForHeight(node: string, height: number, timeoutMs = 30000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await status(node);
    if (s && s.height >= height) return s.height;
    if (Date.now() > deadline) throw new Error(`node ${node} did not reach height ${height} (at ${s?.height ?? 'unreachable'})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function stopNode(bg: BackgroundNode, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (bg.child.exitCode !== null || bg.child.signalCode !== null) return bg.child.exitCode;
  bg.child.kill(signal);
  return bg.exited;
}
