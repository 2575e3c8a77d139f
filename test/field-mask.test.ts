import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldMaskFromJson, fieldMaskFromPaths, fieldMaskToJson } from "../src/wkt/field-mask.js";
import { fromJson as codecFromJson, fromJsonString as codecFromJsonString } from "../src/codec/from-json.js";
import { catchWkt } from "./helpers.js";

const FIELD_MASK = "google.protobuf.FieldMask";

describe("fieldMaskFromJson", () => {
  it.each([
    ["", []], // conformance EmptyFieldMask
    ["foo,barBaz", ["foo", "bar_baz"]], // conformance FieldMask
    ["user.displayName,photo", ["user.display_name", "photo"]],
    ["a", ["a"]],
    ["a.b.c", ["a.b.c"]],
    ["x2y", ["x2y"]],
    ["a1B", ["a1_b"]],
    ["aB1", ["a_b1"]],
    ["fooBAR", ["foo_b_a_r"]],
    ["Foo", ["_foo"]], // a leading capital is a leading "_" (Go, C++, protobuf-es agree)
    ["a.Bc", ["a._bc"]],
    ["config,config.url", ["config", "config.url"]],
    ["a,a", ["a", "a"]], // duplicates are kept; normalizing is another operation
  ])("decodes %j", (json, paths) => {
    const mask = fieldMaskFromJson(json);
    expect(mask).toStrictEqual(create(FieldMaskSchema, { paths }));
    expect(mask).toStrictEqual(fromJson(FieldMaskSchema, json));
    expect(fieldMaskToJson(mask)).toBe(json);
  });

  it.each([
    [1, "json-type"],
    [null, "json-type"],
    [undefined, "json-type"],
    [["a"], "json-type"],
    [{ paths: ["a"] }, "json-type"],
    ["foo,bar_bar", "mask-path"], // conformance FieldMaskInvalidCharacter
    ["_a", "mask-path"],
    ["a_", "mask-path"],
    ["a..b", "mask-path"], // empty segment
    ["a.", "mask-path"],
    [".a", "mask-path"],
    ["a,", "mask-path"], // trailing comma: an empty path
    [",a", "mask-path"],
    [",", "mask-path"],
    ["a,,b", "mask-path"],
    ["1a", "mask-path"], // a field name cannot start with a digit
    ["a.2b", "mask-path"],
    [" a", "mask-path"], // no white space (Go trims it; C++ and we do not)
    ["a ", "mask-path"],
    ["a b", "mask-path"],
    ["a-b", "mask-path"],
    ["a/b", "mask-path"],
    ["a*", "mask-path"],
    ["é", "mask-path"],
    ["a\u0000", "mask-path"],
    ["a\ud800", "mask-path"],
  ])("rejects %j (%s)", (json, rule) => {
    expect(catchWkt(() => fieldMaskFromJson(json))).toMatchObject({ rule, jsonPath: "$", typeName: FIELD_MASK });
  });

  it.each([
    ["a".repeat(254) + "é", 254], // the last character fills the scan buffer exactly
    ["a".repeat(255) + "é", 255], // ... or does not fit in it
    ["a".repeat(70_000) + "é", 70_000], // longer than the reused buffer
    ["a".repeat(300) + "\ud800", 300],
    ["a".repeat(300) + "😀b", 300],
  ])("stops at the first character that is not ASCII (%#)", (json, at) => {
    const e = catchWkt(() => fieldMaskFromJson(json));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$" });
    expect(e.detail).toContain(`holds the character ${JSON.stringify(String.fromCodePoint(json.codePointAt(at)!))}`);
  });

  it("decodes masks longer than the reused buffer", () => {
    const long = Array.from({ length: 20_000 }, (_, i) => `path${i}.subField`).join(",");
    const mask = fieldMaskFromJson(long);
    expect(mask.paths).toHaveLength(20_000);
    expect(mask.paths[19_999]).toBe("path19999.sub_field");
    expect(fieldMaskToJson(mask)).toBe(long);
    expect(fieldMaskFromJson("user.displayName").paths).toEqual(["user.display_name"]); // and shorter after
  });

  it("ends every scan at the input's own end, whatever a longer input left in the reused buffer", () => {
    for (const n of [254, 255, 256, 257, 511, 512, 1000]) {
      const long = "a".repeat(n);
      expect(fieldMaskFromJson(long).paths).toEqual([long]);
      expect(fieldMaskFromJson(long.slice(0, n - 1) + "B").paths).toEqual([long.slice(0, n - 1) + "_b"]);
    }
    expect(fieldMaskFromJson("b").paths).toEqual(["b"]);
    expect(fieldMaskFromJson("bC").paths).toEqual(["b_c"]);
    expect(fieldMaskFromJson("b.c").paths).toEqual(["b.c"]);
    expect(catchWkt(() => fieldMaskFromJson("b."))).toMatchObject({ rule: "mask-path" });
  });

  it.each(["a\u0000b", "\u0000", "a,\u0000", "aB\u0000c", "a.b\u0000"])(
    "rejects a NUL character before the end (%j)",
    (json) => {
      const e = catchWkt(() => fieldMaskFromJson(json));
      expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$" });
      expect(e.detail).toContain('holds the character "\\u0000"');
    },
  );

  it.each(["fooBar,baz.quxQuux", "Foo", "a1B.c", "", "foo,bar_bar", "a..b", "1a", "a\u0000", "é", 7])(
    "gives the whole-message codec the same result or error as the standalone function (%j)",
    (json) => {
      let expected: unknown;
      try {
        expected = fieldMaskFromJson(json);
      } catch (e) {
        expected = e;
      }
      for (const decode of [
        () => codecFromJson(FieldMaskSchema, json),
        () => codecFromJsonString(FieldMaskSchema, JSON.stringify(json)),
      ]) {
        let got: unknown;
        try {
          got = decode();
        } catch (e) {
          got = e;
        }
        if (expected instanceof Error) {
          const { rule, detail } = expected as unknown as { rule: string; detail: string };
          expect(got).toMatchObject({ rule, jsonPath: "$", detail });
        } else {
          expect(got).toStrictEqual(expected);
        }
      }
    },
  );

  describe("long masks (built in one piece from 128 characters on)", () => {
    // 14 paths, 196 characters: with any other part before or after it, a mask long enough for the other way.
    const long = Array.from({ length: 14 }, (_, k) => `pathNo${k}.subField`).join(",");
    const longPaths = Array.from({ length: 14 }, (_, k) => `path_no${k}.sub_field`);
    const outcome = (json: string): string[] | string => {
      try {
        return fieldMaskFromJson(json).paths;
      } catch (e) {
        const w = e as { rule: string; jsonPath: string; detail: string };
        return `${w.rule} ${w.jsonPath} ${w.detail}`;
      }
    };
    // Near-valid parts: the interesting characters densely, as in the property tests.
    const arbPart = fc.oneof(
      fc.string({ unit: fc.constantFrom(..."aZ1_.,- é\ud800\u0000"), minLength: 1, maxLength: 12 }),
      fc
        .array(fc.string({ unit: fc.constantFrom(..."abyzABYZ0189"), minLength: 1, maxLength: 8 }), {
          minLength: 1,
          maxLength: 3,
        })
        .map((segs) => segs.join(".")),
    );

    it("decode as the short way does, path by path, with the same error for a bad part before or after", () => {
      fc.assert(
        fc.property(arbPart, (part) => {
          const alone = outcome(part);
          const after = outcome(`${long},${part}`);
          const before = outcome(`${part},${long}`);
          if (typeof alone === "string") {
            expect(after).toBe(alone);
            expect(before).toBe(alone);
          } else {
            expect(after).toEqual([...longPaths, ...alone]);
            expect(before).toEqual([...alone, ...longPaths]);
          }
        }),
        { numRuns: 2000 },
      );
    });

    it.each([126, 127, 128, 129, 200])("agree with the short way at %i characters", (n) => {
      const words = "a".repeat(n - 6);
      for (const json of [
        `${words}.bC2dE`,
        `${words}.bC2d_`,
        `${words}.b..dE`,
        `${words}.b,1dE`,
        `Ab${words}.bCd`,
        `${words}.bCdé`,
      ]) {
        const pieces = json.split(",");
        const expected = pieces.map((p) => outcome(p));
        const bad = expected.find((x) => typeof x === "string");
        expect(outcome(json)).toEqual(bad ?? expected.flat());
      }
    });

    it("takes exactly the ASCII letters, digits, '.' and ',' as mask characters, short and long (code units 0-255)", () => {
      // The scans test each class with one unsigned comparison; the characters next to each range are the edges.
      for (let c = 0; c < 256; c++) {
        const ch = String.fromCharCode(c);
        const upper = c >= 65 && c <= 90;
        const letter = upper || (c >= 97 && c <= 122);
        const digit = c >= 48 && c <= 57;
        for (const [prefix, before] of [
          ["", []],
          [`${long},`, longPaths],
        ] as const) {
          const inside = outcome(`${prefix}ab${ch}cd`);
          const atStart = outcome(`${prefix}x.${ch}y`);
          if (letter || digit) {
            expect(inside).toEqual([...before, upper ? `ab_${ch.toLowerCase()}cd` : `ab${ch}cd`]);
          } else if (c === 46 || c === 44) {
            expect(inside).toEqual([...before, ...(c === 46 ? ["ab.cd"] : ["ab", "cd"])]);
          } else {
            expect(inside).toMatch(/^mask-path \$ /);
          }
          if (letter) expect(atStart).toEqual([...before, upper ? `x._${ch.toLowerCase()}y` : `x.${ch}y`]);
          else expect(atStart).toMatch(/^mask-path \$ /);
        }
      }
    });

    it("refuses a path of more than 100 segments in a long mask", () => {
      const e = catchWkt(() => fieldMaskFromJson(`${long},${"a.".repeat(100)}b`));
      expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$" });
      expect(e.detail).toContain("has more than 100 segments");
      expect(fieldMaskFromJson(`${long},${"a.".repeat(99)}b`).paths).toHaveLength(15);
    });
  });

  it.each([
    ["ok,bad_path.x", '"bad_path.x"', '"bad_path"'],
    ["ok,a.b2..c", '"a.b2..c"', "a segment"],
    ["a.b,c.9d.e", '"c.9d.e"', '"9d"'],
  ])("names the offending path and segment of %j", (json, path, segment) => {
    const e = catchWkt(() => fieldMaskFromJson(json));
    expect(e.detail).toContain(path);
    expect(e.detail).toContain(segment);
  });
});

