// Type-level proof of the drop-in claim, checked by `npm run typecheck` (tsc --strict with
// exactOptionalPropertyTypes), not run: code written against @bufbuild/protobuf's JSON API compiles unchanged
// with the import switched to wkt-json. Generated code with json_types: the well-known types' schemas, which
// @bufbuild/protobuf generates with JSON types (TimestampJson, ...), and test/readme/gen/library_pb.ts,
// protoc-gen-es 2.17.0's output for test/readme/library.proto with `json_types=true` (see that file).

import { create, type Registry } from "@bufbuild/protobuf";
import {
  BookSchema,
  UpdateBookRequestSchema,
  type Book,
  type BookJson,
  type UpdateBookRequest,
  type UpdateBookRequestJson,
} from "../readme/gen/library_pb.js";
import type {
  JsonObject as PbJsonObject,
  JsonReadOptions as PbJsonReadOptions,
  JsonValue as PbJsonValue,
  JsonWriteOptions as PbJsonWriteOptions,
  JsonWriteStringOptions as PbJsonWriteStringOptions,
} from "@bufbuild/protobuf";
import {
  AnySchema,
  DurationSchema,
  FieldDescriptorProto_Type,
  FieldDescriptorProto_TypeSchema,
  FieldMaskSchema,
  NullValue,
  NullValueSchema,
  StructSchema,
  TimestampSchema,
  ValueSchema,
  type AnyJson,
  type DurationJson,
  type FieldDescriptorProto_TypeJson,
  type FieldMaskJson,
  type NullValueJson,
  type StructJson,
  type Timestamp,
  type TimestampJson,
  type ValueJson,
} from "@bufbuild/protobuf/wkt";
import {
  enumFromJson,
  enumToJson,
  fromJson,
  fromJsonString,
  isEnumJson,
  mergeFromJson,
  mergeFromJsonString,
  toJson,
  toJsonString,
  type JsonObject,
  type JsonReadOptions,
  type JsonValue,
  type JsonWriteOptions,
  type JsonWriteStringOptions,
} from "../../src/index.js";

declare const registry: Registry | undefined;
declare const ts: Timestamp;

// toJson's return type: the message's JSON type without shape-changing options, else any JSON value.
export const tsJson: TimestampJson = toJson(TimestampSchema, ts);
// As with protobuf-es: options that name none of the three flags make the result any JSON value (TypeScript's
// weak-type check refuses { registry } for an object type whose members are all optional).
// @ts-expect-error the same error protobuf-es's toJson gives here
export const tsJsonWithRegistry: TimestampJson = toJson(TimestampSchema, ts, { registry });
export const durJson: DurationJson = toJson(DurationSchema, create(DurationSchema), {});
export const structJson: StructJson = toJson(StructSchema, create(StructSchema));
export const valueJson: ValueJson = toJson(ValueSchema, create(ValueSchema));
export const maskJson: FieldMaskJson = toJson(FieldMaskSchema, create(FieldMaskSchema), { alwaysEmitImplicit: false });
export const anyJson: AnyJson = toJson(AnySchema, create(AnySchema), { registry, useProtoFieldName: false });
export const loose: JsonValue = toJson(TimestampSchema, ts, { enumAsInteger: true });
// @ts-expect-error an option that changes the shape makes the result any JSON value, as with protobuf-es
export const notTs: TimestampJson = toJson(TimestampSchema, ts, { useProtoFieldName: true });
export const text: string = toJsonString(TimestampSchema, ts, { prettySpaces: 2 });

// Reading: the message shape; options objects typed with protobuf-es's option types, or ours.
export const read: Timestamp = fromJson(TimestampSchema, tsJson);
export const readText: Timestamp = fromJsonString(TimestampSchema, '"1970-01-01T00:00:00Z"', {
  ignoreUnknownFields: true,
});
const pbRead: PbJsonReadOptions = { ignoreUnknownFields: true, registry, recursionLimit: 10 };
const pbPartial: Partial<PbJsonReadOptions> = { registry };
const ourRead: JsonReadOptions = { ignoreUnknownFields: false, registry, recursionLimit: 100 };
export const withPb = fromJson(StructSchema, {}, pbRead);
export const withPbPartial = fromJsonString(StructSchema, "{}", pbPartial);
export const withOurs = fromJson(StructSchema, {}, ourRead);
export const pbFromOurs: PbJsonReadOptions = ourRead;
export const merged: Timestamp = mergeFromJson(TimestampSchema, create(TimestampSchema), tsJson, pbRead);
export const mergedText: Timestamp = mergeFromJsonString(
  TimestampSchema,
  create(TimestampSchema),
  '"1970-01-01T00:00:00Z"',
);

const pbWrite: PbJsonWriteOptions = {
  alwaysEmitImplicit: true,
  enumAsInteger: false,
  useProtoFieldName: false,
  registry,
};
const pbWriteText: PbJsonWriteStringOptions = { ...pbWrite, prettySpaces: 0 };
const ourWrite: JsonWriteOptions = pbWrite;
const ourWriteText: JsonWriteStringOptions = pbWriteText;
export const w1: JsonValue = toJson(StructSchema, create(StructSchema), pbWrite);
export const w2: string = toJsonString(StructSchema, create(StructSchema), pbWriteText);
export const w3: JsonValue = toJson(StructSchema, create(StructSchema), ourWrite);
export const w4: string = toJsonString(StructSchema, create(StructSchema), ourWriteText);

// JsonValue and JsonObject are protobuf-es's.
export const v1: PbJsonValue = loose;
export const o1: PbJsonObject = {} as JsonObject;
export const o2: JsonObject = {} as PbJsonObject;

// The enum functions, with the enum's JSON type.
export const typeJson: FieldDescriptorProto_TypeJson = enumToJson(
  FieldDescriptorProto_TypeSchema,
  FieldDescriptorProto_Type.STRING,
);
export const nullJson: NullValueJson = enumToJson(NullValueSchema, NullValue.NULL_VALUE);
export const type: FieldDescriptorProto_Type = enumFromJson(FieldDescriptorProto_TypeSchema, "TYPE_STRING");
declare const maybe: unknown;
export const narrowed: FieldDescriptorProto_TypeJson | undefined = isEnumJson(FieldDescriptorProto_TypeSchema, maybe)
  ? maybe
  : undefined;

// Generated messages with json_types: toJson gives the generated JSON type, fromJson takes and gives the shapes.
declare const book: Book;
export const bookJson: BookJson = toJson(BookSchema, book);
export const title: string | undefined = toJson(BookSchema, book).title;
// @ts-expect-error a member the JSON type does not have, as with protobuf-es
export const nope: unknown = toJson(BookSchema, book).nope;
export const requestJson: UpdateBookRequestJson = toJson(UpdateBookRequestSchema, create(UpdateBookRequestSchema), {
  alwaysEmitImplicit: false,
});
export const request: UpdateBookRequest = fromJson(UpdateBookRequestSchema, {
  book: { title: "t" },
  updateMask: "title",
} satisfies UpdateBookRequestJson);
export const again: Book = mergeFromJsonString(BookSchema, create(BookSchema), toJsonString(BookSchema, book), pbRead);
