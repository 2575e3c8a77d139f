// The `unresolvedAny` option (src/codec/any-fallback.ts): an Any whose type the registry cannot resolve fails
// the call ("error", as before), is left out ("skip"), or is written and read in the diagnostic raw form
// `{"@type", "@value"}` ("raw"), in every writer and reader alike: toJson and toJsonString, fromJson,
// fromJsonString, the merges and validateJson*, which must agree (an input has issues exactly when the decoder
// refuses it).

import { create, toBinary, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { AnySchema, anyPack, DurationSchema, type Any } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  anyFromJson,
  anyToJson,
  fromJson,
  fromJsonString,
  mergeFromJson,
  mergeFromJsonString,
  missingTypeUrlsFromJson,
  standardSchema,
  toJson,
  toJsonString,
  validateJson,
  validateJsonString,
} from "../src/index.js";
import { catchWkt } from "./helpers.js";
import { expectTextAgrees } from "./text-agrees.js";

import { Gone, Holder, Known, registry, goneUrl, knownUrl } from "./fixtures/any-holder.js";

const goneBytes = toBinary(Gone, create(Gone, { name: "g" }));
const gone = (): Any => anyPack(Gone, create(Gone, { name: "g" }));
const known = (name: string, inner?: Any): Any => anyPack(Known, create(Known, { name, inner }));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

type Options = {
  unresolvedAny?: "error" | "skip" | "raw";
  ignoreUnknownFields?: boolean;
  ignoreReservedNames?: boolean;
};

/** Every reader on `json` with `options` (and the registry): the message, or the error's rule and path. */
function readAll(schema: DescMessage, json: JsonValue, options: Options) {
  const o = { registry, ...options };
  const outcome = (f: () => unknown) => {
    try {
      return { value: f() };
    } catch (e) {
      const { rule, jsonPath } = catchWkt(() => {
        throw e;
      });
      return { rule, jsonPath };
    }
  };
  const fromValue = outcome(() => fromJson(schema, json, o));
  const fromText = outcome(() => fromJsonString(schema, JSON.stringify(json), o));
  expect(fromText).toEqual(fromValue);
  const issues = validateJson(schema, json, o);
  const textIssues = validateJsonString(schema, JSON.stringify(json), o);
  if ("value" in fromValue) {
    expect(issues).toEqual([]);
    expect(textIssues).toEqual([]);
  } else {
    expect(issues[0]).toMatchObject({ rule: fromValue.rule, jsonPath: fromValue.jsonPath });
    expect(textIssues[0]).toMatchObject({ rule: fromValue.rule, jsonPath: fromValue.jsonPath });
  }
  return fromValue;
}

/**
 * readAll, but validateJsonString's issues are in text order (validate.ts sorts them by position), and the
 * decoder may meet a later member first (an Any's `value` before a member beside it): its error is one of them.
 */
function readAgree(schema: DescMessage, json: JsonValue, options: Options) {
  const o = { registry, ...options };
  let fromValue: { value: unknown } | { rule: string; jsonPath: string };
  try {
    fromValue = { value: fromJson(schema, json, o) };
  } catch (e) {
    const { rule, jsonPath } = catchWkt(() => {
      throw e;
    });
    fromValue = { rule, jsonPath };
  }
  const text = JSON.stringify(json);
  const fromText = (() => {
    try {
      fromJsonString(schema, text, o);
      return "ok";
    } catch (e) {
      return catchWkt(() => {
        throw e;
      }).jsonPath;
    }
  })();
  const issues = validateJson(schema, json, o);
  const textIssues = validateJsonString(schema, text, o);
  if ("value" in fromValue) {
    expect([fromText, issues, textIssues]).toEqual(["ok", [], []]);
  } else {
    expect(fromText).toBe(fromValue.jsonPath);
    expect(issues[0]).toMatchObject(fromValue);
    expect(textIssues).toContainEqual(expect.objectContaining(fromValue));
  }
  return fromValue;
}

const goneJson = { "@type": goneUrl, name: "g" };
const knownJson = (name: string) => ({ "@type": knownUrl, name });

