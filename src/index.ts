export { WktJsonError, isWktJsonError } from "./errors.js";
export type { WktRule } from "./errors.js";
export { pathJoin, pathSegment } from "./path.js";
export type { PathSegment } from "./path.js";
export * from "./limits.js";
export { int64From } from "./internal/int64.js";
export type { Int64Like, Int64FromOptions } from "./internal/int64.js";
export { fromJson, fromJsonString } from "./codec/from-json.js";
export type { JsonReadOptions } from "./codec/from-json.js";
export { mergeFromJson, mergeFromJsonString } from "./codec/merge-from-json.js";
export { toJson, toJsonString } from "./codec/to-json.js";
export type { JsonWriteOptions, JsonWriteStringOptions, ToJson } from "./codec/to-json.js";
export { enumToJson, enumFromJson, isEnumJson } from "./wkt/enum.js";
export type { JsonValue, JsonObject, MessageJsonType, EnumJsonType } from "@bufbuild/protobuf";
export { wrapperFromJson, wrapperToJson, wrapperIsSchema } from "./wkt/wrappers.js";
export type { WrapperJsonOptions } from "./wkt/wrappers.js";
export { anyPack, anyUnpack } from "./wkt/any.js";
export { anyFromJson, anyToJson } from "./codec/any-codec.js";
export type { AnyPackOptions } from "./wkt/any.js";
export { typeUrlParse, typeUrlFor, typeUrlResolve, typeUrlPrefixDefault, wktRegistry } from "./wkt/registry.js";
export type { TypeUrlParts } from "./wkt/registry.js";
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
} from "./wkt/timestamp.js";
export type { TimestampLike, TimestampJsonOptions } from "./wkt/timestamp.js";
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
} from "./wkt/duration.js";
export type { DurationLike, DurationJsonOptions } from "./wkt/duration.js";
export {
  typeFromDescriptor,
  enumFromDescriptor,
  apiFromDescriptor,
  typesFromDescriptors,
} from "./descriptors/descriptors.js";
export type {
  TypeFromDescriptorOptions,
  TypesFromDescriptorsOptions,
  ApiFromDescriptorOptions,
} from "./descriptors/descriptors.js";
export { registryFromTypes } from "./descriptors/registry-from-types.js";
export type { TypeSet, RegistryFromTypesOptions } from "./descriptors/registry-from-types.js";
export { apiVersion, apiVersionCheck, apiVersionIsValid, apiVersionCompatible } from "./descriptors/api-version.js";
export type { ApiVersion, ApiNameAndVersion } from "./descriptors/api-version.js";
export {
  mixinCheck,
  mixinAssert,
  mixinHttpPath,
  mixinInheritDoc,
  mixinInheritOptions,
  mixinInheritedOptionNames,
} from "./descriptors/mixin.js";
export { createTypeResolver } from "./descriptors/type-resolver.js";
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
} from "./descriptors/type-resolver.js";
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
} from "./wkt/struct.js";
export type { StructJsonOptions } from "./wkt/struct.js";
export { fieldMaskFromJson, fieldMaskToJson, fieldMaskFromPaths } from "./wkt/field-mask.js";
export type { FieldMaskJsonOptions } from "./wkt/field-mask.js";
export { validateJson, validateJsonString, validateMaxIssuesDefault } from "./codec/validate.js";
export type { WktJsonIssue, ValidateJsonOptions } from "./codec/validate.js";
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
} from "./wkt/field-mask.js";
export type { FieldMaskLike, FieldMaskCheckOptions, FieldMaskSizeOptions } from "./wkt/field-mask.js";
// Masks (issue 28): the option every function that takes a mask has, where the mask sits in the request.
export type { MaskPathOption } from "./internal/mask-base.js";
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
} from "./mask/field-mask-apply.js";
export type {
  FieldMaskProjectOptions,
  FieldMaskMergeOptions,
  JsonProjectOptions,
  JsonOmitOptions,
  JsonMergeOptions,
  FieldMaskFromPatchOptions,
} from "./mask/field-mask-apply.js";
export { patch, jsonPatch, patchFromJsonString, jsonPatchFromJsonString } from "./mask/patch.js";
export type { PatchOptions, JsonPatchOptions } from "./mask/patch.js";
export { createFromJson, createFromJsonString } from "./mask/create.js";
export type { CreateOptions } from "./mask/create.js";
export { jsonSchema } from "./schema/json-schema.js";
export type { JsonSchemaOptions } from "./schema/json-schema.js";
export { standardSchema } from "./schema/standard-schema.js";
export type {
  StandardSchemaOptions,
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaProps,
  StandardJsonSchemaOptions,
  WktStandardSchema,
} from "./schema/standard-schema.js";
// From an error to the HTTP response (issue 28): RFC 9457 problem details and AIP-193's google.rpc.BadRequest.
export { problemDetails, badRequest, problemJsonContentType } from "./problem.js";
export type {
  ProblemDetails,
  ProblemDetailsOptions,
  ProblemViolation,
  BadRequest,
  BadRequestFieldViolation,
} from "./problem.js";
// Timestamps and protobuf-es's helper names: a Timestamp that may be null, a Timestamp from
// epoch seconds, and the names of @bufbuild/protobuf/wkt's helpers that wkt-json lacked.
export { timestampFromJsonNullable, timestampToJsonNullable } from "./wkt/timestamp.js";
export { timestampFromSeconds } from "./wkt/timestamp-seconds.js";
export { timestampDate, timestampMs, durationMs } from "./wkt/protobuf-es-helpers.js";
export { anyIs, anyUnpackTo } from "./wkt/any.js";
// Temporal: Timestamp and Duration as Temporal.Instant and Temporal.Duration, exact to the
// nanosecond, with the runtime's Temporal or a polyfill's.
export {
  timestampFromTemporal,
  timestampToTemporal,
  durationFromTemporal,
  durationToTemporal,
} from "./wkt/temporal.js";
export type {
  TemporalOptions,
  TemporalNamespaceLike,
  TemporalInstantLike,
  TemporalDurationLike,
  TemporalInstantOf,
  TemporalDurationOf,
  GlobalTemporal,
} from "./wkt/temporal.js";
// Streams of messages: NDJSON and size-delimited binary, read and written as async iterables.
export { ndjsonDecodeStream, ndjsonEncodeStream, ndjsonMaxLengthDefault } from "./stream/ndjson.js";
export type { NdjsonDecodeOptions } from "./stream/ndjson.js";
export {
  sizeDelimitedDecodeStream,
  sizeDelimitedEncodeStream,
  sizeDelimitedReadMaxBytesDefault,
} from "./stream/size-delimited.js";
export type { SizeDelimitedReadOptions } from "./stream/size-delimited.js";
export type { StreamSource, StreamReaderLike, StreamErrorHandler } from "./stream/source.js";
// HTTP requests: google.api.http rules, path templates and query parameters, both ways.
export { fromHttpRequest } from "./http/from-http.js";
export type { HttpRequest } from "./http/from-http.js";
export { toHttpRequest } from "./http/to-http.js";
export type { HttpRequestParts } from "./http/to-http.js";
export { httpRuleOf } from "./http/http-rule.js";
export type { HttpRule } from "./http/http-rule.js";
export type { HttpQuery } from "./http/query.js";
export { httpMaxLengthDefault, httpMaxParamsDefault } from "./http/http-options.js";
export type { HttpRequestReadOptions, HttpRequestWriteOptions } from "./http/http-options.js";
// Any whose type the registry lacks: the `unresolvedAny` option's values, and the type URLs a
// message or a JSON document needs that the registry lacks, all at once.
export type { UnresolvedAny } from "./codec/any-fallback.js";
export { missingTypeUrls, missingTypeUrlsFromJson } from "./codec/missing-type-urls.js";
export type { MissingTypeUrlsOptions } from "./codec/missing-type-urls.js";
