/**
 * The fast path of the query commands scripts call in loops — `query bank balances ADDR`,
 * `query txs …`, `query tx HASH` and `query account ADDR` — run without the command framework
 * (oclif, its manifest and plugins cost more than the query itself). bin/run.js tries it first; it handles only the plain, well-formed forms
 * and answers "not mine" (false) for anything else — --help, --trace, an unknown or repeated
 * flag, a malformed value, a missing or extra argument — so that oclif runs the command and
 * prints its usual help or usage error. Results and failures print exactly as the oclif command
 * prints them (the same code: queries.ts for the work, output.ts for the printing).
 */
import type { RpcClient } from '../node/client/rpc.js';
import type { OutputFormat } from '../node/config/client.js';
import type { TxLookup } from './queries.js';
import { isTokendError } from '../util/errors.js';
import { cleanOclifMessage, defaultRenderText, outputFromArgv, writeError, writeResult } from './output.js';

type FlagKind = 'string' | 'boolean' | { int: number } | { options: readonly string[] };

/** Flags every command has (base.ts' baseFlags, without --trace: that one goes to oclif). */
const BASE_FLAGS: Record<string, FlagKind> = {
  output: { options: ['text', 'json'] },
  home: 'string',
  log_level: { options: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'panic'] },
  log_format: { options: ['json', 'plain'] },
  node: 'string',
};

const PAGINATION_FLAGS: Record<string, FlagKind> = {
  'page-key': 'string',
  offset: { int: 0 },
  limit: { int: 1 },
  'count-total': 'boolean',
  reverse: 'boolean',
  page: { int: 1 },
};

interface FastCommand {
  words: string[];
  args: number;
  flags: Record<string, FlagKind>;
  run(rpc: () => Promise<RpcClient>, args: string[], flags: Record<string, string | number | boolean>): Promise<unknown>;
}

const COMMANDS: FastCommand[] = [
  {
    words: ['query', 'bank', 'balances'],
    args: 1,
    flags: { ...BASE_FLAGS, height: { int: 0 }, ...PAGINATION_FLAGS, denom: 'string', 'resolve-denom': 'boolean' },
    async run(rpc, args, flags) {
      const { queryBankBalances } = await import('./queries.js');
      return queryBankBalances(rpc, { ...flags, address: args[0]! });
    },
  },
  {
    words: ['query', 'txs'],
    args: 0,
    flags: { ...BASE_FLAGS, events: 'string', query: 'string', page: { int: 1 }, limit: { int: 1 }, order_by: { options: ['asc', 'desc'] } },
    async run(rpc, _args, flags) {
      const { searchTxs } = await import('./queries.js');
      return searchTxs(rpc, {
        events: flags.events as string | undefined,
        query: flags.query as string | undefined,
        page: (flags.page as number | undefined) ?? 1,
        limit: (flags.limit as number | undefined) ?? 30,
        order_by: (flags.order_by as 'asc' | 'desc' | undefined) ?? 'asc',
      });
    },
  },
  {
    words: ['query', 'tx'],
    args: 1,
    flags: { ...BASE_FLAGS, type: { options: ['hash', 'acc_seq', 'signature'] } },
    async run(rpc, args, flags) {
      const { queryTx } = await import('./queries.js');
      return queryTx(rpc, args[0]!, (flags.type as TxLookup | undefined) ?? 'hash');
    },
  },
  {
    words: ['query', 'account'],
    args: 1,
    flags: { ...BASE_FLAGS, height: { int: 0 } },
    async run(rpc, args, flags) {
      const { queryAccount } = await import('./queries.js');
      return queryAccount(rpc, { address: args[0]!, height: flags.height as number | undefined });
    },
  },
];

/** Parse `rest` against `command`'s flags; undefined when anything is not the plain form. */
export function parseFast(command: Pick<FastCommand, 'args' | 'flags'>, rest: readonly string[]): { args: string[]; flags: Record<string, string | number | boolean> } | undefined {
  const args: string[] = [];
  const flags: Record<string, string | number | boolean> = {};
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i]!;
    if (!token.startsWith('-') || token === '-') {
      args.push(token);
      continue;
    }
    let name: string;
    let value: string | undefined;
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      name = eq < 0 ? token.slice(2) : token.slice(2, eq);
      value = eq < 0 ? undefined : token.slice(eq + 1);
    } else if (token.startsWith('-o') && token[2] !== '=') {
      name = 'output';
      value = token.length > 2 ? token.slice(2) : undefined;
    } else {
      return undefined;
    }
    const kind = command.flags[name];
    if (kind === undefined || name in flags) return undefined;
    if (kind === 'boolean') {
      if (value !== undefined) return undefined;
      flags[name] = true;
      continue;
    }
    if (value === undefined) {
      value = rest[++i];
      if (value === undefined || value.startsWith('-')) return undefined;
    }
    if (value === '') return undefined;
    if (kind === 'string') flags[name] = value;
    else if ('int' in kind) {
      if (!/^(0|[1-9][0-9]{0,14})$/.test(value) || Number(value) < kind.int) return undefined;
      flags[name] = Number(value);
    } else {
      if (!kind.options.includes(value)) return undefined;
      flags[name] = value;
    }
  }
  if (args.length !== command.args) return undefined;
  return { args, flags };
}

/** Run argv (without node and the script) on the fast path; false when it is not one of its forms. */
export async function runFast(argv: readonly string[]): Promise<boolean> {
  const command = COMMANDS.find((c) => c.words.every((word, i) => argv[i] === word));
  if (!command) return false;
  const parsed = parseFast(command, argv.slice(command.words.length));
  if (!parsed) return false;
  const { flags, args } = parsed;
  let format: OutputFormat = outputFromArgv(argv) ?? 'text';
  let client: RpcClient | undefined;
  try {
    const { resolveHome } = await import('../node/config/home.js');
    const { resolveClientConfig } = await import('../node/config/client.js');
    const home = resolveHome(flags.home as string | undefined);
    // client.toml is read once: the output format and the node both come from it.
    const clientConfig = resolveClientConfig(home, { node: flags.node as string | undefined });
    format = (flags.output as OutputFormat | undefined) ?? clientConfig.output;
    const rpc = async (): Promise<RpcClient> => {
      if (!client) {
        const { RpcClient: Client } = await import('../node/client/rpc.js');
        client = new Client(clientConfig.node);
      }
      return client;
    };
    const result = await command.run(rpc, args, flags);
    await writeResult(
      format,
      () => result,
      () => defaultRenderText(result),
    );
  } catch (caught) {
    const err = caught as Error & { exitCode?: number };
    const exitCode = isTokendError(err) ? err.exitCode : (err.exitCode ?? 1);
    writeError(err, isTokendError(err) ? err.line : cleanOclifMessage(err.message), exitCode, format, false);
  } finally {
    await client?.close().catch(() => undefined);
  }
  return true;
}
