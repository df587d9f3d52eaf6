/**
 * Any packing with Cosmos type URLs, and the codec registry's coverage.
 */
import '../../../src/node/app/modules.js'; // the app's module types in the codec registry
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { Any as CjAny } from 'cosmjs-types/google/protobuf/any';
import { BaseAccountSchema } from '../../../src/gen/cosmos/auth/v1beta1/auth_pb.js';
import { MsgSendResponseSchema, MsgSendSchema } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { MsgCreateValidatorSchema } from '../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { PubKeySchema as EvmPubKeySchema } from '../../../src/gen/cosmos/evm/crypto/v1/ethsecp256k1/keys_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { EthAccountSchema } from '../../../src/gen/ethermint/types/v1/account_pb.js';
import {
  anyIs,
  anyPack,
  anyUnpack,
  anyUnpackAs,
  CodecError,
  isCodecError,
  registry,
  typeNameFromUrl,
} from '../../../src/node/codec/index.js';

describe('anyPack / anyUnpack', () => {
  const send = create(MsgSendSchema, { fromAddress: 'token1a', toAddress: 'token1b' });

  it('uses "/" + full name as the type URL, as Cosmos does', () => {
    const any = anyPack(MsgSendSchema, send);
    expect(any.typeUrl).toBe('/cosmos.bank.v1beta1.MsgSend');
    // The same bytes a cosmjs-types Any carries.
    const cj = CjAny.decode(toBinary(AnySchema, any));
    expect(cj.typeUrl).toBe('/cosmos.bank.v1beta1.MsgSend');
    expect(fromBinary(MsgSendSchema, cj.value).toAddress).toBe('token1b');
  });

  it('unpacks through the registry and as a given type', () => {
    const any = anyPack(MsgSendSchema, send);
    const unpacked = anyUnpack(any);
    expect(unpacked.$typeName).toBe('cosmos.bank.v1beta1.MsgSend');
    expect(anyUnpackAs(any, MsgSendSchema).fromAddress).toBe('token1a');
    expect(anyIs(any, MsgSendSchema)).toBe(true);
    expect(anyIs(any, BaseAccountSchema)).toBe(false);
  });

  it('names the URL when a type is unknown', () => {
    const any = create(AnySchema, { typeUrl: '/tokend.test.v1.NotRegistered', value: new Uint8Array() });
    let caught: unknown;
    try {
      anyUnpack(any);
    } catch (err) {
      caught = err;
    }
    expect(isCodecError(caught)).toBe(true);
    expect((caught as CodecError).reason).toBe('UNKNOWN_TYPE_URL');
    expect((caught as CodecError).message).toBe("unknown type URL '/tokend.test.v1.NotRegistered': no such message type is registered");
  });

  it('refuses a different type and undecodable bytes', () => {
    const any = anyPack(MsgSendSchema, send);
    expect(() => anyUnpackAs(any, BaseAccountSchema)).toThrow(
      "expected type URL '/cosmos.auth.v1beta1.BaseAccount', got '/cosmos.bank.v1beta1.MsgSend'",
    );
    const broken = create(AnySchema, { typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: new Uint8Array([0x0a, 0x05]) });
    expect(() => anyUnpack(broken)).toThrow(/cannot decode '\/cosmos.bank.v1beta1.MsgSend'/);
  });

  it('splits type URLs at the last slash', () => {
    expect(typeNameFromUrl('/cosmos.bank.v1beta1.MsgSend')).toBe('cosmos.bank.v1beta1.MsgSend');
    expect(typeNameFromUrl('type.googleapis.com/a.B')).toBe('a.B');
  });
});

describe('registry', () => {
  it.each([
    MsgSendSchema,
    MsgSendResponseSchema,
    MsgCreateValidatorSchema,
    EthAccountSchema,
    BaseAccountSchema,
    EthPubKeySchema,
    EvmPubKeySchema,
  ])('knows $typeName', (schema) => {
    expect(registry.getMessage(schema.typeName)).toBe(schema);
  });

  it('holds every Msg and Msg response of the auth, bank and staking Msg services', () => {
    const names = [
      'cosmos.auth.v1beta1.MsgUpdateParams',
      'cosmos.bank.v1beta1.MsgMultiSend',
      'cosmos.bank.v1beta1.MsgSetSendEnabled',
      'cosmos.bank.v1beta1.MsgUpdateParamsResponse',
      'cosmos.staking.v1beta1.MsgBeginRedelegate',
      'cosmos.staking.v1beta1.MsgUndelegateResponse',
      'cosmos.staking.v1beta1.MsgCancelUnbondingDelegation',
      'cosmos.staking.v1beta1.MsgEditValidator',
      'cosmos.staking.v1beta1.MsgDelegate',
      'cosmos.staking.v1beta1.MsgUpdateParams',
      'cosmos.crypto.secp256k1.PubKey',
      'cosmos.crypto.ed25519.PubKey',
      'cosmos.crypto.multisig.LegacyAminoPubKey',
      'cosmos.auth.v1beta1.ModuleAccount',
      'cosmos.tx.v1beta1.Tx',
    ];
    expect(names.filter((name) => registry.getMessage(name) === undefined)).toEqual([]);
  });
});
