import { create, createFileRegistry, type DescMessage } from "@bufbuild/protobuf";
import {
  DurationSchema,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
  FileDescriptorProtoSchema,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  fieldMaskForAllFields,
  fieldMaskFromPatch,
  fieldMaskMerge,
  fieldMaskProject,
  fieldMaskProjectEach,
  jsonMerge,
  jsonOmit,
  jsonOmitEach,
  jsonProject,
  jsonProjectEach,
} from "../src/index.js";
import { TestAllTypesProto2, TestAllTypesProto3 } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

const T3 = TestAllTypesProto3;
type Rec = Record<string, unknown>;
const t3 = (init: Rec = {}) => create(T3, init as never);

/** Freezes a value deeply, so that any mutation of an input throws. */
function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null && !Object.isFrozen(v) && !ArrayBuffer.isView(v)) {
    for (const k of Reflect.ownKeys(v)) deepFreeze((v as Rec)[k as string]);
    Object.freeze(v);
  }
  return v;
}

// The messages of the examples in google/protobuf/field_mask.proto:
//   message Outer { F f = 1; int32 z = 2; }
//   message F { int32 a = 1; B b = 2; int32 y = 3; repeated int32 c = 4; }
//   message B { int32 d = 1; int32 x = 2; }
const exampleRegistry = (() => {
  const field = (name: string, number: number, type: Type, typeName?: string, repeated = false) => ({
    name,
    number,
    type,
    label: repeated ? Label.REPEATED : Label.OPTIONAL,
    jsonName: name,
    ...(typeName === undefined ? {} : { typeName }),
  });
  const file = create(FileDescriptorProtoSchema, {
    name: "field_mask_examples.proto",
    package: "fm",
    syntax: "proto3",
    messageType: [
      { name: "Outer", field: [field("f", 1, Type.MESSAGE, ".fm.F"), field("z", 2, Type.INT32)] },
      {
        name: "F",
        field: [
          field("a", 1, Type.INT32),
          field("b", 2, Type.MESSAGE, ".fm.B"),
          field("y", 3, Type.INT32),
          field("c", 4, Type.INT32, undefined, true),
        ],
      },
      { name: "B", field: [field("d", 1, Type.INT32), field("x", 2, Type.INT32)] },
    ],
  });
  return createFileRegistry(file, () => undefined);
})();
const Outer: DescMessage = exampleRegistry.getMessage("fm.Outer")!;
const outer = (init: Rec) => create(Outer, init as never) as Rec;

describe("the examples of field_mask.proto", () => {
  it("projection: f.a and f.b.d keep a and b.d; x, y and z take their defaults", () => {
    const m = outer({ f: { a: 22, b: { d: 1, x: 2 }, y: 13 }, z: 8 });
    expect(fieldMaskProject(Outer, m as never, ["f.a", "f.b.d"])).toEqual(outer({ f: { a: 22, b: { d: 1 } } }));
  });

  it("update: f.b is merged and f.c appended", () => {
    const target = outer({ f: { b: { d: 1, x: 2 }, c: [1] } });
    const source = outer({ f: { b: { d: 10 }, c: [2] } });
    expect(fieldMaskMerge(Outer, target as never, source as never, ["f.b", "f.c"])).toEqual(
      outer({ f: { b: { d: 10, x: 2 }, c: [1, 2] } }),
    );
  });

  it("update: the options override the default for message and repeated fields", () => {
    const target = outer({ f: { b: { d: 1, x: 2 }, c: [1] } });
    const source = outer({ f: { b: { d: 10 }, c: [2] } });
    const opts = { replaceMessageFields: true, replaceRepeatedFields: true };
    expect(fieldMaskMerge(Outer, target as never, source as never, ["f.b", "f.c"], opts)).toEqual(
      outer({ f: { b: { d: 10 }, c: [2] } }),
    );
    expect(fieldMaskMerge(Outer, target as never, source as never, ["f.b"], { replaceMessageFields: true })).toEqual(
      outer({ f: { b: { d: 10 }, c: [1] } }),
    );
    expect(fieldMaskMerge(Outer, target as never, source as never, ["f.c"], { replaceRepeatedFields: true })).toEqual(
      outer({ f: { b: { d: 1, x: 2 }, c: [2] } }),
    );
  });

  it("update: a default instance with every field in the mask resets the resource", () => {
    const target = outer({ f: { a: 1, b: { d: 1 }, c: [1] }, z: 3 });
    expect(fieldMaskMerge(Outer, target as never, create(Outer), fieldMaskForAllFields(Outer))).toEqual(create(Outer));
  });

  it("update: without a mask every field is updated, and fields the source does not set are reset", () => {
    const target = outer({ f: { a: 1 }, z: 3 });
    expect(fieldMaskMerge(Outer, target as never, outer({ z: 4 }) as never)).toEqual(outer({ z: 4 }));
    expect(
      catchWkt(() => fieldMaskMerge(Outer, target as never, outer({}) as never, undefined, { requireMask: true })),
    ).toMatchObject({
      rule: "mask-path",
      jsonPath: "$",
    });
  });

  it("get without a mask applies to all fields", () => {
    const m = outer({ f: { a: 22, b: { d: 1, x: 2 }, y: 13, c: [4] }, z: 8 });
    const copy = fieldMaskProject(Outer, m as never);
    expect(copy).toEqual(m);
    expect(copy).not.toBe(m);
    expect((copy as Rec).f).not.toBe(m.f);
  });

  it("list operations: the mask applies to each element", () => {
    const list = [outer({ f: { a: 1, y: 2 }, z: 3 }), outer({ f: { a: 4 }, z: 5 })];
    expect(fieldMaskProjectEach(Outer, list as never, ["f.a"])).toEqual([
      outer({ f: { a: 1 } }),
      outer({ f: { a: 4 } }),
    ]);
    expect(fieldMaskProjectEach(Outer, list as never)).toEqual(list);
  });

  it("oneof fields are ordinary fields: a member name is a path, the oneof's name is not", () => {
    const m = t3({ oneofField: { case: "oneofNestedMessage", value: { a: 1 } } });
    expect(fieldMaskProject(T3, m, ["oneof_nested_message"])).toEqual(m);
    expect(fieldMaskProject(T3, m, ["oneof_string"])).toEqual(t3());
    expect(catchWkt(() => fieldMaskProject(T3, m, ["oneof_field"])).detail).toContain("names no field");
  });
});

