/**
 * Validates gateway answers against the node's own OpenAPI 3.0 document with Ajv (JSON Schema):
 * OpenAPI's `nullable: true` becomes `anyOf [schema, {type: null}]`, as OpenAPI-to-JSON-Schema
 * converters do, and refs resolve inside the document.
 */
import { Ajv, type ValidateFunction } from 'ajv';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** OpenAPI 3.0 schema → JSON Schema (draft 7): `nullable` to a null alternative, recursively. */
function toJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable' || key === 'example') continue;
    out[key] = key === 'properties' || key === 'schemas' ? Object.fromEntries(Object.entries(value as Record<string, Json>).map(([k, v]) => [k, toJsonSchema(v)])) : toJsonSchema(value);
  }
  if (node['nullable'] === true) return { anyOf: [out, { type: 'null' }] };
  return out;
}

export interface OpenApiValidator {
  /** Problems of `body` as the 200 answer of `verb path` (path as written in the document). */
  check(path: string, verb: string, body: unknown): string[];
}

export function openApiValidator(doc: { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Json> } }): OpenApiValidator {
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: 'openapi', components: { schemas: toJsonSchema(doc.components.schemas as Json) } } as object);
  const compiled = new Map<string, ValidateFunction>();
  return {
    check(path, verb, body) {
      const op = doc.paths[path]?.[verb.toLowerCase()];
      if (op === undefined) return [`no ${verb} ${path} in the document`];
      const key = `${verb} ${path}`;
      let validate = compiled.get(key);
      if (validate === undefined) {
        const schema = toJsonSchema(op.responses['200'].content['application/json'].schema as Json) as { [key: string]: Json };
        // Refs in the document are "#/components/…"; anchor them to the added document.
        const anchored = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'));
        validate = ajv.compile(anchored);
        compiled.set(key, validate);
      }
      const run: ValidateFunction = validate;
      if (run(body)) return [];
      return (run.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
    },
  };
}
