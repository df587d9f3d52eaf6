/**
 * The keyring contract: identical assertions for every backend (memory, test, file, os).
 * backends.test.ts calls `describeKeyringContract` once per backend with a fixture factory.
 */
import { convertAddress, toAccountAddress, toChecksumHex } from '../../src/keyring/address.js';
import { buildHdPath } from '../../src/keyring/hd.js';
import { verifySignature } from '../../src/keyring/keys.js';
import type { Keyring, KeyRecord } from '../../src/keyring/types.js';
import { ETH_VECTORS, JUNK_COSMOS_118, JUNK_COSMOS_SCHEME, JUNK_MNEMONIC } from './vectors.js';

export interface KeyringFixture {
  keyring: Keyring;
  /** A new Keyring instance over the same storage (the same instance for `memory`). */
  reopen(): Promise<Keyring>;
  /** A serialisation of everything stored, to assert that a failed operation changed nothing. */
  snapshot(): Promise<string>;
  cleanup(): Promise<void>;
}

export type FixtureFactory = () => Promise<KeyringFixture>;

const JUNK = ETH_VECTORS[0];
const SECOND = ETH_VECTORS[1];
const THIRD = ETH_VECTORS[2];
const ETH_PATH = "m/44'/60'/0'/0/0";
const ARMOR_PASSPHRASE = 'armor-passphrase';

