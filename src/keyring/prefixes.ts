/**
 * Bech32 human-readable prefixes of this chain, in one place.
 *
 * The SDK derives its six prefixes from the account prefix; the two `…pub` forms of validators are
 * kept for completeness (legacy Amino-JSON pubkeys), addresses use the first three.
 */
export const ACCOUNT_PREFIX = 'token';
export const ACCOUNT_PUBKEY_PREFIX = `${ACCOUNT_PREFIX}pub`;
export const VALIDATOR_OPERATOR_PREFIX = `${ACCOUNT_PREFIX}valoper`;
export const VALIDATOR_OPERATOR_PUBKEY_PREFIX = `${ACCOUNT_PREFIX}valoperpub`;
export const CONSENSUS_PREFIX = `${ACCOUNT_PREFIX}valcons`;
export const CONSENSUS_PUBKEY_PREFIX = `${ACCOUNT_PREFIX}valconspub`;

/** Prefixes whose bech32 payload is a 20-byte address. */
export const ADDRESS_PREFIXES: readonly string[] = [ACCOUNT_PREFIX, VALIDATOR_OPERATOR_PREFIX, CONSENSUS_PREFIX];

/** Prefixes whose bech32 payload is an Amino-encoded public key. */
export const PUBKEY_PREFIXES: readonly string[] = [
  ACCOUNT_PUBKEY_PREFIX,
  VALIDATOR_OPERATOR_PUBKEY_PREFIX,
  CONSENSUS_PUBKEY_PREFIX,
];
