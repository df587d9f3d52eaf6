/**
 * ICS-27 wire facts (ibc-go v6 27-interchain-accounts/types): identifiers, the channel version
 * metadata and the packet data as JSON, the controller port of an owner, the interchain account
 * address a host derives (its acknowledgements are 04-channel's, core/channel/acknowledgement.ts).
 *
 * JSON is the proto JSON ibc-go's ModuleCdc prints (field names as in the proto, defaults
 * included); packet data and acknowledgements are additionally key-sorted (sdk.MustSortJSON), as
 * they are committed to and relayed byte for byte.
 */
import { create, fromJson, toBinary, toJson, type JsonValue } from '@bufbuild/protobuf';
import { MetadataSchema, type Metadata } from '../../../../../gen/ibc/applications/interchain_accounts/v1/metadata_pb.js';
import { CosmosTxSchema, InterchainAccountPacketDataSchema, Type, type InterchainAccountPacketData } from '../../../../../gen/ibc/applications/interchain_accounts/v1/packet_pb.js';
import type { Any } from '@bufbuild/protobuf/wkt';
import { sha256 } from '../../../../../util/hash.js';
import type { SdkError } from '../../../shared/errors.js';
import type { Context } from '../../../shared/context.js';
import { sortedJson } from '../../core/channel/acknowledgement.js';
import { IcaErrors } from './errors.js';

/** The module name (app_state key, module account). */
export const ICA_MODULE_NAME = 'interchainaccounts';
/** The submodules' names: their store keys, x/params subspaces and capability scopes. */
export const ICA_CONTROLLER_NAME = 'icacontroller';
export const ICA_HOST_NAME = 'icahost';
/** The port the host binds. */
export const HOST_PORT_ID = 'icahost';
/** Controller ports are this prefix and the owner's address. */
export const CONTROLLER_PORT_PREFIX = 'icacontroller-';
export const ICA_VERSION = 'ics27-1';
export const ENCODING_PROTO3 = 'proto3';
export const TX_TYPE_SDK_MULTI_MSG = 'sdk_multi_msg';
/** The key under the module name that interchain accounts are derived from. */
const HOST_ACCOUNTS_KEY = 'icahost-accounts';
/** Longest packet memo (MaxMemoCharLength). */
export const MAX_MEMO_LENGTH = 256;
/** Longest account address in metadata (DefaultMaxAddrLength). */
export const MAX_ADDRESS_LENGTH = 128;

// ------------------------------------------------------------------------------------ ports

/** `icacontroller-<owner>` (NewControllerPortID); the owner must not be blank. */
export function controllerPortId(owner: string): string {
  if (owner.trim() === '') throw IcaErrors.InvalidAccountAddress.wrap('owner address cannot be empty');
  return `${CONTROLLER_PORT_PREFIX}${owner}`;
}

// ------------------------------------------------------------------------------------ metadata

export function defaultMetadata(controllerConnectionId: string, hostConnectionId: string): Metadata {
  return create(MetadataSchema, {
    version: ICA_VERSION,
    controllerConnectionId,
    hostConnectionId,
    address: '',
    encoding: ENCODING_PROTO3,
    txType: TX_TYPE_SDK_MULTI_MSG,
  });
}

/** The version string of `metadata` (its proto JSON, every field present, in field order). */
export function metadataToVersion(metadata: Metadata): string {
  return JSON.stringify(toJson(MetadataSchema, metadata, { useProtoFieldName: true, alwaysEmitImplicit: true }));
}

/** The metadata of a version string; ErrUnknownDataType when it is not ICS-27 metadata JSON. */
export function metadataFromVersion(version: string): Metadata {
  try {
    return fromJson(MetadataSchema, JSON.parse(version) as JsonValue);
  } catch {
    throw IcaErrors.UnknownDataType.wrap('cannot unmarshal ICS-27 interchain accounts metadata');
  }
}

/** All fields but the address equal (IsPreviousMetadataEqual). */
export function isPreviousMetadataEqual(previousVersion: string, metadata: Metadata): boolean {
  let previous: Metadata;
  try {
    previous = metadataFromVersion(previousVersion);
  } catch {
    return false;
  }
  return (
    previous.version === metadata.version &&
    previous.controllerConnectionId === metadata.controllerConnectionId &&
    previous.hostConnectionId === metadata.hostConnectionId &&
    previous.encoding === metadata.encoding &&
    previous.txType === metadata.txType
  );
}

/** ValidateAccountAddress: alphanumeric, at most 128 characters. */
export function accountAddressError(address: string): SdkError | undefined {
  if (!/^[a-zA-Z0-9]+$/.test(address) || address.length > MAX_ADDRESS_LENGTH) {
    return IcaErrors.InvalidAccountAddress.wrap(`address must contain strictly alphanumeric characters, not exceeding ${MAX_ADDRESS_LENGTH} characters in length`);
  }
  return undefined;
}

/**
 * ValidateControllerMetadata / ValidateHostMetadata: encoding, tx type, the two connection ids
 * (this chain's connection and its counterparty's), the address if set, the version.
 */
