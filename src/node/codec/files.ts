/**
 * Every generated protobuf file, in one list.
 *
 * This is the single place that knows which `.proto` files tokend was built with: the type
 * registry, gRPC reflection and the REST route table are all derived from it. When a file is
 * added under `proto/` and `npm run gen` is run, add its `file_*` export here (a unit test fails
 * until you do).
 */
import type { DescFile, Registry } from '@bufbuild/protobuf';
import { createRegistry } from '@bufbuild/protobuf';
import { file_aioz_aiozrc20_v1_aiozrc20 } from '../../gen/aioz/aiozrc20/v1/aiozrc20_pb.js';
import { file_aioz_aiozrc20_v1_genesis } from '../../gen/aioz/aiozrc20/v1/genesis_pb.js';
import { file_aioz_aiozrc20_v1_query } from '../../gen/aioz/aiozrc20/v1/query_pb.js';
import { file_aioz_aiozrc20_v1_tx } from '../../gen/aioz/aiozrc20/v1/tx_pb.js';
import { file_aioz_bonus_v1_genesis } from '../../gen/aioz/bonus/v1/genesis_pb.js';
import { file_aioz_bonus_v1_params } from '../../gen/aioz/bonus/v1/params_pb.js';
import { file_aioz_bonus_v1_query } from '../../gen/aioz/bonus/v1/query_pb.js';
import { file_aioz_bonus_v1_tx } from '../../gen/aioz/bonus/v1/tx_pb.js';
import { file_aioz_icamauth_v1beta1_query } from '../../gen/aioz/icamauth/v1beta1/query_pb.js';
import { file_aioz_icamauth_v1beta1_tx } from '../../gen/aioz/icamauth/v1beta1/tx_pb.js';
import { file_aioz_mint_v1_genesis } from '../../gen/aioz/mint/v1/genesis_pb.js';
import { file_aioz_mint_v1_mint } from '../../gen/aioz/mint/v1/mint_pb.js';
import { file_aioz_mint_v1_query } from '../../gen/aioz/mint/v1/query_pb.js';
import { file_aioz_mint_v1_tx } from '../../gen/aioz/mint/v1/tx_pb.js';
import { file_aioz_staking_v1beta1_query } from '../../gen/aioz/staking/v1beta1/query_pb.js';
import { file_aioz_staking_v1beta1_staking } from '../../gen/aioz/staking/v1beta1/staking_pb.js';
import { file_cosmos_distribution_v1beta1_distribution } from '../../gen/cosmos/distribution/v1beta1/distribution_pb.js';
import { file_cosmos_distribution_v1beta1_genesis } from '../../gen/cosmos/distribution/v1beta1/genesis_pb.js';
import { file_cosmos_distribution_v1beta1_query } from '../../gen/cosmos/distribution/v1beta1/query_pb.js';
import { file_cosmos_distribution_v1beta1_tx } from '../../gen/cosmos/distribution/v1beta1/tx_pb.js';
import { file_cosmos_group_v1_events } from '../../gen/cosmos/group/v1/events_pb.js';
import { file_cosmos_group_v1_genesis } from '../../gen/cosmos/group/v1/genesis_pb.js';
import { file_cosmos_group_v1_query } from '../../gen/cosmos/group/v1/query_pb.js';
import { file_cosmos_group_v1_tx } from '../../gen/cosmos/group/v1/tx_pb.js';
import { file_cosmos_group_v1_types } from '../../gen/cosmos/group/v1/types_pb.js';
import { file_cosmos_evidence_v1beta1_evidence } from '../../gen/cosmos/evidence/v1beta1/evidence_pb.js';
import { file_cosmos_evidence_v1beta1_genesis } from '../../gen/cosmos/evidence/v1beta1/genesis_pb.js';
import { file_cosmos_evidence_v1beta1_query } from '../../gen/cosmos/evidence/v1beta1/query_pb.js';
import { file_cosmos_evidence_v1beta1_tx } from '../../gen/cosmos/evidence/v1beta1/tx_pb.js';
import { file_cosmos_gov_v1beta1_gov } from '../../gen/cosmos/gov/v1beta1/gov_pb.js';
import { file_cosmos_gov_v1beta1_genesis } from '../../gen/cosmos/gov/v1beta1/genesis_pb.js';
import { file_cosmos_gov_v1beta1_query } from '../../gen/cosmos/gov/v1beta1/query_pb.js';
import { file_cosmos_gov_v1beta1_tx } from '../../gen/cosmos/gov/v1beta1/tx_pb.js';
import { file_cosmos_gov_v1_gov } from '../../gen/cosmos/gov/v1/gov_pb.js';
import { file_cosmos_gov_v1_genesis } from '../../gen/cosmos/gov/v1/genesis_pb.js';
import { file_cosmos_gov_v1_query } from '../../gen/cosmos/gov/v1/query_pb.js';
import { file_cosmos_gov_v1_tx } from '../../gen/cosmos/gov/v1/tx_pb.js';
import { file_cosmos_params_v1beta1_params } from '../../gen/cosmos/params/v1beta1/params_pb.js';
import { file_cosmos_params_v1beta1_query } from '../../gen/cosmos/params/v1beta1/query_pb.js';
import { file_cosmos_slashing_v1beta1_genesis } from '../../gen/cosmos/slashing/v1beta1/genesis_pb.js';
import { file_cosmos_slashing_v1beta1_query } from '../../gen/cosmos/slashing/v1beta1/query_pb.js';
import { file_cosmos_slashing_v1beta1_slashing } from '../../gen/cosmos/slashing/v1beta1/slashing_pb.js';
import { file_cosmos_slashing_v1beta1_tx } from '../../gen/cosmos/slashing/v1beta1/tx_pb.js';
import { file_amino_amino } from '../../gen/amino/amino_pb.js';
import { file_cosmos_auth_v1beta1_auth } from '../../gen/cosmos/auth/v1beta1/auth_pb.js';
import { file_cosmos_auth_v1beta1_genesis } from '../../gen/cosmos/auth/v1beta1/genesis_pb.js';
import { file_cosmos_auth_v1beta1_query } from '../../gen/cosmos/auth/v1beta1/query_pb.js';
import { file_cosmos_auth_v1beta1_tx } from '../../gen/cosmos/auth/v1beta1/tx_pb.js';
import { file_cosmos_authz_v1beta1_authz } from '../../gen/cosmos/authz/v1beta1/authz_pb.js';
import { file_cosmos_authz_v1beta1_event } from '../../gen/cosmos/authz/v1beta1/event_pb.js';
import { file_cosmos_authz_v1beta1_genesis } from '../../gen/cosmos/authz/v1beta1/genesis_pb.js';
import { file_cosmos_authz_v1beta1_query } from '../../gen/cosmos/authz/v1beta1/query_pb.js';
import { file_cosmos_authz_v1beta1_tx } from '../../gen/cosmos/authz/v1beta1/tx_pb.js';
import { file_cosmos_bank_v1beta1_authz } from '../../gen/cosmos/bank/v1beta1/authz_pb.js';
import { file_cosmos_feegrant_v1beta1_feegrant } from '../../gen/cosmos/feegrant/v1beta1/feegrant_pb.js';
import { file_cosmos_feegrant_v1beta1_genesis } from '../../gen/cosmos/feegrant/v1beta1/genesis_pb.js';
import { file_cosmos_feegrant_v1beta1_query } from '../../gen/cosmos/feegrant/v1beta1/query_pb.js';
import { file_cosmos_feegrant_v1beta1_tx } from '../../gen/cosmos/feegrant/v1beta1/tx_pb.js';
import { file_cosmos_staking_v1beta1_authz } from '../../gen/cosmos/staking/v1beta1/authz_pb.js';
import { file_cosmos_bank_v1beta1_bank } from '../../gen/cosmos/bank/v1beta1/bank_pb.js';
import { file_cosmos_bank_v1beta1_genesis } from '../../gen/cosmos/bank/v1beta1/genesis_pb.js';
import { file_cosmos_bank_v1beta1_query } from '../../gen/cosmos/bank/v1beta1/query_pb.js';
import { file_cosmos_bank_v1beta1_tx } from '../../gen/cosmos/bank/v1beta1/tx_pb.js';
import { file_cosmos_base_abci_v1beta1_abci } from '../../gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { file_cosmos_base_node_v1beta1_query } from '../../gen/cosmos/base/node/v1beta1/query_pb.js';
import { file_cosmos_base_query_v1beta1_pagination } from '../../gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { file_cosmos_base_tendermint_v1beta1_query } from '../../gen/cosmos/base/tendermint/v1beta1/query_pb.js';
import { file_cosmos_base_tendermint_v1beta1_types } from '../../gen/cosmos/base/tendermint/v1beta1/types_pb.js';
import { file_cosmos_base_v1beta1_coin } from '../../gen/cosmos/base/v1beta1/coin_pb.js';
import { file_cosmos_capability_v1beta1_capability } from '../../gen/cosmos/capability/v1beta1/capability_pb.js';
import { file_cosmos_capability_v1beta1_genesis } from '../../gen/cosmos/capability/v1beta1/genesis_pb.js';
import { file_cosmos_crypto_ed25519_keys } from '../../gen/cosmos/crypto/ed25519/keys_pb.js';
import { file_cosmos_ics23_v1_proofs } from '../../gen/cosmos/ics23/v1/proofs_pb.js';
import { file_cosmos_crypto_multisig_keys } from '../../gen/cosmos/crypto/multisig/keys_pb.js';
import { file_cosmos_crypto_multisig_v1beta1_multisig } from '../../gen/cosmos/crypto/multisig/v1beta1/multisig_pb.js';
import { file_cosmos_crypto_secp256k1_keys } from '../../gen/cosmos/crypto/secp256k1/keys_pb.js';
import { file_cosmos_evm_crypto_v1_ethsecp256k1_keys } from '../../gen/cosmos/evm/crypto/v1/ethsecp256k1/keys_pb.js';
import { file_cosmos_msg_v1_msg } from '../../gen/cosmos/msg/v1/msg_pb.js';
import { file_cosmos_query_v1_query } from '../../gen/cosmos/query/v1/query_pb.js';
import { file_cosmos_staking_v1beta1_genesis } from '../../gen/cosmos/staking/v1beta1/genesis_pb.js';
import { file_cosmos_staking_v1beta1_query } from '../../gen/cosmos/staking/v1beta1/query_pb.js';
import { file_cosmos_staking_v1beta1_staking } from '../../gen/cosmos/staking/v1beta1/staking_pb.js';
import { file_cosmos_staking_v1beta1_tx } from '../../gen/cosmos/staking/v1beta1/tx_pb.js';
import { file_cosmos_tx_signing_v1beta1_signing } from '../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { file_cosmos_tx_v1beta1_service } from '../../gen/cosmos/tx/v1beta1/service_pb.js';
import { file_cosmos_tx_v1beta1_tx } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { file_cosmos_upgrade_v1beta1_query } from '../../gen/cosmos/upgrade/v1beta1/query_pb.js';
import { file_cosmos_upgrade_v1beta1_tx } from '../../gen/cosmos/upgrade/v1beta1/tx_pb.js';
import { file_cosmos_upgrade_v1beta1_upgrade } from '../../gen/cosmos/upgrade/v1beta1/upgrade_pb.js';
import { file_cosmos_proto_cosmos } from '../../gen/cosmos_proto/cosmos_pb.js';
import { file_ethermint_crypto_v1_ethsecp256k1_keys } from '../../gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { file_ethermint_types_v1_account } from '../../gen/ethermint/types/v1/account_pb.js';
import { file_ethermint_types_v1_web3 } from '../../gen/ethermint/types/v1/web3_pb.js';
import { file_ethermint_evm_v1_evm } from '../../gen/ethermint/evm/v1/evm_pb.js';
import { file_ethermint_evm_v1_genesis } from '../../gen/ethermint/evm/v1/genesis_pb.js';
import { file_ethermint_evm_v1_query } from '../../gen/ethermint/evm/v1/query_pb.js';
import { file_ethermint_evm_v1_tx } from '../../gen/ethermint/evm/v1/tx_pb.js';
import { file_ethermint_feemarket_v1_feemarket } from '../../gen/ethermint/feemarket/v1/feemarket_pb.js';
import { file_ethermint_feemarket_v1_genesis } from '../../gen/ethermint/feemarket/v1/genesis_pb.js';
import { file_ethermint_feemarket_v1_query } from '../../gen/ethermint/feemarket/v1/query_pb.js';
import { file_ethermint_feemarket_v1_tx } from '../../gen/ethermint/feemarket/v1/tx_pb.js';
import { file_gogoproto_gogo } from '../../gen/gogoproto/gogo_pb.js';
import { file_google_api_annotations } from '../../gen/google/api/annotations_pb.js';
import { file_google_api_http } from '../../gen/google/api/http_pb.js';
import { file_grpc_reflection_v1_reflection } from '../../gen/grpc/reflection/v1/reflection_pb.js';
import { file_grpc_reflection_v1alpha_reflection } from '../../gen/grpc/reflection/v1alpha/reflection_pb.js';
import { file_bech32ibc_bech32ibc_v1beta1_genesis } from '../../gen/bech32ibc/bech32ibc/v1beta1/genesis_pb.js';
import { file_bech32ibc_bech32ibc_v1beta1_gov } from '../../gen/bech32ibc/bech32ibc/v1beta1/gov_pb.js';
import { file_bech32ibc_bech32ibc_v1beta1_query } from '../../gen/bech32ibc/bech32ibc/v1beta1/query_pb.js';
import { file_bech32ibc_bech32ibc_v1beta1_types } from '../../gen/bech32ibc/bech32ibc/v1beta1/types_pb.js';
import { file_ibc_applications_fee_v1_ack } from '../../gen/ibc/applications/fee/v1/ack_pb.js';
import { file_ibc_applications_fee_v1_fee } from '../../gen/ibc/applications/fee/v1/fee_pb.js';
import { file_ibc_applications_fee_v1_genesis } from '../../gen/ibc/applications/fee/v1/genesis_pb.js';
import { file_ibc_applications_fee_v1_metadata } from '../../gen/ibc/applications/fee/v1/metadata_pb.js';
import { file_ibc_applications_fee_v1_query } from '../../gen/ibc/applications/fee/v1/query_pb.js';
import { file_ibc_applications_fee_v1_tx } from '../../gen/ibc/applications/fee/v1/tx_pb.js';
import { file_ibc_core_client_v1_client } from '../../gen/ibc/core/client/v1/client_pb.js';
import { file_ibc_core_client_v1_genesis } from '../../gen/ibc/core/client/v1/genesis_pb.js';
import { file_ibc_core_client_v1_query } from '../../gen/ibc/core/client/v1/query_pb.js';
import { file_ibc_core_client_v1_tx } from '../../gen/ibc/core/client/v1/tx_pb.js';
import { file_ibc_core_channel_v1_channel } from '../../gen/ibc/core/channel/v1/channel_pb.js';
import { file_ibc_core_channel_v1_genesis } from '../../gen/ibc/core/channel/v1/genesis_pb.js';
import { file_ibc_core_channel_v1_query } from '../../gen/ibc/core/channel/v1/query_pb.js';
import { file_ibc_core_channel_v1_tx } from '../../gen/ibc/core/channel/v1/tx_pb.js';
import { file_ibc_core_connection_v1_connection } from '../../gen/ibc/core/connection/v1/connection_pb.js';
import { file_ibc_core_connection_v1_genesis } from '../../gen/ibc/core/connection/v1/genesis_pb.js';
import { file_ibc_core_connection_v1_query } from '../../gen/ibc/core/connection/v1/query_pb.js';
import { file_ibc_core_connection_v1_tx } from '../../gen/ibc/core/connection/v1/tx_pb.js';
import { file_ibc_core_commitment_v1_commitment } from '../../gen/ibc/core/commitment/v1/commitment_pb.js';
import { file_ibc_lightclients_tendermint_v1_tendermint } from '../../gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { file_ibc_applications_transfer_v1_genesis } from '../../gen/ibc/applications/transfer/v1/genesis_pb.js';
import { file_ibc_applications_transfer_v1_query } from '../../gen/ibc/applications/transfer/v1/query_pb.js';
import { file_ibc_applications_transfer_v1_transfer } from '../../gen/ibc/applications/transfer/v1/transfer_pb.js';
import { file_ibc_applications_transfer_v1_tx } from '../../gen/ibc/applications/transfer/v1/tx_pb.js';
import { file_ibc_applications_transfer_v2_packet } from '../../gen/ibc/applications/transfer/v2/packet_pb.js';
import { file_ibc_applications_interchain_accounts_v1_account } from '../../gen/ibc/applications/interchain_accounts/v1/account_pb.js';
import { file_ibc_applications_interchain_accounts_v1_metadata } from '../../gen/ibc/applications/interchain_accounts/v1/metadata_pb.js';
import { file_ibc_applications_interchain_accounts_v1_packet } from '../../gen/ibc/applications/interchain_accounts/v1/packet_pb.js';
import { file_ibc_applications_interchain_accounts_controller_v1_controller } from '../../gen/ibc/applications/interchain_accounts/controller/v1/controller_pb.js';
import { file_ibc_applications_interchain_accounts_controller_v1_query } from '../../gen/ibc/applications/interchain_accounts/controller/v1/query_pb.js';
import { file_ibc_applications_interchain_accounts_controller_v1_tx } from '../../gen/ibc/applications/interchain_accounts/controller/v1/tx_pb.js';
import { file_ibc_applications_interchain_accounts_host_v1_host } from '../../gen/ibc/applications/interchain_accounts/host/v1/host_pb.js';
import { file_ibc_applications_interchain_accounts_host_v1_query } from '../../gen/ibc/applications/interchain_accounts/host/v1/query_pb.js';
import { file_ibc_applications_interchain_accounts_genesis_v1_genesis } from '../../gen/ibc/applications/interchain_accounts/genesis/v1/genesis_pb.js';
import { file_tendermint_abci_types } from '../../gen/tendermint/abci/types_pb.js';
import { file_tendermint_blocksync_types } from '../../gen/tendermint/blocksync/types_pb.js';
import { file_tendermint_consensus_types } from '../../gen/tendermint/consensus/types_pb.js';
import { file_tendermint_crypto_keys } from '../../gen/tendermint/crypto/keys_pb.js';
import { file_tendermint_crypto_proof } from '../../gen/tendermint/crypto/proof_pb.js';
import { file_tendermint_libs_bits_types } from '../../gen/tendermint/libs/bits/types_pb.js';
import { file_tendermint_mempool_types } from '../../gen/tendermint/mempool/types_pb.js';
import { file_tendermint_p2p_conn } from '../../gen/tendermint/p2p/conn_pb.js';
import { file_tendermint_p2p_pex } from '../../gen/tendermint/p2p/pex_pb.js';
import { file_tendermint_p2p_types } from '../../gen/tendermint/p2p/types_pb.js';
import { file_tendermint_statesync_types } from '../../gen/tendermint/statesync/types_pb.js';
import { file_tendermint_types_block } from '../../gen/tendermint/types/block_pb.js';
import { file_tendermint_types_canonical } from '../../gen/tendermint/types/canonical_pb.js';
import { file_tendermint_types_evidence } from '../../gen/tendermint/types/evidence_pb.js';
import { file_tendermint_types_params } from '../../gen/tendermint/types/params_pb.js';
import { file_tendermint_types_types } from '../../gen/tendermint/types/types_pb.js';
import { file_tendermint_types_validator } from '../../gen/tendermint/types/validator_pb.js';
import { file_tendermint_version_types } from '../../gen/tendermint/version/types_pb.js';

