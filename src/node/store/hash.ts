/** SHA-256 for the store: the node's one implementation (src/util/hash.ts). */
import { HASH_SIZE } from '../../util/hash.js';

export { HASH_SIZE, sha256 } from '../../util/hash.js';
export const ZERO_HASH: Uint8Array = new Uint8Array(HASH_SIZE);
