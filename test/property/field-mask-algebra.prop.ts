// Laws of the FieldMask algebra, projection and update, over random masks and random messages of the
// conformance test types (arbMessage), and over random plain JSON resources.
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import {
  fieldMaskCheck,
  fieldMaskCovers,
  fieldMaskForAllFields,
  fieldMaskFromDiff,
  fieldMaskFromPatch,
  fieldMaskIntersect,
  fieldMaskMerge,
  fieldMaskNormalize,
  fieldMaskProject,
  fieldMaskSubtract,
  fieldMaskUnion,
  jsonMerge,
  jsonOmit,
  jsonProject,
} from "../../src/index.js";
import { arbMessage } from "../arbitrary.js";
import { TestAllTypesEdition2023, TestAllTypesProto2, TestAllTypesProto3 } from "../conformance-registry.js";

type Rec = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------------------
// Schema-free masks: a small alphabet, so that paths often share prefixes, cover and intersect each other.
// ---------------------------------------------------------------------------------------------------------

const arbSegment = fc.constantFrom("a", "b", "c", "a_b", "`x y`", "`a``b`", "7", "*");
const arbPath = fc.oneof(
  { weight: 20, arbitrary: fc.array(arbSegment, { minLength: 1, maxLength: 4 }).map((s) => s.join(".")) },
  { weight: 1, arbitrary: fc.constant("*") },
);
const arbMask = fc.array(arbPath, { maxLength: 6 });

const runs = { numRuns: 300 };

