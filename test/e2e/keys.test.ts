/** End-to-end: `tokend keys …` as a user's shell script drives it (test and file backends). */
import { jest } from '@jest/globals';
import { writeFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempHome, snapshotTree } from '../helpers/cli.js';
import { JUNK, JUNK_ADDR } from '../helpers/genesisTemplate.js';

const JUNK_HEX = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

// Each test runs up to a dozen CLI processes one after another (each the output of the last): a few
// seconds each on a loaded 2-core machine, so jest's 30 s default is too short for them.
jest.setTimeout(120_000);

function keys(home: string, ...args: string[]): string[] {
  return ['keys', ...args, '--home', home];
}

describe('keys with the test backend', () => {
  test('recover from stdin prints the vector; show -a prints only the address', async () => {
    const home = tempHome();
    const add = await runCli(keys(home, 'add', 'alice', '--recover', '--keyring-backend', 'test', '-o', 'json'), { input: `${JUNK}\n` });
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    const key = JSON.parse(add.stdout);
    expect(key).toMatchObject({ name: 'alice', type: 'local', address: JUNK_ADDR, address_hex: JUNK_HEX });
    expect(JSON.parse(key.pubkey)).toEqual({
      '@type': '/ethermint.crypto.v1.ethsecp256k1.PubKey',
      key: Buffer.from('038318535b54105d4a7aae60c08fc45f9687181b4fdfc625bd1a753fa7397fed75', 'hex').toString('base64'),
    });
    expect(key.mnemonic).toBeUndefined();
    const show = await runCli(keys(home, 'show', 'alice', '-a', '--keyring-backend', 'test'));
    expect(show.stdout).toBe(`${JUNK_ADDR}\n`);
    const byHex = await runCli(keys(home, 'show', JUNK_HEX, '-a', '--bech', 'val', '--keyring-backend', 'test'));
    expect(byHex.stdout.trim()).toMatch(/^tokenvaloper1/);
  });

  test('a new key prints a 24-word mnemonic last that recovers the same address', async () => {
    const home = tempHome();
    const add = await runCli(keys(home, 'add', 'bob', '--keyring-backend', 'test'));
    expect(add.code).toBe(0);
    const lines = add.stdout.trim().split('\n');
    const mnemonic = lines[lines.length - 1]!;
    expect(mnemonic.split(' ')).toHaveLength(24);
    expect(lines[0]).toMatch(/^NAME\s+TYPE\s+ADDRESS\s+ADDRESS_HEX\s+PUBKEY/);
    const address = (await runCli(keys(home, 'show', 'bob', '-a', '--keyring-backend', 'test'))).stdout.trim();
    const other = tempHome();
    const recovered = await runCli(keys(other, 'add', 'bob2', '--recover', '--keyring-backend', 'test', '-o', 'json'), { input: mnemonic });
    expect(JSON.parse(recovered.stdout).address).toBe(address);
    const noBackup = await runCli(keys(home, 'add', 'carol', '--no-backup', '--keyring-backend', 'test', '-o', 'json'));
    expect(JSON.parse(noBackup.stdout).mnemonic).toBeUndefined();
  });

  test('--algo secp256k1, --account/--index and --hd-path derive the documented addresses', async () => {
    const home = tempHome();
    const cosmos = await runCli(keys(home, 'add', 'c', '--recover', '--algo', 'secp256k1', '--hd-path', "m/44'/60'/0'/0/0", '--dry-run', '-o', 'json'), { input: JUNK });
    // The junk key under the Cosmos (RIPEMD160) scheme: cosmos15428vq2uzwhm3taey9sr9x5vm6tk78ewe54lwe with our prefix.
    const parsed = await runCli(['keys', 'parse', 'cosmos15428vq2uzwhm3taey9sr9x5vm6tk78ewe54lwe', '-o', 'json']);
    expect(JSON.parse(cosmos.stdout).address).toBe(JSON.parse(parsed.stdout).formats[0]);
    const index1 = await runCli(keys(home, 'add', 'i', '--recover', '--index', '1', '--dry-run', '-o', 'json'), { input: JUNK });
    expect(JSON.parse(index1.stdout).address_hex).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    // --dry-run stores nothing
    const list = await runCli(keys(home, 'list', '--keyring-backend', 'test', '-o', 'json'));
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  test('list, rename, delete, mnemonic, parse', async () => {
    const home = tempHome();
    await runCli(keys(home, 'add', 'alice', '--recover', '--keyring-backend', 'test'), { input: JUNK });
    await runCli(keys(home, 'add', 'zed', '--keyring-backend', 'test'));
    const list = JSON.parse((await runCli(keys(home, 'list', '--keyring-backend', 'test', '-o', 'json'))).stdout);
    expect(list.map((key: { name: string }) => key.name)).toEqual(['alice', 'zed']);
    expect((await runCli(keys(home, 'list', '-n', '--keyring-backend', 'test'))).stdout).toBe('alice\nzed\n');
    expect((await runCli(keys(home, 'rename', 'alice', 'treasury', '--yes', '--keyring-backend', 'test'))).code).toBe(0);
    expect((await runCli(keys(home, 'show', 'treasury', '-a', '--keyring-backend', 'test'))).stdout.trim()).toBe(JUNK_ADDR);
    const del = await runCli(keys(home, 'delete', 'zed', '--keyring-backend', 'test'), { input: 'y\n' });
    expect(del.code).toBe(0);
    expect((await runCli(keys(home, 'list', '-n', '--keyring-backend', 'test'))).stdout).toBe('treasury\n');
    const mnemonic = (await runCli(['keys', 'mnemonic'])).stdout.trim();
    expect(mnemonic.split(' ')).toHaveLength(24);
    const parse = JSON.parse((await runCli(['keys', 'parse', JUNK_ADDR, '-o', 'json'])).stdout);
    expect(parse).toMatchObject({ format: 'bech32', prefix: 'token', hex: JUNK_HEX });
    const back = JSON.parse((await runCli(['keys', 'parse', JUNK_HEX, '-o', 'json'])).stdout);
    expect(back.formats[0]).toBe(JUNK_ADDR);
  });

  test('export → import round trip through armor; unarmored hex needs --unsafe', async () => {
    const home = tempHome();
    await runCli(keys(home, 'add', 'alice', '--recover', '--keyring-backend', 'test'), { input: JUNK });
    const exported = await runCli(keys(home, 'export', 'alice', '--keyring-backend', 'test'), { input: 'armorpass\n' });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^-----BEGIN TENDERMINT PRIVATE KEY-----/);
    expect(exported.stdout).toMatch(/type: eth_secp256k1/);
    const file = join(tempHome(), 'alice.armor');
    writeFileSync(file, exported.stdout);
    const other = tempHome();
    const imported = await runCli(keys(other, 'import', 'alice2', file, '--keyring-backend', 'test', '-o', 'json'), { input: 'armorpass\n' });
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout).address).toBe(JUNK_ADDR);
    const before = snapshotTree(other);
    const wrong = await runCli(keys(other, 'import', 'alice3', file, '--keyring-backend', 'test'), { input: 'nottheone\n' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(/passphrase/i);
    expect(snapshotTree(other)).toEqual(before);
    const refused = await runCli(keys(home, 'export', 'alice', '--unarmored-hex', '--keyring-backend', 'test'));
    expect(refused.code).not.toBe(0);
    const hex = await runCli(keys(home, 'export', 'alice', '--unarmored-hex', '--unsafe', '--yes', '--keyring-backend', 'test'));
    expect(hex.stdout.trim()).toBe('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  });

  test('debug addr / pubkey / raw-bytes', async () => {
    const addr = JSON.parse((await runCli(['debug', 'addr', JUNK_ADDR, '-o', 'json'])).stdout);
    expect(addr).toMatchObject({ eip55: JUNK_HEX, bech32_acc: JUNK_ADDR });
    expect(addr.bech32_val).toMatch(/^tokenvaloper1/);
    expect(addr.bech32_con).toMatch(/^tokenvalcons1/);
    const pub = JSON.parse((await runCli(['debug', 'pubkey', '038318535b54105d4a7aae60c08fc45f9687181b4fdfc625bd1a753fa7397fed75', '-o', 'json'])).stdout);
    expect(pub).toMatchObject({ address: JUNK_ADDR, address_hex: JUNK_HEX, type_url: '/ethermint.crypto.v1.ethsecp256k1.PubKey' });
    expect((await runCli(['debug', 'raw-bytes', '[72 101 108 108 111]'])).stdout.trim()).toBe('48656C6C6F');
    const bad = await runCli(['debug', 'raw-bytes', '[72 300]']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Error: "300" is not a byte/);
  });
});

describe('keys bad input: one line, non-zero exit, nothing written', () => {
  async function expectFailure(args: string[], input: string, pattern: RegExp, home: string): Promise<void> {
    const before = snapshotTree(home);
    const result = await runCli(args, { input });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Error: /);
    expect(lines[0]).toMatch(pattern);
    expect(snapshotTree(home)).toEqual(before);
  }

  test.each([
    ['unknown word', JUNK.replace('junk', 'junkk'), /junkk/],
    ['bad checksum', 'test test test test test test test test test test test test', /checksum/i],
    ['wrong length', 'test test test', /words/i],
  ])('invalid mnemonic: %s', async (_label, mnemonic, pattern) => {
    const home = tempHome();
    await expectFailure(keys(home, 'add', 'k', '--recover', '--keyring-backend', 'test'), `${mnemonic}\n`, pattern, home);
  });

  test('duplicate key name', async () => {
    const home = tempHome();
    await runCli(keys(home, 'add', 'alice', '--recover', '--keyring-backend', 'test'), { input: JUNK });
    await expectFailure(keys(home, 'add', 'alice', '--keyring-backend', 'test'), '', /already exists/, home);
  });

  test('unknown key', async () => {
    const home = tempHome();
    await expectFailure(keys(home, 'show', 'nobody', '--keyring-backend', 'test'), '', /nobody/, home);
    await expectFailure(keys(home, 'delete', 'nobody', '--yes', '--keyring-backend', 'test'), '', /nobody/, home);
  });

  test('invalid address or prefix', async () => {
    const home = tempHome();
    await expectFailure(['keys', 'parse', 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw3'], '', /checksum/i, home);
    await expectFailure(['debug', 'addr', 'cosmos17w0adeg64ky0daxwd2ugyuneellmjgnxramjtq'], '', /prefix|cosmos/i, home);
    await expectFailure(['keys', 'parse', '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266'], '', /checksum/i, home);
  });

  test('delete without --yes and no confirmation aborts', async () => {
    const home = tempHome();
    await runCli(keys(home, 'add', 'alice', '--recover', '--keyring-backend', 'test'), { input: JUNK });
    await expectFailure(keys(home, 'delete', 'alice', '--keyring-backend', 'test'), 'n\n', /aborted/, home);
  });

  test('unwritable home', async () => {
    const base = tempHome();
    const file = join(base, 'file');
    writeFileSync(file, 'x');
    await expectFailure(keys(join(file, 'home'), 'add', 'k', '--keyring-backend', 'test'), '', /cannot|not a directory|ENOTDIR/i, base);
  });
});

describe('keys with the file backend (encrypted, passwords piped)', () => {
  const PW = 'correct horse battery';

  test('create asks the password twice, later commands once; no plaintext at rest', async () => {
    const home = tempHome();
    const add = await runCli(keys(home, 'add', 'alice', '--recover', '--keyring-backend', 'file', '-o', 'json'), { input: `${PW}\n${PW}\n${JUNK}\n` });
    expect(add.stderr).toBe('');
    expect(JSON.parse(add.stdout).address).toBe(JUNK_ADDR);
    const show = await runCli(keys(home, 'show', 'alice', '-a', '--keyring-backend', 'file'), { input: `${PW}\n` });
    expect(show.stdout.trim()).toBe(JUNK_ADDR);
    const dir = join(home, 'keyring-file');
    const blob = readdirSync(dir).map((name) => readFileSync(join(dir, name)).toString('latin1')).join('\n');
    const priv = 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
    expect(blob.toLowerCase()).not.toContain(priv);
    expect(blob).not.toContain(Buffer.from(priv, 'hex').toString('base64'));
    expect(blob).not.toContain(Buffer.from(priv, 'hex').toString('latin1'));
    expect(blob).not.toContain('test test test');
  });

  test('short password, mismatched confirmation, wrong password: one line each, nothing written', async () => {
    const home = tempHome();
    let before = snapshotTree(home);
    const short = await runCli(keys(home, 'add', 'a', '--keyring-backend', 'file'), { input: 'short\nshort\n' });
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/^Error: .*at least 8 characters/);
    expect(snapshotTree(home)).toEqual(before);
    const mismatch = await runCli(keys(home, 'add', 'a', '--keyring-backend', 'file'), { input: `${PW}\n${PW}x\n` });
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toMatch(/^Error: .*(match|mismatch)/i);
    expect(snapshotTree(home)).toEqual(before);
    await runCli(keys(home, 'add', 'alice', '--recover', '--keyring-backend', 'file'), { input: `${PW}\n${PW}\n${JUNK}\n` });
    before = snapshotTree(home);
    const wrong = await runCli(keys(home, 'add', 'bob', '--keyring-backend', 'file'), { input: 'wrong password\n' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(/^Error: .*(passphrase|password)/i);
    expect(snapshotTree(home)).toEqual(before);
  });
});

describe('os backend without a Secret Service', () => {
  test('says so and suggests --keyring-backend file', async () => {
    const home = tempHome();
    const result = await runCli(keys(home, 'list', '--keyring-backend', 'os'), {
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: undefined },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--keyring-backend file/);
  });
});
