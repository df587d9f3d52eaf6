/** Typed state collections over a module store (see README.md). */
export { CollectionError, type CollectionErrorReason } from './errors.js';
export { SchemaBuilder, prefixBytes, type CollectionInfo, type PrefixInput, type Schema, type StoreProvider } from './schema.js';
export {
  MAX_LENGTH_PREFIXED_BYTES,
  boolKey,
  bytesKey,
  fixedBytesKey,
  i64Key,
  keyStringBytes,
  lengthPrefixedBytesKey,
  pairKey,
  stringKey,
  timeKey,
  tripleKey,
  u32Key,
  u64Key,
  type DecodedPart,
  type KeyCodec,
  type KeyPrefix,
} from './keys.js';
export { bytesValue, intValue, markerValue, protoBoolValue, protoValue, stringValue, u64Value, type ProtoValueOptions, type ValueCodec } from './values.js';
export { Item, Sequence } from './item.js';
export { KeySet, StateMap, type KeyedCollection, type Range, type RawBounds } from './map.js';
export { IndexedMap, MultiIndex, ReversePairIndex, UniqueIndex, type Index, type IndexList } from './indexedMap.js';
export { DEFAULT_PAGE_LIMIT, ERR_KEY_AND_OFFSET, emptyPage, normalizePageRequest, paginate, type NormalizedPageRequest, type Page, type PaginateOptions } from './paginate.js';
export { exportEntries, importEntries, type EntryCollection } from './genesis.js';
