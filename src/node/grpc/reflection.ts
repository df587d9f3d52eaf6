/**
 * gRPC server reflection (grpc.reflection.v1alpha.ServerReflection and
 * grpc.reflection.v1.ServerReflection, the same protocol under two names), so that grpcurl,
 * Postman and similar tools can list and call the node's services without .proto files.
 *
 *   list_services                    the services this server exposes (and the reflection services)
 *   file_by_filename                 that file + its transitive dependencies
 *   file_containing_symbol           the file defining a service, method, message, enum, field,
 *                                    enum value or extension (+ dependencies)
 *   file_containing_extension        the file defining extension <number> of <type>
 *   all_extension_numbers_of_type    extension numbers known for a message type
 *
 * Descriptors come from the generated files (codec `PROTO_FILES`, `protoFileByName`). As grpc-go
 * does, a file already sent on the same stream is not sent again.
 */
import { toBinary, type DescEnum, type DescExtension, type DescFile, type DescMessage, type DescService } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { PROTO_FILES, protoFileByName } from '../codec/index.js';
import { GrpcStatus } from '../services/types.js';

/** The request as both generated versions shape it. */
export interface ReflectionRequestLike {
  host: string;
  messageRequest:
    | { case: 'fileByFilename' | 'fileContainingSymbol' | 'allExtensionNumbersOfType' | 'listServices'; value: string }
    | { case: 'fileContainingExtension'; value: { containingType: string; extensionNumber: number } }
    | { case: undefined; value?: undefined };
}

/** The response fields (without original_request), valid for both versions. */
export interface ReflectionResponseInit {
  validHost: string;
  messageResponse:
    | { case: 'fileDescriptorResponse'; value: { fileDescriptorProto: Uint8Array[] } }
    | { case: 'allExtensionNumbersResponse'; value: { baseTypeName: string; extensionNumber: number[] } }
    | { case: 'listServicesResponse'; value: { service: { name: string }[] } }
    | { case: 'errorResponse'; value: { errorCode: number; errorMessage: string } };
}

export class ReflectionIndex {
  /** Fully-qualified symbol → defining file. */
  private readonly symbols = new Map<string, DescFile>();
  /** "<extendee>#<number>" → file, and extendee → numbers. */
  private readonly extensionFiles = new Map<string, DescFile>();
  private readonly extensionNumbers = new Map<string, number[]>();
  private readonly encoded = new Map<string, Uint8Array>();

  constructor(readonly serviceNames: readonly string[]) {
    const seen = new Set<string>();
    const visit = (file: DescFile): void => {
      if (seen.has(file.proto.name)) return;
      seen.add(file.proto.name);
      file.dependencies.forEach(visit);
      for (const message of file.messages) this.addMessage(file, message);
      for (const en of file.enums) this.addEnum(file, en);
      for (const service of file.services) this.addService(file, service);
      for (const ext of file.extensions) this.addExtension(file, ext);
    };
    PROTO_FILES.forEach(visit);
  }

  private addMessage(file: DescFile, message: DescMessage): void {
    this.symbols.set(message.typeName, file);
    for (const field of message.fields) this.symbols.set(`${message.typeName}.${field.name}`, file);
    for (const oneof of message.oneofs) this.symbols.set(`${message.typeName}.${oneof.name}`, file);
    for (const nested of message.nestedMessages) this.addMessage(file, nested);
    for (const en of message.nestedEnums) this.addEnum(file, en);
    for (const ext of message.nestedExtensions) this.addExtension(file, ext);
  }

  private addEnum(file: DescFile, en: DescEnum): void {
    this.symbols.set(en.typeName, file);
    const scope = en.typeName.includes('.') ? en.typeName.slice(0, en.typeName.lastIndexOf('.')) : '';
    for (const value of en.values) this.symbols.set(scope === '' ? value.name : `${scope}.${value.name}`, file);
  }

  private addService(file: DescFile, service: DescService): void {
    this.symbols.set(service.typeName, file);
    for (const method of service.methods) this.symbols.set(`${service.typeName}.${method.name}`, file);
  }

  private addExtension(file: DescFile, ext: DescExtension): void {
    this.symbols.set(ext.typeName, file);
    const extendee = ext.extendee.typeName;
    this.extensionFiles.set(`${extendee}#${ext.number}`, file);
    const numbers = this.extensionNumbers.get(extendee) ?? [];
    numbers.push(ext.number);
    this.extensionNumbers.set(extendee, numbers);
  }

  fileOfSymbol(symbol: string): DescFile | undefined {
    return this.symbols.get(symbol.replace(/^\./, ''));
  }

  /** The serialized FileDescriptorProto of a file (cached). */
  encode(file: DescFile): Uint8Array {
    let bytes = this.encoded.get(file.proto.name);
    if (bytes === undefined) {
      bytes = toBinary(FileDescriptorProtoSchema, file.proto);
      this.encoded.set(file.proto.name, bytes);
    }
    return bytes;
  }

  /** The file, then its transitive dependencies, skipping files in `sent` (which is updated). */
  fileWithDependencies(file: DescFile, sent: Set<string>): Uint8Array[] {
    const out: Uint8Array[] = [];
    const visit = (f: DescFile): void => {
      if (sent.has(f.proto.name)) return;
      sent.add(f.proto.name);
      out.push(this.encode(f));
      f.dependencies.forEach(visit);
    };
    visit(file);
    return out;
  }

  /** The answer to one reflection request on a stream (`sent`: files already sent on it). */
  respond(request: ReflectionRequestLike, sent: Set<string>): ReflectionResponseInit {
    const validHost = request.host;
    const error = (code: number, message: string): ReflectionResponseInit => ({
      validHost,
      messageResponse: { case: 'errorResponse', value: { errorCode: code, errorMessage: message } },
    });
    const files = (file: DescFile): ReflectionResponseInit => ({
      validHost,
      messageResponse: { case: 'fileDescriptorResponse', value: { fileDescriptorProto: this.fileWithDependencies(file, sent) } },
    });
    const req = request.messageRequest;
    switch (req.case) {
      case 'listServices':
        return { validHost, messageResponse: { case: 'listServicesResponse', value: { service: this.serviceNames.map((name) => ({ name })) } } };
      case 'fileByFilename': {
        const file = protoFileByName(req.value);
        return file === undefined ? error(GrpcStatus.NotFound, `unknown file: ${req.value}`) : files(file);
      }
      case 'fileContainingSymbol': {
        const file = this.fileOfSymbol(req.value);
        return file === undefined ? error(GrpcStatus.NotFound, `unknown symbol: ${req.value}`) : files(file);
      }
      case 'fileContainingExtension': {
        const file = this.extensionFiles.get(`${req.value.containingType.replace(/^\./, '')}#${req.value.extensionNumber}`);
        return file === undefined
          ? error(GrpcStatus.NotFound, `unknown extension ${req.value.extensionNumber} of ${req.value.containingType}`)
          : files(file);
      }
      case 'allExtensionNumbersOfType': {
        const typeName = req.value.replace(/^\./, '');
        if (this.symbols.get(typeName) === undefined) return error(GrpcStatus.NotFound, `unknown type: ${req.value}`);
        return {
          validHost,
          messageResponse: { case: 'allExtensionNumbersResponse', value: { baseTypeName: typeName, extensionNumber: [...(this.extensionNumbers.get(typeName) ?? [])].sort((a, b) => a - b) } },
        };
      }
      default:
        return error(GrpcStatus.InvalidArgument, 'the reflection request names no message_request');
    }
  }
}
