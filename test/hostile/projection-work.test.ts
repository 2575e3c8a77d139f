// Projection, omission, merge and PATCH's implied masks under the work meter (issue 25).
//
// - A mask node with named children and a `*` child used to merge the `*` subtree into every named key the data
//   held, and a cache kept the merged tries while the mask lived: 90 KB of mask and data took seconds and kept
//   hundreds of MB. The walks now carry the set of mask nodes that apply (src/internal/mask-select.ts): the
//   result is checked against a straightforward reference on random inputs, and the memory kept after a call
//   against a bound far below what the merges kept.
// - Masks whose wildcards overlap cost the product of data and mask; that is refused with rule `size`.
// - PATCH without an update mask built a path string per field per level and parsed them again; the implied
//   mask is now a trie built while the body is walked: a body 98 messages deep is accepted, and gives the body.
// - Realistic big inputs are still accepted under the default options.
// No test here times anything: they check results, refusals and retained memory.

import { create, toJson, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { protoCamelCase } from "@bufbuild/protobuf/reflect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fieldMaskProject,
  fieldMaskProjectEach,
  fromJson,
  jsonMerge,
  jsonOmit,
  jsonOmitEach,
  jsonPatch,
  jsonProject,
  jsonProjectEach,
  patch,
} from "../../src/index.js";
import { TestAllTypesProto3 } from "../conformance-registry.js";
import { catchWkt } from "../helpers.js";

type Rec = Record<string, unknown>;
const hasOwn = Object.prototype.hasOwnProperty;

// ---------------------------------------------------------------------------------------------------------------
// A reference: patterns as lists of segments, filtered key by key (no trie, no sets). Quadratic, for small inputs.

type Pat = readonly string[];
const ABSENT = Symbol("absent");

/** The patterns no other pattern covers (shorter or as long, `*` or the same segment at each position). */
function normalized(pats: readonly Pat[]): Pat[] {
  const covers = (q: Pat, p: Pat): boolean => q.length <= p.length && q.every((s, i) => s === "*" || s === p[i]);
  const out: Pat[] = [];
  pats.forEach((p, i) => {
    const covered = pats.some((q, j) => j !== i && covers(q, p) && (!covers(p, q) || j < i));
    if (!covered) out.push(p);
  });
  return out;
}

/** Whether the mask name `name` reads the property `key` of `obj` (names: "json" when `json`). */
function reads(name: string, key: string, obj: Rec, json: boolean): boolean {
  if (name === "*") return true;
  if (!json) return name === key;
  const camel = protoCamelCase(name);
  if (camel === name) return key === name;
  return hasOwn.call(obj, camel) ? key === camel : key === name;
}

function arrayError(pats: readonly Pat[]): boolean {
  return pats.some((p) => p.length > 0 && p[0] !== "*");
}

function refProject(v: unknown, pats: readonly Pat[], json: boolean): unknown {
  if (pats.some((p) => p.length === 0)) return structuredClone(v);
  if (typeof v !== "object" || v === null) return ABSENT;
  if (Array.isArray(v)) {
    if (arrayError(pats)) throw new Error("array");
    const each = pats.filter((p) => p[0] === "*").map((p) => p.slice(1));
    const out = v.map((e) => refProject(e, each, json));
    if (out.every((e) => e === ABSENT)) return ABSENT;
    return out.map((e, i) => (e === ABSENT ? (isObj(v[i]) ? {} : null) : e));
  }
  const obj = v as Rec;
  const out: Rec = {};
  let kept = false;
  for (const key of Object.keys(obj)) {
    const below = pats.filter((p) => reads(p[0]!, key, obj, json)).map((p) => p.slice(1));
    if (below.length === 0) continue;
    const r = refProject(obj[key], below, json);
    if (r === ABSENT) continue;
    out[key] = r;
    kept = true;
  }
  return kept ? out : ABSENT;
}

