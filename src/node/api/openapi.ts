/**
 * The OpenAPI 3.0 document of the gateway, generated from the same compiled routes (and so from
 * the same protobuf descriptors and http rules) that the gateway serves. Schemas describe the
 * gateway JSON (COMPAT §5): proto field names, 64-bit integers as strings, bytes as base64
 * strings, enums by name, Any as an object with "@type".
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { mayBeNullInGatewayJson } from '../codec/index.js';
import type { CompiledRoute, RouteTable } from './routes.js';
import type { ParamPlan } from './params.js';

export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema> };
}

const GATEWAY_ERROR = 'GatewayError';
const HEIGHT_HEADER = 'x-cosmos-block-height';

function scalarSchema(type: ScalarType): JsonSchema {
  switch (type) {
    case ScalarType.STRING:
      return { type: 'string' };
    case ScalarType.BOOL:
      return { type: 'boolean' };
    case ScalarType.BYTES:
      return { type: 'string', format: 'byte' };
    case ScalarType.FLOAT:
      return { type: 'number', format: 'float' };
    case ScalarType.DOUBLE:
      return { type: 'number', format: 'double' };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: 'integer', format: 'int32' };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: 'integer', format: 'int64', minimum: 0 };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return { type: 'string', format: 'int64' };
    default:
      return { type: 'string', format: 'uint64' };
  }
}

class SchemaBuilder {
  readonly schemas: Record<string, JsonSchema> = {};

  ref(desc: DescMessage): JsonSchema {
    switch (desc.typeName) {
      case 'google.protobuf.Any':
        return { type: 'object', properties: { '@type': { type: 'string' } }, additionalProperties: true };
      case 'google.protobuf.Timestamp':
        return { type: 'string', format: 'date-time' };
      case 'google.protobuf.Duration':
        return { type: 'string', example: '1.5s' };
      case 'google.protobuf.Struct':
        return { type: 'object', additionalProperties: true };
      case 'google.protobuf.Value':
        return {};
      default:
        break;
    }
    if (!(desc.typeName in this.schemas)) {
      this.schemas[desc.typeName] = { type: 'object' };
      this.schemas[desc.typeName] = this.messageSchema(desc);
    }
    return { $ref: `#/components/schemas/${desc.typeName}` };
  }

  private messageSchema(desc: DescMessage): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    for (const field of desc.fields) properties[field.name] = this.fieldSchema(field);
    return { type: 'object', properties };
  }

  /** The schema of a field's JSON, `nullable` where the gateway prints null (COMPAT §5). */
  fieldSchema(field: DescField): JsonSchema {
    const schema = this.fieldValueSchema(field);
    if (!mayBeNullInGatewayJson(field)) return schema;
    // OpenAPI 3.0 ignores siblings of $ref: wrap it to make it nullable.
    return '$ref' in schema ? { allOf: [schema], nullable: true } : { ...schema, nullable: true };
  }

  fieldValueSchema(field: DescField): JsonSchema {
    switch (field.fieldKind) {
      case 'scalar':
        return scalarSchema(field.scalar);
      case 'enum':
        return { type: 'string', enum: field.enum.values.map((v) => v.name) };
      case 'message':
        return this.ref(field.message);
      case 'list': {
        const items =
          field.listKind === 'scalar' ? scalarSchema(field.scalar) : field.listKind === 'enum' ? { type: 'string', enum: field.enum.values.map((v) => v.name) } : this.ref(field.message);
        return { type: 'array', items };
      }
      case 'map': {
        const value =
          field.mapKind === 'scalar' ? scalarSchema(field.scalar) : field.mapKind === 'enum' ? { type: 'string', enum: field.enum.values.map((v) => v.name) } : this.ref(field.message);
        return { type: 'object', additionalProperties: value };
      }
    }
  }
}

function paramSchema(builder: SchemaBuilder, plan: ParamPlan): JsonSchema {
  // A parameter is given or not: its value is never null.
  return builder.fieldValueSchema(plan.fields[plan.fields.length - 1]!);
}