describe("fieldMaskProject", () => {
  const full = () =>
    deepFreeze(
      t3({
        optionalInt32: 1,
        optionalBytes: new Uint8Array([1, 2]),
        optionalNestedMessage: { a: 2, corecursive: { optionalInt32: 3, repeatedInt32: [4] } },
        repeatedNestedMessage: [{ a: 5 }, { corecursive: { optionalInt32: 6 } }],
        mapStringString: { a: "x", ["__proto__"]: "p", constructor: "c" },
        mapStringNestedMessage: { k: { a: 7 }, j: { corecursive: {} } },
        oneofField: { case: "oneofString", value: "s" },
        optionalInt32Wrapper: 0,
        optionalStringWrapper: "w",
        optionalStruct: { a: 1, b: [true, null, { c: "d" }] },
        optionalValue: { kind: { case: "numberValue", value: 1.5 } },
        optionalTimestamp: { seconds: 10n, nanos: 5 },
      }),
    );

  it.each([
    [[], {}],
    [["optional_int32"], { optionalInt32: 1 }],
    [["optional_nested_message.a"], { optionalNestedMessage: { a: 2 } }],
    [
      ["optional_nested_message.corecursive.repeated_int32"],
      { optionalNestedMessage: { corecursive: { repeatedInt32: [4] } } },
    ],
    [["optional_nested_message.corecursive.optional_string"], {}], // nothing kept below: no empty parents
    [["optional_foreign_message.c"], {}], // unset in the message
    [["repeated_nested_message"], { repeatedNestedMessage: [{ a: 5 }, { corecursive: { optionalInt32: 6 } }] }],
    [["oneof_string"], { oneofField: { case: "oneofString", value: "s" } }],
    [["oneof_uint32", "oneof_nested_message.a"], {}],
    [["optional_int32_wrapper"], { optionalInt32Wrapper: 0 }], // set (to a wrapper holding 0)
    [["optional_int32_wrapper.value"], {}], // ... whose value field is at its default
    [["optional_string_wrapper.value"], { optionalStringWrapper: "w" }],
    [["optional_struct"], { optionalStruct: { a: 1, b: [true, null, { c: "d" }] } }],
    [["optional_struct.fields"], { optionalStruct: { a: 1, b: [true, null, { c: "d" }] } }],
    [["optional_value.number_value"], { optionalValue: { kind: { case: "numberValue", value: 1.5 } } }],
    [["optional_value.string_value"], {}],
    [["optional_timestamp.nanos"], { optionalTimestamp: { nanos: 5 } }],
    [["*"], "all"],
  ])("%j", (paths, expected) => {
    const m = full();
    const out = fieldMaskProject(T3, m, paths);
    expect(out).toEqual(expected === "all" ? m : t3(expected as Rec));
  });

  it.each([
    [["map_string_string.a"], { mapStringString: { a: "x" } }],
    [
      ["map_string_string.__proto__", "map_string_string.constructor"],
      { mapStringString: { ["__proto__"]: "p", constructor: "c" } },
    ],
    [["map_string_string.*"], { mapStringString: { a: "x", ["__proto__"]: "p", constructor: "c" } }],
    [["map_string_string.missing"], {}],
    [["map_string_nested_message.*.a"], { mapStringNestedMessage: { k: { a: 7 } } }], // j keeps nothing and goes
    [["map_string_nested_message.j"], { mapStringNestedMessage: { j: { corecursive: {} } } }],
    [["repeated_nested_message.*.a"], { repeatedNestedMessage: [{ a: 5 }, {}] }], // positions stay
    [["repeated_nested_message.*.corecursive.optional_string"], {}], // every element empty: the list goes
    [["optional_struct.fields.a"], { optionalStruct: { a: 1 } }],
    [["optional_struct.fields.b.list_value"], { optionalStruct: { b: [true, null, { c: "d" }] } }],
    [["optional_struct.fields.b.string_value"], {}],
  ])("%j with aip161", (paths, expected) => {
    const out = fieldMaskProject(T3, full(), paths, { aip161: true });
    expect(out).toEqual(t3(expected as Rec));
    const map = (out as Rec).mapStringString as Rec;
    if (Object.hasOwn(map, "__proto__")) expect(Object.getPrototypeOf(map)).toBe(Object.prototype);
  });

  it("copies: nothing of the result is shared with the input", () => {
    const m = full() as Rec;
    const out = fieldMaskProject(T3, m as never) as Rec;
    expect(out).toEqual(m);
    expect(out.optionalBytes).not.toBe(m.optionalBytes);
    expect(out.optionalNestedMessage).not.toBe(m.optionalNestedMessage);
    expect(out.optionalStruct).not.toBe(m.optionalStruct);
    expect((out.optionalStruct as Rec).b).not.toBe((m.optionalStruct as Rec).b);
    expect(out.mapStringString).not.toBe(m.mapStringString);
  });

  it("keeps explicit presence (proto2): set to the default is kept, unset is not", () => {
    const m = create(TestAllTypesProto2, { optionalInt32: 0 });
    const out = fieldMaskProject(TestAllTypesProto2, m, ["optional_int32", "optional_int64"]) as Rec;
    expect(Object.hasOwn(out, "optionalInt32")).toBe(true);
    expect(Object.hasOwn(out, "optionalInt64")).toBe(false);
    expect(out.optionalInt64).toBe(0n); // the prototype's default, as create() gives it
  });

  it("keeps unknown fields when copying the whole message, drops them in a projection", () => {
    const m = t3({ optionalInt32: 1 }) as Rec;
    m.$unknown = [{ no: 999, wireType: 0, data: new Uint8Array([8]) }];
    expect((fieldMaskProject(T3, m as never) as Rec).$unknown).toEqual(m.$unknown);
    expect((fieldMaskProject(T3, m as never, ["optional_int32"]) as Rec).$unknown).toBeUndefined();
  });

  it.each([
    [["repeated_nested_message.a"], "mask-path"],
    [["map_string_string.a"], "mask-path"],
    [["no_such"], "mask-path"],
    ["optional_int32", "json-type"],
  ])("rejects the mask %j (%s)", (mask, rule) => {
    expect(catchWkt(() => fieldMaskProject(T3, t3(), mask as never))).toMatchObject({ rule, jsonPath: "$" });
  });

  it("rejects a message of another type, a cycle, and a list that is not one", () => {
    expect(catchWkt(() => fieldMaskProject(T3, create(DurationSchema) as never))).toMatchObject({
      rule: "json-type",
      jsonPath: "$",
    });
    expect(catchWkt(() => fieldMaskProject(T3, null as never))).toMatchObject({ rule: "json-type" });
    const m = t3() as Rec;
    m.recursiveMessage = m;
    expect(catchWkt(() => fieldMaskProject(T3, m as never))).toMatchObject({ rule: "depth" });
    expect(catchWkt(() => fieldMaskProject(T3, m as never, ["recursive_message.recursive_message"]))).toMatchObject({
      rule: "depth",
    });
    expect(catchWkt(() => fieldMaskProjectEach(T3, {} as never, []))).toMatchObject({ rule: "json-type" });
    expect(catchWkt(() => fieldMaskProjectEach(T3, [t3(), create(DurationSchema)] as never, []))).toMatchObject({
      rule: "json-type",
      jsonPath: "$[1]",
    });
  });
});

