/**
 * The full names of the well-known types, each written once (as protobuf-go's `internal/genid` does). Every
 * module that compares or reports a type name takes it from here; a literal `"google.protobuf.X"` elsewhere in
 * `src/` is a second home for the same fact.
 *
 * @module
 * @internal
 */

export const anyTypeName = "google.protobuf.Any";
export const apiTypeName = "google.protobuf.Api";
export const boolValueTypeName = "google.protobuf.BoolValue";
export const bytesValueTypeName = "google.protobuf.BytesValue";
export const doubleValueTypeName = "google.protobuf.DoubleValue";
export const durationTypeName = "google.protobuf.Duration";
export const emptyTypeName = "google.protobuf.Empty";
export const enumTypeName = "google.protobuf.Enum";
export const enumValueTypeName = "google.protobuf.EnumValue";
export const fieldTypeName = "google.protobuf.Field";
export const fieldMaskTypeName = "google.protobuf.FieldMask";
export const floatValueTypeName = "google.protobuf.FloatValue";
export const int32ValueTypeName = "google.protobuf.Int32Value";
export const int64ValueTypeName = "google.protobuf.Int64Value";
export const listValueTypeName = "google.protobuf.ListValue";
export const methodTypeName = "google.protobuf.Method";
export const mixinTypeName = "google.protobuf.Mixin";
export const nullValueTypeName = "google.protobuf.NullValue";
export const optionTypeName = "google.protobuf.Option";
export const sourceContextTypeName = "google.protobuf.SourceContext";
export const stringValueTypeName = "google.protobuf.StringValue";
export const structTypeName = "google.protobuf.Struct";
export const timestampTypeName = "google.protobuf.Timestamp";
export const typeTypeName = "google.protobuf.Type";
export const uint32ValueTypeName = "google.protobuf.UInt32Value";
export const uint64ValueTypeName = "google.protobuf.UInt64Value";
export const valueTypeName = "google.protobuf.Value";

/** The package of every well-known type, with its trailing dot. */
export const wktPackagePrefix = "google.protobuf.";
