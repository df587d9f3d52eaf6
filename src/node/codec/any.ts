/**
 * Packing and unpacking `google.protobuf.Any` the Cosmos way: type URLs are "/" + the full type
 * name (not "type.googleapis.com/..."), and an unknown URL is an error that names the URL.
 */
import type { DescMessage, Message, MessageShape, Registry } from '@bufbuild/protobuf';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { CodecError } from './errors.js';
import { registry as defaultRegistry, typeUrlOf } from './registry.js';

/** The full type name in a type URL: the part after the last "/". */
export function typeNameFromUrl(typeUrl: string): string {
  const slash = typeUrl.lastIndexOf('/');
  return slash < 0 ? typeUrl : typeUrl.slice(slash + 1);
}

/** Packs a message into an Any with type URL "/<full name>". */
export function anyPack<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): Any {
  return create(AnySchema, { typeUrl: typeUrlOf(schema), value: toBinary(schema, message) });
}

/** True if the Any holds a message of this type. */
export function anyIs(any: Any, schema: DescMessage): boolean {
  return typeNameFromUrl(any.typeUrl) === schema.typeName;
}

/**
 * Unpacks an Any whose type is looked up in the registry (the codec registry by default).
 * Throws CodecError UNKNOWN_TYPE_URL for a type that is not registered and INVALID_BYTES when
 * the value does not decode.
 */
export function anyUnpack(any: Any, registry: Registry = defaultRegistry): Message {
  const typeName = typeNameFromUrl(any.typeUrl);
  const schema = typeName === '' ? undefined : registry.getMessage(typeName);
  if (schema === undefined) {
    throw new CodecError(
      'UNKNOWN_TYPE_URL',
      `unknown type URL '${any.typeUrl}': no such message type is registered`,
      { typeUrl: any.typeUrl },
    );
  }
  return decode(schema, any);
}

/**
 * Unpacks an Any that must hold one given type. Throws CodecError TYPE_MISMATCH when it holds
 * something else.
 */
export function anyUnpackAs<Desc extends DescMessage>(any: Any, schema: Desc): MessageShape<Desc> {
  if (!anyIs(any, schema)) {
    throw new CodecError(
      'TYPE_MISMATCH',
      `expected type URL '${typeUrlOf(schema)}', got '${any.typeUrl}'`,
      { typeUrl: any.typeUrl, expected: typeUrlOf(schema) },
    );
  }
  return decode(schema, any);
}

function decode<Desc extends DescMessage>(schema: Desc, any: Any): MessageShape<Desc> {
  try {
    return fromBinary(schema, any.value);
  } catch (err) {
    throw new CodecError(
      'INVALID_BYTES',
      `cannot decode '${any.typeUrl}': ${err instanceof Error ? err.message : String(err)}`,
      { typeUrl: any.typeUrl },
      err,
    );
  }
}
