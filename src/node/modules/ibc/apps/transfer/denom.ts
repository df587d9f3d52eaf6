/**
 * ICS-20 denominations (ibc-go v6 apps/transfer/types trace.go, coin.go, keys.go): the trace of a
 * voucher — the port/channel hops it crossed and its base denom — its hash and `ibc/<HASH>`
 * denom, the validation of traces and prefixed denoms, which side is the token's source, and the
 * escrow account of a channel.
 */
import { create } from '@bufbuild/protobuf';
import { DenomTraceSchema, type DenomTrace } from '../../../../../gen/ibc/applications/transfer/v1/transfer_pb.js';
import { sha256 } from '../../../../../keyring/hash.js';
import { channelIdentifierError, parseChannelSequence, portIdentifierError } from '../../core/host/identifiers.js';
import { denomError } from '../../../shared/coins.js';
import { wrapError, type SdkError } from '../../../shared/errors.js';
import { TransferErrors } from './errors.js';
import { DENOM_PREFIX, TRANSFER_VERSION } from './keys.js';

export type { DenomTrace };

export function newDenomTrace(path: string, baseDenom: string): DenomTrace {
  return create(DenomTraceSchema, { path, baseDenom });
}

/** `path/baseDenom`, or the base denom alone when there is no path (GetFullDenomPath). */
export function fullDenomPath(trace: DenomTrace): string {
  return trace.path === '' ? trace.baseDenom : `${trace.path}/${trace.baseDenom}`;
}

/** sha256 of the full denom path: the key of the trace and the hash in `ibc/<HASH>`. */
export function denomTraceHash(trace: DenomTrace): Uint8Array {
  return sha256(new TextEncoder().encode(fullDenomPath(trace)));
}

/** Upper-case hex, as tmbytes.HexBytes prints. */
export function hexHash(hash: Uint8Array): string {
  return Buffer.from(hash).toString('hex').toUpperCase();
}

/** The coin denom of a trace: `ibc/<HASH>`, or the base denom of a native token (IBCDenom). */
export function ibcDenom(trace: DenomTrace): string {
  return trace.path === '' ? trace.baseDenom : `${DENOM_PREFIX}/${hexHash(denomTraceHash(trace))}`;
}

/**
 * Splits a full denom into path and base denom (ParseDenomTrace): leading `port/channel` pairs
 * whose second element is a channel id of the form `channel-N` make the path; the rest, slashes
 * and all, is the base denom ("transfer/channel-0/gamm/pool/1" → "transfer/channel-0", "gamm/pool/1").
 */
export function parseDenomTrace(rawDenom: string): DenomTrace {
  const parts = rawDenom.split('/');
  if (parts.length === 1) return newDenomTrace('', rawDenom);
  const { path, baseDenom } = splitPathAndBase(parts);
  return newDenomTrace(path, baseDenom);
}

function splitPathAndBase(parts: readonly string[]): { path: string; baseDenom: string } {
  const path: string[] = [];
  let base: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    if (i < parts.length - 1 && parts.length > 2 && parseChannelSequence(parts[i + 1]!) !== undefined) {
      path.push(parts[i]!, parts[i + 1]!);
    } else {
      base = parts.slice(i);
      break;
    }
  }
  return { path: path.join('/'), baseDenom: base.join('/') };
}

/** Port/channel pairs, each identifier valid. */
function traceIdentifiersError(identifiers: readonly string[]): Error | undefined {
  if (identifiers.length === 0 || identifiers.length % 2 !== 0) {
    return new Error(`trace info must come in pairs of port and channel identifiers '{portID}/{channelID}', got the identifiers: [${identifiers.join(' ')}]`);
  }
  for (let i = 0; i < identifiers.length; i += 2) {
    const port = portIdentifierError(identifiers[i]!);
    if (port !== undefined) return wrapError(port, `invalid port ID at position ${i}`);
    const channel = channelIdentifierError(identifiers[i + 1]!);
    if (channel !== undefined) return wrapError(channel, `invalid channel ID at position ${i}`);
  }
  return undefined;
}

/** DenomTrace.Validate: a base denom, and a path of valid port/channel pairs (or none). */
export function denomTraceError(trace: DenomTrace): Error | undefined {
  if (trace.path === '' && trace.baseDenom !== '') return undefined;
  if (trace.baseDenom.trim() === '') return new Error('base denomination cannot be blank');
  return traceIdentifiersError(trace.path.split('/'));
}

