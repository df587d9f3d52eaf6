/** Byte helpers of the consensus types: the node's one implementation (src/util/bytes.ts, src/util/hash.ts). */
export { EMPTY_BYTES, bytesEqual, compareBytes, concatBytes, fromBase64, fromHex, readUint64BE, toBase64, toHexLower, toHexUpper, uint64BE } from '../../../util/bytes.js';
export { sha256 } from '../../../util/hash.js';
