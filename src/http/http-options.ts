/**
 * The options of the HTTP request functions and their bounds.
 *
 * @module
 */
import type { JsonReadOptions } from "../codec/read-context.js";
import type { JsonWriteOptions } from "../codec/to-json-options.js";
import { checkCount, type CountRule } from "../internal/options.js";
import type { HttpRule } from "./http-rule.js";

/**
 * Default `maxLength` of {@link fromHttpRequest}: the longest path and query together, in UTF-16 code units
 * (64 KiB; most servers refuse a request line of more than 8 KiB).
 */
export const httpMaxLengthDefault = 65_536;

/** Default `maxParams` of {@link fromHttpRequest}: the most query parameters a request may carry. */
export const httpMaxParamsDefault = 1_000;

/** Options of {@link fromHttpRequest}: the rule, the URL's bounds, and the JSON decoder's options. */
export interface HttpRequestReadOptions extends Partial<Omit<JsonReadOptions, "path" | "maxLength">> {
  /**
   * The google.api.HttpRule, in its JSON form (`{ get: "/v1/{name=shelves/*}" }`); needed with a message
   * schema, and replaces the option of a method descriptor.
   */
  rule?: HttpRule | undefined;
  /**
   * The longest path and query together, in UTF-16 code units (rule `size` beyond). Default
   * {@link httpMaxLengthDefault}. The body is bounded by the decoder's `maxValues` and `maxDepth`.
   */
  maxLength?: number | undefined;
  /** The most query parameters (rule `size` beyond). Default {@link httpMaxParamsDefault}. */
  maxParams?: number | undefined;
}

/** Options of {@link toHttpRequest}: the rule and the JSON writer's options (`useProtoFieldName` names the query parameters too). */
export interface HttpRequestWriteOptions extends Partial<JsonWriteOptions> {
  /** As {@link HttpRequestReadOptions.rule}. */
  rule?: HttpRule | undefined;
}

const paramsRule: CountRule = { min: 0, unbounded: true, unit: "query parameters" };

/** The checked `maxParams`. @internal */
export function maxParamsOption(value: unknown): number {
  return value === undefined ? httpMaxParamsDefault : checkCount("maxParams", value, paramsRule);
}
