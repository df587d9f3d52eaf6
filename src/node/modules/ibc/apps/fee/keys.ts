/**
 * The fee middleware's store ("feeibc", ibc-go v6 modules/apps/29-fee/types/keys.go), text keys:
 *
 *   locked                                        0x01 once the escrow was found short (the module stops)
 *   feeEnabled/{port}/{channel}                   0x01
 *   payee/{relayer}/{channel}                     payee address (UTF-8)
 *   counterpartyPayee/{relayer}/{channel}         counterparty payee address (UTF-8)
 *   feesInEscrow/{port}/{channel}/{sequence}      ibc.applications.fee.v1.PacketFees
 *   forwardRelayer/{port}/{channel}/{sequence}    relayer address of an async-ack packet (UTF-8)
 *
 * One PacketFees record per packet, as upstream: a payment rewrites only its own packet's record
 * (the packet's payments, newest first), genesis import writes each packet once, and a closing
 * channel finds its escrowed packets by iterating feesInEscrow/{port}/{channel}/.
 *
 * Identifiers and addresses never contain '/'; `{sequence}` is decimal, as upstream's.
 */
import { PacketFeesSchema } from '../../../../../gen/ibc/applications/fee/v1/fee_pb.js';
import { CollectionError, Item, SchemaBuilder, StateMap, protoValue, stringValue, type ValueCodec } from '../../../../collections/index.js';
import { StoreKey } from '../../../../store/storeKey.js';
import { textPathCodec } from '../../core/host/pathCodec.js';

export const FEE_MODULE_NAME = 'feeibc';
export const feeStoreKey = StoreKey.persistent(FEE_MODULE_NAME);

/** Consensus version 1's per-channel list of escrowed sequences; its migration to 2 deletes these records. */
export const LEGACY_ESCROW_INDEX_PREFIX = 'escrowIndex/';

export type PairKey = readonly [string, string];
export type PacketKey = readonly [portId: string, channelId: string, sequence: bigint];


function checkPart(part: string): void {
  if (part === '' || part.includes('/')) throw new CollectionError('ENCODING', `key part ${JSON.stringify(part)} is empty or contains '/'`);
}


const pairKey = textPathCodec<PairKey>(
  'Path[string, string]',
  ([a, b]) => {
    checkPart(a);
    checkPart(b);
    return `${a}/${b}`;
  },
  (text) => {
    const parts = text.split('/');
    return parts.length === 2 && parts[0] !== '' && parts[1] !== '' ? ([parts[0]!, parts[1]!] as const) : undefined;
  },
);

const packetKey = textPathCodec<PacketKey>(
  'Path[port, channel, sequence]',
  ([port, channel, sequence]) => {
    checkPart(port);
    checkPart(channel);
    if (sequence < 0n || sequence >= 1n << 64n) throw new CollectionError('ENCODING', `sequence ${sequence} is not a uint64`);
    return `${port}/${channel}/${sequence}`;
  },
  (text) => {
    const match = /^([^/]+)\/([^/]+)\/(0|[1-9][0-9]*)$/.exec(text);
    return match === null ? undefined : ([match[1]!, match[2]!, BigInt(match[3]!)] as const);
  },
);

/** Upstream's flag value: the single byte 0x01. */
const flagValue: ValueCodec<true> = {
  valueType: 'flag',
  encode: () => Uint8Array.of(1),
  decode: () => true,
  stringify: () => 'true',
};

const schema = new SchemaBuilder(feeStoreKey);

export const Locked = new Item(schema, 'locked', 'locked', flagValue);
/** [port, channel]. */
export const FeeEnabled = new StateMap(schema, 'fee_enabled', 'feeEnabled/', pairKey, flagValue);
/** [relayer, channel] → payee. */
export const Payees = new StateMap(schema, 'payees', 'payee/', pairKey, stringValue);
/** [relayer, channel] → counterparty payee. */
export const CounterpartyPayees = new StateMap(schema, 'counterparty_payees', 'counterpartyPayee/', pairKey, stringValue);
export const FeesInEscrow = new StateMap(schema, 'fees_in_escrow', 'feesInEscrow/', packetKey, protoValue(PacketFeesSchema));
export const ForwardRelayers = new StateMap(schema, 'forward_relayers', 'forwardRelayer/', packetKey, stringValue);

export const feeSchema = schema.build();
