/**
 * SDK typed events (EmitTypedEvent): the event type is the message's full proto name, one
 * attribute per field (proto names, sorted), each value the field's JSON (so a uint64 is "\"1\"",
 * an enum its name in quotes), every field present.
 */
import type { DescMessage, JsonObject, MessageShape } from '@bufbuild/protobuf';
import { toGatewayJson } from '../../codec/index.js';
import { newEvent, type AbciEvent } from '../shared/events.js';

export function typedEvent<D extends DescMessage>(schema: D, message: MessageShape<D>): AbciEvent {
  const json = toGatewayJson(schema, message) as JsonObject;
  return newEvent(schema.typeName, ...Object.keys(json).sort().map((key) => [key, JSON.stringify(json[key])] as const));
}
