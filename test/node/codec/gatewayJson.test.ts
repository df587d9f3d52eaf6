/**
 * Gateway JSON: the shapes REST clients of a Cosmos node read (COMPAT §5, §6 and the spec's
 * account and balance examples), compared as exact JSON text so key order counts too.
 */
import '../../../src/node/app/modules.js'; // the app's module types in the codec registry
import { create, equals, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { BaseAccountSchema } from '../../../src/gen/cosmos/auth/v1beta1/auth_pb.js';
import { QueryAccountResponseSchema } from '../../../src/gen/cosmos/auth/v1beta1/query_pb.js';
import { QueryAllBalancesResponseSchema } from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { MsgSendSchema } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { PageResponseSchema } from '../../../src/gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { CoinSchema, DecCoinSchema } from '../../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { PubKeySchema as Ed25519PubKeySchema } from '../../../src/gen/cosmos/crypto/ed25519/keys_pb.js';
import { GenesisStateSchema as StakingGenesisSchema } from '../../../src/gen/cosmos/staking/v1beta1/genesis_pb.js';
import {
  BondStatus,
  CommissionRatesSchema,
  CommissionSchema,
  DescriptionSchema,
  ValidatorSchema,
} from '../../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import { MsgEditValidatorSchema } from '../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import {
  BroadcastMode,
  BroadcastTxRequestSchema,
  GetTxResponseSchema,
  SimulateRequestSchema,
} from '../../../src/gen/cosmos/tx/v1beta1/service_pb.js';
import { TxBodySchema, TxSchema } from '../../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { EthAccountSchema } from '../../../src/gen/ethermint/types/v1/account_pb.js';
import { PublicKeySchema } from '../../../src/gen/tendermint/crypto/keys_pb.js';
import { anyPack, CodecError, fromGatewayJson, toGatewayJson } from '../../../src/node/codec/index.js';

const KECCAK_EMPTY = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';
const ADDRESS = 'ethm17w0adeg64ky0daxwd2ugyuneellmjgnxcn4sgz';
const PUBKEY = new Uint8Array(Buffer.from('038318535b54105d4a7aae60c08fc45f9687181b4fdfc625bd1a753fa7397fed75', 'hex'));
const PUBKEY_B64 = Buffer.from(PUBKEY).toString('base64');

function ethAccount(withKey: boolean) {
  return create(EthAccountSchema, {
    baseAccount: create(BaseAccountSchema, {
      address: ADDRESS,
      pubKey: withKey ? anyPack(EthPubKeySchema, create(EthPubKeySchema, { key: PUBKEY })) : undefined,
      accountNumber: 8n,
      sequence: 0n,
    }),
    codeHash: KECCAK_EMPTY,
  });
}

describe('toGatewayJson', () => {
  it('prints an EthAccount as COMPAT §6 shows it, pub_key null before the first tx', () => {
    const response = create(QueryAccountResponseSchema, { account: anyPack(EthAccountSchema, ethAccount(false)) });
    expect(JSON.stringify(toGatewayJson(QueryAccountResponseSchema, response))).toBe(
      JSON.stringify({
        account: {
          '@type': '/ethermint.types.v1.EthAccount',
          base_account: { address: ADDRESS, pub_key: null, account_number: '8', sequence: '0' },
          code_hash: KECCAK_EMPTY,
        },
      }),
    );
  });

  it('expands the nested public key Any with "@type" first', () => {
    const json = toGatewayJson(EthAccountSchema, ethAccount(true)) as { base_account: { pub_key: object } };
    expect(JSON.stringify(json.base_account.pub_key)).toBe(
      JSON.stringify({ '@type': '/ethermint.crypto.v1.ethsecp256k1.PubKey', key: PUBKEY_B64 }),
    );
  });

  it('prints an empty balance page as the spec describes (balances [], next_key null, total "0")', () => {
    const response = create(QueryAllBalancesResponseSchema, { pagination: create(PageResponseSchema, {}) });
    expect(JSON.stringify(toGatewayJson(QueryAllBalancesResponseSchema, response))).toBe(
      '{"balances":[],"pagination":{"next_key":null,"total":"0"}}',
    );
    // An unset nullable message is null rather than omitted.
    expect(toGatewayJson(QueryAllBalancesResponseSchema, create(QueryAllBalancesResponseSchema))).toEqual({
      balances: [],
      pagination: null,
    });
  });

  it('follows gogoproto: non-nullable zero structs, Go zero time, decimals, enum names', () => {
    const validator = create(ValidatorSchema, {
      operatorAddress: 'tokenvaloper1abc',
      status: BondStatus.BONDED,
      tokens: '1000000',
      delegatorShares: '1000000000000000000000000',
      description: create(DescriptionSchema, { moniker: 'node0' }),
      unbondingTime: timestampFromDate(new Date('1970-01-01T00:00:00Z')),
      commission: create(CommissionSchema, {
        commissionRates: create(CommissionRatesSchema, {
          rate: '100000000000000000',
          maxRate: '200000000000000000',
          maxChangeRate: '10000000000000000',
        }),
      }),
      minSelfDelegation: '1',
    });
    expect(JSON.stringify(toGatewayJson(ValidatorSchema, validator))).toBe(
      JSON.stringify({
        operator_address: 'tokenvaloper1abc',
        consensus_pubkey: null,
        jailed: false,
        status: 'BOND_STATUS_BONDED',
        tokens: '1000000',
        delegator_shares: '1000000.000000000000000000',
        description: { moniker: 'node0', identity: '', website: '', security_contact: '', details: '' },
        unbonding_height: '0',
        unbonding_time: '1970-01-01T00:00:00Z',
        commission: {
          commission_rates: {
            rate: '0.100000000000000000',
            max_rate: '0.200000000000000000',
            max_change_rate: '0.010000000000000000',
          },
          update_time: '0001-01-01T00:00:00Z',
        },
        min_self_delegation: '1',
        unbonding_on_hold_ref_count: '0',
        unbonding_ids: [],
      }),
    );
  });

  it('prints unset nullable customtype scalars as null and DecCoins as decimals', () => {
    const edit = create(MsgEditValidatorSchema, { validatorAddress: 'tokenvaloper1abc' });
    expect(toGatewayJson(MsgEditValidatorSchema, edit)).toMatchObject({ commission_rate: null, min_self_delegation: null });
    expect(toGatewayJson(DecCoinSchema, create(DecCoinSchema, { denom: 'attotoken', amount: '1500000000000000000' }))).toEqual({
      denom: 'attotoken',
      amount: '1.500000000000000000',
    });
  });

  it('prints a math.Int carried in bytes as its text', () => {
    const genesis = create(StakingGenesisSchema, { lastTotalPower: new TextEncoder().encode('12345') });
    expect(toGatewayJson(StakingGenesisSchema, genesis)).toMatchObject({ last_total_power: '12345', validators: [] });
  });

  it('prints a tx with its messages expanded, "@type" first, 64-bit ints as strings', () => {
    const send = create(MsgSendSchema, {
      fromAddress: 'token1a',
      toAddress: 'token1b',
      amount: [create(CoinSchema, { denom: 'attotoken', amount: '5' })],
    });
    const tx = create(TxSchema, {
      body: create(TxBodySchema, { messages: [anyPack(MsgSendSchema, send)], timeoutHeight: 9n }),
      signatures: [new Uint8Array([1, 2, 3])],
    });
    const json = toGatewayJson(GetTxResponseSchema, create(GetTxResponseSchema, { tx })) as {
      tx: { body: { messages: object[]; timeout_height: string }; auth_info: null; signatures: string[] };
      tx_response: null;
    };
    expect(JSON.stringify(json.tx.body.messages[0])).toBe(
      '{"@type":"/cosmos.bank.v1beta1.MsgSend","from_address":"token1a","to_address":"token1b","amount":[{"denom":"attotoken","amount":"5"}]}',
    );
    expect(json.tx.body.timeout_height).toBe('9');
    expect(json.tx.auth_info).toBeNull();
    expect(json.tx.signatures).toEqual(['AQID']);
    expect(json.tx_response).toBeNull();
  });

  it('prints only the set member of a oneof', () => {
    const key = create(PublicKeySchema, { sum: { case: 'ed25519', value: new Uint8Array([1]) } });
    expect(toGatewayJson(PublicKeySchema, key)).toEqual({ ed25519: 'AQ==' });
  });

  it('fails with a clear error for an Any of an unknown type', () => {
    const response = create(QueryAccountResponseSchema, {
      account: { $typeName: 'google.protobuf.Any', typeUrl: '/vesting.v1.ClawbackAccount', value: new Uint8Array() },
    });
    expect(() => toGatewayJson(QueryAccountResponseSchema, response)).toThrow(
      "unknown type URL '/vesting.v1.ClawbackAccount'",
    );
  });
});

describe('fromGatewayJson', () => {
  it('reads a broadcast body', () => {
    const txBytes = toBinary(TxSchema, create(TxSchema, { signatures: [new Uint8Array([9])] }));
    const request = fromGatewayJson(BroadcastTxRequestSchema, {
      tx_bytes: Buffer.from(txBytes).toString('base64'),
      mode: 'BROADCAST_MODE_SYNC',
    });
    expect(request.mode).toBe(BroadcastMode.SYNC);
    expect(Buffer.from(request.txBytes).equals(Buffer.from(txBytes))).toBe(true);
  });

  it('reads back what toGatewayJson printed, Anys, decimals and nulls included', () => {
    const validator = create(ValidatorSchema, {
      operatorAddress: 'tokenvaloper1abc',
      consensusPubkey: anyPack(Ed25519PubKeySchema, create(Ed25519PubKeySchema, { key: new Uint8Array(32).fill(3) })),
      status: BondStatus.UNBONDING,
      tokens: '10',
      delegatorShares: '10000000000000000000',
      description: create(DescriptionSchema, { moniker: 'm' }),
      unbondingTime: timestampFromDate(new Date('2030-05-06T07:08:09.5Z')),
      commission: create(CommissionSchema, {
        commissionRates: create(CommissionRatesSchema, { rate: '50000000000000000', maxRate: '1000000000000000000', maxChangeRate: '1' }),
        updateTime: timestampFromDate(new Date('2024-01-01T00:00:00Z')),
      }),
      minSelfDelegation: '1',
      unbondingIds: [1n, 2n],
    });
    const json = toGatewayJson(ValidatorSchema, validator);
    expect(equals(ValidatorSchema, fromGatewayJson(ValidatorSchema, json), validator)).toBe(true);

    const account = ethAccount(true);
    expect(equals(EthAccountSchema, fromGatewayJson(EthAccountSchema, toGatewayJson(EthAccountSchema, account)), account)).toBe(
      true,
    );
  });

  it('reads a simulate body with an embedded tx given as JSON', () => {
    const request = fromGatewayJson(SimulateRequestSchema, {
      tx: {
        body: {
          messages: [{ '@type': '/cosmos.bank.v1beta1.MsgSend', from_address: 'token1a', to_address: 'token1b', amount: [] }],
          memo: '',
        },
        auth_info: null,
        signatures: [],
      },
    });
    expect(request.tx?.body?.messages[0].typeUrl).toBe('/cosmos.bank.v1beta1.MsgSend');
  });

  it('rejects unknown fields, unknown Any types and over-precise decimals with CodecError', () => {
    expect(() => fromGatewayJson(BroadcastTxRequestSchema, { tx_bytes: '', txbytes: 'x' })).toThrow(CodecError);
    expect(() => fromGatewayJson(BroadcastTxRequestSchema, { tx_bytes: '', txbytes: 'x' })).toThrow(
      /invalid JSON for cosmos.tx.v1beta1.BroadcastTxRequest/,
    );
    expect(() => fromGatewayJson(QueryAccountResponseSchema, { account: { '@type': '/no.such.Type' } })).toThrow(
      "account: unknown type URL '/no.such.Type'",
    );
    expect(() =>
      fromGatewayJson(CommissionRatesSchema, { rate: '0.1234567890123456789', max_rate: '1', max_change_rate: '1' }),
    ).toThrow(/more than 18 fractional digits/);
    expect(fromGatewayJson(BroadcastTxRequestSchema, { tx_bytes: '', extra: 1 }, { ignoreUnknownFields: true }).mode).toBe(
      BroadcastMode.UNSPECIFIED,
    );
  });
});
