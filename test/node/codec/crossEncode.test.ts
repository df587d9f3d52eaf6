/**
 * The messages every wallet and explorer touches, with realistic values, encoded both ways:
 * protobuf-es -> cosmjs-types -> bytes, and cosmjs-types -> protobuf-es -> bytes. The bytes must
 * be identical and each side must read the other's values.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { BaseAccount as CjBaseAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import {
  QueryAllBalancesRequest as CjQueryAllBalancesRequest,
  QueryAllBalancesResponse as CjQueryAllBalancesResponse,
} from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { MsgMultiSend as CjMsgMultiSend, MsgSend as CjMsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { PageRequest as CjPageRequest } from 'cosmjs-types/cosmos/base/query/v1beta1/pagination';
import { PubKey as CjSecp256k1PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { MsgCreateValidator as CjMsgCreateValidator } from 'cosmjs-types/cosmos/staking/v1beta1/tx';
import { SignMode as CjSignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import {
  AuthInfo as CjAuthInfo,
  SignDoc as CjSignDoc,
  TxBody as CjTxBody,
  TxRaw as CjTxRaw,
} from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { BlockID as CjBlockID, Header as CjHeader } from 'cosmjs-types/tendermint/types/types';
import { BaseAccountSchema } from '../../../src/gen/cosmos/auth/v1beta1/auth_pb.js';
import {
  QueryAllBalancesRequestSchema,
  QueryAllBalancesResponseSchema,
} from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { MsgMultiSendSchema, MsgSendSchema } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { InputSchema, OutputSchema } from '../../../src/gen/cosmos/bank/v1beta1/bank_pb.js';
import { PageRequestSchema, PageResponseSchema } from '../../../src/gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { CoinSchema } from '../../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { PubKeySchema as Ed25519PubKeySchema } from '../../../src/gen/cosmos/crypto/ed25519/keys_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../../src/gen/cosmos/crypto/secp256k1/keys_pb.js';
import { CommissionRatesSchema, DescriptionSchema } from '../../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import { MsgCreateValidatorSchema } from '../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { SignMode } from '../../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import {
  AuthInfoSchema,
  FeeSchema,
  ModeInfoSchema,
  ModeInfo_SingleSchema,
  SignDocSchema,
  SignerInfoSchema,
  TxBodySchema,
  TxRawSchema,
} from '../../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { BlockIDSchema, HeaderSchema, PartSetHeaderSchema } from '../../../src/gen/tendermint/types/types_pb.js';
import { ConsensusSchema } from '../../../src/gen/tendermint/version/types_pb.js';
import { PubKeySchema as EvmPubKeySchema } from '../../../src/gen/cosmos/evm/crypto/v1/ethsecp256k1/keys_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { EthAccountSchema } from '../../../src/gen/ethermint/types/v1/account_pb.js';
import { anyPack } from '../../../src/node/codec/index.js';

interface CosmjsCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(bytes: Uint8Array): T;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const bytesOf = (hexText: string): Uint8Array => new Uint8Array(Buffer.from(hexText, 'hex'));

/** Decodes with cosmjs-types, re-encodes, asserts identical bytes, returns the decoded value. */
function throughCosmjs<T>(codec: CosmjsCodec<T>, ours: Uint8Array): T {
  const decoded = codec.decode(ours);
  expect(hex(codec.encode(decoded).finish())).toBe(hex(ours));
  return decoded;
}

const FROM = 'token1w3jhxarpv3j8yvg4ufs4x';
const TO = 'token1v9jxgu33ta047h6lta047h6lta047h6lfwuknp';
const PUBKEY = bytesOf('038318535b54105d4a7aae60c08fc45f9687181b4fdfc625bd1a753fa7397fed75');
const HASH = bytesOf('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');

function msgSend() {
  return create(MsgSendSchema, {
    fromAddress: FROM,
    toAddress: TO,
    amount: [create(CoinSchema, { denom: 'attotoken', amount: '1000000000000000000' })],
  });
}

