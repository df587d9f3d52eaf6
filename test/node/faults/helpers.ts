/** A devnet node in-process on loopback ports with fast blocks, for the operating-under-faults tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDevnet } from '../../../src/node/genesis/devnet.js';
import { startNode, type NodeOverrides, type RunningNode } from '../../../src/node/node.js';
import { nullLogger, type LogContext, type Logger } from '../../../src/node/logger.js';

export async function devnetHome(label: string, cleanup: string[]): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), `tokend-${label}-`));
  cleanup.push(home);
  await ensureDevnet(home);
  return home;
}

export function removeHomes(homes: string[]): void {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
}

export async function startFast(home: string, overrides: NodeOverrides = {}): Promise<RunningNode> {
  return startNode(home, {
    logger: nullLogger,
    rpcLaddr: 'tcp://127.0.0.1:0',
    apiAddress: 'tcp://127.0.0.1:0',
    grpcAddress: '127.0.0.1:0',
    p2pLaddr: 'tcp://127.0.0.1:0',
    jsonRpcAddress: '127.0.0.1:0',
    jsonRpcWsAddress: '127.0.0.1:0',
    ...overrides,
    nodeConfig: (c) => {
      c.consensus.timeoutCommitMs = 100;
      c.consensus.timeoutProposeMs = 1000;
      overrides.nodeConfig?.(c);
    },
  });
}

export async function waitFor(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A logger that keeps every line (level, message, context). */
export class CapturingLogger implements Logger {
  readonly lines: { level: string; msg: string; ctx?: LogContext }[] = [];
  trace(msg: string, ctx?: LogContext): void {
    this.lines.push({ level: 'trace', msg, ctx });
  }
  debug(msg: string, ctx?: LogContext): void {
    this.lines.push({ level: 'debug', msg, ctx });
  }
  info(msg: string, ctx?: LogContext): void {
    this.lines.push({ level: 'info', msg, ctx });
  }
  warn(msg: string, ctx?: LogContext): void {
    this.lines.push({ level: 'warn', msg, ctx });
  }
  error(msg: string, ctx?: LogContext): void {
    this.lines.push({ level: 'error', msg, ctx });
  }
  errors(): string[] {
    return this.lines.filter((l) => l.level === 'error').map((l) => `${l.msg} ${JSON.stringify(l.ctx ?? {})}`);
  }
}
