/** End-to-end: the built binary's global behaviour (output modes, errors, config, version). */
import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDevnet } from '../../src/node/genesis/devnet.js';
import { BIN, runCli, tempHome, snapshotTree } from '../helpers/cli.js';
import { waitForHeight } from '../helpers/node.js';

// Several CLI processes per test, one after another: a few seconds each on a loaded 2-core machine.
jest.setTimeout(120_000);

describe('tokend binary basics', () => {
  test('--help lists the command topics', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const topic of ['keys', 'config', 'version']) expect(result.stdout).toContain(topic);
  });

  test('version prints the package version; --long -o json the build facts', async () => {
    const short = await runCli(['version']);
    expect(short.code).toBe(0);
    expect(short.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const long = await runCli(['version', '--long', '-o', 'json']);
    const info = JSON.parse(long.stdout);
    expect(info).toMatchObject({ name: 'tokend', app_name: 'tokend', version: short.stdout.trim() });
    expect(info.node_version).toContain(process.version);
    expect(info.build_deps.map((dep: { path: string }) => dep.path)).toContain('@noble/curves');
  });

  test('config set/get round trip, then the value drives resolution', async () => {
    const home = tempHome();
    expect((await runCli(['config', 'node', 'remote.example:26657', '--home', home])).code).toBe(0);
    const get = await runCli(['config', 'node', '--home', home]);
    expect(get.stdout.trim()).toBe('tcp://remote.example:26657');
    const all = JSON.parse((await runCli(['config', '--home', home, '-o', 'json'])).stdout);
    expect(all).toMatchObject({ node: 'tcp://remote.example:26657', 'chain-id': 'testnet' });
    expect((await runCli(['config', 'chain-id', 'mychain_9000-1', '--home', home])).code).toBe(0);
    expect((await runCli(['config', 'trust-node', 'false', '--home', home])).code).toBe(0);
  });

  test('output format comes from client.toml when no flag is given', async () => {
    const home = tempHome();
    await runCli(['config', 'output', 'json', '--home', home]);
    const result = await runCli(['version', '--home', home]);
    expect(JSON.parse(result.stdout)).toHaveProperty('version');
  });

  test('unknown config key: one line, exit 1, nothing written', async () => {
    const home = tempHome();
    const before = snapshotTree(home);
    const result = await runCli(['config', 'nodex', 'x', '--home', home]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^Error: unknown config key "nodex"/);
    expect(snapshotTree(home)).toEqual(before);
  });

  test('JSON mode gives a JSON error; --trace adds the stack', async () => {
    const home = tempHome();
    const result = await runCli(['config', 'output', 'xml', '--home', home, '-o', 'json']);
    expect(result.code).toBe(1);
    const body = JSON.parse(result.stderr);
    expect(body).toMatchObject({ code: 'CONFIG_INVALID', exit_code: 1 });
    expect(body.error).toMatch(/invalid value "xml"/);
    const traced = await runCli(['config', 'output', 'xml', '--home', home, '--trace']);
    expect(traced.stderr).toMatch(/^Error: invalid value/);
    expect(traced.stderr).toContain('    at ');
  });

  test('unwritable home is one clear line', async () => {
    const file = join(tempHome(), 'a-file');
    writeFileSync(file, 'x');
    const result = await runCli(['config', 'node', 'localhost:1', '--home', join(file, 'home')]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^Error: cannot write to .*: a parent path is not a directory. choose a writable directory/);
  });

  test('an unknown flag is a usage error with exit code 2', async () => {
    const result = await runCli(['version', '--bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: Nonexistent flag: --bogus/);
  });

  test('NODE_ENV=development or test does not make a command load the TypeScript compiler', async () => {
    // A preload that reports, as the process exits, whether the `typescript` package was loaded.
    const probe = join(tempHome(), 'probe.cjs');
    writeFileSync(probe, "process.on('exit', () => { if (Object.keys(require.cache).some((k) => k.includes('/node_modules/typescript/'))) process.stderr.write('typescript loaded\\n'); });\n");
    const home = tempHome();
    for (const nodeEnv of ['development', 'test']) {
      const result = await runCli(['keys', 'list', '--keyring-backend', 'test', '--home', home], { env: { NODE_ENV: nodeEnv, NODE_OPTIONS: `--require ${probe}` } });
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain('typescript loaded');
    }
  });

  test("commands and help run on the build's one-file @oclif/core, not the package's files", async () => {
    // A preload that lists, as the process exits, the package's own files that were loaded
    // (index.js is where bin/run.js registers the bundled copy, so that path is expected).
    const probe = join(tempHome(), 'probe.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => { const own = Object.keys(require.cache).filter((k) => /node_modules\\/@oclif\\/core\\/lib\\/(?!index\\.js$)/.test(k)); process.stderr.write(`oclif files: ${own.length}\\n`); });\n",
    );
    const home = tempHome();
    for (const args of [['keys', 'list', '--keyring-backend', 'test', '--home', home], ['help', 'keys'], ['keys', '--help']]) {
      const result = await runCli(args, { env: { NODE_OPTIONS: `--require ${probe}` } });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('oclif files: 0');
    }
    // The help plugin's command extends the same Command class the commands do: its output is the real help.
    const help = await runCli(['help', 'keys']);
    expect(help.stdout).toContain('keys list');
  });

  test('devnet (what `npm start` runs) serves the chain of its home until SIGTERM, then exits 0', async () => {
    // The home made as the command's first run makes it, then moved to loopback ports the system
    // picks (its defaults are fixed ports and p2p on 0.0.0.0), as an operator edits the files.
    const home = tempHome('tokend-devnet-');
    const info = await ensureDevnet(home);
    const edit = (file: string, pairs: [RegExp, string][]): void => {
      let text = readFileSync(join(home, 'config', file), 'utf8');
      for (const [pattern, value] of pairs) text = text.replace(pattern, value);
      writeFileSync(join(home, 'config', file), text);
    };
    edit('config.toml', [
      [/^laddr = "tcp:\/\/127\.0\.0\.1:26657"$/m, 'laddr = "tcp://127.0.0.1:0"'],
      [/^laddr = "tcp:\/\/0\.0\.0\.0:26656"$/m, 'laddr = "tcp://127.0.0.1:0"'],
    ]);
    edit('app.toml', [
      [/^address = "tcp:\/\/localhost:1317"$/m, 'address = "tcp://127.0.0.1:0"'],
      [/^address = "localhost:9090"$/m, 'address = "127.0.0.1:0"'],
      [/^address = "127\.0\.0\.1:8545"$/m, 'address = "127.0.0.1:0"'],
      [/^ws-address = "127\.0\.0\.1:8546"$/m, 'ws-address = "127.0.0.1:0"'],
    ]);
    const child = spawn(process.execPath, [BIN, 'devnet', '--home', home, '--log_format', 'json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let logs = '';
    child.stdout.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let started: { rpc: string; api: string } | undefined;
      const deadline = Date.now() + 60_000;
      while (started === undefined) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`devnet did not start; its log ends:\n${logs.slice(-2000)}`);
        // Whole lines only: the last may still be arriving.
        started = logs
          .split('\n')
          .slice(0, -1)
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { msg: string; rpc: string; api: string })
          .find((line) => line.msg === 'node started');
        if (started === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The dev key holds the chain's funds, through the CLI and through REST.
      const node = started.rpc.replace(/^http:/, 'tcp:');
      await waitForHeight(node, 1);
      const balances = JSON.parse((await runCli(['q', 'bank', 'balances', info.key_address, '--node', node, '-o', 'json'])).stdout);
      expect(balances.balances).toEqual([{ denom: 'attotoken', amount: expect.stringMatching(/^[1-9][0-9]{20,}$/) }]);
      const rest = (await (await fetch(`${started.api}/cosmos/bank/v1beta1/balances/${info.key_address}`)).json()) as { balances: unknown };
      expect(rest.balances).toEqual(balances.balances);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
