/**
 * Byte helpers the modules share (the node's one implementation, src/util/bytes.ts). Store keys
 * are not built here: every module table is a typed collection (src/node/collections) whose key
 * codec owns the layout.
 */
export { bytesEqual, compareBytes, fromUtf8, toHexLower as toHexString, utf8 } from '../../../util/bytes.js';
