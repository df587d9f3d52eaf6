/**
 * The store layout of bank, auth and staking as their collections write it: the SDK 0.50
 * prefixes, key codecs and value encodings (x/bank and x/auth keepers, x/staking types/keys.go).
 */
import { create } from '@bufbuild/protobuf';
import { ParamsSchema as BankParamsSchema } from '../../../src/gen/cosmos/bank/v1beta1/bank_pb.js';
import { DelegationSchema, HistoricalInfoSchema, ValidatorSchema } from '../../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import type { StoreProvider } from '../../../src/node/collections/index.js';
import { newEthAccount } from '../../../src/node/modules/auth/account.js';
import * as auth from '../../../src/node/modules/auth/keys.js';
import * as bank from '../../../src/node/modules/bank/keys.js';
import * as staking from '../../../src/node/modules/staking/keys.js';
import * as evm from '../../../src/node/modules/evm/keys.js';
import { MemKVStore } from '../../../src/node/store/index.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const ascii = (text: string): string => Buffer.from(text).toString('hex');

async function dump(store: MemKVStore): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const [key, value] of store.iterator()) out[hex(key)] = hex(value);
  return out;
}

function provider(): { ctx: StoreProvider; store: MemKVStore } {
  const store = new MemKVStore();
  return { ctx: { kv: () => store }, store };
}

const alice = new Uint8Array(20).fill(0xa1);
const bob = new Uint8Array(20).fill(0xb0);

test('bank: supply 0x00, metadata 0x01, balances 0x02 ‖ len ‖ address ‖ denom, denom index 0x03 ‖ denom ‖ 00 ‖ len ‖ address, send-enabled 0x04 as BoolValue, params 0x05', async () => {
  const { ctx, store } = provider();
  bank.Supply.set(ctx, 'atto', 15n);
  bank.Balances.set(ctx, [alice, 'atto'], 15n);
  bank.SendEnabled.set(ctx, 'atto', true);
  bank.SendEnabled.set(ctx, 'frozen', false);
  bank.Params.set(ctx, create(BankParamsSchema, { defaultSendEnabled: true }));
  expect(await dump(store)).toEqual({
    [`00${ascii('atto')}`]: ascii('15'),
    [`0214${hex(alice)}${ascii('atto')}`]: ascii('15'),
    [`03${ascii('atto')}0014${hex(alice)}`]: '',
    [`04${ascii('atto')}`]: '0801',
    [`04${ascii('frozen')}`]: '',
    '05': '1001',
  });
  expect(bank.bankSchema.collections.map((info) => info.name)).toEqual(['supply', 'denom_metadata', 'address_by_denom_index', 'balances', 'send_enabled', 'params']);
});

test('auth: params 0x00, accounts 0x01 ‖ address, "accountNumber" ‖ u64 → address, global account number 0x02', async () => {
  const { ctx, store } = provider();
  auth.Accounts.set(ctx, alice, newEthAccount(alice, 5n));
  auth.GlobalAccountNumber.set(ctx, 6n);
  const dumped = await dump(store);
  expect(Object.keys(dumped).sort()).toEqual([`01${hex(alice)}`, '02', `${ascii('accountNumber')}0000000000000005`].sort());
  expect(dumped[`${ascii('accountNumber')}0000000000000005`]).toBe(hex(alice));
  expect(dumped['02']).toBe('0000000000000006');
  expect(Buffer.from(dumped[`01${hex(alice)}`]!, 'hex').toString('latin1')).toContain('/ethermint.types.v1.EthAccount');
});

test('staking: 0x11/0x12/0x21/0x22/0x23/0x31/0x50/0x71 with length-prefixed addresses; power key inverts the address', async () => {
  const { ctx, store } = provider();
  const cons = new Uint8Array(20).fill(0xc0);
  staking.LastValidatorPower.set(ctx, alice, 100n);
  staking.LastTotalPower.set(ctx, 100n);
  staking.Validators.set(ctx, alice, create(ValidatorSchema, { tokens: '1' }));
  staking.ValidatorsByConsAddr.set(ctx, cons, alice);
  staking.ValidatorsByPower.set(ctx, [258n, alice], alice);
  staking.Delegations.set(ctx, [bob, alice], create(DelegationSchema, { shares: '1' }));
  staking.HistoricalInfoByHeight.set(ctx, 7n, create(HistoricalInfoSchema, {}));
  const inverted = hex(alice.map((byte) => ~byte & 0xff));
  expect(await dump(store)).toEqual({
    [`1114${hex(alice)}`]: '0864', // Int64Value{value: 100}
    '12': `0a03${ascii('100')}`, // IntProto{int: "100"}
    [`2114${hex(alice)}`]: `2a01${ascii('1')}`,
    [`2214${hex(cons)}`]: hex(alice),
    [`230000000000000102` + `14${inverted}`]: hex(alice),
    [`3114${hex(bob)}14${hex(alice)}`]: `1a01${ascii('1')}`,
    '500000000000000007': '',
    [`7114${hex(alice)}14${hex(bob)}`]: '',
  });
  // The power index decodes back to the real address, and walks highest power first.
  staking.ValidatorsByPower.set(ctx, [9n, bob], bob);
  const order: string[] = [];
  for await (const [[power, address]] of staking.ValidatorsByPower.iterate(ctx, { reverse: true })) order.push(`${power}:${hex(address)}`);
  expect(order).toEqual([`258:${hex(alice)}`, `9:${hex(bob)}`]);
});

test('evm: code 0x01 ‖ code hash, storage 0x02 ‖ address (20, no length byte) ‖ slot (32), as Ethermint keys them', async () => {
  const { ctx, store } = provider();
  const slot = new Uint8Array(32).fill(0x05);
  const codeHash = new Uint8Array(32).fill(0xc0);
  evm.Storage.set(ctx, [alice, slot], Uint8Array.of(0x2a));
  evm.Code.set(ctx, codeHash, Uint8Array.of(0x60, 0x00));
  expect(await dump(store)).toEqual({ [`01${hex(codeHash)}`]: '6000', [`02${hex(alice)}${hex(slot)}`]: '2a' });
  const entries: [string, string][] = [];
  for await (const [[address, key]] of evm.Storage.iterate(ctx, { prefix: [alice] })) entries.push([hex(address), hex(key)]);
  expect(entries).toEqual([[hex(alice), hex(slot)]]);
  expect(() => evm.Storage.set(ctx, [alice.subarray(0, 19), slot], Uint8Array.of(1))).toThrow('bytes[20] key of 19 bytes');
});
