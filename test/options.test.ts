/**
 * The count options answer alike everywhere (issue 30): every public function that takes `maxDepth`,
 * `maxValues`, `maxPaths`, `maxLength` or `maxIssues` refuses the same values with the same error (rule
 * `range`, path `$`, typeName "options", one message per option stating its unit), and accepts the same ones.
 * One rule, src/internal/options.ts; this test lists the functions, so a new one that checks an option its own
 * way fails here.
 */
import { create, type JsonValue } from "@bufbuild/protobuf";
import { StructSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  anyFromJson,
  anyToJson,
  anyPack,
  createFromJson,
  createFromJsonString,
  fromHttpRequest,
  missingTypeUrls,
  missingTypeUrlsFromJson,
  fieldMaskFromPatch,
  fieldMaskIntersect,
  fieldMaskSubtract,
  fromJson,
  fromJsonString,
  isWktJsonError,
  jsonMerge,
  jsonOmit,
  jsonOmitEach,
  jsonPatch,
  jsonPatchFromJsonString,
  jsonProject,
  jsonProjectEach,
  listValueFromArray,
  listValueFromJson,
  listValueToArray,
  listValueToJson,
  mergeFromJson,
  mergeFromJsonString,
  patch,
  patchFromJsonString,
  standardSchema,
  structFromJson,
  structFromObject,
  structToJson,
  structToObject,
  toJson,
  toJsonString,
  validateJson,
  validateJsonString,
  valueFromJs,
  valueFromJson,
  valueToJs,
  valueToJson,
} from "../src/index.js";

type Call = (options: Record<string, unknown>) => unknown;

const struct = structFromJson({ a: { b: [1, "x"] } });
const value = valueFromJson({ a: 1 });
const list = listValueFromJson([1, 2]);
const any = anyPack(TimestampSchema, create(TimestampSchema, { seconds: 1n }));
const json: JsonValue = { a: { b: [1, "x"] } };

/** Every public function that takes `maxDepth` (or its alias `recursionLimit`), called on a small valid input. */
const takesMaxDepth: Record<string, Call> = {
  fromJson: (o) => fromJson(StructSchema, json, o),
  fromJsonString: (o) => fromJsonString(StructSchema, JSON.stringify(json), o),
  mergeFromJson: (o) => mergeFromJson(StructSchema, create(StructSchema), json, o),
  mergeFromJsonString: (o) => mergeFromJsonString(StructSchema, create(StructSchema), JSON.stringify(json), o),
  toJson: (o) => toJson(StructSchema, struct, o),
  toJsonString: (o) => toJsonString(StructSchema, struct, o),
  anyFromJson: (o) => anyFromJson({ "@type": any.typeUrl, value: "1970-01-01T00:00:01Z" }, o),
  anyToJson: (o) => anyToJson(any, o),
  structFromJson: (o) => structFromJson(json, o),
  structToJson: (o) => structToJson(struct, o),
  valueFromJson: (o) => valueFromJson(json, o),
  valueToJson: (o) => valueToJson(value, o),
  listValueFromJson: (o) => listValueFromJson([1, 2], o),
  listValueToJson: (o) => listValueToJson(list, o),
  structFromObject: (o) => structFromObject({ a: 1 }, o),
  structToObject: (o) => structToObject(struct, o),
  valueFromJs: (o) => valueFromJs({ a: 1 }, o),
  valueToJs: (o) => valueToJs(value, o),
  listValueFromArray: (o) => listValueFromArray([1, 2], o),
  listValueToArray: (o) => listValueToArray(list, o),
  validateJson: (o) => validateJson(StructSchema, json, o),
  validateJsonString: (o) => validateJsonString(StructSchema, JSON.stringify(json), o),
  standardSchema: (o) => standardSchema(StructSchema, o)["~standard"].validate(json),
  jsonProject: (o) => jsonProject({ a: 1 }, ["a"], o),
  jsonProjectEach: (o) => jsonProjectEach([{ a: 1 }], ["a"], o),
  jsonOmit: (o) => jsonOmit({ a: 1 }, ["a"], o),
  jsonOmitEach: (o) => jsonOmitEach([{ a: 1 }], ["a"], o),
  jsonMerge: (o) => jsonMerge({ a: 1 }, { a: 2 }, ["a"], o),
  patch: (o) => patch(StructSchema, create(StructSchema), json, o),
  jsonPatch: (o) => jsonPatch(StructSchema, {}, json, o),
  patchFromJsonString: (o) => patchFromJsonString(StructSchema, create(StructSchema), JSON.stringify(json), o),
  jsonPatchFromJsonString: (o) => jsonPatchFromJsonString(StructSchema, {}, JSON.stringify(json), o),
  createFromJson: (o) => createFromJson(StructSchema, json, o),
  createFromJsonString: (o) => createFromJsonString(StructSchema, JSON.stringify(json), o),
  missingTypeUrls: (o) => missingTypeUrls(StructSchema, struct, o),
  missingTypeUrlsFromJson: (o) => missingTypeUrlsFromJson(StructSchema, json, o),
  fromHttpRequest: (o) =>
    fromHttpRequest(
      StructSchema,
      { method: "POST", path: "/v1/s", body: json },
      { rule: { post: "/v1/s", body: "*" }, ...o },
    ),
};

