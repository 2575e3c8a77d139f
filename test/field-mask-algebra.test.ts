import { create } from "@bufbuild/protobuf";
import { DurationSchema, FieldMaskSchema, StructSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  fieldMaskCheck,
  fieldMaskCovers,
  fieldMaskForAllFields,
  fieldMaskFromDiff,
  fieldMaskFromFieldNumbers,
  fieldMaskFromJson,
  fieldMaskIntersect,
  fieldMaskIsValid,
  fieldMaskNormalize,
  fieldMaskSubtract,
  fieldMaskUnion,
} from "../src/index.js";
import { TestAllTypesProto2, TestAllTypesProto3 } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

const FIELD_MASK = "google.protobuf.FieldMask";
const T3 = TestAllTypesProto3;

describe("the path parser (through fieldMaskNormalize)", () => {
  it.each([
    ["", undefined, "is empty"],
    ["a..b", undefined, "empty segment"],
    [".a", undefined, "empty segment"],
    ["a.", undefined, "ends with '.'"],
    ["1a", '"1a"', "starts with a digit"],
    ["a.9d.e", '"9d"', "starts with a digit"],
    ["a b", '"a b"', 'holds the character " "'],
    ["a.b-c", '"b-c"', 'holds the character "-"'],
    ["a.é", '"é"', 'holds the character "é"'],
    ["a.😀", '"😀"', 'holds the character "😀"'],
    ["a*", '"a*"', 'holds the character "*"'],
    ["**", '"**"', 'holds the character "*"'],
    ["-", '"-"', 'holds the character "-"'],
    ["--1", '"--1"', 'holds the character "-"'],
    ["`abc", '"`abc"', "no closing backtick"],
    ["a.`b``", '"`b``"', "no closing backtick"],
    ["`a`b", '"a"', "after its closing backtick"],
    ["`a`.", undefined, "ends with '.'"],
  ])("rejects %j naming the segment %s", (path, segment, what) => {
    const e = catchWkt(() => fieldMaskNormalize(["ok", path]));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$", typeName: FIELD_MASK });
    expect(e.detail).toContain(`path ${JSON.stringify(path)}`);
    if (segment !== undefined) expect(e.detail).toContain(`segment ${segment}`);
    expect(e.detail).toContain(what);
  });

  it.each([
    [["a.b.c"], ["a.b.c"]],
    [["labels.`team name`"], ["labels.`team name`"]],
    [["labels.`env`"], ["labels.env"]], // a quoted identifier is the bare one
    [["labels.`42`", "labels.42"], ["labels.42"]],
    [["labels.`a``b`"], ["labels.`a``b`"]], // "``" is one backtick
    [["labels.````"], ["labels.````"]], // the key "`"
    [["labels.``"], ["labels.``"]], // the empty key
    [["labels.`a.b`"], ["labels.`a.b`"]],
    [["labels.`*`"], ["labels.`*`"]], // the literal key "*", not the wildcard
    [
      ["labels.-5", "labels.007"],
      ["labels.-5", "labels.007"],
    ], // integer keys stay as written
    [["authors.*.given_name"], ["authors.*.given_name"]],
    [["*"], ["*"]],
    [["_a.B_c9"], ["_a.B_c9"]],
  ])("reads %j", (paths, normalized) => {
    expect(fieldMaskNormalize(paths).paths).toEqual(normalized);
  });

  it("limits a path to 100 segments", () => {
    expect(fieldMaskNormalize([Array(100).fill("a").join(".")]).paths).toHaveLength(1);
    const e = catchWkt(() => fieldMaskNormalize([Array(101).fill("a").join(".")]));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$" });
    expect(e.detail).toContain("more than 100 segments");
  });

  it("limits a path of the JSON form to 100 segments the same way, in every path of the list", () => {
    const longest = Array(100).fill("aB").join(".");
    expect(fieldMaskFromJson(`x,${longest}`).paths[1]).toBe(Array(100).fill("a_b").join("."));
    for (const json of [Array(101).fill("a").join("."), `x,${Array(101).fill("a").join(".")},y`]) {
      const e = catchWkt(() => fieldMaskFromJson(json));
      expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$" });
      expect(e.detail).toContain("more than 100 segments");
    }
    // Segments are counted per path, not over the whole text.
    expect(fieldMaskFromJson(Array(3).fill(Array(60).fill("a").join(".")).join(",")).paths).toHaveLength(3);
  });

  it.each([
    [42, "json-type"],
    [null, "json-type"],
    ["a,b", "json-type"], // the JSON form is fieldMaskFromJson's job
    [{ paths: "a" }, "json-type"],
    [["a", 1], "json-type"],
    [[undefined], "json-type"],
  ])("rejects the mask %j (%s)", (mask, rule) => {
    expect(catchWkt(() => fieldMaskNormalize(mask as never))).toMatchObject({
      rule,
      jsonPath: "$",
      typeName: FIELD_MASK,
    });
  });
});

