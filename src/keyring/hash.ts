/** The keyring's digests: the node's one implementation (src/util/hash.ts). */
export { keccak256, sha256 } from '../util/hash.js';
