/**
 * The genesis tx the benchmarks' chains start from: one MsgCreateValidator signed with
 * SIGN_MODE_DIRECT by `privateKey` (`algo`), the consensus key derived from `consensusSeed`;
 * returned as the gateway JSON `collectGentxs` takes.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { CoinSchema } from '../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { PubKeySchema as Ed25519PubKeySchema } from '../../src/gen/cosmos/crypto/ed25519/keys_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../src/gen/cosmos/crypto/secp256k1/keys_pb.js';
import { CommissionRatesSchema, DescriptionSchema } from '../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import { MsgCreateValidatorSchema } from '../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { SignMode } from '../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { AuthInfoSchema, FeeSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignerInfoSchema, TxBodySchema, TxSchema } from '../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { toValidatorOperatorAddress } from '../../src/keyring/address.js';
import { sha256 } from '../../src/keyring/hash.js';
import { keyPairFromPrivateKey, signMessage } from '../../src/keyring/keys.js';
import type { KeyAlgo } from '../../src/keyring/types.js';
import { signDocBytes } from '../../src/node/app/index.js';
import { anyPack, legacyDecToWire, registry, toGatewayJson } from '../../src/node/codec/index.js';

export interface BenchGentx {
  algo: KeyAlgo;
  privateKey: Uint8Array;
  consensusSeed: string;
  chainId: string;
  denom: string;
  selfDelegation: bigint;
  gasLimit: bigint;
}

export function benchGentx(opts: BenchGentx): unknown {
  const pair = keyPairFromPrivateKey(opts.algo, opts.privateKey);
  const msg = anyPack(
    MsgCreateValidatorSchema,
    create(MsgCreateValidatorSchema, {
      description: create(DescriptionSchema, { moniker: 'bench' }),
      commission: create(CommissionRatesSchema, { rate: legacyDecToWire('0.1'), maxRate: legacyDecToWire('0.2'), maxChangeRate: legacyDecToWire('0.01') }),
      minSelfDelegation: '1',
      validatorAddress: toValidatorOperatorAddress(pair.address),
      pubkey: anyPack(Ed25519PubKeySchema, create(Ed25519PubKeySchema, { key: sha256(new TextEncoder().encode(opts.consensusSeed)) })),
      value: create(CoinSchema, { denom: opts.denom, amount: opts.selfDelegation.toString() }),
    }),
  );
  const publicKey =
    opts.algo === 'secp256k1' ? anyPack(Secp256k1PubKeySchema, create(Secp256k1PubKeySchema, { key: pair.pubKey })) : anyPack(EthPubKeySchema, create(EthPubKeySchema, { key: pair.pubKey }));
  const body = create(TxBodySchema, { messages: [msg] });
  const authInfo = create(AuthInfoSchema, {
    signerInfos: [create(SignerInfoSchema, { publicKey, modeInfo: create(ModeInfoSchema, { sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode: SignMode.DIRECT }) } }), sequence: 0n })],
    fee: create(FeeSchema, { gasLimit: opts.gasLimit }),
  });
  const signature = signMessage(opts.algo, opts.privateKey, signDocBytes(toBinary(TxBodySchema, body), toBinary(AuthInfoSchema, authInfo), opts.chainId, 0n));
  return toGatewayJson(TxSchema, create(TxSchema, { body, authInfo, signatures: [signature] }), { registry });
}
