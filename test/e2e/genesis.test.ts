/**
 * Bad genesis files, edited by hand as operators do: `validate-genesis` names the problem and
 * `start` refuses to run on them, each with one clear line and a non-zero exit.
 */
import { jest } from '@jest/globals';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempHome, cliOk as ok } from '../helpers/cli.js';

jest.setTimeout(120_000);

type Genesis = { app_state: any; chain_id: string };


describe('genesis validation', () => {
  let home: string;
  let valid: string;
  /** A freshly `init`ed home, copied for each `start` case (its genesis replaced). */
  let template: string;

  beforeAll(async () => {
    home = tempHome('tokend-genesis-');
    const h = ['--home', home];
    const kb = ['--keyring-backend', 'test'];
    template = tempHome('tokend-badstart-template-');
    await Promise.all([ok(['init', 'g', '--chain-id', 'testnet', ...h]), ok(['init', 'g', '--chain-id', 'testnet', '--home', template])]);
    await Promise.all([ok(['keys', 'add', 'alice', '--no-backup', ...kb, ...h]), ok(['keys', 'add', 'bob', '--no-backup', ...kb, ...h])]);
    await ok(['add-genesis-account', 'alice', '1000000000000000000000attotoken', ...kb, ...h]);
    await ok(['add-genesis-account', 'bob', '5000attotoken', ...kb, ...h]);
    await ok(['gentx', 'alice', '1000000000000000000attotoken', ...kb, ...h]);
    await ok(['collect-gentxs', ...h]);
    valid = readFileSync(join(home, 'config', 'genesis.json'), 'utf8');
  });

  const cases: [string, (g: Genesis) => void, RegExp][] = [
    ['an invalid address', (g) => (g.app_state.bank.balances[1].address = 'token1notanaddress'), /address/i],
    ['an invalid coin', (g) => (g.app_state.bank.balances[1].coins[0].amount = '-5'), /coin|amount/i],
    ['a duplicate account', (g) => g.app_state.bank.balances.push(structuredClone(g.app_state.bank.balances[1])), /duplicate/i],
    ['a supply that does not match balances', (g) => (g.app_state.bank.supply[0].amount = '1'), /supply/i],
    ['an unsigned gentx', (g) => (g.app_state.genutil.gen_txs[0].signatures = []), /gentx|signature/i],
    [
      'a mis-signed gentx',
      (g) => {
        const sig = Buffer.from(g.app_state.genutil.gen_txs[0].signatures[0], 'base64');
        sig[5] = sig[5]! ^ 0xff;
        g.app_state.genutil.gen_txs[0].signatures[0] = sig.toString('base64');
      },
      /signature|unauthorized/i,
    ],
    [
      'an underfunded gentx',
      (g) => {
        const alice = g.app_state.bank.balances.find((b: { coins: { amount: string }[] }) => BigInt(b.coins[0]!.amount) > 10n ** 18n);
        alice.coins[0].amount = '10';
        g.app_state.bank.supply[0].amount = String(10n + 5000n);
      },
      /insufficient|funds|balance/i,
    ],
  ];

  test('the untouched genesis is valid', async () => {
    expect(await ok(['validate-genesis', '--home', home])).toMatch(/valid genesis file/);
  });

  test.each(cases)('%s is rejected by validate-genesis and by start', async (_label, mutate, pattern) => {
    const genesis = JSON.parse(valid) as Genesis;
    mutate(genesis);
    const file = join(tempHome(), 'genesis.json');
    writeFileSync(file, JSON.stringify(genesis, null, 2));
    // start on a fresh node home (a copy of an `init`ed one) with this genesis, alongside validate-genesis
    const nodeHome = tempHome('tokend-badstart-');
    cpSync(template, nodeHome, { recursive: true });
    writeFileSync(join(nodeHome, 'config', 'genesis.json'), JSON.stringify(genesis));
    const [validated, started] = await Promise.all([
      runCli(['validate-genesis', file]),
      runCli(
        ['start', '--home', nodeHome, '--rpc.laddr', 'tcp://127.0.0.1:0', '--api.address', 'tcp://127.0.0.1:0', '--grpc.address', '127.0.0.1:0', '--json-rpc.address', '127.0.0.1:0', '--json-rpc.ws-address', '127.0.0.1:0'],
        { timeoutMs: 30000 },
      ),
    ]);
    expect(validated.code).toBe(1);
    expect(validated.stdout).toBe('');
    expect(validated.stderr.trim().split('\n')).toHaveLength(1);
    expect(validated.stderr).toMatch(pattern);

    expect(started.code).not.toBe(0);
    expect(started.stderr).toMatch(/^Error: /m);
    expect(started.stderr).toMatch(pattern);
  });
});
