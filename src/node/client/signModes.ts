/** The `--sign-mode` values the CLI accepts, as the SDK's CLI spells them (no protobuf code loaded). */
export const SIGN_MODE_NAMES = ['direct', 'amino-json'] as const;
export type SignModeName = (typeof SIGN_MODE_NAMES)[number];