function txBody() {
  return create(TxBodySchema, {
    messages: [anyPack(MsgSendSchema, msgSend())],
    memo: 'invoice 42',
    timeoutHeight: 1234n,
  });
}

function authInfo() {
  return create(AuthInfoSchema, {
    signerInfos: [
      create(SignerInfoSchema, {
        publicKey: anyPack(Secp256k1PubKeySchema, create(Secp256k1PubKeySchema, { key: PUBKEY })),
        modeInfo: create(ModeInfoSchema, {
          sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode: SignMode.DIRECT }) },
        }),
        sequence: 7n,
      }),
    ],
    fee: create(FeeSchema, {
      amount: [create(CoinSchema, { denom: 'attotoken', amount: '200000000000000' })],
      gasLimit: 200000n,
      payer: '',
      granter: '',
    }),
  });
}

describe('protobuf-es -> cosmjs-types', () => {
  it('TxBody with a packed MsgSend', () => {
    const decoded = throughCosmjs(CjTxBody, toBinary(TxBodySchema, txBody()));
    expect(decoded.memo).toBe('invoice 42');
    expect(decoded.timeoutHeight).toBe(1234n);
    expect(decoded.messages[0].typeUrl).toBe('/cosmos.bank.v1beta1.MsgSend');
    expect(CjMsgSend.decode(decoded.messages[0].value).toAddress).toBe(TO);
  });

  it('AuthInfo', () => {
    const decoded = throughCosmjs(CjAuthInfo, toBinary(AuthInfoSchema, authInfo()));
    const signer = decoded.signerInfos[0];
    expect(signer.publicKey?.typeUrl).toBe('/cosmos.crypto.secp256k1.PubKey');
    expect(hex(CjSecp256k1PubKey.decode(signer.publicKey!.value).key)).toBe(hex(PUBKEY));
    expect(signer.modeInfo?.single?.mode).toBe(CjSignMode.SIGN_MODE_DIRECT);
    expect(signer.sequence).toBe(7n);
    expect(decoded.fee?.gasLimit).toBe(200000n);
    expect(decoded.fee?.amount).toEqual([{ denom: 'attotoken', amount: '200000000000000' }]);
  });

  it('TxRaw and SignDoc', () => {
    const bodyBytes = toBinary(TxBodySchema, txBody());
    const authInfoBytes = toBinary(AuthInfoSchema, authInfo());
    const signDoc = create(SignDocSchema, { bodyBytes, authInfoBytes, chainId: 'testnet', accountNumber: 3n });
    const decodedDoc = throughCosmjs(CjSignDoc, toBinary(SignDocSchema, signDoc));
    expect(decodedDoc.chainId).toBe('testnet');
    expect(decodedDoc.accountNumber).toBe(3n);

    const raw = create(TxRawSchema, { bodyBytes, authInfoBytes, signatures: [new Uint8Array(64).fill(9)] });
    const decodedRaw = throughCosmjs(CjTxRaw, toBinary(TxRawSchema, raw));
    expect(hex(decodedRaw.bodyBytes)).toBe(hex(bodyBytes));
    expect(decodedRaw.signatures).toHaveLength(1);
  });

  it('MsgSend and MsgMultiSend', () => {
    expect(throughCosmjs(CjMsgSend, toBinary(MsgSendSchema, msgSend())).amount[0].amount).toBe('1000000000000000000');
    const multi = create(MsgMultiSendSchema, {
      inputs: [create(InputSchema, { address: FROM, coins: [create(CoinSchema, { denom: 'attotoken', amount: '30' })] })],
      outputs: [
        create(OutputSchema, { address: TO, coins: [create(CoinSchema, { denom: 'attotoken', amount: '10' })] }),
        create(OutputSchema, { address: FROM, coins: [create(CoinSchema, { denom: 'attotoken', amount: '20' })] }),
      ],
    });
    const decoded = throughCosmjs(CjMsgMultiSend, toBinary(MsgMultiSendSchema, multi));
    expect(decoded.outputs.map((o) => o.coins[0].amount)).toEqual(['10', '20']);
  });

  it('BaseAccount with a public key', () => {
    const account = create(BaseAccountSchema, {
      address: FROM,
      pubKey: anyPack(Secp256k1PubKeySchema, create(Secp256k1PubKeySchema, { key: PUBKEY })),
      accountNumber: 12n,
      sequence: 5n,
    });
    const decoded = throughCosmjs(CjBaseAccount, toBinary(BaseAccountSchema, account));
    expect(decoded.accountNumber).toBe(12n);
    expect(decoded.sequence).toBe(5n);
  });

  it('QueryAllBalancesRequest/Response and PageRequest', () => {
    const page = create(PageRequestSchema, { key: bytesOf('0a0b'), limit: 50n, countTotal: true, reverse: true });
    const decodedPage = throughCosmjs(CjPageRequest, toBinary(PageRequestSchema, page));
    expect(decodedPage.limit).toBe(50n);
    expect(decodedPage.reverse).toBe(true);

    const request = create(QueryAllBalancesRequestSchema, { address: FROM, pagination: page, resolveDenom: true });
    expect(throughCosmjs(CjQueryAllBalancesRequest, toBinary(QueryAllBalancesRequestSchema, request)).pagination?.limit).toBe(
      50n,
    );

    const response = create(QueryAllBalancesResponseSchema, {
      balances: [create(CoinSchema, { denom: 'attotoken', amount: '5' }), create(CoinSchema, { denom: 'stake', amount: '7' })],
      pagination: create(PageResponseSchema, { nextKey: bytesOf('ff'), total: 2n }),
    });
    const decoded = throughCosmjs(CjQueryAllBalancesResponse, toBinary(QueryAllBalancesResponseSchema, response));
    expect(decoded.pagination?.total).toBe(2n);
    expect(decoded.balances).toHaveLength(2);
  });

  it('MsgCreateValidator', () => {
    const msg = create(MsgCreateValidatorSchema, {
      description: create(DescriptionSchema, { moniker: 'node0', website: 'https://example.org' }),
      commission: create(CommissionRatesSchema, {
        rate: '100000000000000000',
        maxRate: '200000000000000000',
        maxChangeRate: '10000000000000000',
      }),
      minSelfDelegation: '1',
      validatorAddress: 'tokenvaloper1w3jhxarpv3j8yvg4ufs4x',
      pubkey: anyPack(Ed25519PubKeySchema, create(Ed25519PubKeySchema, { key: new Uint8Array(32).fill(4) })),
      value: create(CoinSchema, { denom: 'attotoken', amount: '1000000000000000000000' }),
    });
    const decoded = throughCosmjs(CjMsgCreateValidator, toBinary(MsgCreateValidatorSchema, msg));
    expect(decoded.commission.rate).toBe('100000000000000000');
    expect(decoded.pubkey?.typeUrl).toBe('/cosmos.crypto.ed25519.PubKey');
  });

  it('tendermint Header and BlockID', () => {
    const blockId = create(BlockIDSchema, {
      hash: HASH,
      partSetHeader: create(PartSetHeaderSchema, { total: 1, hash: HASH }),
    });
    expect(throughCosmjs(CjBlockID, toBinary(BlockIDSchema, blockId)).partSetHeader.total).toBe(1);
    const header = create(HeaderSchema, {
      version: create(ConsensusSchema, { block: 11n, app: 0n }),
      chainId: 'testnet',
      height: 42n,
      time: timestampFromDate(new Date('2024-01-02T03:04:05.123Z')),
      lastBlockId: blockId,
      lastCommitHash: HASH,
      dataHash: HASH,
      validatorsHash: HASH,
      nextValidatorsHash: HASH,
      consensusHash: HASH,
      appHash: HASH,
      lastResultsHash: HASH,
      evidenceHash: HASH,
      proposerAddress: HASH.slice(0, 20),
    });
    const decoded = throughCosmjs(CjHeader, toBinary(HeaderSchema, header));
    expect(decoded.height).toBe(42n);
    expect(decoded.time.nanos).toBe(123_000_000);
    expect(decoded.version.block).toBe(11n);
  });
});

