export * from './keys.js';
export * from './errors.js';
export { AuthzKeeper } from './keeper.js';
export { authzModule } from './module.js';
export { decodeAuthorization, type Authorization, type AcceptResponse } from './authorizations.js';
