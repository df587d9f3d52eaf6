/**
 * Decorators 8–12 of the default chain: public keys, signature count, signature gas, signature
 * verification (every sign mode the SignModeHandler accepts, single keys and threshold multisig
 * keys), sequence increment. As x/auth/ante/sigverify.go, with Ethermint's gas for eth_secp256k1.
 */
import { SignMode } from '../../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import type { GasMeter } from '../../store/index.js';
import { pubKeyAddress, type Account, type PubKey } from '../../modules/auth/account.js';
import { accString } from '../../modules/shared/address.js';
import { SdkErrors } from '../../modules/shared/errors.js';
import { ATTRIBUTE_KEY_ACC_SEQ, ATTRIBUTE_KEY_SIGNATURE, EVENT_TYPE_TX, newEvent } from '../../modules/shared/events.js';
import { bytesEqual } from '../../modules/shared/keys.js';
import { onlyLegacyAminoSigners, SignatureFailure, verifySignatureData } from '../sigverify.js';
import { encodeMultiSignature, signatureData, type SignatureData } from '../tx.js';
import type { AnteAuthParams } from './expectedKeepers.js';
import type { AnteDecorator, AnteEnv, AnteState } from './types.js';

/** Ethermint's gas for verifying an eth_secp256k1 signature. */
export const ETH_SECP256K1_VERIFY_COST = 21_000;
/** The SDK's placeholder key for simulating signers without a key (simSecp256k1Pubkey). */
export const SIMULATION_PUBKEY: PubKey = {
  algo: 'secp256k1',
  key: Uint8Array.from(Buffer.from('035AD6810A47F073553FF30D2FCC7E0D3B1C0B74B61A1AAA2582344037151E143A', 'hex')),
  typeUrl: '/cosmos.crypto.secp256k1.PubKey',
};

function signerAccount(state: AnteState, env: AnteEnv, address: Uint8Array): Account {
  const account = env.accountKeeper.getAccount(state.ctx, address);
  if (account === undefined) throw SdkErrors.UnknownAddress.wrap(`account ${accString(address)} does not exist`);
  return account;
}

/** Every signer's signature data (GetSignaturesV2), decoded once per tx run. */
export function signaturesOf(state: AnteState): readonly SignatureData[] {
  if (state.signatureData === undefined) {
    const { tx } = state;
    state.signatureData = tx.signerInfos.map((info, i) => signatureData(info.mode, tx.signatures[i] ?? new Uint8Array(0)));
  }
  return state.signatureData;
}

/** The raw signatures of one signer, for events: a multisig's members, then the aggregate. */
function signatureBytes(data: SignatureData): Uint8Array[] {
  if (data.kind === 'single') return [data.signature];
  const nested = data.signatures.flatMap(signatureBytes);
  return [...nested, encodeMultiSignature(nested)];
}

/** 8. Stores signer-info keys on accounts that have none; key/address mismatch → 8; acc_seq and signature events. */
export const setPubKey: AnteDecorator = {
  name: 'SetPubKey',
  handle(state, env) {
    const { ctx, tx } = state;
    tx.signerInfos.forEach((info, i) => {
      let pubKey = info.pubKey;
      if (pubKey === undefined) {
        if (!state.simulate) return;
        pubKey = SIMULATION_PUBKEY;
      }
      const signer = tx.signers[i]!;
      if (!state.simulate) {
        const derived = pubKeyAddress(pubKey);
        if (derived === undefined || !bytesEqual(derived, signer)) {
          throw SdkErrors.InvalidPubKey.wrap(`pubKey does not match signer address ${accString(signer)} with signer index: ${i}`);
        }
      }
      const account = signerAccount(state, env, signer);
      if (account.pubKey !== undefined) return;
      env.accountKeeper.updateAccount(ctx, account, { ...account, pubKey });
    });
    const signatures = signaturesOf(state);
    if (!ctx.events.enabled) return; // CheckTx: the events below are dropped unread
    tx.signerInfos.forEach((info, i) => {
      const signer = tx.signers[i];
      ctx.events.emit(newEvent(EVENT_TYPE_TX, [ATTRIBUTE_KEY_ACC_SEQ, `${signer === undefined ? '' : accString(signer)}/${info.sequence}`]));
      for (const signature of signatureBytes(signatures[i]!)) {
        ctx.events.emit(newEvent(EVENT_TYPE_TX, [ATTRIBUTE_KEY_SIGNATURE, Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength).toString('base64')]));
      }
    });
  },
};