function refOmit(v: unknown, pats: readonly Pat[], json: boolean): unknown {
  if (pats.some((p) => p.length === 0)) return ABSENT;
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) {
    if (arrayError(pats)) throw new Error("array");
    const each = pats.filter((p) => p[0] === "*").map((p) => p.slice(1));
    if (each.some((p) => p.length === 0)) return [];
    return v.map((e) => refOmit(e, each, json));
  }
  const obj = v as Rec;
  const out: Rec = {};
  for (const key of Object.keys(obj)) {
    const below = pats.filter((p) => reads(p[0]!, key, obj, json)).map((p) => p.slice(1));
    const r = below.length === 0 ? structuredClone(obj[key]) : refOmit(obj[key], below, json);
    if (r !== ABSENT) out[key] = r;
  }
  return out;
}

function isObj(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Ours and the reference agree: the same result, or both refuse a name applied to an array. */
function agree(ours: () => unknown, ref: () => unknown): void {
  let expected: unknown;
  try {
    expected = ref();
  } catch {
    expect(catchWkt(ours).rule).toBe("mask-path");
    return;
  }
  expect(ours()).toEqual(expected === ABSENT ? {} : expected);
}

const keys = ["a", "b", "c", "a_b", "aB"];
const arbData: fc.Arbitrary<Rec> = fc.letrec<{ value: unknown; obj: Rec }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.integer({ min: 0, max: 9 }),
    fc.constantFrom("s", null, true),
    tie("obj"),
    fc.array(tie("value"), { maxLength: 3 }),
  ),
  obj: fc.dictionary(fc.constantFrom(...keys), tie("value"), { maxKeys: 4 }) as fc.Arbitrary<Rec>,
})).obj;
const arbMask = fc.array(fc.array(fc.constantFrom(...keys, "*", "*"), { minLength: 1, maxLength: 4 }), {
  minLength: 1,
  maxLength: 6,
});

describe("the walks with sets of mask nodes select what a reference selects", () => {
  it("jsonProject and jsonOmit, literal and JSON names, on random data and masks with `*`", () => {
    fc.assert(
      fc.property(arbData, arbMask, fc.boolean(), (data, mask, json) => {
        const paths = mask.map((p) => p.join("."));
        const pats = normalized(mask);
        const options = { names: json ? ("json" as const) : ("literal" as const) };
        agree(
          () => jsonProject(data, paths, options),
          () => refProject(data, pats, json),
        );
        agree(
          () => jsonOmit(data, paths, options),
          () => refOmit(data, pats, json),
        );
      }),
      { numRuns: 600 },
    );
  });

  it("fieldMaskProject (aip161) with named map keys beside `*`", () => {
    const msg = fromJson(TestAllTypesProto3, {
      mapStringNestedMessage: {
        k1: { a: 1, corecursive: { optionalInt32: 5, optionalString: "s" } },
        k2: { a: 2, corecursive: { optionalInt32: 6, optionalString: "t" } },
      },
    });
    const mask = ["map_string_nested_message.k1.a", "map_string_nested_message.*.corecursive.optional_int32"];
    expect(toJson(TestAllTypesProto3, fieldMaskProject(TestAllTypesProto3, msg, mask, { aip161: true }))).toEqual({
      mapStringNestedMessage: {
        k1: { a: 1, corecursive: { optionalInt32: 5 } },
        k2: { corecursive: { optionalInt32: 6 } },
      },
    });
  });

  it("jsonMerge with JSON names updates a property once under all the names that read it", () => {
    // Appending (not a PATCH's default) shows the property is updated once, not once per name.
    const out = jsonMerge({ aB: [0], c: 1 }, { aB: [1] }, ["a_b", "aB"], {
      names: "json",
      replaceRepeatedFields: false,
    });
    expect(out).toEqual({ aB: [0, 1], c: 1 });
  });
});

// ---------------------------------------------------------------------------------------------------------------

