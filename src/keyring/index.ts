/** Public surface of the keyring library (the CLI imports from here). */
export * from './types.js';
export * from './prefixes.js';
export * from './hd.js';
export * from './keys.js';
export * from './address.js';
export * from './armor.js';
export { checkKeyName, isValidKeyName } from './keyring.js';
export { isKeyringBackendName, keyringDirectory, openKeyring, parseKeyringBackend } from './open.js';
export { isNativeSecp256k1Available, secp256k1ImplementationName, useSecp256k1Implementation } from './secp256k1.js';
export type { Secp256k1ImplementationName } from './secp256k1.js';