export async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string; hint?: string }> {
  try {
    await promise;
  } catch (err) {
    return err as { code?: string; message: string; hint?: string };
  }
  throw new Error('expected a rejection');
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

async function createJunk(keyring: Keyring, name = 'alice'): Promise<KeyRecord> {
  return keyring.create({ name, mnemonic: JUNK_MNEMONIC, algo: 'eth_secp256k1', hdPath: ETH_PATH });
}

/** With `skipReason`, every test is registered but skipped, the reason in the group's title. */
export function describeKeyringContract(title: string, makeFixture: FixtureFactory, skipReason?: string): void {
  const describeOrSkip = skipReason === undefined ? describe : describe.skip;
  const groupTitle = skipReason === undefined ? `${title}: keyring contract` : `${title}: keyring contract — SKIPPED: ${skipReason}`;
  describeOrSkip(groupTitle, () => {
    let fixture: KeyringFixture;
    let keyring: Keyring;
    const extraFixtures: KeyringFixture[] = [];

    beforeEach(async () => {
      fixture = await makeFixture();
      keyring = fixture.keyring;
    });

    afterEach(async () => {
      await fixture.cleanup();
      for (const extra of extraFixtures.splice(0)) await extra.cleanup();
    });

    /** Runs `operation`, expects `code`, and checks that the stored state did not change. */
    async function expectRejectedUnchanged(operation: () => Promise<unknown>, code: string): Promise<{ message: string; hint?: string }> {
      const before = await fixture.snapshot();
      const err = await rejection(operation());
      expect(err.code).toBe(code);
      expect(await fixture.snapshot()).toBe(before);
      return err;
    }

    test('an empty keyring', async () => {
      expect(await keyring.list()).toEqual([]);
      expect(await keyring.has('alice')).toBe(false);
      const err = await rejection(keyring.get('alice'));
      expect(err.code).toBe('KEY_NOT_FOUND');
      expect(err.message).toBe('key "alice" not found');
      expect(err.hint).toContain('tokend keys list');
    });

    test('create the junk-mnemonic key: the vector address, stored and found every way', async () => {
      const record = await createJunk(keyring);
      expect(record.name).toBe('alice');
      expect(record.type).toBe('local');
      expect(record.algo).toBe('eth_secp256k1');
      expect(hex(record.pubKey)).toBe(JUNK.publicKeyHex);
      expect(toAccountAddress(record.address)).toBe('token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2');
      expect(toChecksumHex(record.address)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
      expect(record.hdPath).toBe(ETH_PATH);
      expect(Number.isNaN(Date.parse(record.createdAt ?? ''))).toBe(false);

      expect(await keyring.has('alice')).toBe(true);
      expect(await keyring.get('alice')).toEqual(record);
      expect(await keyring.list()).toEqual([record]);
      const forms = convertAddress(JUNK.token).forms;
      for (const query of ['alice', JUNK.token, forms.validatorOperator, forms.consensus, JUNK.hex, JUNK.hex.toLowerCase(), ` ${JUNK.token} `]) {
        expect((await keyring.find(query)).name).toBe('alice');
      }
      // survives a fresh instance (persistence of the on-disk / os backends)
      expect(await (await fixture.reopen()).get('alice')).toEqual(record);
    });

    test('list is sorted by name; records are copies', async () => {
      await keyring.create({ name: 'carol', mnemonic: THIRD.mnemonic, algo: 'eth_secp256k1', hdPath: ETH_PATH });
      await createJunk(keyring, 'alice');
      await keyring.create({ name: 'bob', mnemonic: SECOND.mnemonic, algo: 'eth_secp256k1', hdPath: ETH_PATH });
      const listed = await keyring.list();
      expect(listed.map((record) => record.name)).toEqual(['alice', 'bob', 'carol']);
      expect(listed.map((record) => toChecksumHex(record.address))).toEqual([JUNK.hex, SECOND.hex, THIRD.hex]);
      listed[0].address.fill(0);
      expect(toChecksumHex((await keyring.get('alice')).address)).toBe(JUNK.hex);
    });

    test('secp256k1 keys: default path 118, Cosmos address scheme', async () => {
      const record = await keyring.create({ name: 'cosmos', mnemonic: JUNK_MNEMONIC, algo: 'secp256k1', hdPath: buildHdPath({ algo: 'secp256k1' }) });
      expect(record.hdPath).toBe("m/44'/118'/0'/0/0");
      expect(toAccountAddress(record.address)).toBe(JUNK_COSMOS_118);
    });

    test('a duplicate name → KEY_EXISTS, nothing changed', async () => {
      await createJunk(keyring);
      const err = await expectRejectedUnchanged(
        () => keyring.create({ name: 'alice', mnemonic: SECOND.mnemonic, algo: 'eth_secp256k1', hdPath: ETH_PATH }),
        'KEY_EXISTS',
      );
      expect(err.message).toBe('a key named "alice" already exists');
      expect(toChecksumHex((await keyring.get('alice')).address)).toBe(JUNK.hex);
    });

    test('the same key under another name → KEY_EXISTS naming the existing key, nothing changed', async () => {
      await createJunk(keyring);
      const err = await expectRejectedUnchanged(() => createJunk(keyring, 'alice2'), 'KEY_EXISTS');
      expect(err.message).toContain('already stored as "alice"');
      expect(await keyring.has('alice2')).toBe(false);
    });

    test('bad input on create is rejected before anything is written', async () => {
      await createJunk(keyring);
      const valid = { name: 'bob', mnemonic: SECOND.mnemonic, algo: 'eth_secp256k1' as const, hdPath: ETH_PATH };
      await expectRejectedUnchanged(() => keyring.create({ ...valid, mnemonic: 'test test test' }), 'INVALID_MNEMONIC');
      await expectRejectedUnchanged(() => keyring.create({ ...valid, mnemonic: `${JUNK_MNEMONIC.replace('junk', 'test')}` }), 'INVALID_MNEMONIC');
      await expectRejectedUnchanged(() => keyring.create({ ...valid, hdPath: "m/44'/x/0" }), 'INVALID_ARGUMENT');
      await expectRejectedUnchanged(() => keyring.create({ ...valid, name: '../escape' }), 'INVALID_ARGUMENT');
      await expectRejectedUnchanged(() => keyring.create({ ...valid, name: '' }), 'INVALID_ARGUMENT');
      await expectRejectedUnchanged(() => keyring.create({ ...valid, algo: 'ed25519' as never }), 'INVALID_ARGUMENT');
      await expectRejectedUnchanged(() => keyring.importPrivateKey('bob', 'eth_secp256k1', new Uint8Array(32)), 'INVALID_ARGUMENT');
      expect((await keyring.list()).map((record) => record.name)).toEqual(['alice']);
    });

    test('unknown keys → KEY_NOT_FOUND for every operation, nothing changed', async () => {
      await createJunk(keyring);
      await expectRejectedUnchanged(() => keyring.get('nobody'), 'KEY_NOT_FOUND');
      await expectRejectedUnchanged(() => keyring.delete('nobody'), 'KEY_NOT_FOUND');
      await expectRejectedUnchanged(() => keyring.rename('nobody', 'somebody'), 'KEY_NOT_FOUND');
      await expectRejectedUnchanged(() => keyring.sign('nobody', new Uint8Array([1])), 'KEY_NOT_FOUND');
      await expectRejectedUnchanged(() => keyring.exportArmor('nobody', ARMOR_PASSPHRASE), 'KEY_NOT_FOUND');
      await expectRejectedUnchanged(() => keyring.exportPrivateKeyHex('nobody'), 'KEY_NOT_FOUND');
      await expectRejectedUnchanged(() => keyring.find('nobody'), 'KEY_NOT_FOUND');
      await expectRejectedUnchanged(() => keyring.get('../../etc/passwd'), 'KEY_NOT_FOUND');
      const unknownAddress = await expectRejectedUnchanged(() => keyring.find(SECOND.token), 'KEY_NOT_FOUND');
      expect(unknownAddress.message).toBe(`no key with address ${SECOND.token}`);
      await expectRejectedUnchanged(() => keyring.find(SECOND.hex), 'KEY_NOT_FOUND');
      // an address-shaped input with a bad checksum is an address error, not "not found"
      await expectRejectedUnchanged(() => keyring.find(`${JUNK.token.slice(0, -1)}q`), 'INVALID_ADDRESS');
    });

    test('rename moves the key and its address; to an existing or invalid name is refused', async () => {
      const original = await createJunk(keyring);
      await keyring.create({ name: 'bob', mnemonic: SECOND.mnemonic, algo: 'eth_secp256k1', hdPath: ETH_PATH });
      const renamed = await keyring.rename('alice', 'dave');
      expect(renamed).toEqual({ ...original, name: 'dave' });
      expect(await keyring.has('alice')).toBe(false);
      expect((await keyring.find(JUNK.token)).name).toBe('dave');
      expect((await keyring.list()).map((record) => record.name)).toEqual(['bob', 'dave']);

      const exists = await expectRejectedUnchanged(() => keyring.rename('dave', 'bob'), 'KEY_EXISTS');
      expect(exists.message).toBe('a key named "bob" already exists');
      await expectRejectedUnchanged(() => keyring.rename('dave', 'dave'), 'KEY_EXISTS');
      await expectRejectedUnchanged(() => keyring.rename('dave', '.hidden'), 'INVALID_ARGUMENT');
      // the renamed key still signs
      const { signature } = await keyring.sign('dave', new Uint8Array([1, 2, 3]));
      expect(verifySignature('eth_secp256k1', original.pubKey, new Uint8Array([1, 2, 3]), signature)).toBe(true);
    });

    test('delete removes the key and its address; the same key can be added again', async () => {
      await createJunk(keyring);
      await keyring.create({ name: 'bob', mnemonic: SECOND.mnemonic, algo: 'eth_secp256k1', hdPath: ETH_PATH });
      await keyring.delete('alice');
      expect(await keyring.has('alice')).toBe(false);
      expect((await keyring.list()).map((record) => record.name)).toEqual(['bob']);
      expect((await rejection(keyring.find(JUNK.token))).code).toBe('KEY_NOT_FOUND');
      await createJunk(keyring, 'alice-again');
      expect((await keyring.find(JUNK.hex)).name).toBe('alice-again');
    });

    test('sign → verify for both algorithms, by name or address', async () => {
      const message = new TextEncoder().encode('{"account_number":"0","chain_id":"testnet"}');
      const eth = await createJunk(keyring);
      const cosmos = await keyring.create({ name: 'cosmos', mnemonic: SECOND.mnemonic, algo: 'secp256k1', hdPath: "m/44'/118'/0'/0/0" });

      const byName = await keyring.sign('alice', message);
      expect(byName.algo).toBe('eth_secp256k1');
      expect(byName.signature).toHaveLength(65);
      expect(byName.pubKey).toEqual(eth.pubKey);
      expect(verifySignature('eth_secp256k1', eth.pubKey, message, byName.signature)).toBe(true);
      const byAddress = await keyring.sign(JUNK.hex, message);
      expect(byAddress.signature).toEqual(byName.signature);

      const cosmosSigned = await keyring.sign(toAccountAddress(cosmos.address), message);
      expect(cosmosSigned.algo).toBe('secp256k1');
      expect(cosmosSigned.signature).toHaveLength(64);
      expect(verifySignature('secp256k1', cosmos.pubKey, message, cosmosSigned.signature)).toBe(true);
      expect(verifySignature('secp256k1', cosmos.pubKey, new Uint8Array([0]), cosmosSigned.signature)).toBe(false);
    });

    test('import a raw private key; export it as hex', async () => {
      const record = await keyring.importPrivateKey('imported', 'secp256k1', Buffer.from(JUNK.privateKeyHex!, 'hex'));
      expect(record.hdPath).toBeUndefined();
      expect(toAccountAddress(record.address)).toBe(JUNK_COSMOS_SCHEME.token);
      expect(await keyring.exportPrivateKeyHex('imported')).toBe(JUNK.privateKeyHex);
      // the same private key as eth_secp256k1 is a different address, so it is not a duplicate
      const eth = await keyring.importPrivateKey('imported-eth', 'eth_secp256k1', Buffer.from(JUNK.privateKeyHex!, 'hex'));
      expect(toChecksumHex(eth.address)).toBe(JUNK.hex);
    });

    test('armor export → import into a second keyring; errors change nothing', async () => {
      const original = await createJunk(keyring);
      const armor = await keyring.exportArmor('alice', ARMOR_PASSPHRASE);
      expect(armor.startsWith('-----BEGIN TENDERMINT PRIVATE KEY-----\nkdf: bcrypt\n')).toBe(true);
      expect(armor).toContain('type: eth_secp256k1');

      const second = await makeFixture();
      extraFixtures.push(second);
      const imported = await second.keyring.importArmor('restored', armor, ARMOR_PASSPHRASE);
      expect(imported.algo).toBe('eth_secp256k1');
      expect(imported.address).toEqual(original.address);
      expect(imported.pubKey).toEqual(original.pubKey);
      expect(await second.keyring.exportPrivateKeyHex('restored')).toBe(JUNK.privateKeyHex);

      // back into the first keyring: the same key already exists under "alice"
      const duplicate = await expectRejectedUnchanged(() => keyring.importArmor('alice-copy', armor, ARMOR_PASSPHRASE), 'KEY_EXISTS');
      expect(duplicate.message).toContain('"alice"');
      await expectRejectedUnchanged(() => keyring.importArmor('alice', armor, ARMOR_PASSPHRASE), 'KEY_EXISTS');
      const wrong = await expectRejectedUnchanged(() => keyring.importArmor('other', armor, 'not the passphrase'), 'WRONG_PASSWORD');
      expect(wrong.message).toBe('invalid armor passphrase');
      await expectRejectedUnchanged(() => keyring.importArmor('other', armor.replace('kdf: bcrypt\n', ''), ARMOR_PASSPHRASE), 'INVALID_ARGUMENT');
      await expectRejectedUnchanged(() => keyring.exportArmor('alice', 'short'), 'INVALID_PASSWORD');
    });

    test('multisig keys: stored sorted by member address, found by name or address, survive a reopen; cannot sign', async () => {
      const a = await createJunk(keyring, 'a');
      const b = await keyring.create({ name: 'b', mnemonic: SECOND.mnemonic, algo: 'eth_secp256k1', hdPath: ETH_PATH });
      const c = await keyring.create({ name: 'c', mnemonic: THIRD.mnemonic, algo: 'secp256k1', hdPath: buildHdPath({ algo: 'secp256k1' }) });
      const members = [c, a, b].map((k) => ({ algo: k.algo, pubKey: k.pubKey }));
      const multi = await keyring.addMultisig({ name: 'ms', threshold: 2, members });
      expect(multi).toMatchObject({ name: 'ms', type: 'multi', threshold: 2 });
      const byAddress = (k: { algo: 'eth_secp256k1' | 'secp256k1'; pubKey: Uint8Array }): string => hex([a, b, c].find((x) => hex(x.pubKey) === hex(k.pubKey))!.address);
      const order = multi.members.map(byAddress);
      expect(order).toEqual([...order].sort());
      const unsorted = await keyring.addMultisig({ name: 'ms-nosort', threshold: 1, members, sort: false });
      expect(unsorted.members.map((m) => hex(m.pubKey))).toEqual(members.map((m) => hex(m.pubKey)));
      expect(hex(unsorted.address)).not.toBe(hex(multi.address));

      const reopened = await fixture.reopen();
      expect(await reopened.record('ms')).toEqual(multi);
      expect(await reopened.record(toAccountAddress(multi.address))).toEqual(multi);
      expect((await reopened.list()).map((r) => `${r.name}:${r.type}`)).toEqual(['a:local', 'b:local', 'c:local', 'ms:multi', 'ms-nosort:multi']);
      const cannotSign = await rejection(reopened.sign('ms', new Uint8Array([1])));
      expect(cannotSign).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'key "ms" is an offline multisig key: it cannot sign by itself' });
      expect((await rejection(reopened.find('ms'))).code).toBe('INVALID_ARGUMENT');
      expect((await rejection(reopened.exportPrivateKeyHex('ms'))).code).toBe('INVALID_ARGUMENT');

      const renamed = await keyring.rename('ms', 'vault');
      expect(renamed).toEqual({ ...multi, name: 'vault' });
      await keyring.delete('vault');
      expect(await keyring.has('vault')).toBe(false);
    });

    test('offline keys: a public key only, shown and usable as a multisig member, never signs', async () => {
      const local = await keyring.create({ name: 'other', mnemonic: SECOND.mnemonic, algo: 'eth_secp256k1', hdPath: ETH_PATH });
      await keyring.delete('other');
      const offline = await keyring.addOffline('bob', local.algo, local.pubKey);
      expect(offline).toMatchObject({ name: 'bob', type: 'offline', algo: 'eth_secp256k1' });
      expect(hex(offline.address)).toBe(hex(local.address));
      const reopened = await fixture.reopen();
      expect(await reopened.record(toAccountAddress(local.address))).toEqual(offline);
      expect(await rejection(reopened.sign('bob', new Uint8Array([1])))).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'key "bob" is an offline key (public key only): it cannot sign by itself' });
      const a = await createJunk(keyring, 'a');
      const multi = await keyring.addMultisig({ name: 'ms', threshold: 2, members: [a, offline].map((k) => ({ algo: k.algo, pubKey: k.pubKey })) });
      expect(multi.members).toHaveLength(2);
      await expectRejectedUnchanged(() => keyring.addOffline('bob2', local.algo, local.pubKey), 'KEY_EXISTS');
      await expectRejectedUnchanged(() => keyring.addOffline('bad', 'secp256k1', new Uint8Array(33)), 'INVALID_ARGUMENT');
    });

    test('multisig keys: a threshold above the key count, zero, a repeated member, a taken name or the same key again are refused; nothing is written', async () => {
      const a = await createJunk(keyring, 'a');
      const b = await keyring.create({ name: 'b', mnemonic: SECOND.mnemonic, algo: 'eth_secp256k1', hdPath: ETH_PATH });
      const members = [a, b].map((k) => ({ algo: k.algo, pubKey: k.pubKey }));
      const above = await expectRejectedUnchanged(() => keyring.addMultisig({ name: 'ms', threshold: 3, members }), 'INVALID_ARGUMENT');
      expect(above.message).toBe('multisig threshold 3 is above the number of keys (2)');
      await expectRejectedUnchanged(() => keyring.addMultisig({ name: 'ms', threshold: 0, members }), 'INVALID_ARGUMENT');
      const repeated = await expectRejectedUnchanged(() => keyring.addMultisig({ name: 'ms', threshold: 1, members: [members[0]!, members[1]!, members[0]!] }), 'INVALID_ARGUMENT');
      expect(repeated.message).toBe('duplicate multisig member: keys 1 and 3 are the same key');
      await expectRejectedUnchanged(() => keyring.addMultisig({ name: 'a', threshold: 1, members }), 'KEY_EXISTS');
      await keyring.addMultisig({ name: 'ms', threshold: 2, members });
      const again = await expectRejectedUnchanged(() => keyring.addMultisig({ name: 'ms2', threshold: 2, members: [...members].reverse() }), 'KEY_EXISTS');
      expect(again.message).toContain('"ms"');
    });
  });
}