/** All generated files (dependencies are resolved through the descriptors themselves). */
export const PROTO_FILES: readonly DescFile[] = [
  file_aioz_aiozrc20_v1_aiozrc20,
  file_aioz_aiozrc20_v1_genesis,
  file_aioz_aiozrc20_v1_query,
  file_aioz_aiozrc20_v1_tx,
  file_aioz_bonus_v1_genesis,
  file_aioz_bonus_v1_params,
  file_aioz_bonus_v1_query,
  file_aioz_bonus_v1_tx,
  file_aioz_icamauth_v1beta1_query,
  file_aioz_icamauth_v1beta1_tx,
  file_aioz_mint_v1_genesis,
  file_aioz_mint_v1_mint,
  file_aioz_mint_v1_query,
  file_aioz_mint_v1_tx,
  file_amino_amino,
  file_aioz_staking_v1beta1_query,
  file_aioz_staking_v1beta1_staking,
  file_cosmos_distribution_v1beta1_distribution,
  file_cosmos_distribution_v1beta1_genesis,
  file_cosmos_distribution_v1beta1_query,
  file_cosmos_distribution_v1beta1_tx,
  file_cosmos_group_v1_events,
  file_cosmos_group_v1_genesis,
  file_cosmos_group_v1_query,
  file_cosmos_group_v1_tx,
  file_cosmos_group_v1_types,
  file_cosmos_evidence_v1beta1_evidence,
  file_cosmos_evidence_v1beta1_genesis,
  file_cosmos_evidence_v1beta1_query,
  file_cosmos_evidence_v1beta1_tx,
  file_cosmos_gov_v1beta1_gov,
  file_cosmos_gov_v1beta1_genesis,
  file_cosmos_gov_v1beta1_query,
  file_cosmos_gov_v1beta1_tx,
  file_cosmos_gov_v1_gov,
  file_cosmos_gov_v1_genesis,
  file_cosmos_gov_v1_query,
  file_cosmos_gov_v1_tx,
  file_cosmos_params_v1beta1_params,
  file_cosmos_params_v1beta1_query,
  file_cosmos_slashing_v1beta1_genesis,
  file_cosmos_slashing_v1beta1_query,
  file_cosmos_slashing_v1beta1_slashing,
  file_cosmos_slashing_v1beta1_tx,
  file_cosmos_auth_v1beta1_auth,
  file_cosmos_auth_v1beta1_genesis,
  file_cosmos_auth_v1beta1_query,
  file_cosmos_auth_v1beta1_tx,
  file_cosmos_authz_v1beta1_authz,
  file_cosmos_authz_v1beta1_event,
  file_cosmos_authz_v1beta1_genesis,
  file_cosmos_authz_v1beta1_query,
  file_cosmos_authz_v1beta1_tx,
  file_cosmos_bank_v1beta1_authz,
  file_cosmos_bank_v1beta1_bank,
  file_cosmos_bank_v1beta1_genesis,
  file_cosmos_bank_v1beta1_query,
  file_cosmos_bank_v1beta1_tx,
  file_cosmos_base_abci_v1beta1_abci,
  file_cosmos_base_node_v1beta1_query,
  file_cosmos_base_query_v1beta1_pagination,
  file_cosmos_base_tendermint_v1beta1_query,
  file_cosmos_base_tendermint_v1beta1_types,
  file_cosmos_base_v1beta1_coin,
  file_cosmos_capability_v1beta1_capability,
  file_cosmos_capability_v1beta1_genesis,
  file_cosmos_crypto_ed25519_keys,
  file_cosmos_ics23_v1_proofs,
  file_cosmos_crypto_multisig_keys,
  file_cosmos_crypto_multisig_v1beta1_multisig,
  file_cosmos_crypto_secp256k1_keys,
  file_cosmos_evm_crypto_v1_ethsecp256k1_keys,
  file_cosmos_feegrant_v1beta1_feegrant,
  file_cosmos_feegrant_v1beta1_genesis,
  file_cosmos_feegrant_v1beta1_query,
  file_cosmos_feegrant_v1beta1_tx,
  file_cosmos_msg_v1_msg,
  file_cosmos_proto_cosmos,
  file_cosmos_query_v1_query,
  file_cosmos_staking_v1beta1_authz,
  file_cosmos_staking_v1beta1_genesis,
  file_cosmos_staking_v1beta1_query,
  file_cosmos_staking_v1beta1_staking,
  file_cosmos_staking_v1beta1_tx,
  file_cosmos_tx_signing_v1beta1_signing,
  file_cosmos_tx_v1beta1_service,
  file_cosmos_tx_v1beta1_tx,
  file_cosmos_upgrade_v1beta1_query,
  file_cosmos_upgrade_v1beta1_tx,
  file_cosmos_upgrade_v1beta1_upgrade,
  file_ethermint_crypto_v1_ethsecp256k1_keys,
  file_ethermint_types_v1_account,
  file_ethermint_types_v1_web3,
  file_ethermint_evm_v1_evm,
  file_ethermint_evm_v1_genesis,
  file_ethermint_evm_v1_query,
  file_ethermint_evm_v1_tx,
  file_ethermint_feemarket_v1_feemarket,
  file_ethermint_feemarket_v1_genesis,
  file_ethermint_feemarket_v1_query,
  file_ethermint_feemarket_v1_tx,
  file_gogoproto_gogo,
  file_google_api_annotations,
  file_google_api_http,
  file_grpc_reflection_v1_reflection,
  file_grpc_reflection_v1alpha_reflection,
  file_bech32ibc_bech32ibc_v1beta1_genesis,
  file_bech32ibc_bech32ibc_v1beta1_gov,
  file_bech32ibc_bech32ibc_v1beta1_query,
  file_bech32ibc_bech32ibc_v1beta1_types,
  file_ibc_applications_fee_v1_ack,
  file_ibc_applications_fee_v1_fee,
  file_ibc_applications_fee_v1_genesis,
  file_ibc_applications_fee_v1_metadata,
  file_ibc_applications_fee_v1_query,
  file_ibc_applications_fee_v1_tx,
  file_ibc_core_client_v1_client,
  file_ibc_core_client_v1_genesis,
  file_ibc_core_client_v1_query,
  file_ibc_core_client_v1_tx,
  file_ibc_core_channel_v1_channel,
  file_ibc_core_channel_v1_genesis,
  file_ibc_core_channel_v1_query,
  file_ibc_core_channel_v1_tx,
  file_ibc_core_connection_v1_connection,
  file_ibc_core_connection_v1_genesis,
  file_ibc_core_connection_v1_query,
  file_ibc_core_connection_v1_tx,
  file_ibc_core_commitment_v1_commitment,
  file_ibc_lightclients_tendermint_v1_tendermint,
  file_ibc_applications_transfer_v1_transfer,
  file_ibc_applications_transfer_v1_genesis,
  file_ibc_applications_transfer_v1_query,
  file_ibc_applications_transfer_v1_tx,
  file_ibc_applications_transfer_v2_packet,
  file_ibc_applications_interchain_accounts_v1_account,
  file_ibc_applications_interchain_accounts_v1_metadata,
  file_ibc_applications_interchain_accounts_v1_packet,
  file_ibc_applications_interchain_accounts_controller_v1_controller,
  file_ibc_applications_interchain_accounts_controller_v1_query,
  file_ibc_applications_interchain_accounts_controller_v1_tx,
  file_ibc_applications_interchain_accounts_host_v1_host,
  file_ibc_applications_interchain_accounts_host_v1_query,
  file_ibc_applications_interchain_accounts_genesis_v1_genesis,
  file_tendermint_abci_types,
  file_tendermint_blocksync_types,
  file_tendermint_consensus_types,
  file_tendermint_crypto_keys,
  file_tendermint_crypto_proof,
  file_tendermint_libs_bits_types,
  file_tendermint_mempool_types,
  file_tendermint_p2p_conn,
  file_tendermint_p2p_pex,
  file_tendermint_p2p_types,
  file_tendermint_statesync_types,
  file_tendermint_types_block,
  file_tendermint_types_canonical,
  file_tendermint_types_evidence,
  file_tendermint_types_params,
  file_tendermint_types_types,
  file_tendermint_types_validator,
  file_tendermint_version_types,
];

/**
 * Every message, enum, extension and service of every file, by fully-qualified name. Use it to
 * resolve a method or message named in a request (gRPC reflection, ABCI query paths).
 */
export const protoRegistry: Registry = createRegistry(...PROTO_FILES);

let filesByName: Map<string, DescFile> | undefined;

/**
 * A file by its import path (`cosmos/bank/v1beta1/query.proto`), including the well-known
 * `google/protobuf/*.proto` files the generated ones depend on.
 */
export function protoFileByName(name: string): DescFile | undefined {
  if (filesByName === undefined) {
    const map = new Map<string, DescFile>();
    const visit = (file: DescFile): void => {
      const fileName = file.proto.name;
      if (map.has(fileName)) return;
      map.set(fileName, file);
      file.dependencies.forEach(visit);
    };
    PROTO_FILES.forEach(visit);
    filesByName = map;
  }
  return filesByName.get(name);
}
