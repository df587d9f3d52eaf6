/** x/authz errors (codespace "authz", x/authz/errors.go, SDK 0.47). */
import { registerError } from '../shared/errors.js';

export const AUTHZ_CODESPACE = 'authz';

export const AuthzErrors = {
  NoAuthorizationFound: registerError(AUTHZ_CODESPACE, 2, 'authorization not found'),
  InvalidExpirationTime: registerError(AUTHZ_CODESPACE, 3, 'expiration time of authorization should be more than current time'),
  UnknownAuthorizationType: registerError(AUTHZ_CODESPACE, 4, 'unknown authorization type'),
  NoGrantKeyFound: registerError(AUTHZ_CODESPACE, 5, 'grant key not found'),
  AuthorizationExpired: registerError(AUTHZ_CODESPACE, 6, 'authorization expired'),
  GranteeIsGranter: registerError(AUTHZ_CODESPACE, 7, 'grantee and granter should be different'),
  AuthorizationNumOfSigners: registerError(AUTHZ_CODESPACE, 9, 'authorization can be given to msg with only one signer'),
  NegativeMaxTokens: registerError(AUTHZ_CODESPACE, 12, 'max tokens should be positive'),
} as const;
