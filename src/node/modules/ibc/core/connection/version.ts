/**
 * Connection versions (ibc-go v6 03-connection/types/version.go): this chain supports version "1"
 * with both channel orderings; INIT offers versions, TRY picks the first supported identifier the
 * counterparty offers with the intersection of the features (in this chain's order), ACK checks
 * the counterparty's pick against the versions offered on INIT.
 */
import { create } from '@bufbuild/protobuf';
import { VersionSchema, type Version } from '../../../../../gen/ibc/core/connection/v1/connection_pb.js';
import type { SdkError } from '../../../shared/errors.js';
import { ConnectionErrors } from './errors.js';

export const DEFAULT_IBC_VERSION_IDENTIFIER = '1';
export const ORDER_ORDERED = 'ORDER_ORDERED';
export const ORDER_UNORDERED = 'ORDER_UNORDERED';

export function defaultIbcVersion(): Version {
  return create(VersionSchema, { identifier: DEFAULT_IBC_VERSION_IDENTIFIER, features: [ORDER_ORDERED, ORDER_UNORDERED] });
}

/** GetCompatibleVersions: the versions this chain supports, in preference order. */
export function compatibleVersions(): Version[] {
  return [defaultIbcVersion()];
}

/** ValidateVersion: present, a non-blank identifier and non-blank features. */
export function versionError(version: Version | undefined): SdkError | undefined {
  if (version === undefined) return ConnectionErrors.InvalidVersion.wrap('version cannot be nil');
  if (version.identifier.trim() === '') return ConnectionErrors.InvalidVersion.wrap('version identifier cannot be blank');
  for (let i = 0; i < version.features.length; i++) {
    if (version.features[i]!.trim() === '') return ConnectionErrors.InvalidVersion.wrap(`feature cannot be blank, index ${i}`);
  }
  return undefined;
}

/** "{identifier, [features]}" as ibc-go prints a version in its messages. */
export function formatVersion(version: Version): string {
  return `{${version.identifier} [${version.features.join(' ')}]}`;
}

function findSupported(version: Version, supported: readonly Version[]): Version | undefined {
  return supported.find((candidate) => candidate.identifier === version.identifier);
}

/** VerifyProposedVersion: the same identifier and only features the supported version has. */
export function proposedVersionError(supported: Version, proposed: Version): SdkError | undefined {
  if (supported.identifier !== proposed.identifier) {
    return ConnectionErrors.VersionNegotiationFailed.wrap(`proposed version identifier does not equal supported version identifier (${proposed.identifier} != ${supported.identifier})`);
  }
  for (const feature of proposed.features) {
    if (!supported.features.includes(feature)) {
      return ConnectionErrors.VersionNegotiationFailed.wrap(`proposed feature (${feature}) is not a supported feature set (${supported.features.join(' ')})`);
    }
  }
  return undefined;
}

/** IsSupportedVersion: a supported version of the same identifier allows the proposed one. */
export function isSupportedVersion(supported: readonly Version[], proposed: Version): boolean {
  const match = findSupported(proposed, supported);
  return match !== undefined && proposedVersionError(match, proposed) === undefined;
}

/** PickVersion: the first supported version the counterparty also offers, with the common features. */
export function pickVersion(supported: readonly Version[], counterparty: readonly Version[]): Version {
  for (const version of supported) {
    const theirs = findSupported(version, counterparty);
    if (theirs === undefined) continue;
    const features = version.features.filter((feature) => theirs.features.includes(feature));
    if (features.length === 0) continue;
    return create(VersionSchema, { identifier: version.identifier, features });
  }
  throw ConnectionErrors.VersionNegotiationFailed.wrap(
    `failed to find a matching counterparty version ([${counterparty.map(formatVersion).join(' ')}]) from the supported version list ([${supported.map(formatVersion).join(' ')}])`,
  );
}
