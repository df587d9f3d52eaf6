import type { BatchOp } from './database.js';

const NO_BYTES = new Uint8Array(0);

/**
 * One staged operation carried out on a batch-like sink (a put without a value puts empty bytes).
 * Its own file, free of the database binding, for code that only stages operations.
 */
export function applyOp(op: BatchOp, sink: { put(key: Uint8Array, value: Uint8Array): unknown; del(key: Uint8Array): unknown }): void {
  if (op.type === 'put') sink.put(op.key, op.value ?? NO_BYTES);
  else sink.del(op.key);
}