/** Named keys kI with a subtree under z, beside `*` with a wide subtree under z (issue 25's shape). */
function namedBesideStar(n: number): { mask: string[]; data: Rec } {
  const mask: string[] = [];
  for (let i = 0; i < n; i++) mask.push(`k${i}.z.x`);
  for (let j = 0; j < n; j++) mask.push(`*.z.a${j}`);
  const data: Rec = {};
  for (let i = 0; i < n; i++) data[`k${i}`] = { z: { x: 1, a0: 2, b: 3 } };
  return { mask, data };
}

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** The heap kept after `op` (its result dropped), while `keep` stays alive. */
function retained(op: () => unknown): number {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  op();
  collectGarbage();
  return process.memoryUsage().heapUsed - before;
}

describe("named keys beside `*`: no merged tries, nothing kept per data key", () => {
  const n = 2_000;
  const { mask, data } = namedBesideStar(n);

  it("jsonProject, jsonOmit and names: json give the right result", () => {
    const expected: Rec = {};
    for (let i = 0; i < n; i++) expected[`k${i}`] = { z: { x: 1, a0: 2 } };
    expect(jsonProject(data, mask)).toEqual(expected);
    expect(jsonProject(data, mask, { names: "json" })).toEqual(expected);
    const omitted: Rec = {};
    for (let i = 0; i < n; i++) omitted[`k${i}`] = { z: { b: 3 } };
    expect(jsonOmit(data, mask)).toEqual(omitted);
  });

  it("keeps no state per data key once the call returns (the mask alive)", () => {
    // The merges kept 88 MB for 1,500 keys and 347 MB for 3,000; the sets keep nothing but the mask's trie.
    const fresh = mask.slice();
    jsonProject(data, fresh); // the trie is built and memoized for `fresh`
    const wide: Rec = {};
    for (let i = 0; i < 10_000; i++) wide[`w${i}`] = { z: { a1: 1 } };
    const kept = retained(() => {
      jsonProject(wide, fresh);
      jsonProject(wide, fresh, { names: "json" });
      jsonOmit(wide, fresh);
    });
    expect(kept).toBeLessThan(8e6);
    expect(fresh.length).toBe(2 * n);
  });

  it("fieldMaskProject with aip161 on a map: the same shape", () => {
    const m = 1_000;
    const paths: string[] = [];
    const json: Rec = {};
    for (let i = 0; i < m; i++) {
      paths.push(`map_string_nested_message.k${i}.corecursive.map_string_nested_message.x.a`);
      paths.push(`map_string_nested_message.*.corecursive.map_string_nested_message.j${i}.a`);
      json[`k${i}`] = { a: 1, corecursive: { mapStringNestedMessage: { x: { a: 1 }, j0: { a: 2 }, y: { a: 3 } } } };
    }
    const msg = fromJson(TestAllTypesProto3, { mapStringNestedMessage: json } as JsonValue);
    const out = toJson(TestAllTypesProto3, fieldMaskProject(TestAllTypesProto3, msg, paths, { aip161: true }));
    const entries = (out as { mapStringNestedMessage: Rec }).mapStringNestedMessage;
    expect(Object.keys(entries)).toHaveLength(m);
    expect(entries["k7"]).toEqual({ corecursive: { mapStringNestedMessage: { x: { a: 1 }, j0: { a: 2 } } } });
  });
});

