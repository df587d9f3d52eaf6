/**
 * The interchain accounts state: one store per submodule, "icacontroller" and "icahost" (ibc-go's
 * store keys), each at ibc-go v6's text keys (27-interchain-accounts/types/keys.go):
 *
 *   activeChannel/{port}/{connection}        channel id (text)
 *   owner/{port}/{connection}                interchain account address (bech32 text)
 *   port/{port}                              0x01: a port the submodule bound
 *   isMiddlewareEnabled/{port}/{connection}  0x01 enabled / 0x02 disabled (controller only): whether
 *                                            callbacks go on to an authentication module
 *   params                                   the submodule's Params (ibc-go v6 keeps them in the
 *                                            x/params subspaces "icacontroller"/"icahost"; v7.1+ here)
 *
 * {port} is the controller port ("icacontroller-<owner>"); identifiers never contain '/'.
 */
import { ParamsSchema as ControllerParamsSchema } from '../../../../../gen/ibc/applications/interchain_accounts/controller/v1/controller_pb.js';
import { ParamsSchema as HostParamsSchema } from '../../../../../gen/ibc/applications/interchain_accounts/host/v1/host_pb.js';
import { CollectionError, Item, SchemaBuilder, StateMap, bytesValue, protoValue, stringKey, stringValue, type KeyCodec } from '../../../../collections/index.js';
import { StoreKey } from '../../../../store/storeKey.js';
import { ICA_CONTROLLER_NAME, ICA_HOST_NAME } from './types.js';

/** (port, connection). */
export type PortConnectionKey = readonly [portId: string, connectionId: string];

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

function checkId(id: string, what: string): void {
  if (id === '' || id.includes('/')) throw new CollectionError('ENCODING', `${what} identifier ${JSON.stringify(id)} is empty or contains '/'`);
}

const terminalOnly = (): never => {
  throw new CollectionError('ENCODING', 'port/connection keys are always the last key part');
};

/** `{port}/{connection}` as text (always the whole key after the prefix). */
const portConnectionKey: KeyCodec<PortConnectionKey> = {
  keyType: 'Path[port, connection]',
  size: ([port, connection]) => utf8.encode(`${port}/${connection}`).length,
  encode([port, connection], out, offset) {
    checkId(port, 'port');
    checkId(connection, 'connection');
    const bytes = utf8.encode(`${port}/${connection}`);
    out.set(bytes, offset);
    return offset + bytes.length;
  },
  decode(bytes, offset, end) {
    const text = utf8Decoder.decode(bytes.subarray(offset, end));
    const parts = text.split('/');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') throw new CollectionError('DECODING', `cannot decode port/connection key ${JSON.stringify(text)}`);
    return [parts[0]!, parts[1]!] as const;
  },
  sizeNonTerminal: terminalOnly,
  encodeNonTerminal: terminalOnly,
  decodeNonTerminal: terminalOnly,
  stringify: ([port, connection]) => `${port}/${connection}`,
};

/** The collections of one submodule's store. */
function submoduleState(builder: SchemaBuilder) {
  return {
    activeChannels: new StateMap(builder, 'active_channels', 'activeChannel/', portConnectionKey, stringValue),
    owners: new StateMap(builder, 'interchain_accounts', 'owner/', portConnectionKey, stringValue),
    ports: new StateMap(builder, 'ports', 'port/', stringKey, bytesValue),
  };
}

export const icaControllerStoreKey = StoreKey.persistent(ICA_CONTROLLER_NAME);
export const icaHostStoreKey = StoreKey.persistent(ICA_HOST_NAME);

const controllerBuilder = new SchemaBuilder(icaControllerStoreKey);
const hostBuilder = new SchemaBuilder(icaHostStoreKey);

export const ControllerState = {
  ...submoduleState(controllerBuilder),
  middlewareEnabled: new StateMap(controllerBuilder, 'is_middleware_enabled', 'isMiddlewareEnabled/', portConnectionKey, bytesValue),
  params: new Item(controllerBuilder, 'params', 'params', protoValue(ControllerParamsSchema)),
};
export const HostState = {
  ...submoduleState(hostBuilder),
  params: new Item(hostBuilder, 'params', 'params', protoValue(HostParamsSchema)),
};

export const icaControllerSchema = controllerBuilder.build();
export const icaHostSchema = hostBuilder.build();

/** The value of `port/{port}` (a bound port). */
export const PORT_BOUND = Uint8Array.of(0x01);
export const MIDDLEWARE_ENABLED = Uint8Array.of(0x01);
export const MIDDLEWARE_DISABLED = Uint8Array.of(0x02);

export type SubmoduleState = ReturnType<typeof submoduleState>;
