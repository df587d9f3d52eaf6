/**
 * The codec registry: every message type that may travel inside a `google.protobuf.Any`.
 *
 * Anys carry tx messages and their responses (TxBody.messages, TxMsgData.msg_responses), public
 * and private keys (SignerInfo.public_key, BaseAccount.pub_key, keyring records), accounts
 * (QueryAccountResponse.account, auth genesis) and decoded txs (TxResponse.tx). Packing,
 * unpacking and JSON conversion resolve type URLs here and nowhere else.
 *
 * This file holds the types every app has (keys, the tx); the types of modules — Msgs and
 * their responses, accounts, proposal contents, … — are declared by each module and added by
 * the app's module list (src/node/app/modules.ts) when it is imported. Code that renders or
 * parses arbitrary Anys (clients, servers, genesis tools) imports that list once.
 */
import type { DescMessage, MutableRegistry } from '@bufbuild/protobuf';
import { createMutableRegistry } from '@bufbuild/protobuf';
import {
  PrivKeySchema as Ed25519PrivKeySchema,
  PubKeySchema as Ed25519PubKeySchema,
} from '../../gen/cosmos/crypto/ed25519/keys_pb.js';
import { LegacyAminoPubKeySchema } from '../../gen/cosmos/crypto/multisig/keys_pb.js';
import {
  PrivKeySchema as Secp256k1PrivKeySchema,
  PubKeySchema as Secp256k1PubKeySchema,
} from '../../gen/cosmos/crypto/secp256k1/keys_pb.js';
import {
  PrivKeySchema as EvmEthSecp256k1PrivKeySchema,
  PubKeySchema as EvmEthSecp256k1PubKeySchema,
} from '../../gen/cosmos/evm/crypto/v1/ethsecp256k1/keys_pb.js';
import { TxSchema } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import {
  PrivKeySchema as EthSecp256k1PrivKeySchema,
  PubKeySchema as EthSecp256k1PubKeySchema,
} from '../../gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';

/** Account public keys (cosmos.crypto.PubKey implementations). */
export const PUBKEY_SCHEMAS: readonly DescMessage[] = [
  EthSecp256k1PubKeySchema,
  EvmEthSecp256k1PubKeySchema,
  Secp256k1PubKeySchema,
  Ed25519PubKeySchema,
  LegacyAminoPubKeySchema,
];

/** Private keys (keyring records). */
export const PRIVKEY_SCHEMAS: readonly DescMessage[] = [
  EthSecp256k1PrivKeySchema,
  EvmEthSecp256k1PrivKeySchema,
  Secp256k1PrivKeySchema,
  Ed25519PrivKeySchema,
];

/** Everything else that is packed: the decoded tx inside a TxResponse. */
export const OTHER_ANY_SCHEMAS: readonly DescMessage[] = [TxSchema];

/**
 * The registry of the base types above plus, once src/node/app/modules.ts is imported, every
 * type the app's modules declare. Pass it wherever protobuf-es asks for a `registry`.
 */
export const registry: MutableRegistry = createMutableRegistry(...PUBKEY_SCHEMAS, ...PRIVKEY_SCHEMAS, ...OTHER_ANY_SCHEMAS);

/** Adds module-declared types (the app's module list calls this once). */
export function registerTypes(types: readonly DescMessage[]): void {
  for (const type of types) if (registry.getMessage(type.typeName) === undefined) registry.add(type);
}

/** The Cosmos type URL of a message type: "/" + full name, e.g. "/cosmos.bank.v1beta1.MsgSend". */
export function typeUrlOf(schema: DescMessage): string {
  return `/${schema.typeName}`;
}
