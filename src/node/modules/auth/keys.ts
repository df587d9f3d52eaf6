/**
 * The auth module's store ("acc", as in the SDK) and its collections (x/auth 0.50 keeper:
 * prefixes, key and value codecs as upstream):
 *
 *   0x00                              Params               → cosmos.auth.v1beta1.Params
 *   0x01 ‖ address                    Accounts             → google.protobuf.Any (EthAccount/BaseAccount/ModuleAccount)
 *   "accountNumber" ‖ number (u64 BE) Accounts' unique index account_by_number → address
 *   0x02                              GlobalAccountNumber  → the next number to hand out (u64 BE)
 */
import { ParamsSchema } from '../../../gen/cosmos/auth/v1beta1/auth_pb.js';
import { IndexedMap, Item, Sequence, SchemaBuilder, UniqueIndex, bytesKey, bytesValue, protoValue, u64Key, type ValueCodec } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';
import { decodeAccount, encodeAccount, type Account } from './account.js';

export const MODULE_NAME = 'auth';
export const STORE_KEY = 'acc';

export const authStoreKey = StoreKey.persistent(STORE_KEY);

/** An account as the Any the SDK stores (codec.CollInterfaceValue); decoding is memoised in account.ts. */
const accountValue: ValueCodec<Account> = {
  valueType: 'google.protobuf.Any(sdk.AccountI)',
  encode: encodeAccount,
  decode: decodeAccount,
  stringify: (account) => `${account.kind} account #${account.accountNumber}`,
};

const schema = new SchemaBuilder(authStoreKey);

export const Params = new Item(schema, 'params', 0x00, protoValue(ParamsSchema, { shared: true }));

/** account number → address. */
export const AccountsByNumber = new UniqueIndex<bigint, Uint8Array, Account>(schema, 'account_by_number', 'accountNumber', u64Key, bytesValue, (_address, account) => account.accountNumber);

/** address → account. */
export const Accounts = new IndexedMap(schema, 'accounts', 0x01, bytesKey, accountValue, { byNumber: AccountsByNumber });

/** The next account number to hand out. */
export const GlobalAccountNumber = new Sequence(schema, 'account_number', 0x02);

export const authSchema = schema.build();

/** The fee collector module account (x/auth), where the ante chain sends fees. */
export const FEE_COLLECTOR_NAME = 'fee_collector';