function operation(route: CompiledRoute, builder: SchemaBuilder, operationId: string): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = route.pathParams.map((plan) => ({
    name: plan.name,
    in: 'path',
    required: true,
    schema: paramSchema(builder, plan),
  }));
  const seen = new Set<ParamPlan>();
  for (const plan of route.queryParams.values()) {
    if (seen.has(plan)) continue;
    seen.add(plan);
    const schema = paramSchema(builder, plan);
    parameters.push({ name: plan.name, in: 'query', required: false, schema, ...(plan.repeated ? { style: 'form', explode: true } : {}) });
  }
  if (route.entry?.source === 'app') {
    parameters.push({
      name: HEIGHT_HEADER,
      in: 'header',
      required: false,
      description: 'Query the state at this height (default: the latest committed height).',
      schema: { type: 'string', format: 'int64' },
    });
  }
  const op: Record<string, unknown> = {
    operationId,
    summary: `${route.httpRoute.service}.${route.httpRoute.rpc}`,
    description: `gRPC method ${route.path}${route.httpRoute.additional ? ' (additional binding)' : ''}.`,
    tags: [route.httpRoute.service],
    parameters,
    responses: {
      '200': {
        description: 'A successful response.',
        headers: { [HEIGHT_HEADER]: { description: 'The height the answer reflects.', schema: { type: 'string', format: 'int64' } } },
        content: { 'application/json': { schema: builder.ref(route.output) } },
      },
      default: {
        description: 'An unexpected error response.',
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${GATEWAY_ERROR}` } } },
      },
    },
  };
  if (route.body !== '') op.requestBody = { required: true, content: { 'application/json': { schema: builder.ref(route.input) } } };
  return op;
}

/** The document for the served routes of a table (routes whose method is not served are left out). */
export function buildOpenApi(table: RouteTable, info: { title: string; version: string }): OpenApiDocument {
  const builder = new SchemaBuilder();
  builder.schemas[GATEWAY_ERROR] = {
    type: 'object',
    properties: {
      code: { type: 'integer', format: 'int32' },
      message: { type: 'string' },
      details: { type: 'array', items: { type: 'object', properties: { '@type': { type: 'string' } }, additionalProperties: true } },
      error: { type: 'string' },
    },
  };
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const route of table.routes) {
    if (route.entry === undefined) continue;
    const base = `${route.httpRoute.service.split('.').slice(0, -1).join('_')}_${route.httpRoute.rpc}`;
    let operationId = route.httpRoute.additional ? `${base}_${route.pattern.split('/')[1] ?? 'alt'}` : base;
    for (let n = 2; operationIds.has(operationId); n++) operationId = `${base}_${n}`;
    operationIds.add(operationId);
    const item = (paths[route.pattern] ??= {});
    item[route.verb.toLowerCase()] = operation(route, builder, operationId);
  }
  return {
    openapi: '3.0.3',
    info: {
      title: info.title,
      version: info.version,
      description:
        'REST gateway of tokend, generated from the protobuf services and their google.api.http rules. ' +
        'Every path is served under the spec prefixes (/sdk/...) and the upstream ones (/cosmos/...).',
    },
    paths,
    components: { schemas: builder.schemas },
  };
}

/** A minimal HTML index of the document (no external assets). */
export function openApiHtml(doc: OpenApiDocument): string {
  const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const rows: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [verb, op] of Object.entries(item)) {
      const summary = (op as { summary?: string }).summary ?? '';
      rows.push(`<tr><td>${verb.toUpperCase()}</td><td><code>${escape(path)}</code></td><td>${escape(summary)}</td></tr>`);
    }
  }
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escape(doc.info.title)}</title>` +
    '<style>body{font-family:sans-serif;margin:2em}td{padding:2px 8px;vertical-align:top}code{font-size:90%}</style></head><body>' +
    `<h1>${escape(doc.info.title)} ${escape(doc.info.version)}</h1>` +
    '<p>OpenAPI 3 document: <a href="/swagger/openapi.json">/swagger/openapi.json</a></p>' +
    `<table><thead><tr><th>verb</th><th>path</th><th>method</th></tr></thead><tbody>${rows.join('')}</tbody></table></body></html>`
  );
}
