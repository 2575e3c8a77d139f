export { WktJsonError, isWktJsonError } from "./errors.js";
export type { WktRule } from "./errors.js";
export { pathJoin, pathSegment } from "./path.js";
export type { PathSegment } from "./path.js";
export * from "./limits.js";
export { int64From } from "./int64.js";
export type { Int64Like, Int64FromOptions } from "./int64.js";
export { fromJson, fromJsonString } from "./from-json.js";
export type { JsonReadOptions } from "./from-json.js";
export { mergeFromJson, mergeFromJsonString } from "./merge-from-json.js";
export { toJson, toJsonString } from "./to-json.js";
export type { JsonWriteOptions, JsonWriteStringOptions, ToJson } from "./to-json.js";
export { enumToJson, enumFromJson, isEnumJson } from "./enum.js";
export type { JsonValue, JsonObject, MessageJsonType, EnumJsonType } from "@bufbuild/protobuf";
export { wrapperFromJson, wrapperToJson, wrapperIsSchema } from "./wrappers.js";
export type { WrapperJsonOptions } from "./wrappers.js";
export { anyPack, anyUnpack, anyFromJson, anyToJson } from "./any.js";
export type { AnyPackOptions } from "./any.js";
export { typeUrlParse, typeUrlFor, typeUrlResolve, typeUrlPrefixDefault, wktRegistry } from "./registry.js";
export type { TypeUrlParts } from "./registry.js";
export {
  timestampFromJson,
  timestampToJson,
  timestampCheck,
  timestampIsValid,
  timestampFromDate,
  timestampToDate,
  timestampFromMs,
  timestampToMs,
  timestampFromMicros,
  timestampToMicros,
  timestampFromNanos,
  timestampToNanos,
  timestampNow,
  timestampAdd,
  timestampSubtract,
  timestampDiff,
  timestampCompare,
} from "./timestamp.js";
export type { TimestampLike, TimestampJsonOptions } from "./timestamp.js";
export {
  durationFromJson,
  durationToJson,
  durationCheck,
  durationIsValid,
  durationFromNanos,
  durationToNanos,
  durationFromMs,
  durationToMs,
  durationFromSeconds,
  durationToSeconds,
  durationAdd,
  durationSubtract,
  durationNegate,
  durationAbs,
  durationCompare,
} from "./duration.js";
export type { DurationLike, DurationJsonOptions } from "./duration.js";
export {
  typeFromDescriptor,
  enumFromDescriptor,
  apiFromDescriptor,
  typesFromDescriptors,
  registryFromTypes,
  apiVersion,
  apiVersionCheck,
  apiVersionIsValid,
  apiVersionCompatible,
  mixinCheck,
  mixinAssert,
  mixinHttpPath,
  mixinInheritDoc,
  mixinInheritOptions,
  mixinInheritedOptionNames,
} from "./descriptors.js";
export type {
  TypeFromDescriptorOptions,
  TypesFromDescriptorsOptions,
  ApiFromDescriptorOptions,
  TypeSet,
  RegistryFromTypesOptions,
  ApiVersion,
  ApiNameAndVersion,
} from "./descriptors.js";
export { createTypeResolver } from "./type-resolver.js";
export type {
  TypeFetch,
  TypeFetchBodyReader,
  TypeFetchInit,
  TypeFetchResponse,
  TypeResolver,
  TypeResolverCache,
  TypeResolverOptions,
  TypeResolverUrl,
  TypeFetchSignal,
} from "./type-resolver.js";
export {
  structFromJson,
  structToJson,
  valueFromJson,
  valueToJson,
  listValueFromJson,
  listValueToJson,
  structFromObject,
  structToObject,
  valueFromJs,
  valueToJs,
  listValueFromArray,
  listValueToArray,
} from "./struct.js";
export type { StructJsonOptions } from "./struct.js";
export { fieldMaskFromJson, fieldMaskToJson, fieldMaskFromPaths } from "./field-mask.js";
export type { FieldMaskJsonOptions } from "./field-mask.js";
export { validateJson, validateJsonString, validateMaxIssuesDefault } from "./validate.js";
export type { WktJsonIssue, ValidateJsonOptions } from "./validate.js";
export {
  fieldMaskCheck,
  fieldMaskIsValid,
  fieldMaskNormalize,
  fieldMaskUnion,
  fieldMaskIntersect,
  fieldMaskSubtract,
  fieldMaskCovers,
  fieldMaskForAllFields,
  fieldMaskFromFieldNumbers,
  fieldMaskFromDiff,
} from "./field-mask.js";
export type { FieldMaskLike, FieldMaskCheckOptions, FieldMaskSizeOptions } from "./field-mask.js";
export {
  fieldMaskProject,
  fieldMaskProjectEach,
  fieldMaskMerge,
  jsonProject,
  jsonProjectEach,
  jsonOmit,
  jsonOmitEach,
  jsonMerge,
  fieldMaskFromPatch,
} from "./field-mask-apply.js";
export type {
  FieldMaskProjectOptions,
  FieldMaskMergeOptions,
  JsonProjectOptions,
  JsonOmitOptions,
  JsonMergeOptions,
  FieldMaskFromPatchOptions,
} from "./field-mask-apply.js";
export { patch, jsonPatch } from "./patch.js";
export type { PatchOptions, JsonPatchOptions } from "./patch.js";
export { jsonSchema } from "./json-schema.js";
export type { JsonSchemaOptions } from "./json-schema.js";
export { standardSchema } from "./standard-schema.js";
export type {
  StandardSchemaOptions,
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaProps,
  StandardJsonSchemaOptions,
  WktStandardSchema,
} from "./standard-schema.js";