describe("fieldMaskMerge", () => {
  const merge = (target: Rec, source: Rec, mask: string[] | undefined, opts?: Rec) =>
    fieldMaskMerge(T3, deepFreeze(t3(target)), deepFreeze(t3(source)), mask, opts as never);

  it.each([
    [
      "a scalar",
      { optionalInt32: 1, optionalString: "keep" },
      { optionalInt32: 2, optionalString: "ignored" },
      ["optional_int32"],
      {},
      { optionalInt32: 2, optionalString: "keep" },
    ],
    ["a scalar reset by its default", { optionalInt32: 1 }, {}, ["optional_int32"], {}, {}],
    [
      "unmasked source fields are ignored",
      { optionalInt32: 1 },
      { optionalInt64: 5n, repeatedInt32: [1] },
      ["optional_int32"],
      {},
      {},
    ],
    [
      "a message merged",
      { optionalNestedMessage: { a: 1, corecursive: { optionalInt32: 2 } } },
      { optionalNestedMessage: { a: 3 } },
      ["optional_nested_message"],
      {},
      { optionalNestedMessage: { a: 3, corecursive: { optionalInt32: 2 } } },
    ],
    [
      "a message replaced",
      { optionalNestedMessage: { a: 1, corecursive: { optionalInt32: 2 } } },
      { optionalNestedMessage: { a: 3 } },
      ["optional_nested_message"],
      { replaceMessageFields: true },
      { optionalNestedMessage: { a: 3 } },
    ],
    [
      "a message unset in the source is reset (merge)",
      { optionalNestedMessage: { a: 1 } },
      {},
      ["optional_nested_message"],
      {},
      {},
    ],
    [
      "a message unset in the source is reset (replace)",
      { optionalNestedMessage: { a: 1 } },
      {},
      ["optional_nested_message"],
      { replaceMessageFields: true },
      {},
    ],
    [
      "a message merged deeply: lists inside are appended",
      { optionalNestedMessage: { corecursive: { repeatedInt32: [1] } } },
      { optionalNestedMessage: { corecursive: { repeatedInt32: [2] } } },
      ["optional_nested_message"],
      {},
      { optionalNestedMessage: { corecursive: { repeatedInt32: [1, 2] } } },
    ],
    [
      "... or replaced",
      { optionalNestedMessage: { corecursive: { repeatedInt32: [1] } } },
      { optionalNestedMessage: { corecursive: { repeatedInt32: [2] } } },
      ["optional_nested_message"],
      { replaceRepeatedFields: true },
      { optionalNestedMessage: { corecursive: { repeatedInt32: [2] } } },
    ],
    [
      "a path into a message the target lacks creates it",
      {},
      { optionalNestedMessage: { a: 1, corecursive: {} } },
      ["optional_nested_message.a"],
      {},
      { optionalNestedMessage: { a: 1 } },
    ],
    ["a path into a message neither has", {}, {}, ["optional_nested_message.a"], {}, {}],
    [
      "a path into a message the source lacks resets the sub-field",
      { optionalNestedMessage: { a: 1, corecursive: {} } },
      {},
      ["optional_nested_message.a"],
      {},
      { optionalNestedMessage: { corecursive: {} } },
    ],
    [
      "a list appended",
      { repeatedInt32: [1] },
      { repeatedInt32: [2, 3] },
      ["repeated_int32"],
      {},
      { repeatedInt32: [1, 2, 3] },
    ],
    [
      "a list replaced",
      { repeatedInt32: [1] },
      { repeatedInt32: [2, 3] },
      ["repeated_int32"],
      { replaceRepeatedFields: true },
      { repeatedInt32: [2, 3] },
    ],
    ["an empty list resets (append mode)", { repeatedInt32: [1] }, {}, ["repeated_int32"], {}, {}],
    [
      "a list of messages appended",
      { repeatedNestedMessage: [{ a: 1 }] },
      { repeatedNestedMessage: [{ a: 2 }] },
      ["repeated_nested_message"],
      {},
      { repeatedNestedMessage: [{ a: 1 }, { a: 2 }] },
    ],
    [
      "map entries added",
      { mapStringString: { a: "1", b: "2" } },
      { mapStringString: { b: "3", c: "4" } },
      ["map_string_string"],
      {},
      { mapStringString: { a: "1", b: "3", c: "4" } },
    ],
    [
      "map entries overwrite, not merge",
      { mapStringNestedMessage: { k: { a: 1, corecursive: {} } } },
      { mapStringNestedMessage: { k: { a: 2 } } },
      ["map_string_nested_message"],
      {},
      { mapStringNestedMessage: { k: { a: 2 } } },
    ],
    [
      "a map replaced",
      { mapStringString: { a: "1" } },
      { mapStringString: { c: "4" } },
      ["map_string_string"],
      { replaceRepeatedFields: true },
      { mapStringString: { c: "4" } },
    ],
    [
      "a oneof member set",
      { oneofField: { case: "oneofUint32", value: 1 } },
      { oneofField: { case: "oneofString", value: "s" } },
      ["oneof_string"],
      {},
      { oneofField: { case: "oneofString", value: "s" } },
    ],
    [
      "a oneof member the target does not hold is not cleared",
      { oneofField: { case: "oneofUint32", value: 1 } },
      {},
      ["oneof_string"],
      {},
      { oneofField: { case: "oneofUint32", value: 1 } },
    ],
    [
      "a oneof member the target holds is cleared",
      { oneofField: { case: "oneofUint32", value: 1 } },
      {},
      ["oneof_uint32"],
      {},
      {},
    ],
    [
      "into a oneof message member",
      { oneofField: { case: "oneofNestedMessage", value: { a: 1, corecursive: {} } } },
      { oneofField: { case: "oneofNestedMessage", value: { a: 2 } } },
      ["oneof_nested_message.a"],
      {},
      { oneofField: { case: "oneofNestedMessage", value: { a: 2, corecursive: {} } } },
    ],
    [
      "a wrapper merged keeps the target's value when the source's is 0 (protobuf merge)",
      { optionalInt32Wrapper: 5 },
      { optionalInt32Wrapper: 0 },
      ["optional_int32_wrapper"],
      {},
      { optionalInt32Wrapper: 5 },
    ],
    [
      "a wrapper replaced",
      { optionalInt32Wrapper: 5 },
      { optionalInt32Wrapper: 0 },
      ["optional_int32_wrapper"],
      { replaceMessageFields: true },
      { optionalInt32Wrapper: 0 },
    ],
    [
      "a wrapper's value",
      { optionalInt32Wrapper: 5 },
      { optionalInt32Wrapper: 0 },
      ["optional_int32_wrapper.value"],
      {},
      { optionalInt32Wrapper: 0 },
    ],
    [
      "a Struct merged by key",
      { optionalStruct: { a: 1, b: { x: 1 } } },
      { optionalStruct: { b: { y: 2 }, c: 3 } },
      ["optional_struct"],
      {},
      { optionalStruct: { a: 1, b: { y: 2 }, c: 3 } },
    ],
    [
      "a Struct replaced",
      { optionalStruct: { a: 1 } },
      { optionalStruct: { c: 3 } },
      ["optional_struct"],
      { replaceMessageFields: true },
      { optionalStruct: { c: 3 } },
    ],
    ["an empty mask changes nothing", { optionalInt32: 1 }, { optionalInt32: 2 }, [], {}, { optionalInt32: 1 }],
    [
      "`*` is full replacement",
      { optionalInt32: 1, repeatedInt32: [1] },
      { repeatedInt32: [2] },
      ["*"],
      {},
      { repeatedInt32: [2] },
    ],
    [
      "no mask: all fields, merged and appended",
      { optionalInt32: 1, repeatedInt32: [1] },
      { repeatedInt32: [2] },
      undefined,
      {},
      { repeatedInt32: [1, 2] },
    ],
  ])("%s", (_, target, source, mask, opts, expected) => {
    expect(merge(target, source, mask, opts)).toEqual(t3(expected));
  });

  it.each([
    [
      "a map entry set",
      { mapStringString: { a: "1", b: "2" } },
      { mapStringString: { a: "3", z: "9" } },
      ["map_string_string.a"],
      { mapStringString: { a: "3", b: "2" } },
    ],
    [
      "a map entry removed",
      { mapStringString: { a: "1", b: "2" } },
      {},
      ["map_string_string.a"],
      { mapStringString: { b: "2" } },
    ],
    [
      "a quoted key",
      {},
      { mapStringString: { "team name": "x" } },
      ["map_string_string.`team name`"],
      { mapStringString: { "team name": "x" } },
    ],
    [
      "__proto__ as a key",
      {},
      { mapStringString: { ["__proto__"]: "x" } },
      ["map_string_string.__proto__"],
      { mapStringString: { ["__proto__"]: "x" } },
    ],
    [
      "into a map value",
      { mapStringNestedMessage: { k: { a: 1, corecursive: {} } } },
      { mapStringNestedMessage: { k: { a: 2 } } },
      ["map_string_nested_message.k.a"],
      { mapStringNestedMessage: { k: { a: 2, corecursive: {} } } },
    ],
    [
      "into a map value the target lacks",
      {},
      { mapStringNestedMessage: { k: { a: 2, corecursive: {} } } },
      ["map_string_nested_message.k.a"],
      { mapStringNestedMessage: { k: { a: 2 } } },
    ],
    [
      "an integer key",
      { mapInt32Int32: { 7: 1 } },
      { mapInt32Int32: { 7: 2 } },
      ["map_int32_int32.007"],
      { mapInt32Int32: { 7: 2 } },
    ],
  ])("AIP-161: %s", (_, target, source, mask, expected) => {
    const out = fieldMaskMerge(T3, deepFreeze(t3(target)), deepFreeze(t3(source)), mask, { aip161: true }) as Rec;
    expect(out).toEqual(t3(expected));
    expect(Object.getPrototypeOf(out.mapStringString)).toBe(Object.prototype);
  });

  it("sees explicit presence (proto2): an unset source field deletes the target's", () => {
    const out = fieldMaskMerge(
      TestAllTypesProto2,
      create(TestAllTypesProto2, { optionalInt32: 5 }),
      create(TestAllTypesProto2),
      ["optional_int32"],
    ) as Rec;
    expect(Object.hasOwn(out, "optionalInt32")).toBe(false);
    const set = fieldMaskMerge(
      TestAllTypesProto2,
      create(TestAllTypesProto2),
      create(TestAllTypesProto2, { optionalInt32: 0 }),
      ["optional_int32"],
    ) as Rec;
    expect(Object.hasOwn(set, "optionalInt32")).toBe(true);
  });

  it("shares nothing with its inputs", () => {
    const target = deepFreeze(t3({ optionalNestedMessage: { a: 1 }, repeatedInt32: [1] })) as Rec;
    const source = deepFreeze(t3({ optionalForeignMessage: { c: 1 }, optionalBytes: new Uint8Array([1]) })) as Rec;
    const out = fieldMaskMerge(T3, target as never, source as never, [
      "optional_foreign_message",
      "optional_bytes",
    ]) as Rec;
    expect(out.optionalNestedMessage).not.toBe(target.optionalNestedMessage);
    expect(out.repeatedInt32).not.toBe(target.repeatedInt32);
    expect(out.optionalForeignMessage).not.toBe(source.optionalForeignMessage);
    expect(out.optionalBytes).not.toBe(source.optionalBytes);
    expect(out.optionalBytes).toEqual(source.optionalBytes);
  });

  it("keeps the target's unknown fields; `*` takes the source's; a merged message appends them", () => {
    const target = t3({ optionalInt32: 1, optionalNestedMessage: { a: 1 } }) as Rec;
    const source = t3({ optionalNestedMessage: { a: 2 } }) as Rec;
    target.$unknown = [{ no: 900, wireType: 0, data: new Uint8Array([1]) }];
    source.$unknown = [{ no: 901, wireType: 0, data: new Uint8Array([2]) }];
    (target.optionalNestedMessage as Rec).$unknown = [{ no: 902, wireType: 0, data: new Uint8Array([3]) }];
    (source.optionalNestedMessage as Rec).$unknown = [{ no: 903, wireType: 0, data: new Uint8Array([4]) }];
    const out = fieldMaskMerge(T3, target as never, source as never, ["optional_nested_message"]) as Rec;
    expect((out.$unknown as Rec[]).map((u) => u.no)).toEqual([900]);
    expect(((out.optionalNestedMessage as Rec).$unknown as Rec[]).map((u) => u.no)).toEqual([902, 903]);
    expect(
      ((fieldMaskMerge(T3, target as never, source as never, ["*"]) as Rec).$unknown as Rec[]).map((u) => u.no),
    ).toEqual([901]);
  });

  it.each([
    [["repeated_nested_message.*.a"], { aip161: true }, "read masks only"],
    [["map_string_string.*"], { aip161: true }, "read masks only"],
    [["repeated_nested_message.a"], {}, "last position"],
    [["map_string_string.a"], {}, "last position"],
  ])("rejects the update mask %j", (mask, opts, what) => {
    const e = catchWkt(() => fieldMaskMerge(T3, t3(), t3(), mask, opts));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$" });
    expect(e.detail).toContain(what);
  });

  it("rejects messages of another type", () => {
    expect(catchWkt(() => fieldMaskMerge(T3, t3(), create(DurationSchema) as never, []))).toMatchObject({
      rule: "json-type",
      jsonPath: "$",
    });
    expect(catchWkt(() => fieldMaskMerge(T3, {} as never, t3(), []))).toMatchObject({
      rule: "json-type",
      jsonPath: "$",
    });
  });
});

