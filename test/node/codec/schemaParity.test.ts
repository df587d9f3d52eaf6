/**
 * Every message type we generate that cosmjs-types also has must agree on the wire: a message
 * with every field set (non-zero values, one member per oneof, two items per list) is encoded by
 * protobuf-es, decoded by cosmjs-types and re-encoded; the bytes must be identical. A wrong field
 * number, scalar type or nesting in our hand-written .proto files makes cosmjs-types drop or
 * mangle the field, and the bytes differ.
 */
import { createRequire } from 'node:module';
import type { DescMessage, Message } from '@bufbuild/protobuf';
import { create, equals, fromBinary, ScalarType, toBinary } from '@bufbuild/protobuf';
import { CoinSchema } from '../../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { PROTO_FILES } from '../../../src/node/codec/files.js';

const require = createRequire(import.meta.url);

interface CosmjsCodec {
  typeUrl?: string;
  encode(message: unknown): { finish(): Uint8Array };
  decode(bytes: Uint8Array): unknown;
}

/** Files with no cosmjs-types counterpart (checked: cosmjs-types 0.11 ships none of these). */
const FILES_WITHOUT_COSMJS = new Set([
  'aioz/staking/v1beta1/query.proto',
  'aioz/staking/v1beta1/staking.proto',
  'amino/amino.proto',
  'cosmos/evm/crypto/v1/ethsecp256k1/keys.proto',
  'cosmos_proto/cosmos.proto',
  'cosmos/msg/v1/msg.proto',
  // x/authz's typed events (cosmjs-types 0.11 ships the authz package without event.proto).
  'cosmos/authz/v1beta1/event.proto',
  'cosmos/query/v1/query.proto',
  'ethermint/crypto/v1/ethsecp256k1/keys.proto',
  'ethermint/types/v1/account.proto',
  'ethermint/types/v1/web3.proto',
  // Ethermint's EVM and fee market (cosmjs-types has no ethermint packages).
  'ethermint/evm/v1/evm.proto',
  'ethermint/evm/v1/genesis.proto',
  'ethermint/evm/v1/query.proto',
  'ethermint/evm/v1/tx.proto',
  'ethermint/feemarket/v1/feemarket.proto',
  'ethermint/feemarket/v1/genesis.proto',
  'ethermint/feemarket/v1/query.proto',
  'ethermint/feemarket/v1/tx.proto',
  'gogoproto/gogo.proto',
  'google/api/annotations.proto',
  'grpc/reflection/v1/reflection.proto',
  'grpc/reflection/v1alpha/reflection.proto',
  'tendermint/libs/bits/types.proto',
  'tendermint/types/canonical.proto',
  // The p2p reactors' messages (cosmjs-types has no p2p connection or reactor protos).
  'tendermint/p2p/conn.proto',
  'tendermint/p2p/pex.proto',
  'tendermint/consensus/types.proto',
  'tendermint/mempool/types.proto',
  'tendermint/blocksync/types.proto',
  'tendermint/statesync/types.proto',
  // The network's own modules (their client types ship in AIOZ's fork of cosmjs-types, not this one).
  'aioz/mint/v1/genesis.proto',
  'aioz/mint/v1/mint.proto',
  'aioz/mint/v1/query.proto',
  'aioz/mint/v1/tx.proto',
  'aioz/bonus/v1/genesis.proto',
  'aioz/bonus/v1/params.proto',
  'aioz/bonus/v1/query.proto',
  'aioz/bonus/v1/tx.proto',
  'aioz/aiozrc20/v1/aiozrc20.proto',
  'aioz/aiozrc20/v1/genesis.proto',
  'aioz/aiozrc20/v1/query.proto',
  'aioz/aiozrc20/v1/tx.proto',
  // ICS-29 fees (cosmjs-types 0.11 ships transfer and interchain accounts only) and bech32ibc (Osmosis' module).
  'ibc/applications/fee/v1/ack.proto',
  'ibc/applications/fee/v1/fee.proto',
  'ibc/applications/fee/v1/genesis.proto',
  'ibc/applications/fee/v1/metadata.proto',
  'ibc/applications/fee/v1/query.proto',
  'ibc/applications/fee/v1/tx.proto',
  'bech32ibc/bech32ibc/v1beta1/genesis.proto',
  'bech32ibc/bech32ibc/v1beta1/gov.proto',
  'bech32ibc/bech32ibc/v1beta1/query.proto',
  'bech32ibc/bech32ibc/v1beta1/types.proto',
  // x/capability (cosmjs-types 0.11 follows an SDK whose capability module moved to ibc-go).
  'cosmos/capability/v1beta1/capability.proto',
  'cosmos/capability/v1beta1/genesis.proto',
  // The network's icamauth (Gaia's x/icamauth under aioz.icamauth): not in cosmjs-types.
  'aioz/icamauth/v1beta1/query.proto',
  'aioz/icamauth/v1beta1/tx.proto',
]);