export function validateMetadata(metadata: Metadata, controllerConnectionId: string, hostConnectionId: string, invalidConnection: (message: string) => SdkError): void {
  if (metadata.encoding !== ENCODING_PROTO3) throw IcaErrors.InvalidCodec.wrap(`unsupported encoding format ${metadata.encoding}`);
  if (metadata.txType !== TX_TYPE_SDK_MULTI_MSG) throw IcaErrors.UnknownDataType.wrap(`unsupported transaction type ${metadata.txType}`);
  if (metadata.controllerConnectionId !== controllerConnectionId) throw invalidConnection(`expected ${controllerConnectionId}, got ${metadata.controllerConnectionId}`);
  if (metadata.hostConnectionId !== hostConnectionId) throw invalidConnection(`expected ${hostConnectionId}, got ${metadata.hostConnectionId}`);
  if (metadata.address !== '') {
    const problem = accountAddressError(metadata.address);
    if (problem !== undefined) throw problem;
  }
  if (metadata.version !== ICA_VERSION) throw IcaErrors.InvalidVersion.wrap(`expected ${ICA_VERSION}, got ${metadata.version}`);
}

// ------------------------------------------------------------------------------------ packet data

/** The problem with packet data (InterchainAccountPacketData.ValidateBasic), or undefined. */
export function packetDataError(data: InterchainAccountPacketData): SdkError | undefined {
  if (data.type === Type.UNSPECIFIED) return IcaErrors.InvalidOutgoingData.wrap('packet data type cannot be unspecified');
  if (data.data.length === 0) return IcaErrors.InvalidOutgoingData.wrap('packet data cannot be empty');
  if (data.memo.length > MAX_MEMO_LENGTH) return IcaErrors.InvalidOutgoingData.wrap(`packet data memo cannot be greater than ${MAX_MEMO_LENGTH} characters`);
  return undefined;
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** The packet bytes of packet data (GetBytes: sorted proto JSON). */
export function packetDataBytes(data: InterchainAccountPacketData): Uint8Array {
  return utf8.encode(sortedJson(toJson(InterchainAccountPacketDataSchema, data, { useProtoFieldName: true, alwaysEmitImplicit: true })));
}

/** Packet data from packet bytes; ErrUnknownDataType when they are not its JSON. */
export function packetDataFromBytes(bytes: Uint8Array): InterchainAccountPacketData {
  try {
    return fromJson(InterchainAccountPacketDataSchema, JSON.parse(utf8Decoder.decode(bytes)) as JsonValue);
  } catch {
    throw IcaErrors.UnknownDataType.wrap('cannot unmarshal ICS-27 interchain account packet data');
  }
}

/** A CosmosTx of `messages` in its protobuf encoding (SerializeCosmosTx). */
export function serializeCosmosTx(messages: readonly Any[]): Uint8Array {
  return toBinary(CosmosTxSchema, create(CosmosTxSchema, { messages: [...messages] }));
}

// ------------------------------------------------------------------------------------ addresses

function addressHash(typ: Uint8Array, key: Uint8Array): Uint8Array {
  const typeHash = sha256(typ);
  const buffer = new Uint8Array(typeHash.length + key.length);
  buffer.set(typeHash, 0);
  buffer.set(key, typeHash.length);
  return sha256(buffer);
}

/** address.Module("interchainaccounts", "icahost-accounts") (ADR-028). */
const hostAccountsParent = (() => {
  const name = utf8.encode(ICA_MODULE_NAME);
  const key = utf8.encode(HOST_ACCOUNTS_KEY);
  const payload = new Uint8Array(name.length + 1 + key.length);
  payload.set(name, 0);
  payload.set(key, name.length + 1);
  return addressHash(utf8.encode('module'), payload);
})();

/**
 * The address of a new interchain account (GenerateAddress): address.Derive of the host accounts'
 * module address with connection id ‖ controller port ‖ the block's app hash ‖ data hash. The
 * block context here carries no data hash (ABCI 2.0's FinalizeBlock has none, as in SDK 0.50's
 * header), so it contributes nothing; the app hash of the last block does. 32 bytes.
 */
export function generateAccountAddress(ctx: Context, connectionId: string, portId: string): Uint8Array {
  const ids = utf8.encode(connectionId + portId);
  const appHash = ctx.header.appHash ?? new Uint8Array(0);
  const key = new Uint8Array(ids.length + appHash.length);
  key.set(ids, 0);
  key.set(appHash, ids.length);
  return addressHash(hostAccountsParent, key);
}

// ------------------------------------------------------------------------------------ acknowledgements

/** Whether acknowledgement bytes are a result (the controller only needs to know that). */
export function isSuccessAcknowledgement(bytes: Uint8Array): boolean {
  try {
    const json = JSON.parse(utf8Decoder.decode(bytes)) as { result?: unknown };
    return typeof json.result === 'string';
  } catch {
    return false;
  }
}