/** Keys behind a public key: 1, or the members of a multisig, recursively (CountSubKeys). */
export function countSubKeys(pubKey: PubKey | undefined): number {
  if (pubKey === undefined) return 0;
  if (pubKey.multisig === undefined) return 1;
  let count = 0;
  for (const member of pubKey.multisig.pubKeys) count += countSubKeys(member);
  return count;
}

/** 9. More keys than tx_sig_limit (multisig members counted) → 14. */
export const validateSigCount: AnteDecorator = {
  name: 'ValidateSigCount',
  handle(state, env) {
    const limit = env.accountKeeper.getParams(state.ctx).txSigLimit;
    let count = 0n;
    for (const info of state.tx.signerInfos) {
      count += BigInt(countSubKeys(info.pubKey));
      if (count > limit) throw SdkErrors.TooManySignatures.wrap(`signatures: ${count}, limit: ${limit}`);
    }
  },
};

/**
 * Gas for verifying one signature with `pubKey` (Ethermint's SigVerificationGasConsumer over the
 * SDK's): eth_secp256k1 21000, secp256k1 sig_verify_cost_secp256k1, ed25519 its cost and then
 * refused, a multisig the sum over the members that signed (ConsumeMultisignatureVerificationGas).
 */
export function consumeSignatureGas(meter: GasMeter, pubKey: PubKey | undefined, data: SignatureData, params: AnteAuthParams): void {
  switch (pubKey?.algo) {
    case 'eth_secp256k1':
      meter.consumeGas(ETH_SECP256K1_VERIFY_COST, 'ante verify: eth_secp256k1');
      return;
    case 'secp256k1':
      meter.consumeGas(Number(params.sigVerifyCostSecp256k1), 'ante verify: secp256k1');
      return;
    case 'ed25519':
      meter.consumeGas(Number(params.sigVerifyCostEd25519), 'ante verify: ed25519');
      throw SdkErrors.InvalidPubKey.wrap('ED25519 public keys are unsupported');
    case 'multisig': {
      // As the SDK: signature data of the wrong shape is an unregistered error (code 1).
      if (data.kind !== 'multi') throw new Error('expected *signing.MultiSignatureData, got, *signing.SingleSignatureData');
      const members = pubKey.multisig?.pubKeys ?? [];
      let sigIndex = 0;
      for (let i = 0; i < data.bits.size; i++) {
        if (!data.bits.get(i)) continue;
        const member = members[i];
        const sub = data.signatures[sigIndex];
        if (member === undefined || sub === undefined) throw new Error(`multisignature does not match its key: no ${member === undefined ? 'key' : 'signature'} for index ${i}`);
        consumeSignatureGas(meter, member, sub, params);
        sigIndex++;
      }
      return;
    }
    default:
      throw SdkErrors.InvalidPubKey.wrap('unrecognized public key type: <nil>');
  }
}

/** 10. Gas per signature, by the account's key type (the simulation key when simulating a keyless account). */
export const sigGasConsume: AnteDecorator = {
  name: 'SigGasConsume',
  handle(state, env) {
    const { ctx, tx } = state;
    const params = env.accountKeeper.getParams(ctx);
    const signatures = signaturesOf(state);
    tx.signers.forEach((signer, i) => {
      const account = signerAccount(state, env, signer);
      const pubKey = account.pubKey ?? (state.simulate ? SIMULATION_PUBKEY : undefined);
      consumeSignatureGas(ctx.gasMeter, pubKey, signatures[i]!, params);
    });
  },
};

