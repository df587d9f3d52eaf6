/**
 * x/group errors (codespace "group", x/group/errors/errors.go). The SDK registers its decimal
 * parse error as ("math", 1); code 1 is reserved for internal errors here, so a malformed
 * decimal is group/6 "invalid value" wrapping "invalid decimal string".
 */
import { registerError } from '../shared/errors.js';

export const GROUP_CODESPACE = 'group';

export const GroupErrors = {
  Empty: registerError(GROUP_CODESPACE, 2, 'value is empty'),
  Duplicate: registerError(GROUP_CODESPACE, 3, 'duplicate value'),
  MaxLimit: registerError(GROUP_CODESPACE, 4, 'limit exceeded'),
  Type: registerError(GROUP_CODESPACE, 5, 'invalid type'),
  Invalid: registerError(GROUP_CODESPACE, 6, 'invalid value'),
  Unauthorized: registerError(GROUP_CODESPACE, 7, 'unauthorized'),
  Modified: registerError(GROUP_CODESPACE, 8, 'modified'),
  Expired: registerError(GROUP_CODESPACE, 9, 'expired'),
} as const;

/** The group ORM's errors (codespace "orm", x/group/errors/orm.go) that reach users. */
export const GroupOrmErrors = {
  UniqueConstraint: registerError('orm', 13, 'unique constraint violation'),
} as const;

/** A malformed or out-of-range decimal (weight, threshold, percentage). */
export const GroupMathErrors = {
  InvalidDecString: { wrap: (message: string) => GroupErrors.Invalid.wrap(`invalid decimal string: ${message}`) },
} as const;
