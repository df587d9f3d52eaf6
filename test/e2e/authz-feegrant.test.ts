/**
 * End to end with the real binary: authz (a send grant with a spend limit, `tx authz exec` of a
 * `--generate-only` tx within and beyond the limit, revoke, the queries) and feegrant (a basic
 * allowance paying a grantee's fees through `--fee-granter`, a periodic allowance that refuses
 * within its period and pays again after it resets), with the bad input of the commands.
 */
import { jest } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, runCli, runNodeScript, cliOk as ok } from '../helpers/cli.js';
import { JUNK, JUNK_ADDR, validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, startOnFreePorts, stopNode, waitForBlockTime } from '../helpers/node.js';

jest.setTimeout(180_000);

const FEES = ['--fees', '200000attotoken'];

describe('authz and feegrant with the real binary', () => {
  let bg: BackgroundNode | undefined;
  let home: string;
  let kb: string[];
  let n: string[];
  const address: Record<string, string> = {};

  const balance = async (who: string): Promise<bigint> => {
    const out = JSON.parse(await ok(['q', 'bank', 'balances', address[who]!, '-o', 'json', ...n]));
    return BigInt(out.balances.find((b: { denom: string }) => b.denom === 'attotoken')?.amount ?? '0');
  };
  const tx = async (args: string[]): Promise<{ code: number; raw_log: string; exit: number; stderr: string }> => {
    const result = await runCli(['tx', ...args, '--yes', '-b', 'block', '-o', 'json', ...kb, ...n], { timeoutMs: 60000 });
    const body = result.stdout.trim() === '' ? { code: -1, raw_log: '' } : JSON.parse(result.stdout);
    return { code: body.code, raw_log: body.raw_log, exit: result.code, stderr: result.stderr };
  };

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-authz-');
    kb = ['--keyring-backend', 'test', '--home', home];
    fastBlocks(home);
    // The keys are independent files in the test keyring: added at once (alice's is the template's).
    address.alice = JUNK_ADDR;
    await Promise.all(
      ['bob', 'carol', 'dave', 'erin'].map(async (name) => {
        address[name] = JSON.parse(await ok(['keys', 'add', name, '-o', 'json', ...kb])).address;
      }),
    );
    await ok(['add-genesis-account', 'bob', '10000000000000000000attotoken', ...kb]);
    await ok(['add-genesis-account', 'dave', '1000attotoken', ...kb]);
    await ok(['add-genesis-account', 'erin', '1000attotoken', ...kb]);
    bg = await startOnFreePorts(home, 2);
    n = ['--node', bg.node];
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  test('authz: a send grant with a spend limit executes within it and refuses beyond it', async () => {
    const granted = await tx(['authz', 'grant', address.bob!, 'send', '--spend-limit', '1000attotoken', '--from', 'alice', ...FEES]);
    expect([granted.code, granted.exit]).toEqual([0, 0]);
    const grants = JSON.parse(await ok(['q', 'authz', 'grants', address.alice!, address.bob!, '-o', 'json', ...n]));
    expect(grants.grants).toEqual([{ authorization: { '@type': '/cosmos.bank.v1beta1.SendAuthorization', spend_limit: [{ denom: 'attotoken', amount: '1000' }], allow_list: [] }, expiration: null }]);

    // The granter's send, generated (unsigned) — the grantee executes it.
    const file = join(home, 'send-600.json');
    writeFileSync(file, await ok(['tx', 'send', 'alice', address.carol!, '600attotoken', '--generate-only', ...kb, ...n]));
    const aliceBefore = await balance('alice');
    const within = await tx(['authz', 'exec', file, '--from', 'bob', ...FEES]);
    expect([within.code, within.exit]).toEqual([0, 0]);
    const [carolAfter, aliceAfter, loweredOut] = await Promise.all([balance('carol'), balance('alice'), ok(['q', 'authz', 'grants', address.alice!, address.bob!, '/cosmos.bank.v1beta1.MsgSend', '-o', 'json', ...n])]);
    expect(carolAfter).toBe(600n);
    expect(aliceAfter).toBe(aliceBefore - 600n);
    const lowered = JSON.parse(loweredOut);
    expect(lowered.grants[0].authorization.spend_limit).toEqual([{ denom: 'attotoken', amount: '400' }]);

    const beyond = await tx(['authz', 'exec', file, '--from', 'bob', ...FEES]);
    expect(beyond.exit).toBe(1);
    expect(beyond.code).toBe(5);
    expect(beyond.raw_log).toContain('requested amount is more than spend limit');
    expect(beyond.stderr.trim().split('\n')).toHaveLength(1);
    expect(await balance('carol')).toBe(600n);

    const [byGranterOut, byGranteeOut] = await Promise.all([ok(['q', 'authz', 'grants-by-granter', address.alice!, '-o', 'json', ...n]), ok(['q', 'authz', 'grants-by-grantee', address.bob!, '-o', 'json', ...n])]);
    const byGranter = JSON.parse(byGranterOut);
    expect(byGranter.grants.map((g: { grantee: string }) => g.grantee)).toEqual([address.bob]);
    const byGrantee = JSON.parse(byGranteeOut);
    expect(byGrantee.grants.map((g: { granter: string }) => g.granter)).toEqual([address.alice]);

    const revoked = await tx(['authz', 'revoke', address.bob!, '/cosmos.bank.v1beta1.MsgSend', '--from', 'alice', ...FEES]);
    expect(revoked.code).toBe(0);
    const again = await tx(['authz', 'revoke', address.bob!, '/cosmos.bank.v1beta1.MsgSend', '--from', 'alice', ...FEES]);
    expect([again.exit, again.code]).toEqual([1, 2]);
    expect(again.raw_log).toContain('authorization not found');
  });

  test('authz: an exec after the grant expired is refused with one line, nothing sent', async () => {
    const file = join(home, 'send-5.json');
    writeFileSync(file, await ok(['tx', 'send', 'alice', address.erin!, '5attotoken', '--generate-only', ...kb, ...n]));
    const expiresAt = Math.floor(Date.now() / 1000) + 12;
    const granted = await tx(['authz', 'grant', address.bob!, 'send', '--spend-limit', '100attotoken', '--expiration', String(expiresAt), '--from', 'alice', ...FEES]);
    expect(granted.code).toBe(0);
    // Wait until the chain's time is past the expiration (the grant is pruned at that block).
    await waitForBlockTime(bg!.node, expiresAt * 1000);
    const erinBefore = await balance('erin');
    const late = await tx(['authz', 'exec', file, '--from', 'bob', ...FEES]);
    expect([late.exit, late.code]).toEqual([1, 2]);
    expect(late.raw_log).toContain('authorization not found');
    expect(late.stderr.trim().split('\n')).toHaveLength(1);
    expect(await balance('erin')).toBe(erinBefore);
    expect(JSON.parse(await ok(['q', 'authz', 'grants-by-grantee', address.bob!, '-o', 'json', ...n])).grants).toEqual([]);
  });

  test('feegrant: the grantee pays its fee from the granter with --fee-granter', async () => {
    const granted = await tx(['feegrant', 'grant', 'alice', address.dave!, '--spend-limit', '1000000attotoken', ...FEES]);
    expect(granted.code).toBe(0);
    const allowance = JSON.parse(await ok(['q', 'feegrant', 'grant', address.alice!, address.dave!, '-o', 'json', ...n]));
    expect(allowance.allowance.allowance).toEqual({ '@type': '/cosmos.feegrant.v1beta1.BasicAllowance', spend_limit: [{ denom: 'attotoken', amount: '1000000' }], expiration: null });
    const [aliceBefore, daveBefore] = await Promise.all([balance('alice'), balance('dave')]);
    const sent = await tx(['send', 'dave', address.carol!, '1attotoken', '--fee-granter', address.alice!, ...FEES]);
    expect([sent.code, sent.exit]).toEqual([0, 0]);
    // Independent reads (and a --generate-only, which broadcasts nothing) at once.
    const [daveAfter, aliceAfter, leftOut, byGranteeOut, byGranterOut, generatedOut] = await Promise.all([
      balance('dave'),
      balance('alice'),
      ok(['q', 'feegrant', 'grant', address.alice!, address.dave!, '-o', 'json', ...n]),
      ok(['q', 'feegrant', 'grants-by-grantee', address.dave!, '-o', 'json', ...n]),
      ok(['q', 'feegrant', 'grants-by-granter', address.alice!, '-o', 'json', ...n]),
      ok(['tx', 'send', 'dave', address.carol!, '1attotoken', '--fee-granter', address.alice!, '--fee-payer', address.dave!, '--generate-only', ...kb, ...n]),
    ]);
    expect(daveAfter).toBe(daveBefore - 1n);
    expect(aliceAfter).toBe(aliceBefore - 200000n);
    const left = JSON.parse(leftOut);
    expect(left.allowance.allowance.spend_limit).toEqual([{ denom: 'attotoken', amount: '800000' }]);
    const byGrantee = JSON.parse(byGranteeOut);
    expect(byGrantee.allowances).toHaveLength(1);
    const byGranter = JSON.parse(byGranterOut);
    expect(byGranter.allowances.map((a: { grantee: string }) => a.grantee)).toEqual([address.dave]);

    // --fee-granter / --fee-payer land in Fee.granter / Fee.payer (hex accepted, written as bech32).
    const generated = JSON.parse(generatedOut);
    expect(generated.auth_info.fee).toMatchObject({ granter: address.alice, payer: address.dave });

    // Beyond the limit: refused at CheckTx, nothing spent.
    const tooMuch = await tx(['send', 'dave', address.carol!, '1attotoken', '--fee-granter', address.alice!, '--fees', '900000attotoken']);
    expect(tooMuch.exit).toBe(1);
    expect(tooMuch.stderr).toContain('fee limit exceeded');
    expect(await balance('dave')).toBe(daveBefore - 1n);
  });

  test('feegrant: a periodic allowance refuses within its period and pays again after it resets', async () => {
    const granted = await tx(['feegrant', 'grant', 'alice', address.erin!, '--period', '25s', '--period-limit', '300000attotoken', ...FEES]);
    expect(granted.code).toBe(0);
    expect((await tx(['send', 'erin', address.carol!, '1attotoken', '--fee-granter', address.alice!, ...FEES])).code).toBe(0);
    const refused = await tx(['send', 'erin', address.carol!, '1attotoken', '--fee-granter', address.alice!, ...FEES]);
    expect(refused.exit).toBe(1);
    expect(refused.stderr).toContain('period limit: fee limit exceeded');
    // Wait until the chain's time passes the period reset, then the allowance pays again.
    const reset = Date.parse(JSON.parse(await ok(['q', 'feegrant', 'grant', address.alice!, address.erin!, '-o', 'json', ...n])).allowance.allowance.period_reset);
    await waitForBlockTime(bg!.node, reset);
    const afterReset = await tx(['send', 'erin', address.carol!, '1attotoken', '--fee-granter', address.alice!, ...FEES]);
    expect([afterReset.code, afterReset.exit]).toEqual([0, 0]);
  });

  test('CosmJS: the stock authz and feegrant queries; MsgGrant, MsgExec and MsgGrantAllowance signed in direct and amino modes', async () => {
    const url = bg!.node.replace('tcp://', 'http://');
    const out = JSON.parse(await runNodeScript(join(REPO_ROOT, 'test/e2e/fixtures/cosmjs-authz-feegrant.cjs'), [url, JUNK, address.carol!]));
    for (const step of ['fund', 'directGrant', 'directAllowance', 'aminoExec', 'aminoGrant', 'aminoAllowance', 'directExec']) expect({ step, ...out[step] }).toEqual({ step, code: 0, rawLog: '' });
    expect(out.recipientGain).toBe('300');
    expect(out.grantLimit).toEqual(['700attotoken']);
    expect(out.granterGrants).toEqual([[out.funder, '27', '2030-01-01T00:00:00Z']]);
    expect(out.granteeGrants).toEqual([out.funder]);
    expect(out.allowanceLeft).toEqual(['4500000']);
    expect(out.allowances).toEqual([[out.amino, '123']]);
  });

  test('bad input: one line, non-zero exit, nothing broadcast', async () => {
    const cases: [string[], RegExp, number][] = [
      [['authz', 'grant', address.bob!, 'everything', '--from', 'alice'], /invalid authorization type "everything"/, 2],
      [['authz', 'grant', 'token1notanaddress', 'send', '--spend-limit', '1attotoken', '--from', 'alice'], /invalid grantee address/, 2],
      [['authz', 'grant', address.bob!, 'send', '--from', 'alice'], /send authorization needs --spend-limit/, 2],
      [['authz', 'grant', address.bob!, 'send', '--spend-limit', '5attotoken', '--expiration', 'yesterday', '--from', 'alice'], /invalid --expiration/, 2],
      [['authz', 'revoke', address.bob!, 'MsgSend', '--from', 'alice'], /invalid message type URL/, 2],
      [['authz', 'exec', join(home, 'missing.json'), '--from', 'bob'], /cannot read/, 1],
      [['feegrant', 'grant', 'alice', address.bob!, '--period', '10'], /needs both --period and --period-limit/, 2],
      [['send', 'bob', address.carol!, '1attotoken', '--fee-granter', 'nobody'], /invalid --fee-granter address "nobody"/, 2],
    ];
    const sequenceBefore = JSON.parse(await ok(['q', 'account', address.alice!, '-o', 'json', ...n])).sequence;
    // None of them gets as far as a broadcast, so they run at once.
    const results = await Promise.all(cases.map(([args]) => runCli(['tx', ...args, '--yes', ...kb, ...n], { timeoutMs: 60000 })));
    cases.forEach(([args, pattern, exit], i) => {
      const result = results[i]!;
      expect({ args, code: result.code, lines: result.stderr.trim().split('\n').length, stdout: result.stdout }).toEqual({ args, code: exit, lines: 1, stdout: '' });
      expect(result.stderr).toMatch(pattern);
    });
    expect(JSON.parse(await ok(['q', 'account', address.alice!, '-o', 'json', ...n])).sequence).toBe(sequenceBefore);
  });
});