/**
 * ibc-go v6 messages cosmjs-types 0.11 (which follows a later ibc-go) no longer ships, or ships
 * changed: the two v1beta1 client proposals (removed in ibc-go v8), MerklePath (moved to
 * commitment v2), ICS-20's DenomTrace and its two queries (replaced by v2 Denom / Denoms in
 * ibc-go v10), the packet data (moved to transfer v1 in v10) and the transfer GenesisState (field
 * 2 became `repeated v2.Denom denoms` in v10; v6 has `repeated DenomTrace denom_traces`).
 */
const MESSAGES_WITHOUT_COSMJS = new Set([
  'ibc.core.client.v1.ClientUpdateProposal',
  'ibc.core.client.v1.UpgradeProposal',
  'ibc.core.commitment.v1.MerklePath',
  'ibc.applications.transfer.v1.DenomTrace',
  'ibc.applications.transfer.v1.QueryDenomTraceRequest',
  'ibc.applications.transfer.v1.QueryDenomTraceResponse',
  'ibc.applications.transfer.v1.QueryDenomTracesRequest',
  'ibc.applications.transfer.v1.QueryDenomTracesResponse',
  'ibc.applications.transfer.v1.GenesisState',
  'ibc.applications.transfer.v2.FungibleTokenPacketData',
]);

/**
 * Messages cosmjs-types gets wrong (left out of the comparison), with what it does wrong.
 * ibc.core.connection.v1.QueryConnectionParamsResponse: its codegen resolves `Params params = 1`
 * to ibc.core.client.v1.Params (imported into the same file) instead of the package's own
 * ibc.core.connection.v1.Params, as protobuf's scoping (and ibc-go's Go code) does; it then reads
 * the uint64 max_expected_time_per_block as the string allowed_clients.
 */
const COSMJS_DEFECTS = new Set(['ibc.core.connection.v1.QueryConnectionParamsResponse']);

function cosmjsCodec(desc: DescMessage): CosmjsCodec | undefined {
  const modulePath = `cosmjs-types/${desc.file.proto.name.replace(/\.proto$/, '')}`;
  let mod: Record<string, CosmjsCodec>;
  try {
    mod = require(modulePath) as Record<string, CosmjsCodec>;
  } catch {
    return undefined;
  }
  const localName = desc.typeName.slice(desc.file.proto.package.length + 1).replace(/\./g, '_');
  return mod[localName];
}

function allMessages(): DescMessage[] {
  const out: DescMessage[] = [];
  const visit = (desc: DescMessage): void => {
    out.push(desc);
    desc.nestedMessages.forEach(visit);
  };
  for (const file of PROTO_FILES) file.messages.forEach(visit);
  return out;
}

let counter = 1;
const next = (): number => counter++;

function sampleScalar(type: ScalarType): unknown {
  const n = next();
  switch (type) {
    case ScalarType.STRING:
      return `s${n}`;
    case ScalarType.BYTES:
      return new Uint8Array([n % 256, (n * 7) % 256, 1]);
    case ScalarType.BOOL:
      return true;
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return BigInt(1_000_000_000_000 + n);
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return 1.5;
    default:
      return n;
  }
}

/**
 * A message with every field set. Message fields are filled unless that would recurse into a
 * type already being filled (ModeInfo.Multi -> ModeInfo), so non-nullable sub-messages, which
 * cosmjs-types always writes, are present.
 */
/**
 * True if this type, or one it contains, declares fields out of field-number order. protobuf-es
 * (like Go) writes fields by number; cosmjs-types writes them in declaration order, so for these
 * types the bytes may differ in order only.
 */
