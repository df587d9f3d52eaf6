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
  /** http://127.0.0.1:<port> of the Ethereum JSON-RPC, when the start knows it (startOnFreePorts). */
  jsonRpc?: string;
  /** ws://127.0.0.1:<port> of its websocket, likewise. */
  jsonRpcWs?: string;
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
  return { ...spawnNode(args), node: `tcp://127.0.0.1:${port}`, api: `http://127.0.0.1:${apiPort}`, grpc: `127.0.0.1:${grpcPort}` };
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
 * Wait until a node started by `startBackground` or `startOnFreePorts` reaches `height`; if its process exits first,
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

/** `tokend start` with these arguments in the background, its output collected. */
/** `node <args>`; with `nofile`, through `sh -c 'ulimit -n <nofile> && exec node …'`. */
function spawnNode(args: string[], nofile?: number): Pick<BackgroundNode, 'child' | 'logs' | 'exited'> {
  const quoted = [process.execPath, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child =
    nofile === undefined
      ? spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('sh', ['-c', `ulimit -n ${nofile} && exec ${quoted}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  child.stdout!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, logs: () => logs, exited };
}

/**
 * The fields of the first log line whose message is `msg`, in either log format: plain
 * (`… INF <msg> key=value …`, values that are addresses logged without quotes) or JSON.
 */
function logLine(logs: string, msg: string): Record<string, string> | undefined {
  for (const line of logs.split('\n')) {
    if (line.startsWith('{')) {
      try {
        const record = JSON.parse(line) as Record<string, unknown>;
        if (record['msg'] === msg || record['message'] === msg) return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)]));
      } catch {
        // a partial line: not yet
      }
      continue;
    }
    const at = line.indexOf(` ${msg} `);
    if (at < 0 && !line.endsWith(` ${msg}`)) continue;
    const fields: Record<string, string> = {};
    for (const [, key, value] of line.slice(at + msg.length + 2).matchAll(/(\S+?)=(\S+)/g)) fields[key!] = value!;
    return fields;
  }
  return undefined;
}

/**
 * `tokend start` with every server on a port the kernel picks (unless `extra` sets its address),
 * without waiting for anything: for a start that is expected to fail, or to be waited on by the
 * caller. `nofile` runs it under `ulimit -n`.
 */
export function spawnOnFreePorts(home: string, extra: string[] = [], bin: string = BIN, nofile?: number): Pick<BackgroundNode, 'child' | 'logs' | 'exited'> {
  const unlessGiven = (flag: string, value: string): string[] => (extra.includes(flag) ? [] : [flag, value]);
  const args = [
    bin,
    'start',
    '--home',
    home,
    ...unlessGiven('--rpc.laddr', 'tcp://127.0.0.1:0'),
    ...unlessGiven('--api.address', 'tcp://127.0.0.1:0'),
    ...unlessGiven('--grpc.address', '127.0.0.1:0'),
    ...unlessGiven('--p2p.laddr', 'tcp://127.0.0.1:0'),
    ...unlessGiven('--json-rpc.address', '127.0.0.1:0'),
    ...unlessGiven('--json-rpc.ws-address', '127.0.0.1:0'),
    ...extra,
  ];
  return spawnNode(args, nofile);
}

/**
 * Start `tokend start` with every server it opens (RPC, REST, gRPC, p2p, Ethereum JSON-RPC and its
 * websocket) on a port the kernel picks when the server binds — unless `extra` sets that address —
 * and read the addresses from the node's own log once it says "node started". No port is chosen
 * ahead of the bind, so another process (a parallel test file, a CLI's outgoing connection) can
 * never take it in between. Then `waitForStart` to `height`; a node that exits or never starts
 * fails with the end of its log. `nofile` runs it under `ulimit -n`.
 */
export async function startOnFreePorts(home: string, height = 1, extra: string[] = [], timeoutMs = 30000, bin: string = BIN, nofile?: number): Promise<BackgroundNode> {
  const spawned = spawnOnFreePorts(home, extra, bin, nofile);
  let exitCode: number | null | undefined;
  void spawned.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  let started: Record<string, string> | undefined;
  while ((started = logLine(spawned.logs(), 'node started')) === undefined) {
    if (exitCode !== undefined || Date.now() > deadline) {
      if (exitCode === undefined) spawned.child.kill('SIGKILL');
      throw new Error(`tokend start ${exitCode !== undefined ? `exited with code ${exitCode}` : `did not start within ${timeoutMs} ms`}; its log ends:\n${spawned.logs().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const known = (value: string | undefined): string | undefined => (value === undefined || value === 'undefined' ? undefined : value);
  const rpc = known(started['rpc']);
  if (rpc === undefined) {
    spawned.child.kill('SIGKILL');
    throw new Error(`no rpc address in the node's "node started" line: ${JSON.stringify(started)}`);
  }
  const bg: BackgroundNode = {
    ...spawned,
    node: rpc.replace(/^http:\/\//, 'tcp://'),
    api: known(started['api']) ?? '',
    grpc: known(started['grpc']) ?? '',
    jsonRpc: known(logLine(spawned.logs(), 'Ethereum JSON-RPC listening')?.['address']),
    jsonRpcWs: known(logLine(spawned.logs(), 'Ethereum JSON-RPC websocket listening')?.['address']),
  };
  try {
    await waitForStart(bg, height, timeoutMs);
  } catch (err) {
    await stopNode(bg);
    throw err;
  }
  return bg;
}