/**
 * 11. No key → 8; sequence mismatch → 32 (also in simulate); then (not in simulate or ReCheck)
 * each signature is verified in its sign mode, reusing CheckTx's or the workers' verification
 * when the facts are the same. A failure is 4 with the SDK's text: "signature verification
 * failed; please verify account number (N) and chain-id (C): (reason)", or, when every signature
 * of the signer is amino JSON and simply does not match, "…account number (N), sequence (S) and
 * chain-id (C)" (the SDK drops the reason there; tokend keeps it when the reason is structural —
 * too few multisig signatures, a mode it does not accept, a message without an amino name).
 */
export const sigVerification: AnteDecorator = {
  name: 'SigVerification',
  handle(state, env) {
    const { ctx, tx } = state;
    const genesis = ctx.blockHeight === 0;
    tx.signers.forEach((signer, i) => {
      const account = signerAccount(state, env, signer);
      const pubKey = account.pubKey;
      if (!state.simulate && pubKey === undefined) throw SdkErrors.InvalidPubKey.wrap('pubkey on account is not set');
      const info = tx.signerInfos[i]!;
      if (info.sequence !== account.sequence) {
        throw SdkErrors.WrongSequence.wrap(`account sequence mismatch, expected ${account.sequence}, got ${info.sequence}`);
      }
      if (state.simulate || ctx.isReCheckTx || pubKey === undefined) return;
      const accountNumber = genesis ? 0n : account.accountNumber;
      if (env.sigCache.has(tx.hash, ctx.chainId, i, accountNumber, pubKey)) return;
      if (env.preverified?.check(tx.hash, ctx.chainId, i, accountNumber, pubKey) === true) return;
      const data = signaturesOf(state)[i]!;
      const signerData = { chainId: ctx.chainId, accountNumber, sequence: info.sequence, address: signer };
      const bytesByMode = new Map<SignMode, Uint8Array>();
      const hook = env.signatureFallback;
      const fallback = hook === undefined ? undefined : (key: PubKey, mode: SignMode, signature: Uint8Array) => hook.verify(key, mode, signature, tx, signerData, env.signModes.amino);
      try {
        verifySignatureData(
          pubKey,
          data,
          (mode) => {
            let bytes = bytesByMode.get(mode);
            if (bytes === undefined) {
              bytes = env.signModes.signBytes(mode, tx, signerData);
              bytesByMode.set(mode, bytes);
            }
            return bytes;
          },
          fallback,
        );
      } catch (err) {
        if (!(err instanceof SignatureFailure)) throw err;
        const mismatch = /^unable to verify (single signer )?signature/.test(err.message);
        if (mismatch && onlyLegacyAminoSigners(data)) {
          throw SdkErrors.Unauthorized.wrap(`signature verification failed; please verify account number (${accountNumber}), sequence (${account.sequence}) and chain-id (${ctx.chainId})`);
        }
        throw SdkErrors.Unauthorized.wrap(`signature verification failed; please verify account number (${accountNumber}) and chain-id (${ctx.chainId}): (${err.message})`);
      }
      // Remember CheckTx successes for FinalizeBlock; a finalized tx will not come again.
      if (ctx.mode === 'check') env.sigCache.add(tx.hash, ctx.chainId, i, { accountNumber, pubKey });
    });
  },
};

/** 12. Sequence + 1 for every signer. */
export const incrementSequence: AnteDecorator = {
  name: 'IncrementSequence',
  handle(state, env) {
    for (const signer of state.tx.signers) {
      const account = signerAccount(state, env, signer);
      env.accountKeeper.updateAccount(state.ctx, account, { ...account, sequence: account.sequence + 1n });
    }
  },
};
