/**
 * The REST gateway (port 1317): routes derived from the protobuf http rules over the node's
 * QueryRouter, plus the generated OpenAPI document. See README.md.
 */
export { ApiServer, HEIGHT_HEADER, parseHeight, type ApiAddress, type ApiServerConfig } from './server.js';
export { defaultApiOptions, parseApiAddress, type ApiOptions } from './options.js';
export { gatewayErrorBody, gatewayErrorOf, httpStatusOfGrpc } from './errors.js';
export { RouteTable, compileRoute, type CompiledRoute, type MatchResult } from './routes.js';
export { buildOpenApi, openApiHtml, type OpenApiDocument } from './openapi.js';