describe("jsonProject / jsonProjectEach", () => {
  const hook = () =>
    deepFreeze({
      id: 12345678,
      name: "web",
      active: true,
      events: ["push", "pull_request"],
      config: { url: "https://example.com/webhook", content_type: "json", insecure_ssl: "0", secret: "********" },
      authors: [{ given_name: "Ada", family_name: "L" }, { given_name: "Bo" }, "anonymous", null],
      labels: { env: "prod", "team name": "core", "a.b": 1, "*": 2 },
      nothing: null,
    });

  it.each([
    [[], {}],
    [["id", "events"], { id: 12345678, events: ["push", "pull_request"] }],
    [["config.url", "config.secret"], { config: { url: "https://example.com/webhook", secret: "********" } }],
    [["config.nope"], {}],
    [["nothing"], { nothing: null }], // null is a value
    [["nothing.x"], {}],
    [["name.x"], {}], // below a string: nothing
    [["authors.*.given_name"], { authors: [{ given_name: "Ada" }, { given_name: "Bo" }, null, null] }],
    [["authors.*.family_name"], { authors: [{ family_name: "L" }, {}, null, null] }],
    [["authors.*.x"], {}],
    [["authors.*"], { authors: [{ given_name: "Ada", family_name: "L" }, { given_name: "Bo" }, "anonymous", null] }],
    [["labels.env", "labels.`team name`", "labels.`a.b`"], { labels: { env: "prod", "team name": "core", "a.b": 1 } }],
    [["labels.`*`"], { labels: { "*": 2 } }],
    [["labels.*"], { labels: { env: "prod", "team name": "core", "a.b": 1, "*": 2 } }],
    [
      ["config.*"],
      { config: { url: "https://example.com/webhook", content_type: "json", insecure_ssl: "0", secret: "********" } },
    ],
  ])("%j", (mask, expected) => {
    expect(jsonProject(hook(), mask)).toEqual(expected);
  });

  it("keeps the object's key order, not the mask's", () => {
    expect(Object.keys(jsonProject(hook(), ["events", "id", "name"]))).toEqual(["id", "name", "events"]);
    expect(Object.keys(jsonProject(hook(), ["labels.*"]).labels!)).toEqual(["env", "team name", "a.b", "*"]);
  });

  it("copies everything it keeps", () => {
    const h = hook();
    const out = jsonProject(h);
    expect(out).toEqual(h);
    expect(out.config).not.toBe(h.config);
    expect(out.events).not.toBe(h.events);
    expect(jsonProject(h, ["*"])).toEqual(h);
  });

  it("reads lowerCamel JSON names with names: json, and keeps map keys literal", () => {
    const flow = {
      dateCreated: "2024-01-01T00:00:00Z",
      dateUpdated: null,
      friendlyName: "f",
      labels: { team_name: 1, teamName: 2 },
    };
    expect(jsonProject(flow, ["date_created", "date_updated"], { names: "json" })).toEqual({
      dateCreated: "2024-01-01T00:00:00Z",
      dateUpdated: null,
    });
    expect(jsonProject(flow, ["date_created"])).toEqual({}); // literal by default
    expect(jsonProject({ labels: { team_name: 1 } }, ["labels.team_name"], { names: "json" })).toEqual({
      labels: { team_name: 1 },
    });
  });

  it("rejects a named segment on an array, naming the path", () => {
    const e = catchWkt(() => jsonProject(hook(), ["authors.given_name"]));
    expect(e).toMatchObject({ rule: "mask-path", jsonPath: "$" });
    expect(e.detail).toContain('path "authors.given_name"');
    expect(e.detail).toContain("by position");
    expect(catchWkt(() => jsonProject(hook(), ["authors.0"])).detail).toContain('segment "0"');
  });

  it("projects each element of a list with one mask", () => {
    const list = [hook(), hook()];
    expect(jsonProjectEach(list, ["id"])).toEqual([{ id: 12345678 }, { id: 12345678 }]);
    expect(catchWkt(() => jsonProjectEach([hook(), 3] as never, ["id"]))).toMatchObject({
      rule: "json-type",
      jsonPath: "$[1]",
    });
  });

  it.each([
    [[1, 2], "json-type"],
    [null, "json-type"],
    ["{}", "json-type"],
    [new Date(0), "json-type"],
  ])("rejects the resource %j", (obj, rule) => {
    expect(catchWkt(() => jsonProject(obj as never, ["a"]))).toMatchObject({ rule, jsonPath: "$" });
  });

  it("rejects bad options", () => {
    expect(catchWkt(() => jsonProject({}, [], { names: "camel" as never }))).toMatchObject({ rule: "range" });
    expect(catchWkt(() => jsonProject({}, [], { maxDepth: 0 }))).toMatchObject({ rule: "range" });
  });

  // The count options answer as everywhere (internal/options.ts): rule `range` at `$`, typeName "options".
  it.each([
    ["maxDepth", 0, false], // min - 1
    ["maxDepth", 1, true], // min
    ["maxDepth", 1.5, false],
    ["maxDepth", Infinity, false], // a depth is finite
    ["maxDepth", "2", false],
  ])("jsonProject's %s %j (accepted: %s)", (name, value, ok) => {
    const call = () => jsonProject({ a: 1 }, ["a"], { [name]: value } as never);
    if (ok) expect(call()).toEqual({ a: 1 });
    else expect(catchWkt(call)).toMatchObject({ rule: "range", jsonPath: "$", typeName: "options" });
  });

  it("stops deep nesting with a depth error", () => {
    let deep: Rec = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(catchWkt(() => jsonProject(deep))).toMatchObject({ rule: "depth", jsonPath: "$" });
    expect(catchWkt(() => jsonProject(deep, ["a"]))).toMatchObject({ rule: "depth" });
    expect(catchWkt(() => jsonOmit(deep, ["b"]))).toMatchObject({ rule: "depth" });
    expect(catchWkt(() => jsonMerge({}, deep, ["a"]))).toMatchObject({ rule: "depth" });
    expect(jsonProject({ a: { b: { c: 1 } } }, undefined, { maxDepth: 3 })).toEqual({ a: { b: { c: 1 } } });
    expect(catchWkt(() => jsonProject({ a: { b: { c: {} } } }, undefined, { maxDepth: 3 }))).toMatchObject({
      rule: "depth",
    });
  });
});