describe("reading an Any whose type the registry lacks", () => {
  const json: JsonValue = {
    single: goneJson,
    list: [knownJson("a"), goneJson, knownJson("b")],
    map: { x: goneJson, y: knownJson("y") },
    inOneof: goneJson,
    child: { single: goneJson, name: "c" },
    name: "n",
  };

  it("fails by default, and under error, at its @type (all readers agree)", () => {
    for (const options of [{}, { unresolvedAny: "error" as const }]) {
      expect(readAll(Holder, json, options)).toEqual({ rule: "unknown-type", jsonPath: '$.single["@type"]' });
    }
  });

  it("skip: a singular field unset, a list element and a map entry dropped, a oneof unset, at every depth", () => {
    const { value } = readAll(Holder, json, { unresolvedAny: "skip" }) as { value: Record<string, unknown> };
    expect(toJson(Holder, value as never, { registry })).toEqual({
      list: [knownJson("a"), knownJson("b")],
      map: { y: knownJson("y") },
      child: { name: "c" },
      name: "n",
    });
    expect(value["choice"]).toEqual({ case: undefined });
  });

  it("skip: an Any of an Any left out is left out; at the root, the empty Any", () => {
    const anyOfAny = { "@type": "type.googleapis.com/google.protobuf.Any", value: goneJson };
    const { value } = readAll(Holder, { list: [anyOfAny, knownJson("k")] }, { unresolvedAny: "skip" });
    expect((value as { list: Any[] }).list.map((a) => a.typeUrl)).toEqual([knownUrl]);
    expect(readAll(AnySchema, goneJson, { unresolvedAny: "skip" })).toEqual({ value: create(AnySchema) });
    expect(readAll(AnySchema, anyOfAny, { unresolvedAny: "skip" })).toEqual({ value: create(AnySchema) });
    expect(anyFromJson(goneJson, { unresolvedAny: "skip" })).toEqual(create(AnySchema));
  });

  it.each<[string, JsonValue, string, string]>([
    ["a malformed type URL", { single: { "@type": "no-slash" } }, "type-url", '$.single["@type"]'],
    [
      "a bad member of a known type",
      { list: [goneJson, { "@type": knownUrl, nope: 1 }] },
      "unknown-field",
      "$.list[1].nope",
    ],
    ["a raw form under skip", { single: { "@type": knownUrl, "@value": "" } }, "unknown-field", '$.single["@value"]'],
  ])("skip keeps every other error: %s", (_, input, rule, jsonPath) => {
    expect(readAll(Holder, input, { unresolvedAny: "skip" })).toEqual({ rule, jsonPath });
  });

  it("raw: reads the raw form into the Any's type URL and bytes, exactly, known type or not", () => {
    const rawGone = { "@type": goneUrl, "@value": b64(goneBytes) };
    const knownBytes = toBinary(Known, create(Known, { name: "k" }));
    const rawKnown = { "@type": knownUrl, "@value": b64(knownBytes) };
    const { value } = readAll(Holder, { single: rawGone, list: [rawKnown, knownJson("j")] }, { unresolvedAny: "raw" });
    const m = value as { single: Any; list: Any[] };
    expect(m.single).toMatchObject({ typeUrl: goneUrl, value: goneBytes });
    expect(m.list[0]).toMatchObject({ typeUrl: knownUrl, value: knownBytes });
    expect(m.list[1]!.typeUrl).toBe(knownUrl);
  });

  it.each<[string, JsonValue, Options, string, string]>([
    [
      "ProtoJSON of a type it lacks, under raw",
      { single: goneJson },
      { unresolvedAny: "raw" },
      "unknown-type",
      '$.single["@type"]',
    ],
    [
      "@value that is not base64",
      { single: { "@type": goneUrl, "@value": "%%" } },
      { unresolvedAny: "raw" },
      "syntax",
      '$.single["@value"]',
    ],
    [
      "@value that is not a string",
      { single: { "@type": goneUrl, "@value": 1 } },
      { unresolvedAny: "raw" },
      "json-type",
      '$.single["@value"]',
    ],
    [
      "the raw form and one more member",
      { single: { "@type": goneUrl, "@value": "", x: 1 } },
      { unresolvedAny: "raw" },
      "unknown-type",
      '$.single["@type"]',
    ],
    [
      "the raw form without the option",
      { single: { "@type": goneUrl, "@value": "" } },
      {},
      "unknown-type",
      '$.single["@type"]',
    ],
    [
      "the raw form of a known type without the option",
      { single: { "@type": knownUrl, "@value": "" } },
      {},
      "unknown-field",
      '$.single["@value"]',
    ],
  ])("raw refuses %s", (_, input, options, rule, jsonPath) => {
    expect(readAll(Holder, input, options)).toEqual({ rule, jsonPath });
  });

  it("refuses any other value of the option (rule range, typeName options), in every reader", () => {
    const bad = { unresolvedAny: "ignore" } as never;
    for (const f of [
      () => fromJson(Holder, {}, bad),
      () => fromJsonString(Holder, "{}", bad),
      () => validateJson(Holder, {}, bad),
      () => validateJsonString(Holder, "{}", bad),
      () => mergeFromJson(Holder, create(Holder), {}, bad),
      () => anyFromJson({}, bad),
      () => toJson(Holder, create(Holder), bad),
      () => toJsonString(Holder, create(Holder), bad),
      () => anyToJson(create(AnySchema), bad),
    ]) {
      expect(catchWkt(f)).toMatchObject({ rule: "range", jsonPath: "$", typeName: "options" });
    }
  });

  it("merges: an Any left out changes nothing", () => {
    const target = create(Holder, {
      single: known("t"),
      list: [known("t")],
      choice: { case: "inOneof", value: known("o") },
    });
    const before = toJson(Holder, target, { registry });
    const skip = { registry, unresolvedAny: "skip" as const };
    mergeFromJson(Holder, target, { single: goneJson, inOneof: goneJson, list: [goneJson] }, skip);
    expect(toJson(Holder, target, { registry })).toEqual(before);
    mergeFromJsonString(Holder, target, JSON.stringify({ list: [goneJson, knownJson("u")], name: "m" }), skip);
    expect(toJson(Holder, target, { registry })).toMatchObject({ list: [knownJson("t"), knownJson("u")], name: "m" });
  });

  it("standardSchema passes the option on", () => {
    const s = standardSchema(Holder, { registry, unresolvedAny: "skip" });
    const result = s["~standard"].validate({ single: goneJson, name: "s" }) as { value?: unknown; issues?: unknown };
    expect(result.issues).toBeUndefined();
    expect(toJson(Holder, result.value as never, { registry })).toEqual({ name: "s" });
  });
});

