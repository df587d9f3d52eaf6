/** x/staking events (x/staking/types/events.go). */
export const EVENT_TYPE_CREATE_VALIDATOR = 'create_validator';
export const EVENT_TYPE_DELEGATE = 'delegate';
export const EVENT_TYPE_COMPLETE_UNBONDING = 'complete_unbonding';
export const ATTRIBUTE_KEY_VALIDATOR = 'validator';
export const ATTRIBUTE_KEY_DELEGATOR = 'delegator';
export const ATTRIBUTE_KEY_NEW_SHARES = 'new_shares';