describe("jsonOmit / jsonOmitEach", () => {
  const repo = () =>
    deepFreeze({
      id: 1,
      name: "r",
      owner: { login: "o", avatar_url: "a" },
      topics: ["x"],
      hooks_url: "h",
      forks: [{ id: 2, owner: { login: "p" } }],
    });

  it.each([
    [[], repo()],
    [["owner"], { id: 1, name: "r", topics: ["x"], hooks_url: "h", forks: [{ id: 2, owner: { login: "p" } }] }],
    [
      ["owner.avatar_url", "hooks_url"],
      { id: 1, name: "r", owner: { login: "o" }, topics: ["x"], forks: [{ id: 2, owner: { login: "p" } }] },
    ],
    [
      ["forks.*.owner"],
      { id: 1, name: "r", owner: { login: "o", avatar_url: "a" }, topics: ["x"], hooks_url: "h", forks: [{ id: 2 }] },
    ],
    [
      ["topics.*"],
      {
        id: 1,
        name: "r",
        owner: { login: "o", avatar_url: "a" },
        topics: [],
        hooks_url: "h",
        forks: [{ id: 2, owner: { login: "p" } }],
      },
    ],
    [["missing", "name.x", "id.y"], repo()],
    [["*"], {}],
  ])("%j", (mask, expected) => {
    expect(jsonOmit(repo(), mask)).toEqual(expected);
  });

  it("is the complement of a projection for top-level paths", () => {
    const r = repo();
    const mask = ["owner", "topics", "nope"];
    expect({ ...jsonProject(r, mask), ...jsonOmit(r, mask) }).toEqual(r);
  });

  it("applies to each element of a list", () => {
    expect(jsonOmitEach([repo(), repo()], ["owner", "forks", "topics", "hooks_url"])).toEqual([
      { id: 1, name: "r" },
      { id: 1, name: "r" },
    ]);
  });

  it("rejects a named segment on an array", () => {
    expect(catchWkt(() => jsonOmit(repo(), ["forks.owner"]))).toMatchObject({ rule: "mask-path", jsonPath: "$" });
  });
});

