/**
 * The message types that `@protobuf-ts/plugin` generates for the benchmarks. bench/run.mjs runs protoc (from
 * the npm package `protoc`) with the plugin into `.bench/protobuf-ts/` and points this module name there when
 * it bundles bench/main.ts; when generation fails, the module says so in `reason` and exports no types.
 */
declare module "wkt-json-bench:protobuf-ts" {
  import type { IMessageType } from "@protobuf-ts/runtime";

  /** A generated message type; messages are typed loosely, the cases compare their JSON. */
  type Type = IMessageType<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  /** Why the types are missing, or undefined when they were generated. */
  export const reason: string | undefined;
  export const Timestamp: Type | undefined;
  export const Duration: Type | undefined;
  export const FieldMask: Type | undefined;
  export const Struct: Type | undefined;
  export const Value: Type | undefined;
  export const ListValue: Type | undefined;
  export const Any: Type | undefined;
  export const Int64Value: Type | undefined;
  export const DoubleValue: Type | undefined;
  export const BytesValue: Type | undefined;
  export const TestAllTypesProto3: Type | undefined;
  export const UpdateFlowRequest: Type | undefined;
}