function declaredOutOfOrder(desc: DescMessage, seen = new Set<string>()): boolean {
  if (seen.has(desc.typeName)) return false;
  seen.add(desc.typeName);
  const numbers = desc.fields.map((f) => f.number);
  if (numbers.some((n, i) => i > 0 && n < numbers[i - 1])) return true;
  return desc.fields.some((f) => f.message !== undefined && declaredOutOfOrder(f.message, seen));
}

/**
 * Fields upstream added after the version cosmjs-types was generated from (left unset in the
 * sample): ics23 v0.10.0, which Cosmos SDK 0.50 uses, added ProofSpec.prehash_key_before_comparison.
 */
const NEWER_THAN_COSMJS: Record<string, readonly string[]> = {
  'cosmos.ics23.v1.ProofSpec': ['prehash_key_before_comparison'],
};

function sampleMessage(desc: DescMessage, path: readonly string[] = []): Message {
  switch (desc.typeName) {
    case 'google.protobuf.Any':
      return create(desc, {
        typeUrl: '/cosmos.base.v1beta1.Coin',
        value: toBinary(CoinSchema, create(CoinSchema, { denom: 'attotoken', amount: String(next()) })),
      } as never);
    case 'google.protobuf.Timestamp':
    case 'google.protobuf.Duration':
      return create(desc, { seconds: BigInt(1_700_000_000 + next()), nanos: 500 } as never);
    default:
      break;
  }
  const message = create(desc) as unknown as Record<string, unknown>;
  for (const field of desc.fields) {
    if (NEWER_THAN_COSMJS[desc.typeName]?.includes(field.name)) continue;
    let value: unknown;
    switch (field.fieldKind) {
      case 'scalar':
        value = sampleScalar(field.scalar);
        break;
      case 'enum':
        value = field.enum.values.find((v) => v.number !== 0)?.number ?? 0;
        break;
      case 'message':
        if (path.includes(field.message.typeName)) continue;
        value = sampleMessage(field.message, [...path, desc.typeName]);
        break;
      case 'list':
        if (field.listKind === 'message') {
          if (path.includes(field.message.typeName)) continue;
          const itemPath = [...path, desc.typeName];
          value = [sampleMessage(field.message, itemPath), sampleMessage(field.message, itemPath)];
        } else if (field.listKind === 'enum') {
          value = field.enum.values.filter((v) => v.number !== 0).map((v) => v.number).slice(0, 2);
        } else {
          value = [sampleScalar(field.scalar), sampleScalar(field.scalar)];
        }
        break;
      case 'map':
        continue;
    }
    if (field.oneof !== undefined) {
      const current = message[field.oneof.localName] as { case?: string };
      if (current.case !== undefined) continue;
      message[field.oneof.localName] = { case: field.localName, value };
    } else {
      message[field.localName] = value;
    }
  }
  return message as unknown as Message;
}

describe('wire parity with cosmjs-types for every shared message type', () => {
  const messages = allMessages();
  const shared = messages.filter((desc) => !FILES_WITHOUT_COSMJS.has(desc.file.proto.name) && !MESSAGES_WITHOUT_COSMJS.has(desc.typeName) && !COSMJS_DEFECTS.has(desc.typeName));

  it('finds a cosmjs-types codec for every message outside the known-missing files', () => {
    const missing = shared.filter((desc) => cosmjsCodec(desc) === undefined).map((desc) => desc.typeName);
    expect(missing).toEqual([]);
    expect(shared.length).toBeGreaterThan(300);
  });

  it.each(shared.map((desc) => [desc.typeName, desc] as const))('%s', (_name, desc) => {
    const codec = cosmjsCodec(desc);
    if (codec === undefined) return; // reported by the test above
    const sample = sampleMessage(desc);
    const ours = toBinary(desc, sample);
    const theirs = codec.encode(codec.decode(ours)).finish();
    // Nothing was lost or changed on the way through cosmjs-types...
    expect(equals(desc, fromBinary(desc, theirs), sample)).toBe(true);
    // ...and the bytes are identical, unless only the field order can differ.
    if (!declaredOutOfOrder(desc)) {
      expect(Buffer.from(theirs).toString('hex')).toBe(Buffer.from(ours).toString('hex'));
    }
  });
});