describe("jsonMerge", () => {
  const stored = () =>
    deepFreeze({
      id: 1,
      name: "web",
      active: true,
      events: ["push"],
      config: { url: "https://a.example", content_type: "json", secret: "s3cr3t", insecure_ssl: "0" },
      created_at: "2024-01-01T00:00:00Z",
    });

  it.each([
    ["a scalar", { active: false }, ["active"], {}, { active: false }],
    ["a masked key the patch lacks is removed", {}, ["name"], {}, { name: undefined }],
    ["unmasked patch keys are ignored", { active: false, id: 9 }, ["active"], {}, { active: false }],
    ["null is a value", { name: null }, ["name"], {}, { name: null }],
    [
      "an object merged deeply",
      { config: { url: "https://b.example" } },
      ["config"],
      {},
      { config: { url: "https://b.example", content_type: "json", secret: "s3cr3t", insecure_ssl: "0" } },
    ],
    [
      "an object replaced",
      { config: { url: "https://b.example" } },
      ["config"],
      { replaceMessageFields: true },
      { config: { url: "https://b.example" } },
    ],
    ["an array replaced (a PATCH's default)", { events: ["issues"] }, ["events"], {}, { events: ["issues"] }],
    ["an array replaced", { events: ["issues"] }, ["events"], { replaceRepeatedFields: true }, { events: ["issues"] }],
    [
      "an array appended (FieldMaskUtil's merge)",
      { events: ["issues"] },
      ["events"],
      { replaceRepeatedFields: false },
      { events: ["push", "issues"] },
    ],
    ["an empty array resets", { events: [] }, ["events"], {}, { events: [] }],
    [
      "a sub-path",
      { config: { url: "https://b.example", secret: "x" } },
      ["config.url"],
      {},
      { config: { url: "https://b.example", content_type: "json", secret: "s3cr3t", insecure_ssl: "0" } },
    ],
    [
      "a sub-path removed",
      { config: {} },
      ["config.secret"],
      {},
      { config: { url: "https://a.example", content_type: "json", insecure_ssl: "0" } },
    ],
    ["a new key", { description: "d" }, ["description"], {}, { description: "d" }],
    ["a sub-path into a new object", { meta: { a: 1, b: 2 } }, ["meta.a"], {}, { meta: { a: 1 } }],
    ["a sub-path through a scalar replaces it", { name: { first: "x" } }, ["name.first"], {}, { name: { first: "x" } }],
    ["an empty mask", { active: false }, [], {}, {}],
  ])("%s", (_, patch, mask, opts, change) => {
    const out = jsonMerge(stored(), deepFreeze(patch), mask, opts) as Rec;
    const expected: Rec = { ...stored(), ...change };
    for (const k of Object.keys(expected)) if (expected[k] === undefined) delete expected[k];
    expect(out).toEqual(expected);
  });

  it("with no mask updates every key of both: the patch is the new resource, merged", () => {
    expect(jsonMerge({ a: 1, b: { x: 1 }, c: [1] }, { b: { y: 2 }, c: [2], d: 4 })).toEqual({
      b: { x: 1, y: 2 },
      c: [2],
      d: 4,
    });
    expect(jsonMerge({ c: [1] }, { c: [2] }, undefined, { replaceRepeatedFields: false })).toEqual({ c: [1, 2] });
    expect(catchWkt(() => jsonMerge({}, {}, undefined, { requireMask: true }))).toMatchObject({
      rule: "mask-path",
      jsonPath: "$",
    });
  });

  it("`*` is full replacement", () => {
    expect(jsonMerge(stored(), { id: 2 }, ["*"])).toEqual({ id: 2 });
  });

  it("rejects wildcards inside an update mask, and named segments on arrays", () => {
    expect(catchWkt(() => jsonMerge(stored(), {}, ["events.*"])).detail).toContain("read masks only");
    expect(catchWkt(() => jsonMerge(stored(), {}, ["events.x"])).detail).toContain("by position");
    expect(catchWkt(() => jsonMerge({}, { events: [] }, ["events.x"])).detail).toContain("by position");
  });

  it("merges under JSON names", () => {
    const flow = { friendlyName: "a", dateUpdated: null, definition: { states: [] } };
    expect(
      jsonMerge(flow, { friendlyName: "b", definition: { x: 1 } }, ["friendly_name", "date_updated"], {
        names: "json",
      }),
    ).toEqual({
      friendlyName: "b",
      definition: { states: [] },
    });
  });

  it("shares nothing with its inputs", () => {
    const patch = deepFreeze({ config: { url: "u", nested: { a: [1] } }, events: ["x"] });
    const out = jsonMerge(stored(), patch, ["config", "events"], { replaceMessageFields: true }) as Rec;
    expect(out.config).not.toBe(patch.config);
    expect((out.config as Rec).nested).not.toBe(patch.config.nested);
    (out.events as unknown[]).push("y");
    ((out.config as Rec).nested as Rec).a = 2;
  });
});

