/**
 * End-to-end, with the real binary: the commands derived from the staking Query and Msg services
 * against a node the test starts (every staking query; delegate/redelegate/unbond build, sign and
 * broadcast the right message, which the node refuses cleanly until staking has delegation
 * handlers), `-h` as `--help` everywhere, and the bad input of the derived CLI (unknown subcommand,
 * missing positional argument): one line, exit code 2, nothing written.
 */
import { jest } from '@jest/globals';
import { runCli, snapshotTree, tempHome, cliOk as ok } from '../helpers/cli.js';
import { JUNK, validatorHome } from '../helpers/genesisTemplate.js';
import { fastBlocks, startOnFreePorts, stopNode, type BackgroundNode } from '../helpers/node.js';

jest.setTimeout(120_000);

const JUNK_ADDR = 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2';
const JUNK_HEX = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const JUNK_VALOPER = 'tokenvaloper17w0adeg64ky0daxwd2ugyuneellmjgnx9escau';


/** Runs `tasks` at most `width` at a time (the machine has two cores). */
async function inBatches<T>(tasks: (() => Promise<T>)[], width = 2): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < tasks.length; i += width) results.push(...(await Promise.all(tasks.slice(i, i + width).map((task) => task()))));
  return results;
}

describe('-h and bad input, without a node', () => {
  test('-h is --help for the root, topics and commands (derived and hand-written)', async () => {
    for (const words of [[], ['q', 'staking'], ['q', 'staking', 'delegation'], ['keys', 'add']]) {
      const [short, long] = await Promise.all([runCli([...words, '-h']), runCli([...words, '--help'])]);
      expect({ words, code: short.code, stderr: short.stderr }).toEqual({ words, code: 0, stderr: '' });
      expect(short.stdout).toBe(long.stdout);
      expect(short.stdout).toContain('USAGE');
    }
    const topic = await runCli(['q', 'staking', '-h']);
    for (const name of ['validators', 'validator', 'delegation', 'delegations', 'unbonding-delegations', 'redelegations', 'pool', 'params', 'historical-info']) {
      expect(topic.stdout).toMatch(new RegExp(`query staking ${name} +\\S`));
    }
    // Help text from the proto comments, arguments in the SDK's order.
    const delegate = await runCli(['tx', 'staking', 'delegate', '-h']);
    expect(delegate.stdout).toMatch(/^Delegates tokens to a validator\n/);
    expect(delegate.stdout).toContain('$ tokend tx staking delegate VALIDATOR_ADDRESS AMOUNT');
  });

  test('an unknown query or tx subcommand: one line, exit 2, nothing written', async () => {
    const home = tempHome();
    const before = snapshotTree(home);
    const cases: [string[], RegExp][] = [
      [['q', 'staking', 'validatr'], /^Error: unknown command "validatr" for "tokend query staking"; did you mean "validator" or "validators"\? Run "tokend query staking --help"/],
      [['tx', 'staking', 'stake', 'x'], /^Error: unknown command "stake" for "tokend tx staking"\. Run "tokend tx staking --help" to list its commands$/],
      [['query', 'nosuchmodule', 'params'], /^Error: unknown command "nosuchmodule" for "tokend query"\./],
    ];
    for (const [args, expected] of cases) {
      const result = await runCli([...args, '--home', home]);
      expect({ args, code: result.code, stdout: result.stdout, lines: result.stderr.trim().split('\n').length }).toEqual({ args, code: 2, stdout: '', lines: 1 });
      expect(result.stderr.trim()).toMatch(expected);
    }
    const json = await runCli(['q', 'staking', 'nope', '-o', 'json', '--home', home]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'USAGE', exit_code: 2, error: expect.stringContaining('unknown command "nope"') });
    expect(snapshotTree(home)).toEqual(before);
  });

  test('a missing positional argument: one line naming it, exit 2, nothing written', async () => {
    const home = tempHome();
    await ok(['keys', 'add', 'alice', '--recover', '--keyring-backend', 'test', '--home', home], JUNK);
    const before = snapshotTree(home);
    const query = await runCli(['q', 'staking', 'delegation', JUNK_ADDR, '--home', home]);
    expect(query.code).toBe(2);
    expect(query.stdout).toBe('');
    expect(query.stderr).toBe('Error: missing argument <validator_addr> (Validator operator address (bech32 tokenvaloper1… or 0x hex)). Usage: tokend query staking delegation <delegator_addr> <validator_addr>\n');
    const tx = await runCli(['tx', 'staking', 'delegate', JUNK_VALOPER, '--from', 'alice', '--keyring-backend', 'test', '--yes', '--home', home]);
    expect(tx.code).toBe(2);
    expect(tx.stdout).toBe('');
    expect(tx.stderr).toMatch(/^Error: missing argument <amount> \(Amount to delegate, in the bond denom, e\.g\. 1000attotoken\)\. Usage: tokend tx staking delegate <validator_address> <amount>\n$/);
    // A malformed argument is caught before anything is signed.
    const badCoin = await runCli(['tx', 'staking', 'delegate', JUNK_VALOPER, '1000', '--from', 'alice', '--keyring-backend', 'test', '--yes', '--home', home]);
    expect(badCoin.code).toBe(2);
    expect(badCoin.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Error: invalid <amount>: invalid coins "1000"/)]);
    expect(snapshotTree(home)).toEqual(before);
  });
});

