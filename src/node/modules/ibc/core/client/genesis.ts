/**
 * The client submodule's genesis (ibc-go v6 02-client/genesis.go, types/genesis.go): clients,
 * their consensus states, their metadata (processed time/height and iteration keys, relative to
 * `clients/{id}/`), params, create_localhost (not supported here: must be false) and the next
 * client sequence. Export re-imports to the same store.
 */
import { create } from '@bufbuild/protobuf';
import {
  ClientConsensusStatesSchema,
  ConsensusStateWithHeightSchema,
  IdentifiedClientStateSchema,
  type ClientConsensusStates,
  type IdentifiedClientState,
} from '../../../../../gen/ibc/core/client/v1/client_pb.js';
import { GenesisMetadataSchema, GenesisStateSchema, IdentifiedGenesisMetadataSchema, type GenesisState } from '../../../../../gen/ibc/core/client/v1/genesis_pb.js';
import type { Context } from '../../../shared/context.js';
import { ClientStoreView, keyText, textKey } from './clientStore.js';
import { formatHeight, isZeroHeight, parseHeight } from './height.js';
import { ClientStore, SECTION_CONSENSUS_STATES, SECTION_ITERATE, SECTION_OTHER } from './keys.js';
import { unpackClientState, unpackConsensusState, type ClientKeeper } from './keeper.js';
import { clientParamsError, defaultClientParams, TENDERMINT_CLIENT_TYPE } from './params.js';
import { clientStateError, consensusStateError, decodeAny, encodeAny } from '../../lightclients/tendermint/client.js';
import { clientIdentifierError, parseClientIdentifier } from '../host/identifiers.js';

