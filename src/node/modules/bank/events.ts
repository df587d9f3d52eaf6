/** x/bank events (x/bank/types/events.go); attribute order as the SDK emits them. */
import { coinsToString, type Coin } from '../shared/coins.js';
import { ATTRIBUTE_KEY_AMOUNT, ATTRIBUTE_KEY_SENDER, EVENT_TYPE_MESSAGE, newEvent, type AbciEvent } from '../shared/events.js';

export const EVENT_TYPE_TRANSFER = 'transfer';
export const EVENT_TYPE_COIN_SPENT = 'coin_spent';
export const EVENT_TYPE_COIN_RECEIVED = 'coin_received';
export const EVENT_TYPE_COINBASE = 'coinbase';
export const EVENT_TYPE_BURN = 'burn';
export const ATTRIBUTE_KEY_RECIPIENT = 'recipient';
export const ATTRIBUTE_KEY_SPENDER = 'spender';
export const ATTRIBUTE_KEY_RECEIVER = 'receiver';
export const ATTRIBUTE_KEY_MINTER = 'minter';
export const ATTRIBUTE_KEY_BURNER = 'burner';

export function coinSpentEvent(spender: string, coins: readonly Coin[]): AbciEvent {
  return newEvent(EVENT_TYPE_COIN_SPENT, [ATTRIBUTE_KEY_SPENDER, spender], [ATTRIBUTE_KEY_AMOUNT, coinsToString(coins)]);
}

export function coinReceivedEvent(receiver: string, coins: readonly Coin[]): AbciEvent {
  return newEvent(EVENT_TYPE_COIN_RECEIVED, [ATTRIBUTE_KEY_RECEIVER, receiver], [ATTRIBUTE_KEY_AMOUNT, coinsToString(coins)]);
}

export function transferEvent(recipient: string, sender: string, coins: readonly Coin[]): AbciEvent {
  return newEvent(EVENT_TYPE_TRANSFER, [ATTRIBUTE_KEY_RECIPIENT, recipient], [ATTRIBUTE_KEY_SENDER, sender], [ATTRIBUTE_KEY_AMOUNT, coinsToString(coins)]);
}

export function messageSenderEvent(sender: string): AbciEvent {
  return newEvent(EVENT_TYPE_MESSAGE, [ATTRIBUTE_KEY_SENDER, sender]);
}
