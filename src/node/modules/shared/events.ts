/**
 * Events as modules emit them (sdk.EventManager). Attributes are created with index=true; the
 * app applies `index-events` when it builds the ABCI response (`markEventsToIndex`).
 */
import { toJson, type DescMessage, type JsonObject, type MessageShape } from '@bufbuild/protobuf';
import type { AbciEvent } from '../../abci/types.js';

export type { AbciEvent };

/** Event types and attribute keys shared by every module (types/events.go). */
export const EVENT_TYPE_MESSAGE = 'message';
export const EVENT_TYPE_TX = 'tx';
export const ATTRIBUTE_KEY_ACTION = 'action';
export const ATTRIBUTE_KEY_MODULE = 'module';
export const ATTRIBUTE_KEY_SENDER = 'sender';
export const ATTRIBUTE_KEY_AMOUNT = 'amount';
export const ATTRIBUTE_KEY_FEE = 'fee';
export const ATTRIBUTE_KEY_FEE_PAYER = 'fee_payer';
export const ATTRIBUTE_KEY_ACC_SEQ = 'acc_seq';
export const ATTRIBUTE_KEY_SIGNATURE = 'signature';
export const ATTRIBUTE_KEY_MSG_INDEX = 'msg_index';
export const ATTRIBUTE_KEY_MODE = 'mode';

/** Builds an event with every attribute indexed. */
export function newEvent(type: string, ...attributes: readonly (readonly [string, string])[]): AbciEvent {
  return { type, attributes: attributes.map(([key, value]) => ({ key, value, index: true })) };
}

export class EventManager {
  readonly events: AbciEvent[] = [];

  /** `discard`: drop everything (CheckTx, whose events nobody reads). */
  constructor(private readonly discard = false) {}

  /**
   * False when everything is dropped: callers may skip building events nobody will see (their
   * attribute strings — bech32 addresses, coin texts — are most of an event's cost).
   */
  get enabled(): boolean {
    return !this.discard;
  }

  emit(event: AbciEvent): void {
    if (!this.discard) this.events.push(event);
  }

  emitAll(events: readonly AbciEvent[]): void {
    if (!this.discard) for (const event of events) this.events.push(event);
  }
}

/**
 * sdk.MarkEventsToIndex: with an empty `indexSet` every attribute is indexed; otherwise only
 * "type.key" entries of the set.
 */
export function markEventsToIndex(events: readonly AbciEvent[], indexSet: ReadonlySet<string>): AbciEvent[] {
  if (indexSet.size === 0) return events as AbciEvent[];
  return events.map((event) => ({
    type: event.type,
    attributes: event.attributes.map((attr) => ({ key: attr.key, value: attr.value, index: indexSet.has(`${event.type}.${attr.key}`) })),
  }));
}

/** A copy of `event` with one more attribute at the end. */
export function appendAttribute(event: AbciEvent, key: string, value: string): AbciEvent {
  return { type: event.type, attributes: [...event.attributes, { key, value, index: true }] };
}

/**
 * sdk.TypedEventToEvent (EmitTypedEvent): the event type is the message's full proto name and
 * each attribute is one field of its proto JSON (snake_case names, defaults included) with the
 * field's JSON text as the value (strings keep their quotes), keys sorted.
 */
export function typedEvent<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): AbciEvent {
  const json = toJson(schema, message, { useProtoFieldName: true, alwaysEmitImplicit: true }) as JsonObject;
  const keys = Object.keys(json).sort();
  return { type: schema.typeName, attributes: keys.map((key) => ({ key, value: JSON.stringify(json[key]), index: true })) };
}