describe("writing an Any whose type the registry lacks", () => {
  const message = () =>
    create(Holder, {
      single: gone(),
      list: [known("a"), gone(), known("b", gone())],
      map: { x: gone(), y: known("y") },
      choice: { case: "inOneof", value: gone() },
      child: create(Holder, { single: gone(), name: "c" }),
      name: "n",
    });

  it("fails by default, at the Any", () => {
    expect(catchWkt(() => toJson(Holder, message(), { registry }))).toMatchObject({
      rule: "unknown-type",
      jsonPath: "$.single",
    });
  });

  it("skip: left out at every depth, inside a known Any's content too; the message is not changed", () => {
    const m = message();
    const before = toBinary(Holder, m);
    const options = { registry, unresolvedAny: "skip" } as const;
    expect(toJson(Holder, m, options)).toEqual({
      list: [knownJson("a"), knownJson("b")],
      map: { y: knownJson("y") },
      child: { name: "c" },
      name: "n",
    });
    expectTextAgrees(Holder, m, options);
    expect(JSON.parse(toJsonString(Holder, m, { ...options, prettySpaces: 2 }))).toEqual(toJson(Holder, m, options));
    expect(toBinary(Holder, m)).toEqual(before);
    // What skip writes, skip reads back to the same JSON.
    const back = fromJson(Holder, toJson(Holder, m, options), options);
    expect(toJson(Holder, back, options)).toEqual(toJson(Holder, m, options));
  });

  it("skip with emitUnsetMessagesAsNull and alwaysEmitImplicitFor: an unset field, written as they write one", () => {
    const m = create(Holder, { single: gone(), list: [gone()], child: create(Holder, { single: gone() }) });
    const base = { registry, unresolvedAny: "skip" } as const;
    const cases: [object, JsonValue][] = [
      [{}, { child: {} }],
      [{ emitUnsetMessagesAsNull: true }, { single: null, child: { single: null, child: null } }],
      [{ emitUnsetMessagesAsNull: ["single"] }, { single: null, child: { single: null } }],
      [{ alwaysEmitImplicitFor: ["list"] }, { list: [], child: { list: [] } }],
    ];
    for (const [extra, want] of cases) {
      const options = { ...base, ...extra };
      expect(toJson(Holder, m, options)).toEqual(JSON.parse(JSON.stringify(want)));
      expectTextAgrees(Holder, m, options);
      // null reads as unset, under every mode: what skip wrote, skip and error read back alike.
      const back = fromJson(Holder, toJson(Holder, m, options), { registry });
      expect(toJson(Holder, back, options)).toEqual(toJson(Holder, m, options));
    }
  });

  it("skip: an Any of an Any left out is left out; at the root, {}", () => {
    const anyOfAny = anyPack(AnySchema, gone());
    const options = { registry, unresolvedAny: "skip" } as const;
    expect(toJson(Holder, create(Holder, { list: [anyOfAny, known("k")] }), options)).toEqual({
      list: [knownJson("k")],
    });
    expect(toJson(AnySchema, gone(), options)).toEqual({});
    expect(toJson(AnySchema, anyOfAny, options)).toEqual({});
    expect(toJsonString(AnySchema, anyOfAny, options)).toBe("{}");
    expect(anyToJson(gone(), options)).toEqual({});
  });

  it("raw: the diagnostic form, which fromJson reads back exactly under the same option", () => {
    const m = message();
    const options = { registry, unresolvedAny: "raw" } as const;
    const raw = { "@type": goneUrl, "@value": b64(goneBytes) };
    const json = toJson(Holder, m, options);
    expect(json).toMatchObject({ single: raw, list: [knownJson("a"), raw, { ...knownJson("b"), inner: raw }] });
    expectTextAgrees(Holder, m, options);
    expect(toBinary(Holder, fromJson(Holder, json, options))).toEqual(toBinary(Holder, m));
    expect(toBinary(Holder, fromJsonString(Holder, toJsonString(Holder, m, options), options))).toEqual(
      toBinary(Holder, m),
    );
    expect(anyToJson(gone(), options)).toEqual(raw);
  });

  it("raw and skip keep every other error", () => {
    for (const unresolvedAny of ["raw", "skip"] as const) {
      const bad = create(Holder, { single: create(AnySchema, { typeUrl: "no-slash", value: goneBytes }) });
      expect(catchWkt(() => toJson(Holder, bad, { registry, unresolvedAny }))).toMatchObject({
        rule: "type-url",
        jsonPath: "$.single",
      });
      const notKnown = create(Holder, {
        single: create(AnySchema, { typeUrl: knownUrl, value: new Uint8Array([255]) }),
      });
      expect(catchWkt(() => toJson(Holder, notKnown, { registry, unresolvedAny }))).toMatchObject({
        rule: "binary",
        jsonPath: "$.single",
      });
    }
  });

  it("skip leaves what is not a message for the writer to refuse, with its error", () => {
    const skip = { registry, unresolvedAny: "skip" } as const;
    for (const bad of [
      {},
      { ...create(Holder), list: "x" },
      { ...create(Holder), map: 1 },
      { ...create(Holder), single: { $typeName: "google.protobuf.Any", typeUrl: 1 } },
    ]) {
      const expected = catchWkt(() => toJson(Holder, bad as never, { registry }));
      expect(catchWkt(() => toJson(Holder, bad as never, skip))).toMatchObject({
        rule: expected.rule,
        jsonPath: expected.jsonPath,
      });
      expect(catchWkt(() => toJsonString(Holder, bad as never, skip)).rule).toBe(expected.rule);
    }
  });

  it("a well-known type always resolves: its value form is never the raw form", () => {
    const d = anyPack(DurationSchema, create(DurationSchema, { seconds: 1n }));
    expect(toJson(AnySchema, d, { unresolvedAny: "raw" })).toEqual({
      "@type": "type.googleapis.com/google.protobuf.Duration",
      value: "1s",
    });
  });

  it("property: raw writes, raw reads back the same bytes, whichever Anys resolve", () => {
    const item = fc.oneof(
      fc.string({ maxLength: 5 }).map((s) => known(s)),
      fc.constant(gone()),
      fc.uint8Array({ maxLength: 8 }).map((bytes) => create(AnySchema, { typeUrl: "example.com/x.Y", value: bytes })),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), fc.option(item, { nil: undefined }), (list, single) => {
        const m = create(Holder, { list, single });
        const options = { registry, unresolvedAny: "raw" } as const;
        const back = fromJsonString(Holder, toJsonString(Holder, m, options), options);
        expect(toBinary(Holder, back)).toEqual(toBinary(Holder, m));
      }),
      { numRuns: 50 },
    );
  });
});

