/**
 * The codec registry: every message type that may travel inside a `google.protobuf.Any`.
 *
 * Anys carry tx messages and their responses (TxBody.messages, TxMsgData.msg_responses), public
 * and private keys (SignerInfo.public_key, BaseAccount.pub_key, keyring records), accounts
 * (QueryAccountResponse.account, auth genesis) and decoded txs (TxResponse.tx). Packing,
 * unpacking and JSON conversion all resolve type URLs here and nowhere else, so a type missing
 * from this file is a type the node cannot decode. Msg types are taken from the Msg services,
 * so adding a service adds all of its messages.
 */
import type { DescMessage, DescService, Registry } from '@bufbuild/protobuf';
import { createRegistry } from '@bufbuild/protobuf';
import { BaseAccountSchema, ModuleAccountSchema, ModuleCredentialSchema } from '../../gen/cosmos/auth/v1beta1/auth_pb.js';
import { Msg as AuthMsg } from '../../gen/cosmos/auth/v1beta1/tx_pb.js';
import { Msg as BankMsg } from '../../gen/cosmos/bank/v1beta1/tx_pb.js';
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
import { Msg as StakingMsg } from '../../gen/cosmos/staking/v1beta1/tx_pb.js';
import { TxSchema } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import {
  PrivKeySchema as EthSecp256k1PrivKeySchema,
  PubKeySchema as EthSecp256k1PubKeySchema,
} from '../../gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { EthAccountSchema } from '../../gen/ethermint/types/v1/account_pb.js';

/** Msg services of the modules tokend runs. */
export const MSG_SERVICES: readonly DescService[] = [AuthMsg, BankMsg, StakingMsg];

/** Tx messages (the request type of every Msg service method). */
export const MSG_SCHEMAS: readonly DescMessage[] = MSG_SERVICES.flatMap((service) => service.methods.map((m) => m.input));

/** Tx message responses, packed into TxMsgData.msg_responses. */
export const MSG_RESPONSE_SCHEMAS: readonly DescMessage[] = MSG_SERVICES.flatMap((service) =>
  service.methods.map((m) => m.output),
);

/** Account public keys (cosmos.crypto.PubKey implementations). */
export const PUBKEY_SCHEMAS: readonly DescMessage[] = [
  EthSecp256k1PubKeySchema,
  EvmEthSecp256k1PubKeySchema,
  Secp256k1PubKeySchema,
  Ed25519PubKeySchema,
  LegacyAminoPubKeySchema,
  ModuleCredentialSchema,
];

/** Private keys (keyring records). */
export const PRIVKEY_SCHEMAS: readonly DescMessage[] = [
  EthSecp256k1PrivKeySchema,
  EvmEthSecp256k1PrivKeySchema,
  Secp256k1PrivKeySchema,
  Ed25519PrivKeySchema,
];

/** Account types (cosmos.auth.v1beta1.AccountI implementations). */
export const ACCOUNT_SCHEMAS: readonly DescMessage[] = [EthAccountSchema, BaseAccountSchema, ModuleAccountSchema];

/** Everything else that is packed: the decoded tx inside a TxResponse. */
export const OTHER_ANY_SCHEMAS: readonly DescMessage[] = [TxSchema];

/** The registry of all types above; pass it wherever protobuf-es asks for a `registry`. */
export const registry: Registry = createRegistry(
  ...MSG_SCHEMAS,
  ...MSG_RESPONSE_SCHEMAS,
  ...PUBKEY_SCHEMAS,
  ...PRIVKEY_SCHEMAS,
  ...ACCOUNT_SCHEMAS,
  ...OTHER_ANY_SCHEMAS,
);

/** The Cosmos type URL of a message type: "/" + full name, e.g. "/cosmos.bank.v1beta1.MsgSend". */
export function typeUrlOf(schema: DescMessage): string {
  return `/${schema.typeName}`;
}