describe("fieldMaskNormalize", () => {
  it.each([
    [[], []],
    [
      ["b", "a"],
      ["a", "b"],
    ],
    [["a", "a"], ["a"]],
    [["a.b", "a"], ["a"]],
    [["a", "a.b", "a.b.c"], ["a"]],
    [
      ["a.b", "a.c", "a_b", "a0"],
      ["a.b", "a.c", "a0", "a_b"],
    ], // '.' sorts first, so a's children follow it
    [
      ["ab", "a.b", "a"],
      ["a", "ab"],
    ], // "ab" is not below "a"
    [
      ["f.b.d", "f.a", "f.b"],
      ["f.a", "f.b"],
    ],
    [["labels.env", "labels.*"], ["labels.*"]],
    [
      ["labels.*.x", "labels.env.x", "labels.env.y"],
      ["labels.*.x", "labels.env.y"],
    ],
    [
      ["labels.*.x", "labels.env"],
      ["labels.*.x", "labels.env"],
    ],
    [["a", "*"], ["*"]],
    [
      ["x", "a.`b c`", "a.`b c`.d"],
      ["a.`b c`", "x"],
    ],
  ])("%j → %j", (paths, normalized) => {
    const mask = fieldMaskNormalize(paths);
    expect(mask).toStrictEqual(create(FieldMaskSchema, { paths: normalized }));
    expect(fieldMaskNormalize(mask).paths).toEqual(normalized);
  });

  it("returns a new message and does not change its argument", () => {
    const mask = create(FieldMaskSchema, { paths: ["b", "a"] });
    const out = fieldMaskNormalize(mask);
    expect(out).not.toBe(mask);
    expect(mask.paths).toEqual(["b", "a"]);
  });
});

describe("fieldMaskUnion", () => {
  it.each([
    [[], []],
    [[["a"]], ["a"]],
    [
      [["b"], ["a"]],
      ["a", "b"],
    ],
    [
      [["config.url"], ["config", "events"]],
      ["config", "events"],
    ],
    [
      [["a.b"], ["a.c"], ["a.b.d", "e"]],
      ["a.b", "a.c", "e"],
    ],
    [
      [["authors.*.given_name"], ["authors.*.family_name", "authors.x0"]],
      ["authors.*.family_name", "authors.*.given_name", "authors.x0"],
    ],
    [[["labels.env"], ["labels.*"]], ["labels.*"]],
    [[["a"], ["*"]], ["*"]],
  ])("%j → %j", (masks, union) => {
    expect(fieldMaskUnion(...(masks as string[][])).paths).toEqual(union);
  });

  it("takes FieldMask messages and arrays", () => {
    expect(fieldMaskUnion(create(FieldMaskSchema, { paths: ["b"] }), ["a"]).paths).toEqual(["a", "b"]);
  });

  it("names the bad argument", () => {
    const e = catchWkt(() => fieldMaskUnion(["a"], 7 as never));
    expect(e).toMatchObject({ rule: "json-type", jsonPath: "$" });
    expect(e.detail).toContain("mask 1");
  });
});

describe("fieldMaskIntersect", () => {
  it.each([
    [[], ["a"], []],
    [["a"], ["b"], []],
    [["a"], ["a"], ["a"]],
    [["a"], ["a.b"], ["a.b"]],
    [["a.b"], ["a"], ["a.b"]],
    [
      ["a", "b.c"],
      ["a.x", "b"],
      ["a.x", "b.c"],
    ],
    [["f.a", "f.b.d"], ["f.b"], ["f.b.d"]],
    [["a.b"], ["a.c"], []],
    [["authors.*.name"], ["authors"], ["authors.*.name"]],
    [["labels.*.x"], ["labels.env"], ["labels.env.x"]],
    [["labels.*"], ["labels.env", "other"], ["labels.env"]],
    [["labels.*.x"], ["labels.*.y"], []],
    [["labels.*.x", "labels.k.y"], ["labels.k"], ["labels.k.x", "labels.k.y"]],
    [["*"], ["a.b", "c"], ["a.b", "c"]],
    [["labels.`a b`"], ["labels.*"], ["labels.`a b`"]],
    [["a.*"], ["*.b"], ["a.b"]],
    [["*.*.c"], ["a.*", "*.b"], ["*.b.c", "a.*.c"]],
    [["a.*.c", "*.b.c"], ["a.b"], ["a.b.c"]],
  ])("%j ∩ %j → %j", (a, b, out) => {
    expect(fieldMaskIntersect(a, b).paths).toEqual(out);
    expect(fieldMaskIntersect(b, a).paths).toEqual(out);
  });
});