describe("agreement on arbitrary input", () => {
  // Any-shaped values: empty, known, missing, malformed, raw (good and bad), Any of Any, and junk.
  const anyJson: fc.Arbitrary<JsonValue> = fc.oneof(
    fc.constant({}),
    fc.string({ maxLength: 3 }).map((name) => ({ "@type": knownUrl, name })),
    fc.constant({ "@type": goneUrl, name: "g" }),
    fc.constant({ "@type": "no-slash" }),
    fc.constantFrom("", "AAEC", "%%").map((v) => ({ "@type": goneUrl, "@value": v })),
    fc.constantFrom(goneUrl, knownUrl).map((u) => ({ "@type": u, "@value": "CgFn", extra: 1 })),
    fc.constantFrom(goneUrl, knownUrl).map((u) => ({
      "@type": "type.googleapis.com/google.protobuf.Any",
      value: { "@type": u },
    })),
    fc.constantFrom<JsonValue>(1, "x", null, [1]),
  );
  const holderJson: fc.Arbitrary<JsonValue> = fc.record(
    {
      single: anyJson,
      list: fc.array(anyJson, { maxLength: 3 }),
      map: fc.dictionary(fc.constantFrom("a", "b"), anyJson, { maxKeys: 2 }),
      inOneof: anyJson,
      child: fc.record({ single: anyJson }, { requiredKeys: [] }),
    },
    { requiredKeys: [] },
  );

  it("under every mode, validateJson* finds an issue exactly when fromJson* fails, at the same place", () => {
    fc.assert(
      fc.property(
        holderJson,
        fc.constantFrom<Options>({}, { unresolvedAny: "skip" }, { unresolvedAny: "raw" }),
        (json, o) => {
          readAll(Holder, json, o);
        },
      ),
      { numRuns: 150 },
    );
  });

  // Members beside the fields: unknown, reserved (`old_name`, `__proto__` and `constructor` as own keys), in the
  // Holder and in an Any's content.
  const extraKeys = ["junk", "old_name", "oldName", "__proto__", "constructor"] as const;
  const withExtra = (json: JsonValue, keys: readonly string[]): JsonValue => {
    if (typeof json !== "object" || json === null || Array.isArray(json)) return json;
    const out: Record<string, JsonValue> = { ...json };
    for (const k of keys) Object.defineProperty(out, k, { value: 1, enumerable: true, writable: true });
    return out;
  };
  const extra = fc.subarray([...extraKeys], { maxLength: 2 });
  const holderExtra: fc.Arbitrary<JsonValue> = fc
    .tuple(holderJson, extra, anyJson, extra)
    .map(([holder, keys, any, anyKeys]) => withExtra({ ...(holder as object), single: withExtra(any, anyKeys) }, keys));
  const readOptions = fc.record(
    {
      unresolvedAny: fc.constantFrom<Options["unresolvedAny"]>("error", "skip", "raw"),
      ignoreUnknownFields: fc.boolean(),
      ignoreReservedNames: fc.boolean(),
    },
    { requiredKeys: [] },
  );

  it("with ignoreUnknownFields and ignoreReservedNames too, unknown and reserved members (__proto__ too)", () => {
    fc.assert(
      fc.property(holderExtra, readOptions, (json, o) => {
        const before = Object.getOwnPropertyNames(Object.prototype).length;
        const read = readAgree(Holder, json, o as Options);
        expect(Object.getOwnPropertyNames(Object.prototype).length).toBe(before);
        // A reserved name is skipped under ignoreReservedNames; "junk" is refused unless ignoreUnknownFields.
        const keys = Object.keys(json as object).filter((k) => extraKeys.includes(k as never));
        const refused = keys.some((k) => k === "junk" || !o.ignoreReservedNames);
        if (refused && !o.ignoreUnknownFields) expect(read).not.toHaveProperty("value");
      }),
      { numRuns: 200 },
    );
  });

  it("missingTypeUrlsFromJson takes any of it: a list, or our error", () => {
    fc.assert(
      fc.property(fc.oneof(holderJson, fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<JsonValue>), (json) => {
        expect(Array.isArray(missingTypeUrlsFromJson(Holder, json, { registry }))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