describe('cosmjs-types -> protobuf-es', () => {
  it('TxRaw, TxBody, AuthInfo and SignDoc built by cosmjs-types', () => {
    const body = CjTxBody.fromPartial({
      messages: [
        {
          typeUrl: '/cosmos.bank.v1beta1.MsgSend',
          value: CjMsgSend.encode(
            CjMsgSend.fromPartial({ fromAddress: FROM, toAddress: TO, amount: [{ denom: 'attotoken', amount: '9' }] }),
          ).finish(),
        },
      ],
      memo: 'hi',
    });
    const bodyBytes = CjTxBody.encode(body).finish();
    const ourBody = fromBinary(TxBodySchema, bodyBytes);
    expect(hex(toBinary(TxBodySchema, ourBody))).toBe(hex(bodyBytes));
    expect(fromBinary(MsgSendSchema, ourBody.messages[0].value).amount[0].amount).toBe('9');

    const auth = CjAuthInfo.fromPartial({
      signerInfos: [
        {
          publicKey: {
            typeUrl: '/cosmos.crypto.secp256k1.PubKey',
            value: CjSecp256k1PubKey.encode({ key: PUBKEY }).finish(),
          },
          modeInfo: { single: { mode: CjSignMode.SIGN_MODE_LEGACY_AMINO_JSON } },
          sequence: 1n,
        },
      ],
      fee: { amount: [{ denom: 'attotoken', amount: '1' }], gasLimit: 100000n },
    });
    const authBytes = CjAuthInfo.encode(auth).finish();
    const ourAuth = fromBinary(AuthInfoSchema, authBytes);
    expect(hex(toBinary(AuthInfoSchema, ourAuth))).toBe(hex(authBytes));
    const modeInfo = ourAuth.signerInfos[0].modeInfo?.sum;
    expect(modeInfo?.case === 'single' ? modeInfo.value.mode : undefined).toBe(SignMode.LEGACY_AMINO_JSON);

    const doc = CjSignDoc.encode(
      CjSignDoc.fromPartial({ bodyBytes, authInfoBytes: authBytes, chainId: 'testnet', accountNumber: 0n }),
    ).finish();
    expect(hex(toBinary(SignDocSchema, fromBinary(SignDocSchema, doc)))).toBe(hex(doc));

    const raw = CjTxRaw.encode(
      CjTxRaw.fromPartial({ bodyBytes, authInfoBytes: authBytes, signatures: [new Uint8Array(65).fill(1)] }),
    ).finish();
    const ourRaw = fromBinary(TxRawSchema, raw);
    expect(hex(toBinary(TxRawSchema, ourRaw))).toBe(hex(raw));
    expect(ourRaw.signatures[0]).toHaveLength(65);
  });

  it('MsgMultiSend, BaseAccount, balances query and MsgCreateValidator built by cosmjs-types', () => {
    const cases: Array<[Uint8Array, (bytes: Uint8Array) => Uint8Array]> = [
      [
        CjMsgMultiSend.encode(
          CjMsgMultiSend.fromPartial({
            inputs: [{ address: FROM, coins: [{ denom: 'attotoken', amount: '3' }] }],
            outputs: [{ address: TO, coins: [{ denom: 'attotoken', amount: '3' }] }],
          }),
        ).finish(),
        (b) => toBinary(MsgMultiSendSchema, fromBinary(MsgMultiSendSchema, b)),
      ],
      [
        CjBaseAccount.encode(CjBaseAccount.fromPartial({ address: FROM, accountNumber: 1n, sequence: 2n })).finish(),
        (b) => toBinary(BaseAccountSchema, fromBinary(BaseAccountSchema, b)),
      ],
      [
        CjQueryAllBalancesRequest.encode(
          CjQueryAllBalancesRequest.fromPartial({ address: FROM, pagination: { offset: 10n, limit: 5n, countTotal: true } }),
        ).finish(),
        (b) => toBinary(QueryAllBalancesRequestSchema, fromBinary(QueryAllBalancesRequestSchema, b)),
      ],
      [
        CjQueryAllBalancesResponse.encode(
          CjQueryAllBalancesResponse.fromPartial({
            balances: [{ denom: 'attotoken', amount: '1' }],
            pagination: { nextKey: new Uint8Array([1, 2]), total: 9n },
          }),
        ).finish(),
        (b) => toBinary(QueryAllBalancesResponseSchema, fromBinary(QueryAllBalancesResponseSchema, b)),
      ],
      [
        CjPageRequest.encode(CjPageRequest.fromPartial({ key: new Uint8Array([7]), limit: 100n })).finish(),
        (b) => toBinary(PageRequestSchema, fromBinary(PageRequestSchema, b)),
      ],
      [
        CjMsgCreateValidator.encode(
          CjMsgCreateValidator.fromPartial({
            description: { moniker: 'v' },
            commission: { rate: '1', maxRate: '2', maxChangeRate: '3' },
            minSelfDelegation: '1',
            validatorAddress: 'tokenvaloper1x',
            value: { denom: 'attotoken', amount: '10' },
          }),
        ).finish(),
        (b) => toBinary(MsgCreateValidatorSchema, fromBinary(MsgCreateValidatorSchema, b)),
      ],
    ];
    for (const [bytes, roundTrip] of cases) expect(hex(roundTrip(bytes))).toBe(hex(bytes));

    const account = fromBinary(BaseAccountSchema, cases[1][0]);
    expect([account.address, account.accountNumber, account.sequence]).toEqual([FROM, 1n, 2n]);
  });

  it('tendermint Header and BlockID built by cosmjs-types', () => {
    const blockId = CjBlockID.fromPartial({ hash: HASH, partSetHeader: { total: 3, hash: HASH } });
    const blockIdBytes = CjBlockID.encode(blockId).finish();
    const ourBlockId = fromBinary(BlockIDSchema, blockIdBytes);
    expect(ourBlockId.partSetHeader?.total).toBe(3);
    expect(hex(toBinary(BlockIDSchema, ourBlockId))).toBe(hex(blockIdBytes));

    const headerBytes = CjHeader.encode(
      CjHeader.fromPartial({
        version: { block: 11n, app: 1n },
        chainId: 'testnet',
        height: 7n,
        time: { seconds: 1_700_000_000n, nanos: 5 },
        lastBlockId: blockId,
        appHash: HASH,
        proposerAddress: HASH.slice(0, 20),
      }),
    ).finish();
    const ourHeader = fromBinary(HeaderSchema, headerBytes);
    expect(ourHeader.height).toBe(7n);
    expect(ourHeader.time?.seconds).toBe(1_700_000_000n);
    expect(hex(toBinary(HeaderSchema, ourHeader))).toBe(hex(headerBytes));
  });
});