describe("FieldMask algebra laws", () => {
  it("union is commutative", () => {
    fc.assert(
      fc.property(arbMask, arbMask, (a, b) => {
        expect(fieldMaskUnion(a, b).paths).toEqual(fieldMaskUnion(b, a).paths);
      }),
      runs,
    );
  });

  it("union is associative", () => {
    fc.assert(
      fc.property(arbMask, arbMask, arbMask, (a, b, c) => {
        expect(fieldMaskUnion(fieldMaskUnion(a, b), c).paths).toEqual(fieldMaskUnion(a, fieldMaskUnion(b, c)).paths);
      }),
      runs,
    );
  });

  it("union is idempotent", () => {
    fc.assert(
      fc.property(arbMask, (a) => {
        expect(fieldMaskUnion(a, a).paths).toEqual(fieldMaskNormalize(a).paths);
      }),
      runs,
    );
  });

  it("normalize is idempotent and keeps what the mask covers", () => {
    fc.assert(
      fc.property(arbMask, arbPath, (a, p) => {
        const n = fieldMaskNormalize(a);
        expect(fieldMaskNormalize(n).paths).toEqual(n.paths);
        expect(n.paths).toEqual([...n.paths].sort()); // sorted as strings, UTF-16 code unit order
        expect(fieldMaskCovers(n, p)).toBe(fieldMaskCovers(a, p));
        for (const q of n.paths)
          expect(fieldMaskCovers(fieldMaskNormalize(n.paths.filter((r) => r !== q)), q)).toBe(false);
      }),
      runs,
    );
  });

  it("union covers exactly what either covers", () => {
    fc.assert(
      fc.property(arbMask, arbMask, arbPath, (a, b, p) => {
        expect(fieldMaskCovers(fieldMaskUnion(a, b), p)).toBe(fieldMaskCovers(a, p) || fieldMaskCovers(b, p));
      }),
      runs,
    );
  });

  it("intersect covers exactly what both cover, and is commutative and idempotent", () => {
    fc.assert(
      fc.property(arbMask, arbMask, arbPath, (a, b, p) => {
        const i = fieldMaskIntersect(a, b);
        expect(fieldMaskCovers(i, p)).toBe(fieldMaskCovers(a, p) && fieldMaskCovers(b, p));
        expect(i.paths).toEqual(fieldMaskIntersect(b, a).paths);
        expect(fieldMaskIntersect(a, a).paths).toEqual(fieldMaskNormalize(a).paths);
      }),
      runs,
    );
  });

  it("subtract (when it can be written without a schema) covers what a covers and b does not", () => {
    fc.assert(
      fc.property(arbMask, arbMask, arbPath, (a, b, p) => {
        let d: string[];
        try {
          d = fieldMaskSubtract(a, b).paths;
        } catch (e) {
          expect(isWktJsonError(e) && e.rule === "mask-path").toBe(true);
          return;
        }
        expect(fieldMaskIntersect(d, b).paths).toEqual([]);
        if (fieldMaskCovers(d, p)) expect(fieldMaskCovers(a, p)).toBe(true);
        if (fieldMaskCovers(a, p) && !fieldMaskIntersect(b, [p]).paths.length) expect(fieldMaskCovers(d, p)).toBe(true);
      }),
      runs,
    );
  });

  // An oracle that shares no code with the library: a mask selects a concrete path (keys only) when one of its
  // paths, read as a pattern in which `*` matches any one key, matches a prefix of it. Over keys a, b, c and a
  // key no mask names, every path of up to 5 keys is checked.
  const keys = ["a", "b", "c", "z"];
  const words: string[][] = [[]];
  for (let len = 1, layer: string[][] = [[]]; len <= 5; len++) {
    layer = layer.flatMap((w) => keys.map((k) => [...w, k]));
    words.push(...layer);
  }
  const selects = (mask: readonly string[], word: readonly string[]): boolean =>
    mask.some((p) => {
      const segs = p.split(".");
      return segs.length <= word.length && segs.every((s, i) => s === "*" || s === word[i]);
    });
  const arbOracleMask = fc.array(
    fc.array(fc.constantFrom("a", "b", "c", "*"), { minLength: 1, maxLength: 4 }).map((s) => s.join(".")),
    { maxLength: 7 },
  );
  const sameSelection = (got: readonly string[], want: (w: string[]) => boolean): void => {
    for (const w of words)
      if (selects(got, w) !== want(w))
        expect({ mask: got, jsonPath: w.join("."), selects: selects(got, w) }).toEqual({
          mask: got,
          jsonPath: w.join("."),
          selects: want(w),
        });
  };
  /** Pattern p covers pattern q: no longer, and `*` or q's own segment at each of its positions. */
  const coversPattern = (p: string, q: string): boolean => {
    const ps = p.split(".");
    const qs = q.split(".");
    return ps.length <= qs.length && ps.every((s, i) => s === "*" || s === qs[i]);
  };

  it("normalize, union, intersect, subtract and covers select what the oracle selects; normal forms are minimal", () => {
    fc.assert(
      fc.property(arbOracleMask, arbOracleMask, (a, b) => {
        const n = fieldMaskNormalize(a).paths;
        sameSelection(n, (w) => selects(a, w));
        for (const p of n) for (const q of n) if (p !== q) expect(coversPattern(p, q)).toBe(false);
        sameSelection(fieldMaskUnion(a, b).paths, (w) => selects(a, w) || selects(b, w));
        sameSelection(fieldMaskIntersect(a, b).paths, (w) => selects(a, w) && selects(b, w));
        try {
          sameSelection(fieldMaskSubtract(a, b).paths, (w) => selects(a, w) && !selects(b, w));
        } catch (e) {
          expect(isWktJsonError(e) && e.rule).toBe("mask-path");
        }
        for (const q of b) expect(fieldMaskCovers(a, q)).toBe(words.every((w) => !selects([q], w) || selects(a, w)));
      }),
      { numRuns: 500 },
    );
  });

  it("any list of strings either normalizes or throws WktJsonError", () => {
    const arbText = fc.string({ unit: fc.constantFrom(..."ab1._`* -é"), maxLength: 10 });
    fc.assert(
      fc.property(fc.array(arbText, { maxLength: 4 }), (paths) => {
        try {
          fieldMaskNormalize(paths);
          fieldMaskCheck(TestAllTypesProto3, paths, { aip161: true });
        } catch (e) {
          expect(isWktJsonError(e) && e.rule === "mask-path").toBe(true);
        }
      }),
      runs,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Masks over a schema, and random messages
// ---------------------------------------------------------------------------------------------------------

function mapKeys(f: DescField & { fieldKind: "map" }): string[] {
  switch (f.mapKey) {
    case ScalarType.STRING:
      return ["*", "a", "``", "__proto__", "`a b`"];
    case ScalarType.BOOL:
      return ["*", "true", "false"];
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return ["*", "0", "1"];
    default:
      return ["*", "0", "-1", "1"];
  }
}

const pathCache = new Map<string, fc.Arbitrary<string>>();

// Masks drawn from all ~150 fields rarely meet each other or a set field; these fields (where a message has
// them) carry every kind: scalars with implicit and explicit presence, messages, lists and maps of messages,
// oneof members, wrappers, Struct and Value, groups.
const focus = new Set([
  "optional_int32",
  "optional_string",
  "optional_bytes",
  "optional_nested_message",
  "recursive_message",
  "repeated_int32",
  "repeated_nested_message",
  "map_string_string",
  "map_string_nested_message",
  "map_int32_int32",
  "map_bool_bool",
  "oneof_uint32",
  "oneof_string",
  "oneof_nested_message",
  "optional_int32_wrapper",
  "optional_struct",
  "optional_value",
  "optional_timestamp",
  "repeated_struct",
  "a",
  "corecursive",
  "c",
  "data",
  "group_int32",
  "group_uint32",
  "fields",
  "struct_value",
  "list_value",
  "number_value",
  "values",
  "seconds",
  "nanos",
  "value",
]);

function focusFields(desc: DescMessage): readonly DescField[] {
  const f = desc.fields.filter((x) => focus.has(x.name));
  return f.length > 0 ? f : desc.fields;
}

/** A valid path of `desc` (strict proto, or with `aip161` map keys and wildcards), up to `depth` segments of fields. */
function arbSchemaPath(desc: DescMessage, aip161: boolean, depth: number): fc.Arbitrary<string> {
  const id = `${desc.typeName}/${aip161}/${depth}`;
  let arb = pathCache.get(id);
  if (arb !== undefined) return arb;
  arb = fc.constant(null).chain(() =>
    fc.constantFrom(...focusFields(desc)).chain((f) => {
      const options: fc.Arbitrary<string>[] = [fc.constant(f.name)];
      if (depth > 1) {
        if (f.fieldKind === "message" && f.message.fields.length > 0)
          options.push(arbSchemaPath(f.message, aip161, depth - 1).map((p) => `${f.name}.${p}`));
        if (aip161 && f.fieldKind === "list") {
          options.push(fc.constant(`${f.name}.*`));
          if (f.listKind === "message" && f.message.fields.length > 0)
            options.push(arbSchemaPath(f.message, aip161, depth - 1).map((p) => `${f.name}.*.${p}`));
        }
        if (aip161 && f.fieldKind === "map") {
          const key = fc.constantFrom(...mapKeys(f));
          options.push(key.map((k) => `${f.name}.${k}`));
          if (f.mapKind === "message" && f.message.fields.length > 0) {
            options.push(
              fc.tuple(key, arbSchemaPath(f.message, aip161, depth - 1)).map(([k, p]) => `${f.name}.${k}.${p}`),
            );
          }
        }
      }
      return fc.oneof(...options);
    }),
  );
  pathCache.set(id, arb);
  return arb;
}

/**
 * Two paths that often meet: the same path, a path and one below it, or siblings under a common prefix, so that
 * the laws see masks that overlap in every way.
 */
function arbPathPair(desc: DescMessage, aip161: boolean, depth: number): fc.Arbitrary<[string, string]> {
  return fc.constantFrom(...focusFields(desc)).chain((f) => {
    const options: fc.Arbitrary<[string, string]>[] = [
      fc.constant([f.name, f.name]),
      arbSchemaPath(desc, aip161, depth).map((q): [string, string] => [f.name, q]),
    ];
    let below: [string, DescMessage] | undefined;
    if (depth > 1 && f.fieldKind === "message" && f.message.fields.length > 0) below = [f.name, f.message];
    if (depth > 1 && aip161 && f.fieldKind === "list" && f.listKind === "message" && f.message.fields.length > 0)
      below = [`${f.name}.*`, f.message];
    if (depth > 1 && aip161 && f.fieldKind === "map" && f.mapKind === "message" && f.message.fields.length > 0)
      below = [`${f.name}.${mapKeys(f)[1]}`, f.message];
    if (below !== undefined) {
      const [prefix, sub] = below;
      const pair = fc.constant(null).chain(() => arbPathPair(sub, aip161, depth - 1));
      options.push(pair.map(([x, y]): [string, string] => [`${prefix}.${x}`, `${prefix}.${y}`]));
      options.push(pair.map(([x]): [string, string] => [f.name, `${prefix}.${x}`]));
    }
    return fc.oneof(...options);
  });
}

function arbMaskPair(desc: DescMessage, aip161: boolean): fc.Arbitrary<[string[], string[]]> {
  return fc
    .tuple(fc.array(arbPathPair(desc, aip161, 3), { minLength: 1, maxLength: 4 }), fc.boolean())
    .map(([pairs, swap]) => {
      const a = pairs.map((p) => p[0]);
      const b = pairs.map((p) => p[1]);
      return swap ? [b, a] : [a, b];
    });
}

const schemas: [string, DescMessage, number][] = [
  ["TestAllTypesProto3", TestAllTypesProto3, 70],
  ["TestAllTypesProto2", TestAllTypesProto2, 40],
  ["TestAllTypesEdition2023", TestAllTypesEdition2023, 40],
];

describe.each(schemas)("FieldMask laws on %s messages", (_, schema, numRuns) => {
  const arbMsg = arbMessage(schema, { maxDepth: 3, setChance: 0.3 });
  const arbFocusMsg = arbMessage(schema, { maxDepth: 3, setChance: 0.4 });
  const strictMask = fc.array(arbSchemaPath(schema, false, 3), { maxLength: 6 });
  const aipMask = fc.array(arbSchemaPath(schema, true, 4), { maxLength: 6 });
  const opts = { numRuns };

  it("generated masks are valid", () => {
    fc.assert(
      fc.property(strictMask, aipMask, (s, a) => {
        fieldMaskCheck(schema, s);
        fieldMaskCheck(schema, a, { aip161: true });
      }),
      opts,
    );
  });

  it.each([
    ["strict", arbMaskPair(schema, false), false],
    ["AIP-161", arbMaskPair(schema, true), true],
  ])("project(project(m, a), b) equals project(m, intersect(a, b)) (%s masks)", (_, arbPair, aip161) => {
    fc.assert(
      fc.property(arbFocusMsg, arbPair, (m, [a, b]) => {
        const o = { aip161 };
        const twice = fieldMaskProject(schema, fieldMaskProject(schema, m as never, a, o), b, o);
        expect(twice).toEqual(fieldMaskProject(schema, m as never, fieldMaskIntersect(a, b), o));
      }),
      opts,
    );
  });

  it("merging with an empty mask leaves the target unchanged", () => {
    fc.assert(
      fc.property(arbMsg, arbMsg, (t, s) => {
        expect(fieldMaskMerge(schema, t as never, s as never, [])).toEqual(t);
      }),
      opts,
    );
  });

  it("merging with the mask of all fields and both replace options gives the source", () => {
    const all = fieldMaskForAllFields(schema);
    const replace = { replaceMessageFields: true, replaceRepeatedFields: true };
    fc.assert(
      fc.property(arbMsg, arbMsg, (t, s) => {
        expect(fieldMaskMerge(schema, t as never, s as never, all, replace)).toEqual(s);
        expect(fieldMaskMerge(schema, t as never, s as never, undefined, replace)).toEqual(s); // no mask: all fields
        expect(fieldMaskMerge(schema, t as never, s as never, ["*"])).toEqual(s);
      }),
      opts,
    );
  });

  it("merge(a, b, fromDiff(a, b), replace both) equals b", () => {
    const replace = { replaceMessageFields: true, replaceRepeatedFields: true };
    fc.assert(
      fc.property(arbMsg, arbMsg, (a, b) => {
        const diff = fieldMaskFromDiff(schema, a as never, b as never);
        expect(fieldMaskMerge(schema, a as never, b as never, diff, replace)).toEqual(b);
        expect(fieldMaskFromDiff(schema, b as never, b as never).paths).toEqual([]);
      }),
      opts,
    );
  });

  it("read-write consistency (AIP-161): merge(t, s, m) projected on m equals s projected on m", () => {
    const replace = { replaceMessageFields: true, replaceRepeatedFields: true };
    fc.assert(
      fc.property(arbMsg, arbMsg, strictMask, (t, s, mask) => {
        const updated = fieldMaskMerge(schema, t as never, s as never, mask, replace);
        expect(fieldMaskProject(schema, updated, mask)).toEqual(fieldMaskProject(schema, s as never, mask));
      }),
      opts,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Plain JSON resources
// ---------------------------------------------------------------------------------------------------------

function setOwn(o: Rec, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

const jsonKeys = ["a", "b", "c", "x y", "__proto__", "constructor"];
const arbLeaf = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.string({ maxLength: 2 }), fc.boolean(), fc.constant(null));

/** An object over `jsonKeys`; arrays appear only under the key "list", so a mask reaches them only through `list.*`. */
function arbObject(depth: number): fc.Arbitrary<Rec> {
  const value =
    depth <= 0 ? arbLeaf : fc.oneof({ weight: 2, arbitrary: arbLeaf }, { weight: 2, arbitrary: arbObject(depth - 1) });
  const item = depth <= 0 ? arbLeaf : fc.oneof(arbLeaf, arbObject(depth - 1));
  return fc
    .tuple(
      fc.subarray(jsonKeys),
      fc.array(value, { minLength: jsonKeys.length, maxLength: jsonKeys.length }),
      fc.option(fc.array(item, { maxLength: 3 })),
    )
    .map(([keys, values, list]) => {
      const o: Rec = {};
      keys.forEach((k, i) => setOwn(o, k, values[i]));
      if (list !== null) o.list = list;
      return o;
    });
}

const jsonSegments = ["a", "b", "c", "`x y`", "__proto__", "constructor"];
function arbJsonPath(depth: number): fc.Arbitrary<string> {
  const seg = fc.constantFrom(...jsonSegments);
  const options: fc.Arbitrary<string>[] = [seg, fc.constant("list"), fc.constant("list.*")];
  if (depth > 1) {
    const rest = fc.constant(null).chain(() => arbJsonPath(depth - 1));
    options.push(fc.tuple(seg, rest).map(([s, p]) => `${s}.${p}`));
    options.push(rest.map((p) => `list.*.${p}`));
  }
  return fc.oneof(...options);
}

describe("FieldMask laws on plain JSON", () => {
  const arbObj = arbObject(3);
  const arbJsonMask = fc.array(arbJsonPath(3), { maxLength: 5 });

  it("project(project(x, a), b) equals project(x, intersect(a, b))", () => {
    fc.assert(
      fc.property(arbObj, arbJsonMask, arbJsonMask, (x, a, b) => {
        expect(jsonProject(jsonProject(x, a), b)).toEqual(jsonProject(x, fieldMaskIntersect(a, b)));
      }),
      runs,
    );
  });

  it("omit and project split a resource along top-level paths", () => {
    fc.assert(
      fc.property(arbObj, fc.subarray([...jsonSegments, "list"]), (x, mask) => {
        const kept = jsonProject(x, mask) as Rec;
        const rest = jsonOmit(x, mask) as Rec;
        const joined: Rec = {};
        for (const part of [kept, rest]) for (const k of Object.keys(part)) setOwn(joined, k, part[k]);
        expect(joined).toEqual(x);
        for (const k of Object.keys(kept)) expect(Object.hasOwn(rest, k)).toBe(false);
      }),
      runs,
    );
  });

  it("a PATCH with fieldMaskFromPatch and both replace options is a shallow overwrite", () => {
    const replace = { replaceMessageFields: true, replaceRepeatedFields: true };
    fc.assert(
      fc.property(arbObj, arbObj, (stored, body) => {
        const expected: Rec = {};
        for (const part of [stored, body]) for (const k of Object.keys(part)) setOwn(expected, k, part[k]);
        expect(jsonMerge(stored, body, fieldMaskFromPatch(body), replace)).toEqual(expected);
      }),
      runs,
    );
  });

  it("merging with an empty mask copies the target; with `*` it is the patch; reading back what was written", () => {
    const replace = { replaceMessageFields: true, replaceRepeatedFields: true };
    fc.assert(
      fc.property(arbObj, arbObj, arbJsonMask, (t, p, mask) => {
        expect(jsonMerge(t, p, [])).toEqual(t);
        expect(jsonMerge(t, p, ["*"])).toEqual(p);
        const all = fieldMaskFromPatch(p, { depth: Infinity });
        expect(jsonProject(jsonMerge(t, p, all, replace), all)).toEqual(jsonProject(p, all));
        const named = mask.filter((q) => !q.includes("*"));
        expect(jsonProject(jsonMerge(t, p, named, replace), named)).toEqual(jsonProject(p, named));
      }),
      runs,
    );
  });
});