describe("overlapping wildcards over wide data: the product is refused", () => {
  /**
   * Every pattern of d segments over {a, *}, then `*.xI` (I the pattern's number, so that none covers another):
   * 2^d mask nodes apply under a.a...a, and at each key below it.
   */
  function allPatterns(d: number): string[] {
    const out: string[] = [];
    for (let bits = 0; bits < 1 << d; bits++) {
      const segs: string[] = [];
      for (let i = 0; i < d; i++) segs.push((bits >> i) & 1 ? "*" : "a");
      out.push(segs.join(".") + ".*.x" + bits);
    }
    return out;
  }
  function deepWide(d: number, width: number): Rec {
    const wide: Rec = {};
    for (let i = 0; i < width; i++) wide[`k${i}`] = { x0: 1, x5: 2, y: 3 };
    let v: Rec = wide;
    for (let i = 0; i < d; i++) v = { a: v };
    return v;
  }

  it("small: the right result", () => {
    const out = jsonProject(deepWide(3, 2), allPatterns(3));
    expect(out).toEqual({ a: { a: { a: { k0: { x0: 1, x5: 2 }, k1: { x0: 1, x5: 2 } } } } });
  });

  it("1,024 patterns over 20,000 keys: rule size, from jsonProject, jsonOmit and jsonProjectEach", () => {
    const mask = allPatterns(10);
    const data = deepWide(10, 20_000);
    for (const op of [
      () => jsonProject(data, mask),
      () => jsonOmit(data, mask),
      () => jsonProjectEach([data], mask),
      () => jsonOmitEach([data], mask),
    ]) {
      const e = catchWkt(op);
      expect(e.rule).toBe("size");
      expect(e.detail).toContain("more work than its size allows");
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

/** A body `levels` deep through recursiveMessage, each level with a few fields set. */
function deepBody(levels: number): Rec {
  let v: Rec | undefined;
  for (let d = 0; d < levels; d++) {
    const o: Rec = { optionalInt32: d, fieldname1: 7, optionalString: "x".repeat(40), optionalNestedMessage: { a: d } };
    if (v !== undefined) o.recursiveMessage = v;
    v = o;
  }
  return v!;
}

describe("PATCH's implied mask is built from the body", () => {
  it("a body 98 messages deep: the result is the body", () => {
    const body = deepBody(98);
    const stored = fromJson(TestAllTypesProto3, { optionalBool: true, recursiveMessage: { optionalBool: true } });
    const out = patch(TestAllTypesProto3, stored, body as JsonValue);
    const expected = { ...body, optionalBool: true } as Rec;
    (expected.recursiveMessage as Rec).optionalBool = true;
    const json = toJson(TestAllTypesProto3, out) as JsonObject;
    expect(json).toEqual(toJson(TestAllTypesProto3, fromJson(TestAllTypesProto3, expected as JsonValue)));
    expect(jsonPatch(TestAllTypesProto3, toJson(TestAllTypesProto3, stored), body as JsonValue)).toEqual(json);
  });

  it("150 messages deep under maxDepth 200: the merge keeps the call's limit; the default refuses it (depth)", () => {
    const body = deepBody(150) as JsonValue;
    const out = patch(TestAllTypesProto3, create(TestAllTypesProto3), body, { maxDepth: 200 });
    expect(toJson(TestAllTypesProto3, out)).toEqual(
      toJson(TestAllTypesProto3, fromJson(TestAllTypesProto3, body, { maxDepth: 200 })),
    );
    const e = catchWkt(() => patch(TestAllTypesProto3, create(TestAllTypesProto3), body));
    expect(e.rule).toBe("depth");
  });
});

describe("realistic big inputs are accepted with the default options", () => {
  /** 5,000 resources like a REST API's list (about 1.3 MB of JSON). */
  const resources: Rec[] = Array.from({ length: 5_000 }, (_, i) => ({
    id: i,
    name: `projects/p/repos/r${i}`,
    owner: { login: `user${i}`, id: i, avatar_url: `https://example.com/${i}.png`, site_admin: false },
    labels: { env: "prod", team: `t${i % 10}` },
    topics: ["a", "b", "c"],
    events: [{ type: "push", at: "2024-01-01T00:00:00Z", actor: { login: "x" } }],
    config: { url: "https://hooks.example.com", content_type: "json", insecure_ssl: "0", secret: "s" },
  }));
  const mask = ["id", "name", "owner.login", "labels.*", "events.*.type", "events.*.actor.login", "config.url"];

  it("jsonProjectEach and jsonOmitEach over 5,000 resources", () => {
    const out = jsonProjectEach(resources, mask);
    expect(out).toHaveLength(5_000);
    expect(out[4_999]).toEqual({
      id: 4_999,
      name: "projects/p/repos/r4999",
      owner: { login: "user4999" },
      labels: { env: "prod", team: "t9" },
      events: [{ type: "push", actor: { login: "x" } }],
      config: { url: "https://hooks.example.com" },
    });
    const omitted = jsonOmitEach(resources, ["config.secret", "owner.*", "events.*.actor"]);
    expect(omitted[0]).toMatchObject({ owner: {}, events: [{ type: "push" }] });
    expect(jsonProject({ all: resources }, ["all.*.owner.login", "all.*.id"]).all).toHaveLength(5_000);
    expect(jsonProject({ all: resources }, ["*"]).all).toHaveLength(5_000);
  });

  it("fieldMaskProjectEach over 2,000 messages and a PATCH of a 1 MB body", () => {
    const msgs = Array.from({ length: 2_000 }, (_, i) =>
      fromJson(TestAllTypesProto3, {
        optionalInt32: i,
        optionalString: "s".repeat(100),
        mapStringNestedMessage: { a: { a: i }, b: { a: 1, corecursive: { optionalInt32: 1 } } },
        repeatedNestedMessage: [{ a: 1 }, { a: 2 }],
      }),
    );
    const out = fieldMaskProjectEach(
      TestAllTypesProto3,
      msgs,
      ["optional_int32", "map_string_nested_message.*.a", "repeated_nested_message.*.a"],
      { aip161: true },
    );
    expect(out).toHaveLength(2_000);
    // Within the decoder's default maxValues for a JS value (TestAllTypesProto3 counts 1 plus its ~200 fields).
    const body = {
      optionalString: "x",
      optionalNestedMessage: { a: 1, corecursive: { optionalInt32: 2, optionalNestedMessage: { a: 3 } } },
      repeatedNestedMessage: Array.from({ length: 50_000 }, (_, i) => ({ a: i + 1 })),
      mapStringString: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`key${i}`, `value ${i}`])),
    };
    expect(JSON.stringify(body).length).toBeGreaterThan(1e6);
    const updated = toJson(
      TestAllTypesProto3,
      patch(TestAllTypesProto3, create(TestAllTypesProto3), body as JsonValue),
    );
    expect(updated).toEqual(body);
  });
});

describe("a read mask of many fields over many messages is accepted", () => {
  it("fieldMaskProjectEach: 10,000 messages, a mask of every singular scalar field", () => {
    const names = TestAllTypesProto3.fields
      .filter((f) => f.fieldKind === "scalar" && f.oneof === undefined)
      .map((f) => f.name);
    expect(names.length).toBeGreaterThan(30);
    const msgs = Array.from({ length: 10_000 }, (_, i) => fromJson(TestAllTypesProto3, { optionalInt32: i }));
    const out = fieldMaskProjectEach(TestAllTypesProto3, msgs, names);
    expect(toJson(TestAllTypesProto3, out[9_999]!)).toEqual({ optionalInt32: 9_999 });
    const wrapped = fromJson(TestAllTypesProto3, {
      repeatedNestedMessage: Array.from({ length: 10_000 }, (_, i) => ({ a: i, corecursive: { optionalInt32: i } })),
    });
    const paths = names.map((n) => `repeated_nested_message.*.corecursive.${n}`);
    const projected = toJson(
      TestAllTypesProto3,
      fieldMaskProject(TestAllTypesProto3, wrapped, paths, { aip161: true }),
    );
    expect((projected as { repeatedNestedMessage: JsonValue[] }).repeatedNestedMessage[9_999]).toEqual({
      corecursive: { optionalInt32: 9_999 },
    });
  });
});

describe("many small objects under a mask of many names are accepted", () => {
  it("jsonProjectEach: 100,000 empty objects, 8 names; 5,000 objects of 101 keys, 100 other names", () => {
    const names8 = ["a", "b", "c", "d", "e", "f", "g", "h"];
    expect(
      jsonProjectEach(
        Array.from({ length: 100_000 }, () => ({})),
        names8,
      ),
    ).toHaveLength(100_000);
    const names100 = Array.from({ length: 100 }, (_, i) => `n${i}`);
    const obj: Rec = {};
    for (let i = 0; i < 101; i++) obj[`k${i}`] = i;
    const list = Array.from({ length: 5_000 }, () => ({ ...obj }));
    expect(jsonProjectEach(list, names100)[4_999]).toEqual({});
    expect(jsonOmitEach(list, names100)[4_999]).toEqual(obj);
  });
});