describe('derived staking commands against a node', () => {
  let bg: BackgroundNode | undefined;
  let home: string;

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-derived-');
    // Height 2 is all the tests need; slower blocks leave the CPU to the commands under test.
    fastBlocks(home, '1s');
    bg = await startOnFreePorts(home, 2);
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  test('every staking query runs against the node', async () => {
    const n = ['--node', bg!.node, '-o', 'json'];
    const queries: [string[], (out: any) => void][] = [
      [['validators', '--status', 'BOND_STATUS_BONDED'], (out) => expect(out.validators.map((v: { operator_address: string }) => v.operator_address)).toEqual([JUNK_VALOPER])],
      // An address field takes 0x hex too, under the field's prefix.
      [['validator', JUNK_HEX], (out) => expect(out.validator).toMatchObject({ operator_address: JUNK_VALOPER, status: 'BOND_STATUS_BONDED' })],
      [['delegation', JUNK_ADDR, JUNK_VALOPER], (out) => expect(out.delegation_response.balance).toEqual({ denom: 'attotoken', amount: '1000000000000000000000' })],
      [['delegations', JUNK_HEX], (out) => expect(out.delegation_responses).toHaveLength(1)],
      [['delegations-to', JUNK_VALOPER, '--limit', '1', '--count-total'], (out) => expect(out.pagination.total).toBe('1')],
      [['unbonding-delegations', JUNK_ADDR], (out) => expect(out.unbonding_responses).toEqual([])],
      [['unbonding-delegations-from', JUNK_VALOPER], (out) => expect(out.unbonding_responses).toEqual([])],
      [['redelegations', JUNK_ADDR, JUNK_VALOPER], (out) => expect(out.redelegation_responses).toEqual([])],
      [['delegator-validators', JUNK_ADDR], (out) => expect(out.validators[0].operator_address).toBe(JUNK_VALOPER)],
      [['delegator-validator', JUNK_ADDR, JUNK_VALOPER], (out) => expect(out.validator.operator_address).toBe(JUNK_VALOPER)],
      [['historical-info', '1'], (out) => expect(out.hist.header.chain_id).toBe('testnet')],
      [['pool'], (out) => expect(out.pool.bonded_tokens).toBe('1000000000000000000000')],
      [['params'], (out) => expect(out.params.bond_denom).toBe('attotoken')],
    ];
    const outputs = await inBatches(queries.map(([args]) => () => ok(['q', 'staking', ...args, ...n])));
    queries.forEach(([, check], i) => check(JSON.parse(outputs[i]!)));
    // A query the node answers NotFound: one line, exit 1.
    const none = await runCli(['q', 'staking', 'unbonding-delegation', JUNK_ADDR, JUNK_VALOPER, '--node', bg!.node]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(`Error: unbonding delegation with delegator ${JUNK_ADDR} not found for validator ${JUNK_VALOPER}\n`);
  });

  test('delegate, redelegate, unbond: the right message is built, signed and broadcast; the node executes it, and refuses an unknown validator cleanly', async () => {
    const kb = ['--keyring-backend', 'test', '--home', home, '--node', bg!.node];
    const generated = await inBatches([
      () => ok(['tx', 'staking', 'delegate', JUNK_HEX, '1000attotoken', '--from', 'alice', '--generate-only', ...kb]),
      () => ok(['tx', 'staking', 'redelegate', JUNK_VALOPER, JUNK_VALOPER, '5attotoken', '--from', 'alice', '--generate-only', ...kb]),
      () => ok(['tx', 'staking', 'unbond', JUNK_VALOPER, '7attotoken', '--from', JUNK_ADDR, '--generate-only', ...kb]),
    ]);
    const messages = generated.map((out) => JSON.parse(out).body.messages[0]);
    expect(messages).toEqual([
      { '@type': '/cosmos.staking.v1beta1.MsgDelegate', delegator_address: JUNK_ADDR, validator_address: JUNK_VALOPER, amount: { denom: 'attotoken', amount: '1000' } },
      {
        '@type': '/cosmos.staking.v1beta1.MsgBeginRedelegate',
        delegator_address: JUNK_ADDR,
        validator_src_address: JUNK_VALOPER,
        validator_dst_address: JUNK_VALOPER,
        amount: { denom: 'attotoken', amount: '5' },
      },
      { '@type': '/cosmos.staking.v1beta1.MsgUndelegate', delegator_address: JUNK_ADDR, validator_address: JUNK_VALOPER, amount: { denom: 'attotoken', amount: '7' } },
    ]);
    // Signed, broadcast and executed: JUNK_ADDR is alice (the genesis validator's operator), so
    // this is a self-delegation that the staking module carries out.
    const sent = await runCli(['tx', 'staking', 'delegate', JUNK_VALOPER, '1000attotoken', '--from', 'alice', '--fees', '200000attotoken', '--yes', '-b', 'block', '-o', 'json', ...kb]);
    expect(sent.code).toBe(0);
    const result = JSON.parse(sent.stdout);
    expect(result).toMatchObject({ code: 0, txhash: expect.stringMatching(/^[0-9A-F]{64}$/) });
    expect(result.events.find((e: { type: string }) => e.type === 'delegate')).toBeDefined();
    // A second delegation to a validator that does not exist: the SDK's staking error, exit 1.
    const nobody = 'tokenvaloper1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq48t43p';
    const refused = await runCli(['tx', 'staking', 'delegate', nobody, '1000attotoken', '--from', 'alice', '--fees', '200000attotoken', '--yes', '-b', 'block', '-o', 'json', ...kb]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ code: 3, codespace: 'staking' });
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(refused.stderr)).toMatchObject({ code: 'TX_FAILED', error: expect.stringMatching(/failed with code 3 \(staking\): failed to execute message; message index: 0: validator does not exist/) });
    // A redelegation to the same validator: refused with staking code 29.
    const sameValidator = await runCli(['tx', 'staking', 'redelegate', JUNK_VALOPER, JUNK_VALOPER, '5attotoken', '--from', 'alice', '--fees', '200000attotoken', '--yes', '-b', 'block', '-o', 'json', ...kb]);
    expect(sameValidator.code).toBe(1);
    expect(JSON.parse(sameValidator.stdout)).toMatchObject({ code: 29, codespace: 'staking', txhash: expect.stringMatching(/^[0-9A-F]{64}$/) });
    expect(sameValidator.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(sameValidator.stderr)).toMatchObject({ code: 'TX_FAILED', error: expect.stringMatching(/failed with code 29 \(staking\): .*cannot redelegate to the same validator/) });
  });
});
