/** Running the real binary as a node in the background, for end-to-end tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from './cli.js';

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
export async function startBackground(home: string, port: number, extra: string[] = [], bin: string = BIN, nodeArgs: string[] = []): Promise<BackgroundNode> {
  const apiPort = await freePort();
  const grpcPort = await freePort();
  const jsonRpc = [
    ...(extra.includes('--json-rpc.address') ? [] : ['--json-rpc.address', `127.0.0.1:${await freePort()}`]),
    ...(extra.includes('--json-rpc.ws-address') ? [] : ['--json-rpc.ws-address', `127.0.0.1:${await freePort()}`]),
  ];
  // A free p2p port too (unless the test chooses one), so parallel test files never collide.
  const p2p = extra.includes('--p2p.laddr') ? [] : ['--p2p.laddr', 'tcp://127.0.0.1:0'];
  const args = [...nodeArgs, bin, 'start', '--home', home, '--rpc.laddr', `tcp://127.0.0.1:${port}`, '--api.address', `tcp://127.0.0.1:${apiPort}`, '--grpc.address', `127.0.0.1:${grpcPort}`, ...p2p, ...jsonRpc, ...extra];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  child.stdout!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, node: `tcp://127.0.0.1:${port}`, api: `http://127.0.0.1:${apiPort}`, grpc: `127.0.0.1:${grpcPort}`, logs: () => logs, exited };
}

/** The RPC's http:// URL for a `--node` value (tcp://host:port). */
export function rpcUrl(node: string): string {
  return node.replace(/^tcp:\/\//, 'http://');
}

export interface NodeStatus {
  height: number;
  appHash: string;
  blockHash: string;
  /** latest_block_time in ms since the epoch. */
  time: number;
}

/**
 * The node's /status over HTTP (the RPC's GET form) — the helpers poll this instead of spawning
 * `tokend status` each time (a process start costs far more than the request on a loaded machine);
 * tests of the `status` command itself run the CLI. undefined while the node is unreachable.
 */
export async function status(node: string): Promise<NodeStatus | undefined> {
  try {
    const res = await fetch(`${rpcUrl(node)}/status`, { signal: AbortSignal.timeout(10000) });
    if (!res.ok) return undefined;
    const sync = ((await res.json()) as { result: { sync_info: Record<string, string> } }).result.sync_info;
    return { height: Number(sync.latest_block_height), appHash: sync.latest_app_hash!, blockHash: sync.latest_block_hash!, time: Date.parse(sync.latest_block_time!) };
  } catch {
    return undefined;
  }
}

/** Poll /status until `done` holds for it; throws with `what` and the last status after `timeoutMs`. */
export async function waitForStatus(node: string, done: (s: NodeStatus) => boolean, what: string, timeoutMs = 30000): Promise<NodeStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await status(node);
    if (s && done(s)) return s;
    if (Date.now() > deadline) throw new Error(`node ${node}: ${what} (at height ${s?.height ?? 'unreachable'})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function waitForHeight(node: string, height: number, timeoutMs = 30000): Promise<number> {
  return (await waitForStatus(node, (s) => s.height >= height, `did not reach height ${height}`, timeoutMs)).height;
}

/**
 * Wait until a node started by `startBackground` reaches `height`; if its process exits first,
 * fail at once with its exit code and the end of its log (a node that cannot start — a port taken,
 * a bad config — then says why instead of "unreachable" after the whole timeout).
 */
export async function waitForStart(bg: BackgroundNode, height = 1, timeoutMs = 30000): Promise<number> {
  const reached = waitForHeight(bg.node, height, timeoutMs);
  reached.catch(() => undefined);
  let first: { h: number } | { code: number | null };
  try {
    first = await Promise.race([reached.then((h) => ({ h })), bg.exited.then((code) => ({ code }))]);
  } catch (err) {
    throw new Error(`${(err as Error).message}; its log ends:\n${bg.logs().slice(-3000)}`);
  }
  if ('h' in first) return first.h;
  throw new Error(`node ${bg.node} exited with code ${first.code} before height ${height}; its log ends:\n${bg.logs().slice(-3000)}`);
}

/** Wait until the latest block's time is past `ms` (chain time, for expirations and periods). */
export async function waitForBlockTime(node: string, ms: number, timeoutMs = 60000): Promise<NodeStatus> {
  return waitForStatus(node, (s) => s.time > ms, `block time did not pass ${new Date(ms).toISOString()}`, timeoutMs);
}

/** Wait for the next block after the latest one now. */
export async function nextBlock(node: string, timeoutMs = 30000): Promise<number> {
  const now = (await waitForStatus(node, () => true, 'unreachable', timeoutMs)).height;
  return waitForHeight(node, now + 1, timeoutMs);
}

export async function stopNode(bg: BackgroundNode, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (bg.child.exitCode !== null || bg.child.signalCode !== null) return bg.child.exitCode;
  bg.child.kill(signal);
  return bg.exited;
}

/**
 * `startBackground` on a free RPC port and `waitForStart` to `height`. A port chosen free can be
 * taken by another process before the node binds it (the node then exits with EADDRINUSE): the
 * node is started again on fresh ports, up to three times. Any other failure is thrown at once.
 */
export async function startOnFreePorts(home: string, height = 1, extra: string[] = [], timeoutMs = 30000): Promise<BackgroundNode> {
  for (let attempt = 1; ; attempt++) {
    const bg = await startBackground(home, await freePort(), extra);
    try {
      await waitForStart(bg, height, timeoutMs);
      return bg;
    } catch (err) {
      const exited = bg.child.exitCode !== null || bg.child.signalCode !== null;
      if (!exited || attempt >= 3 || !/EADDRINUSE/.test(bg.logs())) {
        await stopNode(bg);
        throw err;
      }
    }
  }
}
