/**
 * Standard clients no one here wrote, against a node started by the test: CosmJS (StargateClient,
 * SigningStargateClient with an eth_secp256k1 wallet) over the consensus RPC.
 */
import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, runCli, tempHome } from '../helpers/cli.js';
import { fastBlocks, freePort, startBackground, stopNode, waitForHeight, type BackgroundNode } from '../helpers/node.js';

jest.setTimeout(120_000);

const JUNK = 'test test test test test test test test test test test junk';
const JUNK_ADDR = 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2';

async function ok(args: string[], input?: string): Promise<string> {
  const result = await runCli(args, { input, timeoutMs: 60000 });
  if (result.code !== 0) throw new Error(`tokend ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

function runNode(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, ...args], { cwd: REPO_ROOT, timeout: 90_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${script} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}

describe('standard clients', () => {
  let bg: BackgroundNode | undefined;
  let home: string;
  let bob: string;

  beforeAll(async () => {
    home = tempHome('tokend-clients-');
    const h = ['--home', home];
    await ok(['init', 'clients', '--chain-id', 'testnet', ...h]);
    fastBlocks(home);
    await ok(['keys', 'add', 'alice', '--recover', '--keyring-backend', 'test', ...h], JUNK);
    bob = JSON.parse(await ok(['keys', 'add', 'bob', '--keyring-backend', 'test', '-o', 'json', ...h])).address;
    await ok(['add-genesis-account', 'alice', '1000000000000000000000000attotoken', '--keyring-backend', 'test', ...h]);
    await ok(['gentx', 'alice', '1000000000000000000000attotoken', '--keyring-backend', 'test', ...h]);
    await ok(['collect-gentxs', ...h]);
    bg = startBackground(home, await freePort());
    await waitForHeight(bg.node, 2);
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  test('CosmJS reads chain id, height, EthAccount and balances, then signs and finds a bank send', async () => {
    const url = bg!.node.replace('tcp://', 'http://');
    const out = JSON.parse(await runNode(join(REPO_ROOT, 'test/e2e/fixtures/cosmjs-flow.cjs'), [url, JUNK, bob]));
    expect(out.chainId).toBe('testnet');
    expect(out.height).toBeGreaterThan(1);
    expect(out.address).toBe(JUNK_ADDR);
    expect(out.account).toMatchObject({ accountNumber: expect.any(Number), sequence: 1 });
    expect(out.missingAccount).toBeNull();
    expect(BigInt(out.balanceBefore)).toBeGreaterThan(0n);
    expect(out.allBalances).toEqual([{ denom: 'attotoken', amount: out.balanceBefore }]);
    expect(out.broadcast.code).toBe(0);
    expect(out.found).toMatchObject({ code: 0, hash: out.broadcast.hash });
    expect(BigInt(out.recipientAfter)).toBe(BigInt(out.recipientBefore) + 4242n);
    expect(out.simulatedGas).toBe(true);
    expect(out.autoCode).toBe(0);
    // The CLI sees the same tx.
    const tx = JSON.parse(await ok(['q', 'tx', out.broadcast.hash, '--node', bg!.node, '-o', 'json']));
    expect(tx.tx.body.memo).toBe('from cosmjs');
  });
});
