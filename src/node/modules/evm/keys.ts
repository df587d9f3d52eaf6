/**
 * The EVM module's store ("evm") and its collections (Ethermint v0.22 x/evm/types/key.go prefixes):
 *
 *   0x01 ‖ code hash (32)                  Code     → contract bytecode
 *   0x02 ‖ address (20) ‖ slot (32)        Storage  → slot value (big-endian, leading zeros stripped;
 *                                                     zero values are removed)
 *   0x03                                   Params   → ethermint.evm.v1.Params
 *   0x04                                   BlockBloom → the logs bloom of the block being executed
 *                                                     (Ethermint's transient bloom: removed in
 *                                                     EndBlock, so it is never committed)
 *
 * Accounts (nonce = sequence, code hash on the EthAccount) live in auth, balances in bank.
 */
import { ParamsSchema } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import { Item, SchemaBuilder, StateMap, bytesKey, bytesValue, fixedBytesKey, pairKey, protoValue } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'evm';
export const evmStoreKey = StoreKey.persistent('evm');

const schema = new SchemaBuilder(evmStoreKey);

export const Code = new StateMap(schema, 'code', 0x01, bytesKey, bytesValue);
export const Storage = new StateMap(schema, 'storage', 0x02, pairKey(fixedBytesKey(20), bytesKey), bytesValue);
export const Params = new Item(schema, 'params', 0x03, protoValue(ParamsSchema, { shared: true }));
export const BlockBloom = new Item(schema, 'block_bloom', 0x04, bytesValue);

export const evmSchema = schema.build();

export const MSG_ETHEREUM_TX_URL = '/ethermint.evm.v1.MsgEthereumTx';

/** keccak256(""): the code hash of an account without code (as EthAccount prints it). */
export const EMPTY_CODE_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

/** The module account fees are paid to and refunded from (x/auth's fee collector). */
export const FEE_COLLECTOR_NAME = 'fee_collector';
