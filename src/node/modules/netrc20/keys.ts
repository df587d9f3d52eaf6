/**
 * The coin ⇄ ERC-20 converter's store ("aiozrc20") and its collections (Evmos x/erc20 prefixes):
 *
 *   0x01 ‖ pair id (32)        TokenPairs        → aioz.aiozrc20.v1.TokenPair
 *   0x02 ‖ ERC-20 address (20) TokenPairByErc20  → pair id
 *   0x03 ‖ denom               TokenPairByDenom  → pair id
 *   0x04                       Params            → aioz.aiozrc20.v1.Params
 *   0x05                       ConverterAddress  → 0x hex (set by SetConverterAddressProposal)
 *
 * A pair's id is sha256(checksummed ERC-20 address ‖ "|" ‖ denom) (Evmos' tmhash of the same).
 */
import { TokenPairSchema } from '../../../gen/aioz/aiozrc20/v1/aiozrc20_pb.js';
import { ParamsSchema } from '../../../gen/aioz/aiozrc20/v1/genesis_pb.js';
import { Item, SchemaBuilder, StateMap, bytesKey, bytesValue, protoValue, stringKey, stringValue } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

/** The module's name: app_state key, CLI topic (alias netrc20), codespace and module account. */
export const MODULE_NAME = 'aiozrc20';
export const aiozrc20StoreKey = StoreKey.persistent('aiozrc20');

const schema = new SchemaBuilder(aiozrc20StoreKey);

export const TokenPairs = new StateMap(schema, 'token_pairs', 0x01, bytesKey, protoValue(TokenPairSchema));
export const TokenPairByErc20 = new StateMap(schema, 'token_pair_by_erc20', 0x02, bytesKey, bytesValue);
export const TokenPairByDenom = new StateMap(schema, 'token_pair_by_denom', 0x03, stringKey, bytesValue);
export const Params = new Item(schema, 'params', 0x04, protoValue(ParamsSchema, { shared: true }));
export const ConverterAddress = new Item(schema, 'converter_address', 0x05, stringValue);

export const aiozrc20Schema = schema.build();