describe('types cosmjs-types lacks, checked byte by byte', () => {
  it('EthAccount{base_account = 1, code_hash = 2}', () => {
    const account = create(EthAccountSchema, {
      baseAccount: create(BaseAccountSchema, { address: 'a', accountNumber: 1n }),
      codeHash: '0x',
    });
    // 0a 05 {0a 01 'a' 18 01} 12 02 '0x'
    expect(hex(toBinary(EthAccountSchema, account))).toBe('0a050a016118011202' + '3078');
    expect(fromBinary(EthAccountSchema, bytesOf('0a050a0161180112023078')).baseAccount?.accountNumber).toBe(1n);
  });

  it('eth_secp256k1 PubKey{key = 1} under both type URLs', () => {
    for (const schema of [EthPubKeySchema, EvmPubKeySchema]) {
      expect(hex(toBinary(schema, create(schema, { key: PUBKEY })))).toBe(`0a21${hex(PUBKEY)}`);
    }
    expect(anyPack(EthPubKeySchema, create(EthPubKeySchema, { key: PUBKEY })).typeUrl).toBe(
      '/ethermint.crypto.v1.ethsecp256k1.PubKey',
    );
    expect(anyPack(EvmPubKeySchema, create(EvmPubKeySchema, { key: PUBKEY })).typeUrl).toBe(
      '/cosmos.evm.crypto.v1.ethsecp256k1.PubKey',
    );
  });
});
