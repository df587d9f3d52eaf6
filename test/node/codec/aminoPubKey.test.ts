/**
 * Amino binary encoding of public keys and multisig addresses, against CosmJS's
 * `createMultisigThresholdPubkey` / `encodeAminoPubkey` / `pubkeyToAddress` (run in plain Node),
 * and the SDK's registered prefixes.
 */
import { create } from '@bufbuild/protobuf';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { LegacyAminoPubKeySchema } from '../../../src/gen/cosmos/crypto/multisig/keys_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../../src/gen/cosmos/crypto/secp256k1/keys_pb.js';
import { PubKeySchema as EvmEthPubKeySchema } from '../../../src/gen/cosmos/evm/crypto/v1/ethsecp256k1/keys_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { aminoPrefix } from '../../../src/keyring/amino.js';
import { toAccountAddress } from '../../../src/keyring/address.js';
import { aminoPubKeyAddress, aminoPubKeyBytes } from '../../../src/node/codec/aminoPubKey.js';
import { anyPack } from '../../../src/node/codec/index.js';
import { testKey } from '../app/helpers.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

test('registered amino prefixes', () => {
  expect(hex(aminoPrefix('tendermint/PubKeySecp256k1'))).toBe('eb5ae987');
  expect(hex(aminoPrefix('tendermint/PubKeyEd25519'))).toBe('1624de64');
  expect(hex(aminoPrefix('tendermint/PubKeyMultisigThreshold'))).toBe('22c1f7e2');
  // Ethermint registers its key as "ethermint/PubKeyEthSecp256k1"; cosmos/evm (and CosmJS's
  // EthSecp256k1 prefix 5D7423DF) use "os/PubKeyEthSecp256k1". Each type URL keeps its own name.
  expect(hex(aminoPrefix('ethermint/PubKeyEthSecp256k1'))).toBe('f3b3cd03');
  expect(hex(aminoPrefix('os/PubKeyEthSecp256k1')).toUpperCase()).toBe('5D7423DF');
});

test('multisig addresses and encodings equal CosmJS for secp256k1, eth_secp256k1 (as /cosmos.evm keys, CosmJS\'s prefix) and mixed members', () => {
  const cosmos = [testKey('m1', 'secp256k1'), testKey('m2', 'secp256k1'), testKey('m3', 'secp256k1')];
  const eth = [testKey('e1'), testKey('e2'), testKey('e3')];
  const sets = [
    { threshold: 2, keys: cosmos },
    { threshold: 2, keys: eth },
    { threshold: 1, keys: [eth[0]!, cosmos[1]!] },
    { threshold: 3, keys: [...cosmos, ...eth] },
  ];
  const input = sets.map((s) => ({ threshold: s.threshold, nosort: true, keys: s.keys.map((k) => ({ type: k.algo === 'secp256k1' ? 'secp256k1' : 'ethsecp256k1', key: Buffer.from(k.pubKey).toString('base64') })) }));
  const expected = JSON.parse(execFileSync(process.execPath, [join(import.meta.dirname, 'fixtures', 'cosmjs-multisig.cjs')], { input: JSON.stringify(input), encoding: 'utf8', timeout: 60_000 })) as { address: string; amino: string }[];
  sets.forEach((set, i) => {
    const any = anyPack(
      LegacyAminoPubKeySchema,
      create(LegacyAminoPubKeySchema, {
        threshold: set.threshold,
        publicKeys: set.keys.map((k) => (k.algo === 'secp256k1' ? anyPack(Secp256k1PubKeySchema, create(Secp256k1PubKeySchema, { key: k.pubKey })) : anyPack(EvmEthPubKeySchema, create(EvmEthPubKeySchema, { key: k.pubKey })))),
      }),
    );
    expect(hex(aminoPubKeyBytes(any))).toBe(expected[i]!.amino);
    expect(toAccountAddress(aminoPubKeyAddress(any))).toBe(expected[i]!.address);
  });
});

test('an Ethermint eth_secp256k1 member is encoded under its own amino name', () => {
  const key = testKey('e1');
  const any = anyPack(LegacyAminoPubKeySchema, create(LegacyAminoPubKeySchema, { threshold: 1, publicKeys: [anyPack(EthPubKeySchema, create(EthPubKeySchema, { key: key.pubKey }))] }));
  expect(hex(aminoPubKeyBytes(any))).toBe(`22c1f7e2 0801 1226 f3b3cd03 21 ${hex(key.pubKey)}`.replace(/ /g, ""));
});
