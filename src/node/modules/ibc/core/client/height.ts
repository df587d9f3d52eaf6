/**
 * ICS-02 heights (ibc-go v6 modules/core/02-client/types/height.go): (revision number, revision
 * height), compared revision first, written "N-H". A chain id of the form `name-N` carries the
 * revision number N (`testnet` → 0, `aioz_168-1` → 1).
 */
import { create } from '@bufbuild/protobuf';
import { HeightSchema, type Height } from '../../../../../gen/ibc/core/client/v1/client_pb.js';
import type { Context } from '../../../shared/context.js';
import { ClientErrors } from './errors.js';

export type { Height };

export const ZERO_HEIGHT: Height = create(HeightSchema, { revisionNumber: 0n, revisionHeight: 0n });

export function newHeight(revisionNumber: bigint, revisionHeight: bigint): Height {
  return create(HeightSchema, { revisionNumber, revisionHeight });
}

export function compareHeights(a: Height, b: Height): number {
  if (a.revisionNumber !== b.revisionNumber) return a.revisionNumber < b.revisionNumber ? -1 : 1;
  if (a.revisionHeight !== b.revisionHeight) return a.revisionHeight < b.revisionHeight ? -1 : 1;
  return 0;
}

export function isZeroHeight(h: Height): boolean {
  return h.revisionNumber === 0n && h.revisionHeight === 0n;
}

/** "N-H" (Height.String). */
export function formatHeight(h: Height): string {
  return `${h.revisionNumber}-${h.revisionHeight}`;
}

/** Parses "N-H" (ParseHeight); throws client/26 when it is not that. */
export function parseHeight(text: string): Height {
  const parts = text.split('-');
  if (parts.length !== 2) throw ClientErrors.InvalidHeight.wrap(`expected height string format: {revision}-{height}. Got: ${text}`);
  const [revision, height] = parts as [string, string];
  if (!/^[0-9]+$/.test(revision)) throw ClientErrors.InvalidHeight.wrap(`invalid revision number. parse err: strconv.ParseUint: parsing "${revision}": invalid syntax`);
  if (!/^[0-9]+$/.test(height)) throw ClientErrors.InvalidHeight.wrap(`invalid revision height. parse err: strconv.ParseUint: parsing "${height}": invalid syntax`);
  return newHeight(BigInt(revision), BigInt(height));
}

/** The 16 bytes ordering heights in a store (revision ‖ height, both big-endian u64). */
export function heightKeyBytes(h: Height): Uint8Array {
  const out = new Uint8Array(16);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, h.revisionNumber);
  view.setBigUint64(8, h.revisionHeight);
  return out;
}

export function heightFromKeyBytes(bytes: Uint8Array): Height {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return newHeight(view.getBigUint64(0), view.getBigUint64(8));
}

const REVISION_FORMAT = /^.*[^\n-]-{1}[1-9][0-9]*$/;

/** True when the chain id ends in `-N` with N > 0 (IsRevisionFormat). */
export function isRevisionFormat(chainId: string): boolean {
  return REVISION_FORMAT.test(chainId);
}

/** The revision number of a chain id: N of `name-N`, else 0 (ParseChainID). */
export function parseChainId(chainId: string): bigint {
  if (!isRevisionFormat(chainId)) return 0n;
  return BigInt(chainId.slice(chainId.lastIndexOf('-') + 1));
}

/** The chain id with its revision number replaced (SetRevisionNumber); unchanged when it has none. */
export function setRevisionNumber(chainId: string, revision: bigint): string {
  if (!isRevisionFormat(chainId)) return chainId;
  return `${chainId.slice(0, chainId.lastIndexOf('-'))}-${revision}`;
}

/** This chain's own height in the context (GetSelfHeight). */
export function selfHeight(ctx: Context): Height {
  return newHeight(parseChainId(ctx.header.chainId), BigInt(ctx.header.height));
}