describe("fieldMaskToJson", () => {
  it.each([
    [[], ""],
    [["foo", "bar_baz"], "foo,barBaz"], // conformance FieldMask
    [["user.display_name", "photo"], "user.displayName,photo"],
    [["a1_b"], "a1B"],
    [["a_b1"], "aB1"],
    [["x2y", "a.b.c"], "x2y,a.b.c"],
    [["a.b_c.d_e_f"], "a.bC.dEF"],
    [["_foo"], "Foo"], // round-trips through "Foo" (Go, C++, protobuf-es agree)
    [["foo_bar_baz"], "fooBarBaz"],
  ])("encodes %j", (paths, json) => {
    expect(fieldMaskToJson(paths)).toBe(json);
    const mask = create(FieldMaskSchema, { paths });
    expect(fieldMaskToJson(mask)).toBe(json);
    expect(toJson(FieldMaskSchema, mask)).toBe(json);
    expect(fieldMaskFromJson(json).paths).toEqual(paths);
  });

  it.each([
    ["fooBar", "mask-path"], // conformance FieldMaskPathsDontRoundTrip
    ["foo_3_bar", "mask-path"], // conformance FieldMaskNumbersDontRoundTrip (the C++ writer prints "foo3Bar")
    ["foo__bar", "mask-path"], // conformance FieldMaskTooManyUnderscore
    ["foo_", "mask-path"], // "_" at the end
    ["foo_.bar", "mask-path"], // "_" at the end of a segment
    ["foo_Bar", "mask-path"], // "_" before an upper-case letter
    ["_", "mask-path"],
    ["_1", "mask-path"],
    ["Foo", "mask-path"],
    ["", "mask-path"], // an empty path
    ["a..b", "mask-path"],
    ["a.", "mask-path"],
    [".a", "mask-path"],
    ["1a", "mask-path"],
    ["a.1b", "mask-path"],
    ["a-b", "mask-path"],
    ["a,b", "mask-path"], // would read back as two paths
    ["a b", "mask-path"],
    ["é", "mask-path"],
  ])("rejects the path %j (%s)", (path, rule) => {
    expect(catchWkt(() => fieldMaskToJson(["ok", path]))).toMatchObject({ rule, jsonPath: "$", typeName: FIELD_MASK });
    expect(catchWkt(() => fieldMaskToJson(create(FieldMaskSchema, { paths: [path] })))).toMatchObject({
      rule,
      jsonPath: "$",
    });
  });

  it("names the offending path and segment", () => {
    const e = catchWkt(() => fieldMaskToJson(["user.name", "user.foo_3_bar.x"]));
    expect(e.detail).toContain('"user.foo_3_bar.x"');
    expect(e.detail).toContain('"foo_3_bar"');
  });

  it.each([
    [[1 as unknown as string], "json-type"],
    [[null as unknown as string], "json-type"],
    [null as unknown as string[], "json-type"],
    [{ $typeName: FIELD_MASK } as unknown as string[], "json-type"],
  ])("rejects %o (%s)", (mask, rule) => {
    expect(catchWkt(() => fieldMaskToJson(mask))).toMatchObject({ rule, jsonPath: "$" });
  });
});

