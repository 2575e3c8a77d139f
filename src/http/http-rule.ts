/**
 * The `google.api.http` option of a method: google/api/annotations.proto's `extend
 * google.protobuf.MethodOptions { HttpRule http = 72295728; }`, and google/api/http.proto's HttpRule.
 *
 * A rule is held as the proto3 JSON form of google.api.HttpRule ({@link HttpRule}), so that one given by hand,
 * one read from a descriptor and one written by googleapis' own generated code (`toJson(HttpRuleSchema, rule)`)
 * are the same value. From a descriptor, the option is read from the method options' unknown fields, where
 * protobuf-es keeps an extension whether or not a registry knows it (`setExtension` writes there too), so that
 * no googleapis package is needed: the few HttpRule fields are decoded here with protobuf-es's wire reader.
 *
 * @module
 */
import type { DescMethod } from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { optionsTypeName } from "../internal/options.js";

/** The type name of the rules' errors. */
export const httpRuleTypeName = "google.api.HttpRule";

/** google.api.http: the extension number on google.protobuf.MethodOptions. */
export const httpRuleExtensionNumber = 72295728;

/**
 * A google.api.HttpRule in its proto3 JSON form: one of `get`, `put`, `post`, `delete`, `patch` (a path
 * template) or `custom` (`{ kind, path }`), the `body` (`"*"`, a top-level field's name, or none), and
 * `additionalBindings` (rules of one level, without their own additional bindings).
 */
export interface HttpRule {
  /** The method this rule is for (`acme.library.v1.Library.GetBook`); not read. */
  selector?: string;
  get?: string;
  put?: string;
  post?: string;
  delete?: string;
  patch?: string;
  /** A custom HTTP method (`HEAD`, or `*` for any method) and its path template. */
  custom?: { kind: string; path: string };
  /** `"*"`: every field the path does not bind is in the body; a field's name: that field is the body. */
  body?: string;
  /** The response field that is the response body; not read. */
  responseBody?: string;
  additionalBindings?: HttpRule[];
}

/** The deepest nesting of additional_bindings read from a descriptor (http.proto allows one level). */
const bindingDepthMax = 2;

/**
 * The `google.api.http` rule of a method, read from its descriptor's options, or `undefined` when it has none.
 *
 * @throws {WktJsonError} rule `binary` when the option's bytes are not a google.api.HttpRule; `json-type` for
 *   a value that is not a method descriptor.
 * @example
 * const rule = httpRuleOf(LibraryService.method.getBook);
 * rule; //=> { get: "/v1/{name=shelves/*\/books/*}" }
 */
export function httpRuleOf(method: DescMethod): HttpRule | undefined {
  if (method === null || typeof method !== "object" || (method as { kind?: unknown }).kind !== "rpc") {
    throw new WktJsonError("json-type", "$", optionsTypeName, `expected a method descriptor, got ${describe(method)}`);
  }
  let unknown: unknown;
  try {
    unknown = (method.proto?.options as { $unknown?: unknown } | undefined)?.$unknown;
  } catch {
    unknown = undefined;
  }
  if (!Array.isArray(unknown)) return undefined;
  let rule: HttpRule | undefined;
  for (const u of unknown as readonly { no: number; wireType: number; data: Uint8Array }[]) {
    if (u === null || typeof u !== "object") throw binaryError(method, "is not an unknown field");
    if (u.no !== httpRuleExtensionNumber) continue;
    if (u.wireType !== WireType.LengthDelimited) throw binaryError(method, "is not length-delimited");
    try {
      // Occurrences of a message field merge, as the wire format says.
      rule = readRule(new BinaryReader(u.data).bytes(), rule ?? {}, 0);
    } catch (e) {
      if (e instanceof WktJsonError) throw e;
      throw binaryError(method, "does not decode");
    }
  }
  return rule;
}

function binaryError(method: DescMethod, what: string): WktJsonError {
  // A lookalike descriptor may lack its service: the error names what it can.
  const parent: unknown = (method as { parent?: unknown }).parent;
  const service =
    parent !== null && typeof parent === "object" ? (parent as { typeName?: unknown }).typeName : undefined;
  const name = `${typeof service === "string" ? service + "." : ""}${typeof method.name === "string" ? method.name : "(a method)"}`;
  return new WktJsonError(
    "binary",
    "$",
    httpRuleTypeName,
    `the google.api.http option of ${name} ${what} as a google.api.HttpRule`,
  );
}

function readRule(bytes: Uint8Array, rule: HttpRule, depth: number): HttpRule {
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [no, wireType] = r.tag();
    if (wireType !== WireType.LengthDelimited || ![1, 2, 3, 4, 5, 6, 7, 8, 11, 12].includes(no)) {
      r.skip(wireType, no);
      continue;
    }
    if (no === 8) {
      rule.custom = readCustom(r.bytes(), rule.custom);
      clearPatterns(rule, "custom");
    } else if (no === 11) {
      if (depth >= bindingDepthMax) throw new Error("too deep");
      (rule.additionalBindings ??= []).push(readRule(r.bytes(), {}, depth + 1));
    } else {
      const s = r.string();
      if (no === 1) rule.selector = s;
      else if (no === 7) rule.body = s;
      else if (no === 12) rule.responseBody = s;
      else {
        const key = patternKeys[no - 2]!;
        clearPatterns(rule, key);
        rule[key] = s;
      }
    }
  }
  return rule;
}

const patternKeys = ["get", "put", "post", "delete", "patch"] as const;

/** The pattern is a oneof: the last one read is the one set. */
function clearPatterns(rule: HttpRule, keep: (typeof patternKeys)[number] | "custom"): void {
  for (const k of patternKeys) if (k !== keep) delete rule[k];
  if (keep !== "custom") delete rule.custom;
}

function readCustom(
  bytes: Uint8Array,
  prev: { kind: string; path: string } | undefined,
): { kind: string; path: string } {
  const custom = { kind: prev?.kind ?? "", path: prev?.path ?? "" };
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [no, wireType] = r.tag();
    if (wireType === WireType.LengthDelimited && no === 1) custom.kind = r.string();
    else if (wireType === WireType.LengthDelimited && no === 2) custom.path = r.string();
    else r.skip(wireType, no);
  }
  return custom;
}