describe("fieldMaskSubtract", () => {
  it.each([
    [["a", "b"], ["b"], ["a"]],
    [["a", "b"], [], ["a", "b"]],
    [["a.b", "c"], ["a"], ["c"]],
    [["a.b.c", "a.d"], ["a.b"], ["a.d"]],
    [["labels.env", "labels.dev"], ["labels.*"], []],
    [["labels.*.x", "labels.*.y"], ["labels.*.x"], ["labels.*.y"]],
    [["a"], ["*"], []],
    [["a.b"], ["a.c"], ["a.b"]],
  ])("%j − %j → %j (no schema needed)", (a, b, out) => {
    expect(fieldMaskSubtract(a, b).paths).toEqual(out);
  });

  it("needs the schema to split a path", () => {
    const e = catchWkt(() => fieldMaskSubtract(["a"], ["a.b"]));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$" });
    expect(e.detail).toContain('path "a"');
    expect(e.detail).toContain("schema");
  });

  it("expands a parent into its remaining fields from the schema", () => {
    expect(fieldMaskSubtract(["optional_nested_message"], ["optional_nested_message.a"], T3).paths).toEqual([
      "optional_nested_message.corecursive",
    ]);
    const nested = T3.fields.find((f) => f.name === "optional_nested_message")!.message!;
    const deep = fieldMaskSubtract(
      ["optional_nested_message"],
      ["optional_nested_message.corecursive.optional_int32"],
      T3,
    );
    const corecursive = T3.fields
      .filter((f) => f.name !== "optional_int32")
      .map((f) => `optional_nested_message.corecursive.${f.name}`);
    expect(deep.paths).toEqual(["optional_nested_message.a", ...corecursive].sort());
    expect(nested.fields.map((f) => f.name)).toEqual(["a", "corecursive"]);
  });

  it("expands `*` into every field but the subtracted ones", () => {
    const all = T3.fields.map((f) => f.name);
    const rest = fieldMaskSubtract(["*"], ["optional_int32", "repeated_int32"], T3).paths;
    expect(rest).toEqual(all.filter((n) => n !== "optional_int32" && n !== "repeated_int32").sort());
  });

  it("expands a repeated field into `*` (AIP-161)", () => {
    expect(fieldMaskSubtract(["repeated_nested_message"], ["repeated_nested_message.*.a"], T3).paths).toEqual([
      "repeated_nested_message.*.corecursive",
    ]);
  });

  it.each([
    [["map_string_string"], ["map_string_string.env"]],
    [["map_string_nested_message.*.a"], ["map_string_nested_message.k.a"]],
  ])("cannot say %j minus %j", (a, b) => {
    const e = catchWkt(() => fieldMaskSubtract(a, b, T3));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$" });
    expect(e.detail).toContain("every entry but one");
  });

  it("checks both masks against the schema", () => {
    expect(catchWkt(() => fieldMaskSubtract(["nope"], [], T3)).detail).toContain("names no field");
    expect(catchWkt(() => fieldMaskSubtract([], ["optional_int32.x"], T3)).detail).toContain("below a scalar");
  });

  it("calls a name after a repeated field a name, and only a number a position", () => {
    const named = catchWkt(() => fieldMaskSubtract(["repeated_nested_message"], ["repeated_nested_message.bb"], T3));
    expect(named).toMatchObject({ rule: "mask-path", jsonPath: "$" });
    expect(named.detail).toContain(
      'segment "bb" follows the repeated field "repeated_nested_message", whose elements have no names',
    );
    expect(named.detail).not.toContain("position");
    const numbered = catchWkt(() => fieldMaskSubtract(["repeated_nested_message"], ["repeated_nested_message.3"], T3));
    expect(numbered.detail).toContain(
      'segment "3" addresses an element of the repeated field "repeated_nested_message" by position',
    );
  });

  it("caps what it spells out at maxPaths", () => {
    const fields = T3.fields.length;
    const b = ["recursive_message.recursive_message.optional_int32"];
    // recursive_message spelled out twice: all fields but recursive_message, then all but optional_int32.
    expect(fieldMaskSubtract(["recursive_message"], b, T3, { maxPaths: 2 * (fields - 1) }).paths).toHaveLength(
      2 * (fields - 1),
    );
    expect(
      catchWkt(() => fieldMaskSubtract(["recursive_message"], b, T3, { maxPaths: 2 * (fields - 1) - 1 })).rule,
    ).toBe("size");
  });

  // maxPaths answers as everywhere (internal/options.ts): rule `range` at `$`, typeName "options".
  it.each([
    [-1, false], // min - 1
    [0, true], // min
    [Infinity, true],
    [1.5, false],
    [NaN, false],
    ["1", false],
  ])("maxPaths %j (accepted: %s), in intersect and subtract", (maxPaths, ok) => {
    const options = { maxPaths } as never;
    for (const call of [
      () => fieldMaskIntersect(["a"], ["b"], options),
      () => fieldMaskSubtract(["a"], ["a"], undefined, options),
    ]) {
      if (ok) expect(call()).toBeDefined();
      else expect(catchWkt(call)).toMatchObject({ rule: "range", jsonPath: "$", typeName: "options" });
    }
  });
});

