/**
 * SIGN_MODE_LEGACY_AMINO_JSON sign bytes against CosmJS (`@cosmjs/amino` makeSignDoc +
 * serializeSignDoc, `@cosmjs/stargate` AminoTypes for bank and staking): for the same message,
 * fee, memo, chain id, account number and sequence, our bytes must equal CosmJS's byte for byte
 * (that is what Ledger and Keplr's amino path sign).
 */
import '../../../src/node/app/modules.js'; // the app's module types in the codec registry
import { create, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate, type Any } from '@bufbuild/protobuf/wkt';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { CoinSchema } from '../../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { MsgMultiSendSchema, MsgSendSchema } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { InputSchema, OutputSchema } from '../../../src/gen/cosmos/bank/v1beta1/bank_pb.js';
import { PubKeySchema as Ed25519PubKeySchema } from '../../../src/gen/cosmos/crypto/ed25519/keys_pb.js';
import { LegacyAminoPubKeySchema } from '../../../src/gen/cosmos/crypto/multisig/keys_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../../src/gen/cosmos/crypto/secp256k1/keys_pb.js';
import { CommissionRatesSchema, DescriptionSchema } from '../../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import {
  MsgBeginRedelegateSchema,
  MsgCancelUnbondingDelegationSchema,
  MsgCreateValidatorSchema,
  MsgDelegateSchema,
  MsgEditValidatorSchema,
  MsgUndelegateResponseSchema,
  MsgUndelegateSchema,
} from '../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { MsgUpdateParamsSchema as AuthMsgUpdateParamsSchema } from '../../../src/gen/cosmos/auth/v1beta1/tx_pb.js';
import { AminoJsonEncoder, AminoJsonError, AminoJsonSigner, goJsonString } from '../../../src/node/codec/aminoJson.js';
import { anyPack, legacyDecToWire, protoRegistry } from '../../../src/node/codec/index.js';

const A = 'token1qurswpc8qurswpc8qurswpc8qurswpc8352r9t';
const B = 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2';
const VAL = 'tokenvaloper17w0adeg64ky0daxwd2ugyuneellmjgnx9f6w8y';
const VAL2 = 'tokenvaloper1qurswpc8qurswpc8qurswpc8qurswpc8gh6x0z';

interface CosmjsDoc {
  msgs: { typeUrl: string; value: unknown }[];
  fee: { amount: { denom: string; amount: string }[]; gas: string; payer?: string; granter?: string };
  chainId: string;
  memo: string;
  accountNumber: number;
  sequence: number;
  timeoutHeight?: string;
}

