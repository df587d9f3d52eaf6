/**
 * Amino binary encoding of public key Anys (src/keyring/amino.ts has the byte layout), with the
 * amino names read from the key messages' `(amino.name)` options: tendermint/PubKeySecp256k1,
 * ethermint/PubKeyEthSecp256k1, tendermint/PubKeyEd25519, tendermint/PubKeyMultisigThreshold …
 * A multisig key's address is sha256 of this encoding, truncated to 20 bytes.
 */
import { fromBinary, getOption, hasOption, type DescMessage, type Registry } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { name as aminoNameOption } from '../../gen/amino/amino_pb.js';
import { LegacyAminoPubKeySchema } from '../../gen/cosmos/crypto/multisig/keys_pb.js';
import { aminoKeyAddress, aminoMultisigBytes, aminoSingleKeyBytes } from '../../keyring/amino.js';
import { typeNameFromUrl } from './any.js';
import { registry as defaultRegistry } from './registry.js';

function schemaOf(any: Any, registry: Registry): DescMessage {
  const schema = registry.getMessage(typeNameFromUrl(any.typeUrl));
  if (schema === undefined) throw new Error(`unknown public key type ${any.typeUrl}`);
  return schema;
}

/** The amino binary encoding of a public key Any (recursively for multisig keys). Throws on unknown types. */
export function aminoPubKeyBytes(any: Any, registry: Registry = defaultRegistry): Uint8Array {
  const schema = schemaOf(any, registry);
  if (schema.typeName === LegacyAminoPubKeySchema.typeName) {
    const multisig = fromBinary(LegacyAminoPubKeySchema, any.value);
    return aminoMultisigBytes(multisig.threshold, multisig.publicKeys.map((sub) => aminoPubKeyBytes(sub, registry)));
  }
  if (!hasOption(schema, aminoNameOption)) throw new Error(`public key type ${schema.typeName} has no amino name`);
  const keyField = schema.fields.find((f) => f.name === 'key');
  const key = keyField === undefined ? undefined : (fromBinary(schema, any.value) as unknown as Record<string, unknown>)[keyField.localName];
  if (!(key instanceof Uint8Array)) throw new Error(`public key type ${schema.typeName} has no key bytes`);
  return aminoSingleKeyBytes(getOption(schema, aminoNameOption), key);
}

/** The address of a (multisig) public key Any: sha256(amino bytes)[0..20]. */
export function aminoPubKeyAddress(any: Any, registry: Registry = defaultRegistry): Uint8Array {
  return aminoKeyAddress(aminoPubKeyBytes(any, registry));
}