describe("fieldMaskFromPaths", () => {
  it("copies the paths as written", () => {
    const paths = ["config.url", "events"];
    const mask = fieldMaskFromPaths(paths);
    expect(mask).toStrictEqual(create(FieldMaskSchema, { paths }));
    paths.push("active");
    expect(mask.paths).toEqual(["config.url", "events"]);
  });

  it("rejects a path that is not a string (json-type)", () => {
    expect(catchWkt(() => fieldMaskFromPaths(["a", 2 as unknown as string]))).toMatchObject({
      rule: "json-type",
      jsonPath: "$",
    });
  });
});

describe("the path option", () => {
  it.each([
    ["title,author_name", "mask-path"],
    ["a..b", "mask-path"],
    [["title"], "json-type"],
  ])("fieldMaskFromJson(%j) reports its error at the given path (%s)", (json, rule) => {
    expect(catchWkt(() => fieldMaskFromJson(json, { path: "$.updateMask" }))).toMatchObject({
      rule,
      jsonPath: "$.updateMask",
      typeName: "google.protobuf.FieldMask",
    });
  });

  it.each([
    [["foo_3_bar"], "mask-path"],
    [["fooBar"], "mask-path"],
    [[5], "json-type"],
    [null, "json-type"],
  ])("fieldMaskToJson(%j) reports its error at the given path (%s)", (mask, rule) => {
    expect(catchWkt(() => fieldMaskToJson(mask as string[], { path: "$.readMask" }))).toMatchObject({
      rule,
      jsonPath: "$.readMask",
    });
  });

  it("changes nothing for valid values, and is $ by default", () => {
    expect(fieldMaskFromJson("user.displayName,photo", { path: "$.updateMask" })).toEqual(
      fieldMaskFromJson("user.displayName,photo"),
    );
    expect(fieldMaskToJson(["user.display_name"], { path: "$.updateMask" })).toBe("user.displayName");
    expect(catchWkt(() => fieldMaskFromJson("a_b", {}))).toMatchObject({ jsonPath: "$" });
    expect(catchWkt(() => fieldMaskToJson(["A"], { path: undefined }))).toMatchObject({ jsonPath: "$" });
  });

  it.each([[""], ["updateMask"], [5], [null], [["$"]]])("rejects the path %j (range), valid value or not", (path) => {
    const options = { path } as unknown as { path: string };
    expect(catchWkt(() => fieldMaskFromJson("a", options))).toMatchObject({ rule: "range", jsonPath: "$" });
    expect(catchWkt(() => fieldMaskFromJson("a_b", options))).toMatchObject({ rule: "range", jsonPath: "$" });
    expect(catchWkt(() => fieldMaskToJson(["a"], options))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  it("leaves Array.prototype.map working (the index is not a path)", () => {
    expect(["a.b", "cD"].map(fieldMaskFromJson).map(fieldMaskToJson)).toEqual(["a.b", "cD"]);
  });
});
