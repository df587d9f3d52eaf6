/**
 * Key codecs over ICS-24-style text paths (`ports/{port}/channels/{channel}/…`): the key is the
 * text itself, so a store iterates in the paths' byte order as upstream's does. Used by 04-channel
 * and by applications keeping text keys (the ICS-29 fee store).
 */
import { CollectionError, type KeyCodec } from '../../../../collections/index.js';

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** A prefix of leading key parts as `a/b/` (the default for `textPathCodec`). */
export function joinedPrefix(parts: readonly unknown[]): string {
  return `${parts.map(String).join('/')}/`;
}

/** A key codec over text paths (always the last key part; prefixes by leading parts). */
export function textPathCodec<K extends readonly unknown[]>(
  keyType: string,
  format: (key: K) => string,
  parse: (text: string) => K | undefined,
  formatPrefix: (parts: readonly unknown[]) => string = joinedPrefix,
): KeyCodec<K> {
  const terminalOnly = (): never => {
    throw new CollectionError('ENCODING', `${keyType} keys are always the last key part`);
  };
  return {
    keyType,
    size: (key) => utf8.encode(format(key)).length,
    encode(key, out, offset) {
      const bytes = utf8.encode(format(key));
      out.set(bytes, offset);
      return offset + bytes.length;
    },
    decode(bytes, offset, end) {
      const text = utf8Decoder.decode(bytes.subarray(offset, end));
      const key = parse(text);
      if (key === undefined) throw new CollectionError('DECODING', `cannot decode ${keyType} key: ${JSON.stringify(text)}`);
      return key;
    },
    sizeNonTerminal: terminalOnly,
    encodeNonTerminal: terminalOnly,
    decodeNonTerminal: terminalOnly,
    stringify: format,
    prefixSize: (parts) => utf8.encode(formatPrefix(parts)).length,
    encodePrefix(parts, out, offset) {
      const bytes = utf8.encode(formatPrefix(parts));
      out.set(bytes, offset);
      return offset + bytes.length;
    },
  };
}
