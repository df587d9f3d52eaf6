/**
 * The node's protobuf codec: the Any registry, Any helpers, Cosmos gateway JSON and the REST
 * route table derived from `google.api.http` options. Generated types live in `src/gen/`.
 */
export { OTHER_ANY_SCHEMAS, PRIVKEY_SCHEMAS, PUBKEY_SCHEMAS, registerTypes, registry, typeUrlOf } from './registry.js';
export { anyIs, anyPack, anyUnpack, anyUnpackAs, typeNameFromUrl } from './any.js';
export { fromGatewayJson, mayBeNullInGatewayJson, toGatewayJson } from './json.js';
export type { GatewayJsonOptions, GatewayJsonReadOptions } from './json.js';
export { allServices, httpRoutes, pathTemplateFields } from './routes.js';
export type { HttpRoute, HttpVerb } from './routes.js';
export { LEGACY_DEC_PRECISION, legacyDecFromWire, legacyDecToWire } from './decimal.js';
export { PROTO_FILES, protoFileByName, protoRegistry } from './files.js';
export { CodecError, isCodecError } from './errors.js';
export type { CodecErrorReason } from './errors.js';
