/**
 * The client submodule's state in the "ibc" store, at ibc-go v6's ICS-24 paths:
 *
 *   nextClientSequence                               u64 big-endian: the next client's sequence
 *   clientParams                                     ibc.core.client.v1.Params (ibc-go v6 keeps them
 *                                                    in x/params; v7+ at this key)
 *   clients/{id}/clientState                         the client state as an Any
 *   clients/{id}/consensusStates/{N-H}               a consensus state as an Any
 *   clients/{id}/consensusStates/{N-H}/processedTime    u64 big-endian: block time (ns) it was stored at
 *   clients/{id}/consensusStates/{N-H}/processedHeight  "N-H" of this chain when it was stored
 *   clients/{id}/iterateConsensusStates ‖ u64 N ‖ u64 H  "consensusStates/{N-H}": heights in numeric order
 *
 * The client store is one collection keyed by (client id, section, rest): the section is
 * "consensusStates/", "iterateConsensusStates" or "" (everything else), so the consensus states
 * or the iteration keys of one client are one key range.
 */
import { ParamsSchema } from '../../../../../gen/ibc/core/client/v1/client_pb.js';
import { CollectionError, Item, StateMap, bytesValue, protoValue, u64Value, type KeyCodec } from '../../../../collections/index.js';
import { ibcSchemaBuilder } from '../../store.js';

export const SECTION_CONSENSUS_STATES = 'consensusStates/';
export const SECTION_ITERATE = 'iterateConsensusStates';
export const SECTION_OTHER = '';
const SECTIONS = [SECTION_CONSENSUS_STATES, SECTION_ITERATE] as const;

export type ClientStoreKey = readonly [clientId: string, section: string, rest: Uint8Array];

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();
const SLASH = 0x2f;

function startsWithAt(bytes: Uint8Array, offset: number, end: number, prefix: Uint8Array): boolean {
  if (end - offset < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[offset + i] !== prefix[i]) return false;
  return true;
}

const SECTION_BYTES = SECTIONS.map((section) => utf8.encode(section));

function checkKey(key: ClientStoreKey): void {
  if (key[0].includes('/')) throw new CollectionError('ENCODING', `client id ${key[0]} contains '/'`);
  if (key[1] === SECTION_OTHER) {
    for (const section of SECTION_BYTES) {
      if (startsWithAt(key[2], 0, key[2].length, section)) throw new CollectionError('ENCODING', 'a client store key in the default section starts with another section');
    }
  } else if (!(SECTIONS as readonly string[]).includes(key[1])) {
    throw new CollectionError('ENCODING', `unknown client store section ${key[1]}`);
  }
}

/** `{id}/{section}{rest}`, decoded back by the known sections (ibc-go's client-prefixed keys). */
const clientStoreKeyCodec: KeyCodec<ClientStoreKey> = {
  keyType: 'ClientPath[string, section, bytes]',
  size: (key) => utf8.encode(key[0]).length + 1 + utf8.encode(key[1]).length + key[2].length,
  encode(key, out, offset) {
    checkKey(key);
    let at = offset;
    const id = utf8.encode(key[0]);
    out.set(id, at);
    at += id.length;
    out[at++] = SLASH;
    const section = utf8.encode(key[1]);
    out.set(section, at);
    at += section.length;
    out.set(key[2], at);
    return at + key[2].length;
  },
  decode(bytes, offset, end) {
    let slash = -1;
    for (let i = offset; i < end; i++) {
      if (bytes[i] === SLASH) {
        slash = i;
        break;
      }
    }
    if (slash < 0) throw new CollectionError('DECODING', 'client store key has no client id');
    const clientId = utf8Decoder.decode(bytes.subarray(offset, slash));
    const from = slash + 1;
    for (let s = 0; s < SECTIONS.length; s++) {
      const section = SECTION_BYTES[s]!;
      if (startsWithAt(bytes, from, end, section)) return [clientId, SECTIONS[s]!, bytes.slice(from + section.length, end)] as const;
    }
    return [clientId, SECTION_OTHER, bytes.slice(from, end)] as const;
  },
  sizeNonTerminal: () => {
    throw new CollectionError('ENCODING', 'client store keys are always the last key part');
  },
  encodeNonTerminal: () => {
    throw new CollectionError('ENCODING', 'client store keys are always the last key part');
  },
  decodeNonTerminal: () => {
    throw new CollectionError('DECODING', 'client store keys are always the last key part');
  },
  stringify: (key) => `${key[0]}/${key[1]}${utf8Decoder.decode(key[2])}`,
  prefixSize(parts) {
    const [id, section] = parts as [string, string?];
    return utf8.encode(id).length + 1 + (section === undefined ? 0 : utf8.encode(section).length);
  },
  encodePrefix(parts, out, offset) {
    const [id, section] = parts as [string, string?];
    let at = offset;
    const idBytes = utf8.encode(id);
    out.set(idBytes, at);
    at += idBytes.length;
    out[at++] = SLASH;
    if (section !== undefined) {
      const sectionBytes = utf8.encode(section);
      out.set(sectionBytes, at);
      at += sectionBytes.length;
    }
    return at;
  },
};

export const NextClientSequence = new Item(ibcSchemaBuilder, 'next_client_sequence', 'nextClientSequence', u64Value);
export const ClientParamsItem = new Item(ibcSchemaBuilder, 'client_params', 'clientParams', protoValue(ParamsSchema));
/** Every key under `clients/` (client states, consensus states and their metadata). */
export const ClientStore = new StateMap(ibcSchemaBuilder, 'client_store', 'clients/', clientStoreKeyCodec, bytesValue);

export function textKey(text: string): Uint8Array {
  return utf8.encode(text);
}

export function keyText(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}