/** Traces.Validate: each valid, none twice. */
export function denomTracesError(traces: readonly DenomTrace[]): Error | undefined {
  const seen = new Set<string>();
  for (const [i, trace] of traces.entries()) {
    const hash = hexHash(denomTraceHash(trace));
    if (seen.has(hash)) return new Error(`duplicated denomination trace with hash ${hash}`);
    const invalid = denomTraceError(trace);
    if (invalid !== undefined) return wrapError(invalid, `failed denom trace ${i} validation`);
    seen.add(hash);
  }
  return undefined;
}

/** Sorted by full denom path (Traces.Sort). */
export function sortDenomTraces(traces: DenomTrace[]): DenomTrace[] {
  return traces.sort((a, b) => {
    const x = fullDenomPath(a);
    const y = fullDenomPath(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/**
 * ValidatePrefixedDenom: the denom of a packet is a base denom, or `port/channel/…/base` with
 * valid identifiers (a base denom with slashes of its own is accepted as it is).
 */
export function prefixedDenomError(denom: string): SdkError | Error | undefined {
  const parts = denom.split('/');
  if (parts.length === 1 && denom.trim() !== '') return undefined;
  if (parts[parts.length - 1]!.trim() === '') return TransferErrors.InvalidDenomForTransfer.wrap('base denomination cannot be blank');
  const { path } = splitPathAndBase(parts);
  if (path === '') return undefined;
  return traceIdentifiersError(path.split('/'));
}

/** hex.DecodeString then tmtypes.ValidateHash (empty, or 32 bytes) (ParseHexHash). */
export function parseHexHash(text: string): { ok: true; hash: Uint8Array } | { ok: false; error: string } {
  if (text.length % 2 !== 0) {
    const bad = /[^0-9a-fA-F]/.exec(text);
    return { ok: false, error: bad !== null ? invalidHexByte(bad[0]) : 'encoding/hex: odd length hex string' };
  }
  const bad = /[^0-9a-fA-F]/.exec(text);
  if (bad !== null) return { ok: false, error: invalidHexByte(bad[0]) };
  const hash = Uint8Array.from(Buffer.from(text, 'hex'));
  if (hash.length > 0 && hash.length !== 32) return { ok: false, error: `expected size to be 32 bytes, got ${hash.length} bytes` };
  return { ok: true, hash };
}

function invalidHexByte(char: string): string {
  const code = char.codePointAt(0)!;
  return `encoding/hex: invalid byte: U+${code.toString(16).toUpperCase().padStart(4, '0')} ${JSON.stringify(char).replace(/^"|"$/g, "'")}`;
}

/**
 * ValidateIBCDenom: a valid SDK denom that is either a base denom or `ibc/<64 hex>` (a bare
 * "ibc" or "ibc/" is refused).
 */
export function ibcDenomError(denom: string): SdkError | Error | undefined {
  const invalid = denomError(denom);
  if (invalid !== undefined) return new Error(invalid);
  const slash = denom.indexOf('/');
  const head = slash < 0 ? denom : denom.slice(0, slash);
  const format = `denomination should be prefixed with the format 'ibc/{hash(trace + "/" + ${denom})}'`;
  if (denom === DENOM_PREFIX) return TransferErrors.InvalidDenomForTransfer.wrap(format);
  if (slash >= 0 && head === DENOM_PREFIX) {
    const hash = denom.slice(slash + 1);
    if (hash.trim() === '') return TransferErrors.InvalidDenomForTransfer.wrap(format);
    const parsed = parseHexHash(hash);
    if (!parsed.ok) return new Error(`invalid denom trace hash ${hash}: ${parsed.error}`);
  }
  return undefined;
}

/** `port/channel/` (GetDenomPrefix). */
export function denomPrefix(portId: string, channelId: string): string {
  return `${portId}/${channelId}/`;
}

/** The token came from the chain at the other end of (port, channel) and goes back there. */
export function receiverChainIsSource(sourcePort: string, sourceChannel: string, denom: string): boolean {
  return denom.startsWith(denomPrefix(sourcePort, sourceChannel));
}

export function senderChainIsSource(sourcePort: string, sourceChannel: string, denom: string): boolean {
  return !receiverChainIsSource(sourcePort, sourceChannel, denom);
}

/**
 * The escrow account of a channel (GetEscrowAddress, ADR 028's address hash):
 * sha256("ics20-1" ‖ 0x00 ‖ "port/channel")[:20].
 */
export function escrowAddress(portId: string, channelId: string): Uint8Array {
  const version = new TextEncoder().encode(TRANSFER_VERSION);
  const contents = new TextEncoder().encode(`${portId}/${channelId}`);
  const preimage = new Uint8Array(version.length + 1 + contents.length);
  preimage.set(version, 0);
  preimage[version.length] = 0;
  preimage.set(contents, version.length + 1);
  return sha256(preimage).slice(0, 20);
}