describe("fieldMaskCovers", () => {
  it.each([
    [["a"], "a", true],
    [["a"], "a.b.c", true],
    [["a.b"], "a", false],
    [["a.b"], "a.bc", false],
    [["ab"], "a", false],
    [["config", "events"], "config.secret", true],
    [["labels.*"], "labels.env", true],
    [["labels.*"], "labels.`team name`.x", true],
    [["labels.env"], "labels.*", false],
    [["labels.*.x"], "labels.k.x", true],
    [["labels.*.x"], "labels.k", false],
    [["*"], "anything.at.all", true],
    [["*"], "*", true],
    [[], "a", false],
  ])("%j covers %j: %s", (mask, path, expected) => {
    expect(fieldMaskCovers(mask, path)).toBe(expected);
  });

  it("rejects a bad path", () => {
    expect(catchWkt(() => fieldMaskCovers(["a"], "a..b"))).toMatchObject({ rule: "mask-path" });
    expect(catchWkt(() => fieldMaskCovers(["a"], 1 as never))).toMatchObject({ rule: "json-type" });
  });
});

describe("fieldMaskCheck / fieldMaskIsValid", () => {
  it.each([
    ["optional_int32"],
    ["optional_nested_message"],
    ["optional_nested_message.a"],
    ["optional_nested_message.corecursive.optional_nested_message.a"],
    ["recursive_message.recursive_message.repeated_int32"],
    ["repeated_nested_message"], // a repeated field in the last position
    ["map_string_nested_message"],
    ["oneof_uint32"], // oneof members are ordinary fields...
    ["oneof_nested_message.a"],
    ["optional_int32_wrapper"],
    ["optional_int32_wrapper.value"], // ...and so are wrapper and Struct fields
    ["optional_struct.fields"],
    ["optional_value.struct_value.fields"],
    ["optional_timestamp.seconds"],
    ["FieldName8"],
    ["_field_name3"],
    ["*"],
  ])("accepts %j", (path) => {
    expect(() => fieldMaskCheck(T3, [path])).not.toThrow();
    expect(fieldMaskIsValid(T3, [path])).toBe(true);
    expect(fieldMaskIsValid(T3, [path], { aip161: true })).toBe(true);
  });

  it.each([
    ["no_such_field", '"no_such_field"', "names no field of protobuf_test_messages.proto3.TestAllTypesProto3"],
    [
      "optional_nested_message.b",
      '"b"',
      "names no field of protobuf_test_messages.proto3.TestAllTypesProto3.NestedMessage",
    ],
    ["oneof_field", '"oneof_field"', "names no field"], // a oneof's name is not a field
    ["optionalInt32", '"optionalInt32"', "names no field"], // the JSON name is not the proto name
    ["optional_int32.x", '"x"', '"optional_int32" is scalar'],
    ["optional_nested_enum.x", '"x"', "an enum"],
    ["repeated_nested_message.a", '"repeated_nested_message"', "allowed only in the last position"],
    ["map_string_string.env", '"map_string_string"', "allowed only in the last position"],
    ["repeated_nested_message.*.a", '"*"', "AIP-161 syntax"],
    ["map_string_string.`a b`", '"a b"', "AIP-161 syntax"],
    ["map_int32_int32.5", '"5"', "AIP-161 syntax"],
    ["*.a", '"*"', "AIP-161 syntax"],
    ["", undefined, "is empty"],
  ])("rejects %j (strict) naming %s", (path, segment, what) => {
    const e = catchWkt(() => fieldMaskCheck(T3, ["optional_int32", path]));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$", typeName: FIELD_MASK });
    expect(e.detail).toContain(`path ${JSON.stringify(path)}`);
    if (segment !== undefined) expect(e.detail).toContain(`segment ${segment}`);
    expect(e.detail).toContain(what);
    expect(fieldMaskIsValid(T3, [path])).toBe(false);
  });

  it.each([
    ["repeated_nested_message.*"],
    ["repeated_nested_message.*.a"],
    ["repeated_nested_message.*.corecursive.repeated_nested_message.*.a"],
    ["map_string_string.env"],
    ["map_string_string.`team name`"],
    ["map_string_string.*"],
    ["map_string_string.42"], // the string key "42"
    ["map_string_nested_message.*.a"],
    ["map_string_nested_message.`k.1`.corecursive"],
    ["map_int32_int32.-2147483648"],
    ["map_int32_int32.`2147483647`"],
    ["map_uint64_uint64.18446744073709551615"],
    ["map_int64_int64.-9223372036854775808"],
    ["map_bool_bool.true"],
    ["optional_struct.fields.key"],
    ["optional_struct.fields.*.struct_value"],
    ["repeated_struct.*.fields"],
  ])("accepts %j with aip161", (path) => {
    expect(() => fieldMaskCheck(T3, [path], { aip161: true })).not.toThrow();
    expect(fieldMaskIsValid(T3, [path])).toBe(false);
  });

  it.each([
    ["repeated_nested_message.0", '"0"', "by position"],
    ["repeated_nested_message.0.a", '"0"', "by position"],
    ["repeated_nested_message.x", '"x"', "whose elements have no names"],
    ["repeated_int32.*.x", '"x"', 'values of "repeated_int32" are scalar'],
    ["map_string_string.k.x", '"x"', 'values of "map_string_string" are scalar'],
    ["map_int32_int32.x", '"x"', 'is not a key of the map field "map_int32_int32" (map<int32, ...>)'],
    ["map_int32_int32.2147483648", '"2147483648"', "is not a key"],
    ["map_uint32_uint32.-1", '"-1"', "is not a key"],
    ["map_bool_bool.yes", '"yes"', "is not a key"],
    ["optional_nested_message.*", '"*"', "cannot stand for the fields"],
    ["*.a", '"*"', "cannot stand for the fields"],
  ])("rejects %j with aip161 naming %s", (path, segment, what) => {
    const e = catchWkt(() => fieldMaskCheck(T3, [path], { aip161: true }));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$" });
    expect(e.detail).toContain(`segment ${segment}`);
    expect(e.detail).toContain(what);
  });

  it("reports only json-type errors from fieldMaskIsValid by throwing", () => {
    expect(catchWkt(() => fieldMaskIsValid(T3, "optional_int32" as never))).toMatchObject({ rule: "json-type" });
    expect(catchWkt(() => fieldMaskCheck(T3, [null] as never))).toMatchObject({ rule: "json-type" });
  });

  it("checks proto2 and group fields", () => {
    expect(fieldMaskIsValid(TestAllTypesProto2, ["optional_nested_message.a", "data.group_int32"])).toBe(true);
  });
});