describe("prototype safety", () => {
  it("reads only own properties: constructor and prototype are ordinary names", () => {
    expect(jsonProject({}, ["constructor", "prototype", "__proto__", "toString", "hasOwnProperty.call"])).toEqual({});
    expect(jsonProject({ a: {} }, ["a.constructor.prototype"])).toEqual({});
    expect(jsonOmit({ a: 1 }, ["constructor"])).toEqual({ a: 1 });
  });

  it("keeps __proto__ as an own property, on read and on write", () => {
    const parsed = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
    ) as Rec;
    for (const out of [
      jsonProject(parsed, ["__proto__", "constructor.prototype"]) as Rec,
      jsonMerge({}, parsed, ["__proto__", "constructor"]) as Rec,
      jsonMerge({}, parsed, ["__proto__.polluted", "constructor.prototype.polluted"]) as Rec,
      jsonMerge({}, parsed) as Rec,
      jsonOmit(parsed, ["x"]) as Rec,
    ]) {
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      expect(Object.hasOwn(out, "__proto__")).toBe(true);
      expect(out.__proto__).toEqual({ polluted: true });
      expect((out.constructor as unknown as Rec).prototype).toEqual({ polluted: true });
    }
    expect(({} as Rec).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("writes __proto__ map keys of messages as own properties", () => {
    const source = t3({ mapStringString: JSON.parse('{"__proto__": "x"}') });
    const out = fieldMaskMerge(T3, t3(), source, ["map_string_string.__proto__"], { aip161: true }) as Rec;
    expect(Object.hasOwn(out.mapStringString as object, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(out.mapStringString)).toBe(Object.prototype);
  });
});

describe("fieldMaskFromPatch", () => {
  it.each([
    [{}, undefined, []],
    [{ active: false, config: { url: "u" } }, undefined, ["active", "config"]],
    [{ config: { url: "u", content_type: "json" } }, { depth: 2 }, ["config.url", "config.content_type"]],
    [{ config: {}, events: ["x"], a: { b: { c: 1 } } }, { depth: 2 }, ["config", "events", "a.b"]],
    [{ a: { b: { c: 1, d: [] } } }, { depth: Infinity }, ["a.b.c", "a.b.d"]],
    [{ "team name": 1, "0": 2, "a`b": 3, "*": 4, "": 5 }, undefined, ["0", "`team name`", "`a``b`", "`*`", "``"]],
    [
      { dateCreated: 1, content_type: 2, url: 3, Foo: 4 },
      { names: "json" },
      ["date_created", "content_type", "url", "_foo"],
    ],
  ])("%j %j → %j", (patch, opts, paths) => {
    expect(fieldMaskFromPatch(patch, opts as never).paths).toEqual(paths);
  });

  it("is the mask of a PATCH handler: jsonMerge(stored, body, fieldMaskFromPatch(body))", () => {
    const stored = { a: 1, b: "x", c: { d: 1, e: 2 } };
    const body = { b: "y", c: { d: 3 } };
    expect(jsonMerge(stored, body, fieldMaskFromPatch(body))).toEqual({ a: 1, b: "y", c: { d: 3, e: 2 } });
    expect(jsonMerge(stored, body, fieldMaskFromPatch(body), { replaceMessageFields: true })).toEqual({
      a: 1,
      b: "y",
      c: { d: 3 },
    });
    // names: "json" round-trips
    const flow = { friendlyName: "a", commitMessage: "m" };
    const edit = { commitMessage: "n" };
    expect(jsonMerge(flow, edit, fieldMaskFromPatch(edit, { names: "json" }), { names: "json" })).toEqual({
      friendlyName: "a",
      commitMessage: "n",
    });
  });

  it.each([
    [[], undefined, "json-type"],
    [null, undefined, "json-type"],
    [{}, { depth: 0 }, "range"],
    [{}, { depth: 1.5 }, "range"],
    [{}, { names: "x" }, "range"],
  ])("rejects %j %j", (patch, opts, rule) => {
    expect(catchWkt(() => fieldMaskFromPatch(patch as never, opts as never))).toMatchObject({ rule, jsonPath: "$" });
  });

  it.each([
    ["depth", 0, false], // min - 1
    ["depth", 1, true], // min
    ["depth", Infinity, true],
    ["depth", NaN, false],
    ["maxPaths", -1, false],
    ["maxPaths", 1, true],
    ["maxPaths", Infinity, true],
    ["maxPaths", 0.5, false],
    ["maxLength", -1, false],
    ["maxLength", 1, true],
    ["maxLength", Infinity, true],
    ["maxLength", null, false],
  ])("fieldMaskFromPatch's %s %j (accepted: %s)", (name, value, ok) => {
    const call = () => fieldMaskFromPatch({ a: 1 }, { [name]: value } as never);
    if (ok) expect(call().paths).toEqual(["a"]);
    else expect(catchWkt(call)).toMatchObject({ rule: "range", jsonPath: "$", typeName: "options" });
  });

  it("stops at 100 levels", () => {
    let deep: Rec = { x: 1 };
    for (let i = 0; i < 200; i++) deep = { a: deep };
    expect(catchWkt(() => fieldMaskFromPatch(deep, { depth: Infinity }))).toMatchObject({ rule: "depth" });
    expect(fieldMaskFromPatch(deep, { depth: 50 }).paths).toHaveLength(1);
  });
});
