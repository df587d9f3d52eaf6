/**
 * Loading only the types a message's Anys carry, for short-lived processes (the CLI).
 *
 * The registry gets every app module's types when src/node/app/modules.ts is imported — most of
 * a query command's start-up when all it prints is one account. The build writes an index of the
 * generated files' message types (dist/gen/types.json, scripts/gen-type-index.js); with it, the
 * Anys inside a decoded message are walked and only the files declaring their types are loaded.
 * Where the index is missing (tests run from src/) or a type is not in it, the caller loads every
 * module instead, as before.
 */
import { fromBinary, type DescMessage, type Message } from '@bufbuild/protobuf';
import { nestedTypes } from '@bufbuild/protobuf/reflect';
import type { Any } from '@bufbuild/protobuf/wkt';
import { readFileSync } from 'node:fs';
import { typeNameFromUrl } from './any.js';
import { registerTypes, registry } from './registry.js';

const ANY = 'google.protobuf.Any';

/** Whether a message (or any message inside it) has a google.protobuf.Any field. */
export function carriesAny(schema: DescMessage, seen = new Set<string>()): boolean {
  if (schema.typeName === ANY) return true;
  if (seen.has(schema.typeName)) return false;
  seen.add(schema.typeName);
  for (const field of schema.fields) {
    const inner = field.fieldKind === 'message' || field.fieldKind === 'list' || field.fieldKind === 'map' ? field.message : undefined;
    if (inner && carriesAny(inner, seen)) return true;
  }
  return false;
}

let index: Record<string, string> | null | undefined;

/** Type name → generated file (without `_pb.js`, under dist/gen), or null where the build wrote none. */
function typeIndex(): Record<string, string> | null {
  if (index === undefined) {
    try {
      // dist/node/codec/ and dist/bundle/chunks/ are both two levels below dist/.
      index = JSON.parse(readFileSync(new URL('../../gen/types.json', import.meta.url), 'utf8')) as Record<string, string>;
    } catch {
      index = null;
    }
  }
  return index;
}

/** The registered type `name`, loading the generated file that declares it (and registering all its messages) if needed. */
async function loadType(name: string): Promise<DescMessage | undefined> {
  const known = registry.getMessage(name);
  if (known !== undefined) return known;
  const file = typeIndex()?.[name];
  if (file === undefined) return undefined;
  const mod = (await import(`../../gen/${file}_pb.js`)) as Record<string, unknown>;
  for (const value of Object.values(mod)) {
    const desc = value as { kind?: string };
    if (desc?.kind !== 'file') continue;
    registerTypes([...nestedTypes(value as Parameters<typeof nestedTypes>[0])].filter((type): type is DescMessage => type.kind === 'message'));
  }
  return registry.getMessage(name);
}

/**
 * Put the type of every Any inside `message` (at any depth, Anys within Anys too) in the codec
 * registry. False when one cannot be found this way (not in the index, an empty or undecodable
 * Any): the caller then loads every module's types.
 */
export async function registerAnyTypes(schema: DescMessage, message: Message): Promise<boolean> {
  if (schema.typeName === ANY) {
    const any = message as Any;
    const name = typeNameFromUrl(any.typeUrl);
    const type = name === '' ? undefined : await loadType(name);
    if (type === undefined) return false;
    let inner: Message;
    try {
      inner = fromBinary(type, any.value);
    } catch {
      return false;
    }
    return registerAnyTypes(type, inner);
  }
  const fields = message as unknown as Record<string, unknown>;
  for (const field of schema.fields) {
    if (field.fieldKind !== 'message' && field.fieldKind !== 'list' && field.fieldKind !== 'map') continue;
    const inner = field.message;
    if (inner === undefined || !carriesAny(inner)) continue;
    let value: unknown;
    if (field.oneof !== undefined) {
      const oneof = fields[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
      if (oneof?.case !== field.localName) continue;
      value = oneof.value;
    } else value = fields[field.localName];
    if (value === undefined || value === null) continue;
    const items = field.fieldKind === 'message' ? [value] : field.fieldKind === 'list' ? (value as unknown[]) : Object.values(value as Record<string, unknown>);
    for (const item of items) if (!(await registerAnyTypes(inner, item as Message))) return false;
  }
  return true;
}
