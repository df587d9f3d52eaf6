/** The hand-written account codec is byte-identical to protobuf-es and round-trips every kind. */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { EthAccountSchema } from '../../../src/gen/ethermint/types/v1/account_pb.js';
import { InterchainAccountSchema } from '../../../src/gen/ibc/applications/interchain_accounts/v1/account_pb.js';
import { PubKeySchema as EvmPubKeySchema } from '../../../src/gen/cosmos/evm/crypto/v1/ethsecp256k1/keys_pb.js';
import { anyPack } from '../../../src/node/codec/index.js';
import {
  EMPTY_CODE_HASH,
  accountToAny,
  decodeAccount,
  decodePubKey,
  encodeAccount,
  newEthAccount,
  newInterchainAccount,
  newModuleAccount,
  pubKeyAddress,
  type Account,
} from '../../../src/node/modules/auth/account.js';
import { moduleAddress } from '../../../src/node/modules/shared/address.js';
import { keyPairFromPrivateKey } from '../../../src/keyring/keys.js';
import { sha256 } from '../../../src/keyring/hash.js';

const eth = keyPairFromPrivateKey('eth_secp256k1', sha256(new TextEncoder().encode('codec-eth')));
const cosmos = keyPairFromPrivateKey('secp256k1', sha256(new TextEncoder().encode('codec-cosmos')));

const cases: [string, Account][] = [
  ['new EthAccount', newEthAccount(eth.address, 0n)],
  ['EthAccount with key and sequence', { ...newEthAccount(eth.address, 123456789n), pubKey: { algo: 'eth_secp256k1', key: eth.pubKey, typeUrl: '/ethermint.crypto.v1.ethsecp256k1.PubKey' }, sequence: 300n }],
  ['BaseAccount with a Cosmos key', { ...newEthAccount(cosmos.address, 7n), kind: 'base', codeHash: '', pubKey: { algo: 'secp256k1', key: cosmos.pubKey, typeUrl: '/cosmos.crypto.secp256k1.PubKey' } }],
  ['ModuleAccount', newModuleAccount('bonded_tokens_pool', moduleAddress('bonded_tokens_pool'), 3n, ['burner', 'staking'])],
  ['ModuleAccount without permissions', newModuleAccount('fee_collector', moduleAddress('fee_collector'), 0n, [])],
  ['InterchainAccount (32-byte address)', newInterchainAccount(sha256(new TextEncoder().encode('ica')), 9n, 'icacontroller-token1owner')],
];

describe('account codec', () => {
  test.each(cases)('%s: same bytes as protobuf-es, decodes back', (_name, account) => {
    const fast = encodeAccount(account);
    expect(Buffer.from(fast)).toEqual(Buffer.from(toBinary(AnySchema, accountToAny(account))));
    const decoded = decodeAccount(Uint8Array.from(fast)); // a fresh object: no memo
    expect(decoded).toEqual(account);
  });

  test('an InterchainAccount is /ibc.applications.interchain_accounts.v1.InterchainAccount with base_account and account_owner', () => {
    const any = accountToAny(newInterchainAccount(sha256(new TextEncoder().encode('ica')), 9n, 'icacontroller-token1owner'));
    expect(any.typeUrl).toBe('/ibc.applications.interchain_accounts.v1.InterchainAccount');
    const ica = fromBinary(InterchainAccountSchema, any.value);
    expect([ica.accountOwner, ica.baseAccount?.accountNumber, ica.baseAccount?.pubKey]).toEqual(['icacontroller-token1owner', 9n, undefined]);
  });

  test('an EthAccount without code hash reads as keccak256("")', () => {
    const base = accountToAny(newEthAccount(eth.address, 1n));
    const inner = fromBinary(EthAccountSchema, base.value);
    const stripped = toBinary(AnySchema, create(AnySchema, { typeUrl: base.typeUrl, value: toBinary(EthAccountSchema, create(EthAccountSchema, { baseAccount: inner.baseAccount, codeHash: '' })) }));
    expect(decodeAccount(stripped).codeHash).toBe(EMPTY_CODE_HASH);
  });

  test('the Cosmos-EVM key type is accepted and normalised to the Ethermint one', () => {
    const pubKey = decodePubKey(anyPack(EvmPubKeySchema, create(EvmPubKeySchema, { key: eth.pubKey })));
    expect(pubKey.typeUrl).toBe('/ethermint.crypto.v1.ethsecp256k1.PubKey');
    expect(Buffer.from(pubKeyAddress(pubKey)!)).toEqual(Buffer.from(eth.address));
  });

  test('unknown key types are an invalid pubkey error', () => {
    expect(() => decodePubKey(create(AnySchema, { typeUrl: '/foo.PubKey', value: new Uint8Array(0) }))).toThrow('unrecognized public key type: /foo.PubKey: invalid pubkey');
  });
});
