/**
 * Signing as custodians and hardware wallets do, end to end against a node the test starts:
 * a 2-of-3 multisig account with the real binary (keys add --multisig → fund → tx sign
 * --multisig by two members → tx multisign → tx broadcast, balances exact, bad signature files
 * refused), and with CosmJS (an amino Secp256k1HdWallet through SigningStargateClient, and a
 * 2-of-3 multisig through createMultisigThresholdPubkey / makeMultisignedTxBytes).
 */
import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, runCli, snapshotTree, tempHome, cliOk as ok } from '../helpers/cli.js';
import { ALICE_FUNDS, JUNK, validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, startOnFreePorts, stopNode } from '../helpers/node.js';

jest.setTimeout(180_000);

const GENESIS_FUNDS = 1000000000000000000000000n;
const FEE = 300000n;


describe('amino and multisig signing, end to end', () => {
  let bg: BackgroundNode | undefined;
  let home: string;
  let kb: string[];
  /** m1: a fresh account that receives the multisig's send. */
  let recipient: string;
  /** The home of the third member, holding its private key. */
  let memberHome: string;

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx (GENESIS_FUNDS, ALICE_STAKE): the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-signing-');
    kb = ['--keyring-backend', 'test', '--home', home];
    fastBlocks(home);
    // Members: two eth_secp256k1 keys (the default) here, and a Cosmos secp256k1 key that lives in
    // another home (another machine): this keyring holds only its public key. Independent key
    // files, so added at once.
    memberHome = tempHome('tokend-member-');
    const [m1] = await Promise.all([
      ok(['keys', 'add', 'm1', '--no-backup', '-o', 'json', ...kb]),
      ok(['keys', 'add', 'm2', '--no-backup', ...kb]),
      ok(['keys', 'add', 'm3', '--no-backup', '--algo', 'secp256k1', '--keyring-backend', 'test', '--home', memberHome]),
    ]);
    recipient = JSON.parse(m1!).address as string;
    const m3PubKey = (await ok(['keys', 'show', 'm3', '-p', '--keyring-backend', 'test', '--home', memberHome])).trim();
    expect(JSON.parse(await ok(['keys', 'add', 'm3', '--pubkey', m3PubKey, '-o', 'json', ...kb])).type).toBe('offline');
    expect(`${GENESIS_FUNDS}attotoken`).toBe(ALICE_FUNDS);
    bg = await startOnFreePorts(home, 2);
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  test('keys add --multisig with a threshold above the key count or a repeated key: one line, non-zero exit, nothing written', async () => {
    const keyring = join(home, 'keyring-test');
    const before = snapshotTree(keyring);
    const above = await runCli(['keys', 'add', 'bad', '--multisig', 'm1,m2,m3', '--multisig-threshold', '4', ...kb]);
    expect(above.code).not.toBe(0);
    expect(above.stderr.trim().split('\n')).toEqual(['Error: multisig threshold 4 is above the number of keys (3). a k-of-n multisig needs k ≤ n: use --multisig-threshold 3 or less']);
    const repeated = await runCli(['keys', 'add', 'bad', '--multisig', 'm1,m2,m1', '--multisig-threshold', '2', ...kb]);
    expect(repeated.code).not.toBe(0);
    expect(repeated.stderr).toContain('duplicate multisig keys: m1');
    expect(snapshotTree(keyring)).toEqual(before);
  });

  test('2-of-3 multisig with the real binary: fund, two members sign, multisign, broadcast; balances exact', async () => {
    const n = ['--node', bg!.node];
    const vault = JSON.parse(await ok(['keys', 'add', 'vault', '--multisig', 'm1,m2,m3', '--multisig-threshold', '2', '-o', 'json', ...kb]));
    expect(vault.type).toBe('multi');
    expect(JSON.parse(vault.pubkey)).toMatchObject({ '@type': '/cosmos.crypto.multisig.LegacyAminoPubKey', threshold: 2 });
    const vaultBefore = 5000000000n;
    await ok(['tx', 'send', 'alice', vault.address, `${vaultBefore}attotoken`, '--fees', `${FEE}attotoken`, '--yes', '-b', 'block', ...kb, ...n]);
    const balance = async (address: string): Promise<bigint> => BigInt((JSON.parse(await ok(['q', 'bank', 'balances', address, '-o', 'json', ...n])).balances[0]?.amount as string | undefined) ?? '0');

    const unsigned = join(home, 'unsigned.json');
    writeFileSync(unsigned, await ok(['tx', 'send', 'vault', recipient, '4321attotoken', '--fees', `${FEE}attotoken`, '--gas', '300000', '--generate-only', ...kb, ...n]));
    const sign = async (member: string, file: string): Promise<string> => {
      const out = join(home, `${member}-${file.endsWith('other.json') ? 'other' : 'sig'}.json`);
      writeFileSync(out, await ok(['tx', 'sign', file, '--from', member, '--multisig', 'vault', ...kb, ...n]));
      return out;
    };
    // A signature made for another tx (the same send with another amount).
    const other = join(home, 'other.json');
    writeFileSync(other, readFileSync(unsigned, 'utf8').replace('"4321"', '"4322"'));
    // The members sign independently (separate output files): at once.
    // Member 3 signs in its own home, which knows the multisig only by its address.
    const sig3 = join(home, 'm3-sig.json');
    const [sig1, sig3Text, sig2Other] = await Promise.all([
      sign('m1', unsigned),
      ok(['tx', 'sign', unsigned, '--from', 'm3', '--multisig', vault.address, '--keyring-backend', 'test', '--home', memberHome, ...n]),
      sign('m2', other),
    ]);
    writeFileSync(sig3, sig3Text);
    expect(JSON.parse(readFileSync(sig1, 'utf8')).signatures[0].data.single.mode).toBe('SIGN_MODE_LEGACY_AMINO_JSON');

    const multisign = (...sigs: string[]): Promise<{ code: number; stdout: string; stderr: string }> => runCli(['tx', 'multisign', unsigned, 'vault', ...sigs, ...kb, ...n], { timeoutMs: 60000 });
    const bad: [string[], string][] = [
      [[sig1], 'Error: the multisig key "vault" needs 2 signatures, got 1.'],
      [[sig1, sig1], `repeats the signature of member`],
      [[sig1, sig2Other], `Error: the signature in ${sig2Other} does not verify for this transaction.`],
    ];
    const badResults = await Promise.all(bad.map(([sigs]) => multisign(...sigs)));
    bad.forEach(([, message], i) => {
      const result = badResults[i]!;
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(message);
    });

    const signed = join(home, 'signed.json');
    writeFileSync(signed, await ok(['tx', 'multisign', unsigned, 'vault', sig1, sig3, ...kb, ...n]));
    const tx = JSON.parse(readFileSync(signed, 'utf8'));
    expect(tx.auth_info.signer_infos[0].public_key['@type']).toBe('/cosmos.crypto.multisig.LegacyAminoPubKey');
    expect(tx.auth_info.signer_infos[0].mode_info.multi.mode_infos).toHaveLength(2);
    const response = JSON.parse(await ok(['tx', 'broadcast', signed, '-b', 'block', '-o', 'json', ...n]));
    expect(response.code).toBe(0);
    expect(await balance(vault.address)).toBe(vaultBefore - 4321n - FEE);
    expect(await balance(recipient)).toBe(4321n);
    // The account now holds the multisig key and sequence 1.
    const account = JSON.parse(await ok(['q', 'account', vault.address, '-o', 'json', ...n]));
    expect(JSON.stringify(account)).toContain('/cosmos.crypto.multisig.LegacyAminoPubKey');
  });

  test('tx send --sign-mode amino-json (the Ledger form) from an eth_secp256k1 key', async () => {
    const n = ['--node', bg!.node];
    const sent = JSON.parse(await ok(['tx', 'send', 'alice', recipient, '5attotoken', '--fees', `${FEE}attotoken`, '--sign-mode', 'amino-json', '--yes', '-b', 'block', '-o', 'json', ...kb, ...n]));
    expect(sent.code).toBe(0);
    expect(sent.tx.auth_info.signer_infos[0].mode_info.single.mode).toBe('SIGN_MODE_LEGACY_AMINO_JSON');
  });

  test('CosmJS: an amino wallet (Ledger/Keplr amino path) and a 2-of-3 multisig (makeMultisignedTxBytes) send tokens', async () => {
    const url = bg!.node.replace('tcp://', 'http://');
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [join(REPO_ROOT, 'test/e2e/fixtures/cosmjs-amino-multisig.cjs'), url, JUNK, recipient], { cwd: REPO_ROOT, timeout: 120_000 }, (err, out, stderr) => {
        if (err) reject(new Error(`cosmjs fixture failed: ${stderr || err.message}`));
        else resolve(out);
      });
    });
    const out = JSON.parse(stdout);
    expect(out.funding).toBe(0);
    expect(out.aminoSend).toEqual({ code: 0, rawLog: '' });
    expect(BigInt(out.aminoSender)).toBe(10000000n - 111n - FEE);
    expect(out.multisigSend.code).toBe(0);
    expect(BigInt(out.multisigBalance)).toBe(10000000n - 222n - FEE);
    expect(BigInt(out.recipientDelta)).toBe(111n + 222n);
    // Our address for CosmJS's multisig key is CosmJS's (sha256 of the amino encoding).
    const account = JSON.parse(await ok(['q', 'account', out.multisigAddress, '-o', 'json', '--node', bg!.node]));
    expect(JSON.stringify(account)).toContain('/cosmos.crypto.multisig.LegacyAminoPubKey');
  });
});