export function defaultClientGenesis(): GenesisState {
  return create(GenesisStateSchema, { params: defaultClientParams(), createLocalhost: false, nextClientSequence: 0n });
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Problems of a client genesis (GenesisState.Validate), each one line. */
export function validateClientGenesis(gs: GenesisState): string[] {
  const problems: string[] = [];
  const params = gs.params ?? defaultClientParams();
  const valid = new Set<string>();
  let maxSequence = -1n;
  gs.clients.forEach((client, index) => {
    const idError = clientIdentifierError(client.clientId);
    if (idError !== undefined) {
      problems.push(`client_genesis.clients[${index}]: invalid client identifier: ${idError.message}`);
      return;
    }
    let clientState;
    try {
      clientState = unpackClientState(client.clientState);
    } catch (err) {
      problems.push(`client_genesis.clients[${index}]: invalid client state with ID ${client.clientId}: ${messageOf(err)}`);
      return;
    }
    if (!params.allowedClients.includes(TENDERMINT_CLIENT_TYPE)) problems.push(`client_genesis.clients[${index}]: client type ${TENDERMINT_CLIENT_TYPE} not allowed by genesis params`);
    const invalid = clientStateError(clientState);
    if (invalid !== undefined) problems.push(`client_genesis.clients[${index}]: invalid client ${client.clientId}: ${invalid.message}`);
    const parsed = parseClientIdentifier(client.clientId);
    if (parsed === undefined || parsed.clientType !== TENDERMINT_CLIENT_TYPE) {
      problems.push(`client_genesis.clients[${index}]: client state type ${TENDERMINT_CLIENT_TYPE} does not equal client type in client identifier ${client.clientId}`);
    } else if (parsed.sequence > maxSequence) {
      maxSequence = parsed.sequence;
    }
    if (valid.has(client.clientId)) problems.push(`client_genesis.clients[${index}]: duplicate client id ${client.clientId}`);
    valid.add(client.clientId);
  });
  for (const cc of gs.clientsConsensus) {
    if (!valid.has(cc.clientId)) {
      problems.push(`client_genesis.clients_consensus: consensus state in genesis has a client id ${cc.clientId} that does not map to a genesis client`);
      continue;
    }
    cc.consensusStates.forEach((entry, index) => {
      if (entry.height === undefined || isZeroHeight(entry.height)) {
        problems.push(`client_genesis.clients_consensus ${cc.clientId}[${index}]: consensus state height cannot be zero`);
        return;
      }
      try {
        const invalid = consensusStateError(unpackConsensusState(entry.consensusState));
        if (invalid !== undefined) throw invalid;
      } catch (err) {
        problems.push(`client_genesis.clients_consensus ${cc.clientId}[${index}]: invalid client consensus state: ${messageOf(err)}`);
      }
    });
  }
  for (const metadata of gs.clientsMetadata) {
    if (!valid.has(metadata.clientId)) {
      problems.push(`client_genesis.clients_metadata: metadata in genesis has a client id ${metadata.clientId} that does not map to a genesis client`);
      continue;
    }
    metadata.clientMetadata.forEach((entry, index) => {
      if (entry.key.length === 0) problems.push(`client_genesis.clients_metadata ${metadata.clientId}[${index}]: genesis metadata key cannot be empty`);
      else if (entry.value.length === 0) problems.push(`client_genesis.clients_metadata ${metadata.clientId}[${index}]: genesis metadata value cannot be empty`);
    });
  }
  const paramsProblem = clientParamsError(params);
  if (paramsProblem !== undefined) problems.push(`client_genesis.params: ${paramsProblem}`);
  if (gs.createLocalhost) problems.push('client_genesis.create_localhost: the localhost client is not supported on this chain; set it to false');
  if (maxSequence >= 0n && maxSequence >= gs.nextClientSequence) {
    problems.push(`client_genesis.next_client_sequence: next client identifier sequence ${gs.nextClientSequence} must be greater than the maximum sequence used in the provided client identifiers ${maxSequence}`);
  }
  return problems;
}

/** A metadata key relative to `clients/{id}/` → (section, rest). */
function splitMetadataKey(key: Uint8Array): [string, Uint8Array] {
  for (const section of [SECTION_CONSENSUS_STATES, SECTION_ITERATE]) {
    const prefix = textKey(section);
    if (key.length >= prefix.length && prefix.every((b, i) => key[i] === b)) return [section, key.slice(prefix.length)];
  }
  return [SECTION_OTHER, key];
}

export function initClientGenesis(ctx: Context, keeper: ClientKeeper, gs: GenesisState): void {
  keeper.setParams(ctx, gs.params ?? defaultClientParams());
  for (const client of gs.clients) keeper.setClientState(ctx, client.clientId, unpackClientState(client.clientState));
  for (const cc of gs.clientsConsensus) {
    for (const entry of cc.consensusStates) keeper.setClientConsensusState(ctx, cc.clientId, entry.height!, unpackConsensusState(entry.consensusState));
  }
  for (const metadata of gs.clientsMetadata) {
    for (const entry of metadata.clientMetadata) {
      const [section, rest] = splitMetadataKey(entry.key);
      ClientStore.set(ctx, [metadata.clientId, section, rest], entry.value);
    }
  }
  keeper.setNextClientSequence(ctx, gs.nextClientSequence);
}

export async function exportClientGenesis(ctx: Context, keeper: ClientKeeper): Promise<GenesisState> {
  const clients: IdentifiedClientState[] = [];
  const consensus: ClientConsensusStates[] = [];
  const metadata = [];
  for (const clientId of await keeper.clientIds(ctx)) {
    const view = new ClientStoreView(ctx, clientId);
    const states = create(ClientConsensusStatesSchema, { clientId });
    const entries = [];
    for await (const [section, rest, value] of view.all()) {
      if (section === SECTION_OTHER && keyText(rest) === 'clientState') {
        clients.push(create(IdentifiedClientStateSchema, { clientId, clientState: decodeAny(value) }));
      } else if (section === SECTION_CONSENSUS_STATES && !keyText(rest).includes('/')) {
        states.consensusStates.push(create(ConsensusStateWithHeightSchema, { height: parseHeight(keyText(rest)), consensusState: decodeAny(value) }));
      } else if (section !== SECTION_OTHER) {
        const key = new Uint8Array([...textKey(section), ...rest]);
        entries.push(create(GenesisMetadataSchema, { key, value }));
      }
    }
    if (states.consensusStates.length > 0) consensus.push(states);
    if (entries.length > 0) metadata.push(create(IdentifiedGenesisMetadataSchema, { clientId, clientMetadata: entries }));
  }
  return create(GenesisStateSchema, {
    clients,
    clientsConsensus: consensus,
    clientsMetadata: metadata,
    params: keeper.getParams(ctx),
    createLocalhost: false,
    nextClientSequence: keeper.getNextClientSequence(ctx),
  });
}

export { encodeAny, formatHeight };