/** protobuf-es's name for the reader's `maxDepth`: the readers take it (the writers' options have no such member). */
const recursionLimitTakers: Record<string, Call> = {
  missingTypeUrls: takesMaxDepth["missingTypeUrls"]!,
  missingTypeUrlsFromJson: takesMaxDepth["missingTypeUrlsFromJson"]!,
  fromHttpRequest: takesMaxDepth["fromHttpRequest"]!,
  fromJson: takesMaxDepth["fromJson"]!,
  fromJsonString: takesMaxDepth["fromJsonString"]!,
  mergeFromJson: takesMaxDepth["mergeFromJson"]!,
  validateJson: takesMaxDepth["validateJson"]!,
  anyFromJson: takesMaxDepth["anyFromJson"]!,
  createFromJson: takesMaxDepth["createFromJson"]!,
  createFromJsonString: takesMaxDepth["createFromJsonString"]!,
};

/** Every public function that takes `maxValues`. */
const takesMaxValues: Record<string, Call> = {
  fromHttpRequest: takesMaxDepth["fromHttpRequest"]!,
  fromJson: takesMaxDepth["fromJson"]!,
  fromJsonString: takesMaxDepth["fromJsonString"]!,
  mergeFromJson: takesMaxDepth["mergeFromJson"]!,
  mergeFromJsonString: takesMaxDepth["mergeFromJsonString"]!,
  anyFromJson: takesMaxDepth["anyFromJson"]!,
  validateJson: takesMaxDepth["validateJson"]!,
  validateJsonString: takesMaxDepth["validateJsonString"]!,
  standardSchema: takesMaxDepth["standardSchema"]!,
  patch: takesMaxDepth["patch"]!,
  jsonPatch: takesMaxDepth["jsonPatch"]!,
  patchFromJsonString: takesMaxDepth["patchFromJsonString"]!,
  jsonPatchFromJsonString: takesMaxDepth["jsonPatchFromJsonString"]!,
  createFromJson: takesMaxDepth["createFromJson"]!,
  createFromJsonString: takesMaxDepth["createFromJsonString"]!,
};

/** Every public function that takes `maxPaths`. */
const takesMaxPaths: Record<string, Call> = {
  fieldMaskIntersect: (o) => fieldMaskIntersect(["a"], ["a.b"], o),
  fieldMaskSubtract: (o) => fieldMaskSubtract(["a"], ["b"], undefined, o),
  fieldMaskFromPatch: (o) => fieldMaskFromPatch({ a: 1 }, o),
};

/** Every public function that takes `maxLength`. */
const takesMaxLength: Record<string, Call> = {
  fromHttpRequest: takesMaxDepth["fromHttpRequest"]!,
  fromJsonString: takesMaxDepth["fromJsonString"]!,
  mergeFromJsonString: takesMaxDepth["mergeFromJsonString"]!,
  validateJsonString: takesMaxDepth["validateJsonString"]!,
  fieldMaskFromPatch: takesMaxPaths["fieldMaskFromPatch"]!,
  patchFromJsonString: takesMaxDepth["patchFromJsonString"]!,
  jsonPatchFromJsonString: takesMaxDepth["jsonPatchFromJsonString"]!,
  createFromJsonString: takesMaxDepth["createFromJsonString"]!,
};

/** Every public function that takes `maxIssues`. */
const takesMaxIssues: Record<string, Call> = {
  validateJson: takesMaxDepth["validateJson"]!,
  validateJsonString: takesMaxDepth["validateJsonString"]!,
  standardSchema: takesMaxDepth["standardSchema"]!,
};

/** The error a call throws for `options`, as `{ rule, jsonPath: path, typeName, detail }`, or "accepted". */
function outcome(call: Call, options: Record<string, unknown>): unknown {
  try {
    call(options);
    return "accepted";
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    return { rule: e.rule, jsonPath: e.jsonPath, typeName: e.typeName, detail: e.detail };
  }
}

const notCounts = [-1, 1.5, NaN, -Infinity, "5", null, true, {}];

describe.each([
  ["maxDepth", takesMaxDepth, [0, Infinity, ...notCounts], [1, 100, 1_000_000]],
  ["recursionLimit", recursionLimitTakers, [0, Infinity], [1, 100]],
  ["maxValues", takesMaxValues, notCounts, [0, 1_000_000, Infinity]],
  ["maxPaths", takesMaxPaths, notCounts, [0, 10, Infinity]],
  ["maxLength", takesMaxLength, notCounts, [0, 1_000_000, Infinity]],
  ["maxIssues", takesMaxIssues, [0, ...notCounts], [1, 10, Infinity]],
] as const)("option %s", (name, functions, refused, accepted) => {
  const entries = Object.entries(functions as Record<string, Call>);

  it.each(refused.map((v) => [String(typeof v === "string" ? JSON.stringify(v) : v), v] as const))(
    "%s: every function refuses it with the same error",
    (_, v) => {
      const errors = new Map(entries.map(([fn, call]) => [fn, outcome(call, { [name]: v })]));
      const first = errors.values().next().value as { detail: string };
      expect(first).toMatchObject({ rule: "range", jsonPath: "$", typeName: "options" });
      expect(first.detail).toContain(name);
      for (const [fn, e] of errors) expect([fn, e]).toEqual([fn, first]);
    },
  );

  it.each(accepted.map((v) => [String(v), v] as const))("%s: no function refuses it as an option", (_, v) => {
    for (const [fn, call] of entries) {
      const o = outcome(call, { [name]: v });
      expect([fn, o]).not.toEqual([fn, expect.objectContaining({ typeName: "options" })]);
    }
  });
});
