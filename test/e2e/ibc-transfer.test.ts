/**
 * End-to-end, with the real binary: `tokend query ibc-transfer params|escrow-address|denom-traces|
 * denom-trace|denom-hash` against a node (REST too, with the `{hash=**}` / `{trace=**}` paths), and
 * `tokend tx ibc-transfer transfer`'s bad input: a zero amount, a malformed timeout height, both
 * timeouts disabled, a channel that does not exist, relative timeouts with --offline — one line on
 * stderr, a non-zero exit, nothing sent or printed.
 */
import { jest } from '@jest/globals';
import { cliOk as ok, runCli } from '../helpers/cli.js';
import { validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, startOnFreePorts, stopNode } from '../helpers/node.js';

jest.setTimeout(120_000);

const ATOM_VOUCHER_HASH = '27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2';

describe('tokend q/tx ibc-transfer against a node', () => {
  let bg: BackgroundNode | undefined;
  let home: string;
  let api = '';
  const h = (): string[] => ['--home', home];

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-ics20-');
    fastBlocks(home, '500ms');
    // One known trace at genesis, so the trace and hash queries have something to find.
    const { readFileSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const file = join(home, 'config', 'genesis.json');
    const genesis = JSON.parse(readFileSync(file, 'utf8'));
    genesis.app_state.transfer.denom_traces = [{ path: 'transfer/channel-0', base_denom: 'uatom' }];
    writeFileSync(file, JSON.stringify(genesis, null, 2));
    bg = await startOnFreePorts(home, 2);
    api = bg.api;
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  test('every query, on the CLI and over REST', async () => {
    const n = ['--node', bg!.node, '-o', 'json'];
    const q = async (args: string[]): Promise<any> => JSON.parse(await ok(['q', 'ibc-transfer', ...args, ...n]));
    expect(await q(['params'])).toEqual({ params: { send_enabled: true, receive_enabled: true } });
    expect((await q(['escrow-address', 'transfer', 'channel-0'])).escrow_address).toMatch(/^token1[0-9a-z]{38}$/);
    expect((await q(['denom-traces'])).denom_traces).toEqual([{ path: 'transfer/channel-0', base_denom: 'uatom' }]);
    expect(await q(['denom-trace', ATOM_VOUCHER_HASH])).toEqual({ denom_trace: { path: 'transfer/channel-0', base_denom: 'uatom' } });
    expect(await q(['denom-trace', `ibc/${ATOM_VOUCHER_HASH}`])).toEqual({ denom_trace: { path: 'transfer/channel-0', base_denom: 'uatom' } });
    expect(await q(['denom-hash', 'transfer/channel-0/uatom'])).toEqual({ hash: ATOM_VOUCHER_HASH });

    const rest = async (path: string): Promise<{ status: number; body: any }> => {
      const res = await fetch(`${api}${path}`);
      return { status: res.status, body: await res.json() };
    };
    expect(await rest(`/ibc/apps/transfer/v1/denom_traces/ibc/${ATOM_VOUCHER_HASH}`)).toEqual({ status: 200, body: { denom_trace: { path: 'transfer/channel-0', base_denom: 'uatom' } } });
    expect(await rest('/ibc/apps/transfer/v1/denom_hashes/transfer/channel-0/uatom')).toEqual({ status: 200, body: { hash: ATOM_VOUCHER_HASH } });
    expect((await rest('/ibc/apps/transfer/v1/denom_hashes/transfer/channel-0/uosmo')).status).toBe(404);
  });

  test('query bad input: an unknown trace, a malformed hash', async () => {
    const unknown = await runCli(['q', 'ibc-transfer', 'denom-hash', 'transfer/channel-9/uatom', '--node', bg!.node]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim().split('\n')).toEqual([expect.stringContaining('transfer/channel-9/uatom: denomination trace not found')]);
    const malformed = await runCli(['q', 'ibc-transfer', 'denom-trace', 'nothex', '--node', bg!.node]);
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr.trim().split('\n')).toEqual([expect.stringContaining('invalid denom trace hash')]);
  });

  test.each([
    ['a zero amount', ['0attotoken'], 'the amount must be positive'],
    ['a malformed timeout height', ['5attotoken', '--packet-timeout-height', '1000'], 'expected {revision}-{height}'],
    ['both timeouts disabled', ['5attotoken', '--packet-timeout-height', '0-0', '--packet-timeout-timestamp', '0'], 'cannot both be 0'],
    ['a channel that does not exist', ['5attotoken'], 'channel'],
  ])('tx ibc-transfer transfer refuses %s with one line and sends nothing', async (_name, rest, message) => {
    const [amount, ...flags] = rest;
    const result = await runCli(['tx', 'ibc-transfer', 'transfer', 'transfer', 'channel-0', 'cosmos1receiver', amount!, ...flags, '--from', 'alice', '--keyring-backend', 'test', '--chain-id', 'testnet', '--yes', '--node', bg!.node, ...h()]);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(message)]);
    expect(result.stdout.trim()).toBe('');
  });

  test('tx ibc-transfer transfer --offline needs --absolute-timeouts: refused before the keyring is opened; with them it signs', async () => {
    const offline = ['--offline', '--account-number', '0', '--sequence', '1', '--keyring-backend', 'test', '--chain-id', 'testnet', '--yes', ...h()];
    // "nobody" is not in the keyring: the refusal must come before the key is looked up.
    const refused = await runCli(['tx', 'ibc-transfer', 'transfer', 'transfer', 'channel-0', 'cosmos1receiver', '5attotoken', '--from', 'nobody', ...offline]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([expect.stringContaining('--offline needs --absolute-timeouts')]);
    expect(refused.stdout.trim()).toBe('');
    const signed = JSON.parse(
      await ok(['tx', 'ibc-transfer', 'transfer', 'transfer', 'channel-0', 'cosmos1receiver', '5attotoken', '--absolute-timeouts', '--packet-timeout-height', '1-52000', '--packet-timeout-timestamp', '0', '--from', 'alice', '-o', 'json', ...offline]),
    );
    expect(signed.body.messages[0]).toMatchObject({ '@type': '/ibc.applications.transfer.v1.MsgTransfer', timeout_height: { revision_number: '1', revision_height: '52000' }, timeout_timestamp: '0' });
  });
});
