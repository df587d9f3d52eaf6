/**
 * End-to-end, with the real binary, no node: the interchain accounts and icamauth commands exist
 * with ibc-go's / Gaia's names and argument order, and their bad input is one line on stderr, a
 * non-zero exit, and nothing written (a missing --connection-id, a msg that is neither JSON nor a
 * readable file, a packet data file that is not JSON, missing positional arguments).
 */
import { jest } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, snapshotTree, tempHome, cliOk as ok } from '../helpers/cli.js';
import { JUNK } from '../helpers/genesisTemplate.js';

jest.setTimeout(120_000);


describe('interchain accounts and icamauth on the command line', () => {
  test('the commands and their usage', async () => {
    const [icamauthQ, icamauthTx, icaQ, icaTx] = await Promise.all([
      runCli(['q', 'icamauth', '-h']),
      runCli(['tx', 'icamauth', '-h']),
      runCli(['q', 'interchain-accounts', '-h']),
      runCli(['tx', 'interchain-accounts', '-h']),
    ]);
    expect(icamauthQ.stdout).toMatch(/query icamauth interchainaccounts +\S/);
    expect(icamauthTx.stdout).toMatch(/tx icamauth register +\S/);
    expect(icamauthTx.stdout).toMatch(/tx icamauth submit +\S/);
    expect(icaQ.stdout).toMatch(/query interchain-accounts controller/);
    expect(icaQ.stdout).toMatch(/query interchain-accounts host/);
    expect(icaTx.stdout).toMatch(/tx interchain-accounts controller/);
    const usage = await runCli(['q', 'icamauth', 'interchainaccounts', '-h']);
    expect(usage.stdout).toContain('$ tokend query icamauth interchainaccounts CONNECTION_ID OWNER');
    const controller = await runCli(['q', 'interchain-accounts', 'controller', 'interchain-account', '-h']);
    expect(controller.stdout).toContain('$ tokend query interchain-accounts controller interchain-account OWNER CONNECTION_ID');
  });

  test('bad input: one line, non-zero exit, nothing written', async () => {
    const home = tempHome();
    await ok(['keys', 'add', 'alice', '--recover', '--keyring-backend', 'test', '--home', home], JUNK);
    const notJson = join(home, 'packet.txt');
    writeFileSync(notJson, 'type: execute');
    const before = snapshotTree(home);
    const tx = ['--from', 'alice', '--keyring-backend', 'test', '--yes', '--home', home];
    const cases: [string[], RegExp][] = [
      [['tx', 'icamauth', 'register', ...tx], /^Error: .*connection-id/],
      [['tx', 'icamauth', 'submit', join(home, 'missing.json'), '--connection-id', 'connection-0', ...tx], /^Error: .*neither JSON input nor path to \.json file for sdk msg were provided/],
      [['tx', 'icamauth', 'submit', notJson, '--connection-id', 'connection-0', ...tx], /^Error: .*neither JSON input nor path to \.json file for sdk msg were provided|^Error: .*error unmarshalling sdk msg file/],
      [['tx', 'interchain-accounts', 'controller', 'send-tx', 'connection-0', notJson, ...tx], /^Error: .*packet data file .* is not JSON/],
      [['q', 'icamauth', 'interchainaccounts', 'connection-0', '--home', home], /^Error: missing argument <owner>/],
      [['q', 'interchain-accounts', 'controller', 'interchain-account', '--home', home], /^Error: missing arguments <owner> .*, <connection_id> /],
    ];
    for (const [args, expected] of cases) {
      const result = await runCli(args);
      expect({ args, code: result.code === 0, stdout: result.stdout, lines: result.stderr.trim().split('\n').length }).toEqual({ args, code: false, stdout: '', lines: 1 });
      expect(result.stderr.trim()).toMatch(expected);
    }
    expect(snapshotTree(home)).toEqual(before);
  });
});
