/**
 * The evidence module's store ("evidence"):
 *
 *   0x00 ‖ hash   Evidence → google.protobuf.Any (the evidence, e.g. an Equivocation)
 */
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { SchemaBuilder, StateMap, bytesKey, protoValue } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'evidence';
export const evidenceStoreKey = StoreKey.persistent(MODULE_NAME);

const schema = new SchemaBuilder(evidenceStoreKey);

export const Evidence = new StateMap(schema, 'evidence', 0x00, bytesKey, protoValue(AnySchema));

export const evidenceSchema = schema.build();