describe("fieldMaskForAllFields / fieldMaskFromFieldNumbers", () => {
  it("lists every top-level field in declaration order", () => {
    expect(fieldMaskForAllFields(DurationSchema)).toStrictEqual(
      create(FieldMaskSchema, { paths: ["seconds", "nanos"] }),
    );
    expect(fieldMaskForAllFields(StructSchema).paths).toEqual(["fields"]);
    expect(fieldMaskForAllFields(T3).paths).toEqual(T3.fields.map((f) => f.name));
  });

  it.each([
    [[1], ["optional_int32"]],
    [
      [18, 1, 18],
      ["optional_nested_message", "optional_int32"],
    ],
    [
      [111, 201],
      ["oneof_uint32", "optional_bool_wrapper"],
    ],
    [[], []],
  ])("numbers %j → %j", (numbers, paths) => {
    expect(fieldMaskFromFieldNumbers(T3, numbers).paths).toEqual(paths);
  });

  it.each([[16], [0], [-1], [1.5], [536870912]])("rejects the number %j", (n) => {
    const e = catchWkt(() => fieldMaskFromFieldNumbers(T3, [1, n]));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$" });
    expect(e.detail).toContain(`field number ${n} is not a field of ${T3.typeName}`);
  });
});

describe("fieldMaskFromDiff", () => {
  const m = (init: Record<string, unknown>) => create(T3, init as never);

  it.each([
    ["equal messages", {}, {}, []],
    ["a scalar", { optionalInt32: 1 }, { optionalInt32: 2 }, ["optional_int32"]],
    ["a scalar reset", { optionalInt32: 1 }, {}, ["optional_int32"]],
    ["-0 is not 0", { optionalDouble: 0 }, { optionalDouble: -0 }, ["optional_double"]],
    ["NaN is NaN", { optionalDouble: NaN }, { optionalDouble: NaN }, []],
    ["bytes by content", { optionalBytes: new Uint8Array([1]) }, { optionalBytes: new Uint8Array([1]) }, []],
    [
      "bytes that differ",
      { optionalBytes: new Uint8Array([1]) },
      { optionalBytes: new Uint8Array([2]) },
      ["optional_bytes"],
    ],
    [
      "into a message set in both",
      { optionalNestedMessage: { a: 1 } },
      { optionalNestedMessage: { a: 2 } },
      ["optional_nested_message.a"],
    ],
    ["a message set in one", {}, { optionalNestedMessage: {} }, ["optional_nested_message"]],
    [
      "deep",
      { recursiveMessage: { recursiveMessage: { optionalInt32: 1, optionalString: "x" } } },
      { recursiveMessage: { recursiveMessage: { optionalInt32: 2, optionalString: "x" } } },
      ["recursive_message.recursive_message.optional_int32"],
    ],
    ["a list whole", { repeatedInt32: [1, 2] }, { repeatedInt32: [1, 3] }, ["repeated_int32"]],
    ["an equal list", { repeatedNestedMessage: [{ a: 1 }] }, { repeatedNestedMessage: [{ a: 1 }] }, []],
    ["a map whole", { mapStringString: { a: "1" } }, { mapStringString: { a: "1", b: "2" } }, ["map_string_string"]],
    [
      "oneof: another case",
      { oneofField: { case: "oneofUint32", value: 1 } },
      { oneofField: { case: "oneofString", value: "" } },
      ["oneof_uint32", "oneof_string"],
    ],
    [
      "oneof: into the same message case",
      { oneofField: { case: "oneofNestedMessage", value: { a: 1 } } },
      { oneofField: { case: "oneofNestedMessage", value: { a: 2 } } },
      ["oneof_nested_message.a"],
    ],
    ["a wrapper whole", { optionalInt32Wrapper: 0 }, { optionalInt32Wrapper: 1 }, ["optional_int32_wrapper"]],
    ["a wrapper set to 0 vs unset", {}, { optionalInt32Wrapper: 0 }, ["optional_int32_wrapper"]],
    ["a Struct whole", { optionalStruct: { a: [1, { b: null }] } }, { optionalStruct: { a: [1, { b: null }] } }, []],
    ["a Struct that differs", { optionalStruct: { a: 1 } }, { optionalStruct: { a: 2 } }, ["optional_struct"]],
  ])("%s", (_, a, b, paths) => {
    expect(fieldMaskFromDiff(T3, m(a), m(b)).paths).toEqual(paths);
  });

  it("sees explicit presence (proto2): unset differs from set to the default", () => {
    const a = create(TestAllTypesProto2);
    const b = create(TestAllTypesProto2, { optionalInt32: 0 });
    expect(fieldMaskFromDiff(TestAllTypesProto2, a, b).paths).toEqual(["optional_int32"]);
  });

  it("rejects a message of another type, and cycles", () => {
    expect(catchWkt(() => fieldMaskFromDiff(T3, m({}), create(DurationSchema) as never))).toMatchObject({
      rule: "json-type",
      jsonPath: "$",
    });
    const a = m({});
    const b = m({});
    (a as Record<string, unknown>).recursiveMessage = a;
    (b as Record<string, unknown>).recursiveMessage = b;
    expect(catchWkt(() => fieldMaskFromDiff(T3, a, b))).toMatchObject({ rule: "depth", jsonPath: "$" });
  });
});
