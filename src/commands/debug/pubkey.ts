import { Args, Flags } from '@oclif/core';
import { createHash } from 'node:crypto';
import { BaseCommand } from '../../cli/base.js';
import { TokendError } from '../../util/errors.js';

interface PubkeyResult {
  type_url: string;
  key_base64: string;
  key_hex: string;
  address_hex: string;
  address: string;
  bech32_pubkey?: string;
}

const TYPE_URLS: Record<string, 'eth_secp256k1' | 'secp256k1' | 'ed25519'> = {
  '/ethermint.crypto.v1.ethsecp256k1.PubKey': 'eth_secp256k1',
  '/cosmos.evm.crypto.v1.ethsecp256k1.PubKey': 'eth_secp256k1',
  '/cosmos.crypto.secp256k1.PubKey': 'secp256k1',
  '/cosmos.crypto.ed25519.PubKey': 'ed25519',
  'tendermint/PubKeyEd25519': 'ed25519',
  'tendermint/PubKeySecp256k1': 'secp256k1',
  'ethermint/PubKeyEthSecp256k1': 'eth_secp256k1',
};

export default class DebugPubkey extends BaseCommand<typeof DebugPubkey, PubkeyResult> {
  static override summary = 'Decode a public key and show its address';
  static override description =
    'Accepts the JSON form printed by `keys show -p` ({"@type":…,"key":…}), an amino JSON {"type":…,"value":…}, or raw base64/hex with --type.';
  static override examples = [
    `<%= config.bin %> debug pubkey '{"@type":"/ethermint.crypto.v1.ethsecp256k1.PubKey","key":"A4MYU1tUEF1KeqrmDAj8RfaHGBtP38Ylvbp1P6c5f+11"}'`,
    '<%= config.bin %> debug pubkey 038318535b54105d4a7aae60c08fc45f9687181b4fdfc625bd1a753fa7397fed75 --type eth_secp256k1',
  ];
  static override args = { pubkey: Args.string({ required: true, description: 'Public key (JSON, base64 or hex)' }) };
  static override flags = {
    type: Flags.option({ options: ['eth_secp256k1', 'secp256k1', 'ed25519'] as const, default: 'eth_secp256k1', description: 'Key type when the input is raw bytes' })(),
  };

  async execute(): Promise<PubkeyResult> {
    const input = this.args.pubkey.trim();
    let algo: 'eth_secp256k1' | 'secp256k1' | 'ed25519' = this.flags.type;
    let key: Uint8Array;
    if (input.startsWith('{')) {
      let doc: Record<string, unknown>;
      try {
        doc = JSON.parse(input) as Record<string, unknown>;
      } catch {
        throw new TokendError('INVALID_ARGUMENT', 'the public key is not valid JSON');
      }
      const typeUrl = String(doc['@type'] ?? doc.type ?? '');
      const known = TYPE_URLS[typeUrl];
      if (!known) throw new TokendError('INVALID_ARGUMENT', `unknown public key type "${typeUrl}"`, { hint: `known: ${Object.keys(TYPE_URLS).join(', ')}` });
      algo = known;
      key = Buffer.from(String(doc.key ?? doc.value ?? ''), 'base64');
    } else if (/^(0x)?[0-9a-fA-F]+$/.test(input) && input.replace(/^0x/, '').length % 2 === 0) {
      key = Buffer.from(input.replace(/^0x/, ''), 'hex');
    } else if (/^[A-Za-z0-9+/]+={0,2}$/.test(input)) {
      key = Buffer.from(input, 'base64');
    } else {
      throw new TokendError('INVALID_ARGUMENT', 'cannot decode the public key', { hint: 'give JSON, hex or base64' });
    }
    const expected = algo === 'ed25519' ? 32 : 33;
    if (key.length !== expected) {
      throw new TokendError('INVALID_ARGUMENT', `a ${algo} public key has ${expected} bytes, got ${key.length}`);
    }
    const { toAccountAddress, toChecksumHex, toConsensusAddress } = await import('../../keyring/address.js');
    let address: Uint8Array;
    let typeUrl: string;
    if (algo === 'ed25519') {
      address = createHash('sha256').update(key).digest().subarray(0, 20);
      typeUrl = '/cosmos.crypto.ed25519.PubKey';
    } else {
      const { addressFromPublicKey, PUBKEY_TYPE_URLS } = await import('../../keyring/keys.js');
      address = addressFromPublicKey(algo, key);
      typeUrl = PUBKEY_TYPE_URLS[algo];
    }
    return {
      type_url: typeUrl,
      key_base64: Buffer.from(key).toString('base64'),
      key_hex: Buffer.from(key).toString('hex').toUpperCase(),
      address_hex: toChecksumHex(address),
      address: algo === 'ed25519' ? toConsensusAddress(address) : toAccountAddress(address),
    };
  }
}
