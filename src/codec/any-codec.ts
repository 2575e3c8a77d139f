/**
 * The public entries of google.protobuf.Any's JSON form: {@link anyFromJson} and {@link anyToJson}, the Any
 * alone as `fromJson(AnySchema, ...)` and `toJson(AnySchema, ...)` read and write it, with a base path for
 * errors. The form and its rules are wkt/any-json-form.ts's; codec/any-json.ts reads and writes it.
 *
 * @module
 */
import type { JsonValue, Registry } from "@bufbuild/protobuf";
import { AnySchema, type Any } from "@bufbuild/protobuf/wkt";
import { basePathOf, errorAtBase } from "../internal/base-path.js";
import { anyTypeName } from "../internal/names.js";
import { readerFor, rootMessage } from "./from-json.js";
import type { UnresolvedAny } from "./any-fallback.js";
import { makeContext as makeReadContext, type JsonReadOptions } from "./read-context.js";
import { writerFor } from "./to-json.js";
import { makeContext as makeWriteContext } from "./to-json-options.js";

/**
 * Decodes an Any from its JSON form.
 *
 * @throws {WktJsonError} rule `type-url` (missing or malformed `@type`), `unknown-type`, and any rule of the
 *   embedded type, with the path into it; `size` past `maxValues` (as for `fromJson`);
 *   `json-type` for a `registry` option that is not a Registry, `range` for a `maxDepth` that is not a whole
 *   number from 1 up, a `maxValues` that is not a whole number from 0 up or a `path` that is not a string
 *   starting with `$`. Paths are relative to `$`, or to `options.path` when given.
 * @example
 * anyFromJson({ "@type": "type.googleapis.com/google.protobuf.Duration", value: "1s" }).typeUrl;
 * //=> "type.googleapis.com/google.protobuf.Duration"
 * anyFromJson({ "@type": "type.googleapis.com/google.protobuf.Duration", value: "1" }, { path: "$.detail" });
 * // throws WktJsonError (rule "syntax", jsonPath "$.detail.value")
 */
export function anyFromJson(
  json: unknown,
  options?: Partial<JsonReadOptions> & {
    /**
     * JSON path of the value in the caller's document, such as `"$.detail"`: errors are reported at this path
     * and below it (`$.detail.value`) instead of at `$`. A string starting with `$`. Default `"$"`.
     */
    path?: string | undefined;
  },
): Any {
  const base = basePathOf(options, anyTypeName);
  const ctx = makeReadContext(options, false);
  if (base === "$") return rootMessage(AnySchema, readerFor(AnySchema)(json, ctx)) as unknown as Any;
  try {
    return rootMessage(AnySchema, readerFor(AnySchema)(json, ctx)) as unknown as Any;
  } catch (e) {
    throw errorAtBase(e, base);
  }
}

/**
 * Encodes an Any in its JSON form.
 *
 * @throws {WktJsonError} rule `type-url`, `unknown-type`, `binary`, and any rule of the embedded type;
 *   `json-type` when `any` is not an Any (or its `typeUrl` not a string), or `registry` is not a Registry;
 *   `range` for a `path` that is not a string starting with `$`. Paths are relative to `$`, or to
 *   `options.path` when given.
 * @example
 * anyToJson(anyPack(DurationSchema, durationFromJson("1s")));
 * //=> { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1s" }
 * anyToJson(create(AnySchema, { typeUrl: "type.googleapis.com/acme.Unknown" }), { path: "$.detail" });
 * // throws WktJsonError (rule "unknown-type", jsonPath "$.detail")
 */
export function anyToJson(
  any: Any,
  options?: {
    registry?: Registry;
    maxDepth?: number;
    /**
     * For a type the registry lacks: `"error"` (default), `"skip"` (the empty Any, `{}`), or `"raw"`, the
     * diagnostic form `{"@type": url, "@value": "<base64>"}`, which is not ProtoJSON (see `toJson`).
     */
    unresolvedAny?: UnresolvedAny | undefined;
    /**
     * JSON path of the value in the caller's document, such as `"$.detail"`: errors are reported at this path
     * and below it (`$.detail.value`) instead of at `$`. A string starting with `$`. Default `"$"`.
     */
    path?: string | undefined;
  },
): JsonValue {
  const base = basePathOf(options, anyTypeName);
  // Only the options anyToJson takes: the flags of toJson stay off whatever else the object holds.
  const ctx = makeWriteContext(
    options === undefined || options === null
      ? undefined
      : { registry: options.registry, maxDepth: options.maxDepth, unresolvedAny: options.unresolvedAny },
  );
  if (base === "$") return writerFor(AnySchema)(any, ctx);
  try {
    return writerFor(AnySchema)(any, ctx);
  } catch (e) {
    throw errorAtBase(e, base);
  }
}