/** CosmJS's serialized sign docs, computed in a plain Node process (see the fixture). */
function cosmjsSignDocs(docs: CosmjsDoc[]): string[] {
  const input = JSON.stringify(docs, (_key, value: unknown) => (value instanceof Uint8Array ? { $bytes: Buffer.from(value).toString('base64') } : value));
  const out = execFileSync(process.execPath, [join(import.meta.dirname, 'fixtures', 'cosmjs-amino.cjs')], { input, encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out) as string[];
}

function pack<D extends DescMessage>(schema: D, init: MessageInitShape<D>): Any {
  return anyPack(schema, create(schema, init));
}

interface Case {
  name: string;
  any: Any;
  /** The same message as CosmJS's EncodeObject value (cosmjs-types shapes). */
  cosmjs: { typeUrl: string; value: unknown };
}

const coin = (amount: string, denom = 'attotoken'): { denom: string; amount: string } => ({ denom, amount });
const consKey = Uint8Array.from({ length: 32 }, (_, i) => i + 1);

const cases: Case[] = [
  {
    name: 'bank MsgSend',
    any: pack(MsgSendSchema, { fromAddress: A, toAddress: B, amount: [create(CoinSchema, coin('1234'))] }),
    cosmjs: { typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: { fromAddress: A, toAddress: B, amount: [coin('1234')] } },
  },
  {
    name: 'bank MsgSend with two denoms',
    any: pack(MsgSendSchema, { fromAddress: A, toAddress: B, amount: [create(CoinSchema, coin('5')), create(CoinSchema, coin('7', 'stake'))] }),
    cosmjs: { typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: { fromAddress: A, toAddress: B, amount: [coin('5'), coin('7', 'stake')] } },
  },
  {
    name: 'bank MsgMultiSend',
    any: pack(MsgMultiSendSchema, {
      inputs: [create(InputSchema, { address: A, coins: [create(CoinSchema, coin('30'))] })],
      outputs: [create(OutputSchema, { address: B, coins: [create(CoinSchema, coin('10'))] }), create(OutputSchema, { address: A, coins: [create(CoinSchema, coin('20'))] })],
    }),
    cosmjs: {
      typeUrl: '/cosmos.bank.v1beta1.MsgMultiSend',
      value: { inputs: [{ address: A, coins: [coin('30')] }], outputs: [{ address: B, coins: [coin('10')] }, { address: A, coins: [coin('20')] }] },
    },
  },
  {
    name: 'staking MsgDelegate',
    any: pack(MsgDelegateSchema, { delegatorAddress: B, validatorAddress: VAL, amount: create(CoinSchema, coin('1000000000000000000')) }),
    cosmjs: { typeUrl: '/cosmos.staking.v1beta1.MsgDelegate', value: { delegatorAddress: B, validatorAddress: VAL, amount: coin('1000000000000000000') } },
  },
  {
    name: 'staking MsgUndelegate',
    any: pack(MsgUndelegateSchema, { delegatorAddress: B, validatorAddress: VAL, amount: create(CoinSchema, coin('9')) }),
    cosmjs: { typeUrl: '/cosmos.staking.v1beta1.MsgUndelegate', value: { delegatorAddress: B, validatorAddress: VAL, amount: coin('9') } },
  },
  {
    name: 'staking MsgBeginRedelegate',
    any: pack(MsgBeginRedelegateSchema, { delegatorAddress: B, validatorSrcAddress: VAL, validatorDstAddress: VAL2, amount: create(CoinSchema, coin('3')) }),
    cosmjs: { typeUrl: '/cosmos.staking.v1beta1.MsgBeginRedelegate', value: { delegatorAddress: B, validatorSrcAddress: VAL, validatorDstAddress: VAL2, amount: coin('3') } },
  },
  {
    // Every string set: CosmJS writes empty description fields as "", the SDK leaves them out.
    name: 'staking MsgCreateValidator (ed25519 key Any, decimals)',
    any: pack(MsgCreateValidatorSchema, {
      description: create(DescriptionSchema, { moniker: 'm', identity: 'i', website: 'https://x.io/?a=1&b=<2>', securityContact: 's', details: 'd' }),
      commission: create(CommissionRatesSchema, { rate: legacyDecToWire('0.1'), maxRate: legacyDecToWire('0.2'), maxChangeRate: legacyDecToWire('0.01') }),
      minSelfDelegation: '1',
      delegatorAddress: B,
      validatorAddress: VAL,
      pubkey: pack(Ed25519PubKeySchema, { key: consKey }),
      value: create(CoinSchema, coin('100')),
    }),
    cosmjs: {
      typeUrl: '/cosmos.staking.v1beta1.MsgCreateValidator',
      value: {
        description: { moniker: 'm', identity: 'i', website: 'https://x.io/?a=1&b=<2>', securityContact: 's', details: 'd' },
        commission: { rate: legacyDecToWire('0.1'), maxRate: legacyDecToWire('0.2'), maxChangeRate: legacyDecToWire('0.01') },
        minSelfDelegation: '1',
        delegatorAddress: B,
        validatorAddress: VAL,
        pubkey: { typeUrl: '/cosmos.crypto.ed25519.PubKey', value: Uint8Array.from([0x0a, 32, ...consKey]) },
        value: coin('100'),
      },
    },
  },
  {
    name: 'staking MsgEditValidator (commission rate set, min self delegation left unchanged)',
    any: pack(MsgEditValidatorSchema, { description: create(DescriptionSchema, { moniker: 'n', identity: 'i', website: 'w', securityContact: 's', details: 'd' }), validatorAddress: VAL, commissionRate: legacyDecToWire('0.05') }),
    cosmjs: {
      typeUrl: '/cosmos.staking.v1beta1.MsgEditValidator',
      value: { description: { moniker: 'n', identity: 'i', website: 'w', securityContact: 's', details: 'd' }, validatorAddress: VAL, commissionRate: legacyDecToWire('0.05'), minSelfDelegation: '' },
    },
  },
];

describe('amino JSON sign bytes equal CosmJS serializeSignDoc(makeSignDoc(…))', () => {
  const signer = new AminoJsonSigner();
  const multi = [cases[0]!, cases[3]!];
  let expected: string[];

  beforeAll(() => {
    expected = cosmjsSignDocs([
      ...cases.map((c) => ({ msgs: [c.cosmjs], fee: { amount: [coin('200000')], gas: '200000' }, chainId: 'testnet', memo: 'memo <&> "q"', accountNumber: 7, sequence: 3 })),
      { msgs: multi.map((c) => c.cosmjs), fee: { amount: [], gas: '0', payer: A, granter: B }, chainId: 'chain-9', memo: '', accountNumber: 0, sequence: 0, timeoutHeight: '99' },
    ]);
  });

  test.each(cases.map((c, i) => ({ ...c, i })))('$name', ({ any, i }) => {
    const ours = signer.signBytes({
      chainId: 'testnet',
      accountNumber: 7n,
      sequence: 3n,
      timeoutHeight: 0n,
      memo: 'memo <&> "q"',
      msgs: [any],
      fee: { amount: [create(CoinSchema, coin('200000'))], gasLimit: 200_000n, payer: '', granter: '' },
    });
    expect(new TextDecoder().decode(ours)).toBe(expected[i]);
  });

  test('several messages, timeout height, fee payer and granter, zero account number and empty fee', () => {
    const ours = signer.signBytes({ chainId: 'chain-9', accountNumber: 0n, sequence: 0n, timeoutHeight: 99n, memo: '', msgs: multi.map((c) => c.any), fee: { amount: [], gasLimit: 0n, payer: A, granter: B } });
    expect(new TextDecoder().decode(ours)).toBe(expected[cases.length]);
  });

  test('the SDK shape of a bank send, spelled out', () => {
    const json = signer.signDocJson({ chainId: 'testnet', accountNumber: 1n, sequence: 2n, timeoutHeight: 0n, memo: '', msgs: [cases[0]!.any], fee: { amount: [], gasLimit: 5n, payer: '', granter: '' } });
    expect(json).toBe(
      `{"account_number":"1","chain_id":"testnet","fee":{"amount":[],"gas":"5"},"memo":"","msgs":[{"type":"cosmos-sdk/MsgSend","value":{"amount":[{"amount":"1234","denom":"attotoken"}],"from_address":"${A}","to_address":"${B}"}}],"sequence":"2"}`,
    );
  });
});

describe('amino JSON encoder rules', () => {
  // Every proto type, so that an Any of a message without an amino name resolves.
  const encoder = new AminoJsonEncoder({ registry: protoRegistry });

  test('empty legacy_coins is [], unset dont_omitempty scalar is its zero value, unset optional fields are left out', () => {
    expect(encoder.encodeAny(pack(MsgSendSchema, { fromAddress: A, toAddress: '' }))).toBe(`{"type":"cosmos-sdk/MsgSend","value":{"amount":[],"from_address":"${A}"}}`);
    expect(encoder.encodeAny(pack(MsgCancelUnbondingDelegationSchema, { delegatorAddress: A, amount: create(CoinSchema, { denom: 'x' }) }))).toBe(
      `{"type":"cosmos-sdk/MsgCancelUnbondingDelegation","value":{"amount":{"amount":"0","denom":"x"},"delegator_address":"${A}"}}`,
    );
  });

  test('an unset dont_omitempty message field cannot be encoded (as the SDK)', () => {
    expect(() => encoder.encodeAny(pack(MsgDelegateSchema, { delegatorAddress: A }))).toThrow('dont_omit_empty=true on invalid (nil?) message field: amount');
  });

  test('int64 as string, timestamps in RFC 3339 (nanos only when set)', () => {
    expect(encoder.encodeAny(pack(MsgCancelUnbondingDelegationSchema, { delegatorAddress: A, amount: create(CoinSchema, coin('1')), creationHeight: 42n }))).toContain('"creation_height":"42"');
    const at = (iso: string): string => encoder.encodeMessage(MsgUndelegateResponseSchema, create(MsgUndelegateResponseSchema, { completionTime: timestampFromDate(new Date(iso)), amount: create(CoinSchema, coin('1')) }));
    expect(at('2024-05-06T07:08:09Z')).toBe('{"amount":{"amount":"1","denom":"attotoken"},"completion_time":"2024-05-06T07:08:09Z"}');
    expect(at('2024-05-06T07:08:09.120Z')).toContain('"completion_time":"2024-05-06T07:08:09.12Z"');
  });

  test('multisig keys: threshold_string with key_field members; messages without a name inside Anys use the type URL', () => {
    const multisig = pack(LegacyAminoPubKeySchema, { threshold: 2, publicKeys: [pack(Secp256k1PubKeySchema, { key: new Uint8Array([2, 1]) }), pack(Ed25519PubKeySchema, { key: new Uint8Array([9]) })] });
    expect(encoder.encodeAny(multisig)).toBe('{"type":"tendermint/PubKeyMultisigThreshold","value":{"pubkeys":[{"type":"tendermint/PubKeySecp256k1","value":"AgE="},{"type":"tendermint/PubKeyEd25519","value":"CQ=="}],"threshold":"2"}}');
    expect(encoder.encodeAny(pack(CoinSchema, coin('1')))).toBe('{"type":"/cosmos.base.v1beta1.Coin","value":{"amount":"1","denom":"attotoken"}}');
  });

  test('a tx message without an amino name is refused, naming the type; a name override fixes it', () => {
    const unnamed = pack(CoinSchema, coin('1'));
    const signer = new AminoJsonSigner({ registry: protoRegistry });
    const doc = { chainId: 'c', accountNumber: 0n, sequence: 0n, timeoutHeight: 0n, memo: '', msgs: [unnamed], fee: { amount: [], gasLimit: 1n, payer: '', granter: '' } };
    expect(() => signer.signBytes(doc)).toThrow(AminoJsonError);
    expect(() => signer.signBytes(doc)).toThrow('/cosmos.base.v1beta1.Coin has no amino name, so it cannot be signed with SIGN_MODE_LEGACY_AMINO_JSON');
    const named = new AminoJsonSigner({ registry: protoRegistry, nameOverrides: { 'cosmos.base.v1beta1.Coin': 'test/Coin' } });
    expect(named.signDocJson(doc)).toContain('"msgs":[{"type":"test/Coin","value":{"amount":"1","denom":"attotoken"}}]');
    // Overrides win over the proto option.
    expect(new AminoJsonEncoder({ nameOverrides: new Map([['cosmos.auth.v1beta1.MsgUpdateParams', 'x/Renamed']]) }).aminoName(AuthMsgUpdateParamsSchema)).toBe('x/Renamed');
  });

  test('strings are escaped as Go encoding/json escapes them', () => {
    expect(goJsonString('a<b>&c\u2028\u2029"\\\n\u0001é')).toBe('"a\\u003cb\\u003e\\u0026c\\u2028\\u2029\\"\\\\\\n\\u0001é"');
  });
});
