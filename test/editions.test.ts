// Round trips that hold under the editions features that touch JSON (issue 26, "Editions"): closed enums
// (`enum_type = CLOSED`), `json_format = LEGACY_BEST_EFFORT` (JSON names that clash) and LEGACY_REQUIRED
// (proto2 `required`). Each schema is an editions 2023 FileDescriptorProto built by hand and given to
// protobuf-es's createFileRegistry, so that the feature under test is the only thing out of the ordinary.

import {
  create,
  createFileRegistry,
  createRegistry,
  fromBinary,
  fromJson as pbFromJson,
  type DescMessage,
  type JsonObject,
  type JsonValue,
} from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import {
  anyPack,
  AnySchema,
  Edition,
  FeatureSet_EnumType,
  FeatureSet_FieldPresence,
  FeatureSet_JsonFormat,
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";
import Ajv2020 from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fromJson,
  fromJsonString,
  jsonPatch,
  jsonSchema,
  mergeFromJson,
  mergeFromJsonString,
  patch,
  patchFromJsonString,
  toJson,
  toJsonString,
  validateJson,
  validateJsonString,
  type PatchOptions,
} from "../src/index.js";
import { TestAllRequiredTypesProto2 } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

const INT32 = 5;
const STRING = 9;
const MESSAGE = 11;
const ENUM = 14;
const OPTIONAL = 1;
const REPEATED = 3;

type FileInit = Parameters<typeof create<typeof FileDescriptorProtoSchema>>[1];

/** The registry of one editions 2023 file of package `ed`. */
function editions(name: string, init: FileInit) {
  const file = create(FileDescriptorProtoSchema, {
    name: `ed/${name}.proto`,
    package: "ed",
    syntax: "editions",
    edition: Edition.EDITION_2023,
    ...init,
  });
  return createFileRegistry(create(FileDescriptorSetSchema, { file: [file] }));
}

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, formats: { "date-time": true } });

/** Whether `json` is valid against jsonSchema(schema, options). */
function schemaAccepts(schema: DescMessage, json: JsonValue, options: Parameters<typeof jsonSchema>[1]): boolean {
  return ajv.compile(jsonSchema(schema, options))(json) as boolean;
}

// ---------------------------------------------------------------------------------------------------------
describe("closed enums: what toJson writes, fromJson reads back", () => {
  const registry = editions("closed", {
    enumType: [
      {
        name: "Closed",
        value: [
          { name: "CLOSED_ZERO", number: 0 },
          { name: "CLOSED_ONE", number: 1 },
        ],
        options: { features: { enumType: FeatureSet_EnumType.CLOSED } },
      },
    ],
    messageType: [
      {
        name: "Holder",
        field: [
          {
            name: "closed_single",
            number: 1,
            type: ENUM,
            label: OPTIONAL,
            typeName: ".ed.Closed",
            jsonName: "closedSingle",
          },
          {
            name: "closed_list",
            number: 2,
            type: ENUM,
            label: REPEATED,
            typeName: ".ed.Closed",
            jsonName: "closedList",
          },
          {
            name: "closed_map",
            number: 3,
            type: MESSAGE,
            label: REPEATED,
            typeName: ".ed.Holder.ClosedMapEntry",
            jsonName: "closedMap",
          },
        ],
        nestedType: [
          {
            name: "ClosedMapEntry",
            field: [
              { name: "key", number: 1, type: STRING, label: OPTIONAL, jsonName: "key" },
              { name: "value", number: 2, type: ENUM, label: OPTIONAL, typeName: ".ed.Closed", jsonName: "value" },
            ],
            options: { mapEntry: true },
          },
        ],
        extensionRange: [{ start: 100, end: 200 }],
      },
    ],
    extension: [
      {
        name: "closed_ext_list",
        number: 101,
        type: ENUM,
        label: REPEATED,
        typeName: ".ed.Closed",
        extendee: ".ed.Holder",
        jsonName: "closedExtList",
      },
    ],
  });
  const Holder = registry.getMessage("ed.Holder")!;
  const read = { registry };

  /** Binary that holds the undeclared number 5 in every field, as a peer with a newer enum writes it. */
  function binaryWithFive(): Uint8Array {
    const w = new BinaryWriter();
    w.tag(1, WireType.Varint).int32(5);
    w.tag(2, WireType.Varint).int32(1).tag(2, WireType.Varint).int32(5);
    w.tag(3, WireType.LengthDelimited).fork().tag(1, WireType.LengthDelimited).string("k");
    w.tag(2, WireType.Varint).int32(5).join();
    w.tag(101, WireType.Varint).int32(5).tag(101, WireType.Varint).int32(1);
    return w.finish();
  }

  it("binary -> fromBinary -> toJson -> fromJson gives the same message (list, map, extension)", () => {
    // "Whatever we write, we must read back" (issue 26). protobuf-es's binary reader keeps 5 in the list and
    // the map; the singular field's 5 goes to the unknown fields, which JSON does not carry.
    const m = fromBinary(Holder, binaryWithFive());
    const json = toJson(Holder, m, read) as JsonObject;
    expect(json["closedList"]).toEqual(["CLOSED_ONE", 5]);
    expect(json["closedMap"]).toEqual({ k: 5 });
    expect(json["closedSingle"]).toBeUndefined();
    expect(json["[ed.closed_ext_list]"]).toEqual([5, "CLOSED_ONE"]);
    const back = fromJson(Holder, json, read);
    expect(toJson(Holder, back, read)).toEqual(json);
    const r = back as unknown as Record<string, unknown>;
    const o = m as unknown as Record<string, unknown>;
    expect(r["closedList"]).toEqual(o["closedList"]);
    expect(r["closedMap"]).toEqual(o["closedMap"]);
    // As text, and with enumAsInteger.
    expect(toJsonString(Holder, fromJsonString(Holder, toJsonString(Holder, m, read), read), read)).toBe(
      toJsonString(Holder, m, read),
    );
    const ints = toJson(Holder, m, { ...read, enumAsInteger: true });
    expect(toJson(Holder, fromJson(Holder, ints, read), { ...read, enumAsInteger: true })).toEqual(ints);
  });

  it("a singular field set to an undeclared number by hand is written as the number and read back", () => {
    const m = create(Holder, { closedSingle: 5 } as never);
    const json = toJson(Holder, m) as JsonObject;
    expect(json).toEqual({ closedSingle: 5 });
    expect((fromJson(Holder, json) as unknown as Record<string, unknown>)["closedSingle"]).toBe(5);
    expect(fromJsonString(Holder, '{"closed_single": -7}')).toMatchObject({ closedSingle: -7 });
  });

  it("validateJson, ignoreUnknownFields and jsonSchema (input and output) agree with the reader", () => {
    const m = fromBinary(Holder, binaryWithFive());
    const written = toJson(Holder, m, read);
    for (const json of [written, { closedSingle: 5 }, { closedList: [5, "CLOSED_ONE"] }]) {
      expect(validateJson(Holder, json, read)).toEqual([]);
      expect(validateJsonString(Holder, JSON.stringify(json), read)).toEqual([]);
      expect(schemaAccepts(Holder, json, { registry })).toBe(true);
      expect(schemaAccepts(Holder, json, { registry, io: "input" })).toBe(true);
      // Numbers are values, not unknown names: ignoreUnknownFields keeps them.
      expect(fromJson(Holder, json, { ...read, ignoreUnknownFields: true })).toEqual(fromJson(Holder, json, read));
    }
    expect(schemaAccepts(Holder, { closedSingle: 5 }, { enumAsInteger: true })).toBe(true);
  });

  it.each<[JsonValue, string, string]>([
    [{ closedSingle: 2147483648 }, "enum", "$.closedSingle"],
    [{ closedList: [1, 1.5] }, "enum", "$.closedList[1]"],
    [{ closedMap: { k: "CLOSED_TWO" } }, "enum", "$.closedMap.k"],
    [{ closedSingle: true }, "json-type", "$.closedSingle"],
  ])("what is not an int32 or a name of the enum is still refused: %j", (json, rule, path) => {
    expect(catchWkt(() => fromJson(Holder, json))).toMatchObject({ rule, jsonPath: path });
    expect(validateJson(Holder, json).map((i) => [i.rule, i.jsonPath])).toEqual([[rule, path]]);
    expect(schemaAccepts(Holder, json, { io: "input" })).toBe(false);
  });

  it("law: any int32 in a closed enum's list, map or field is written and read back the same", () => {
    const int32 = fc.integer({ min: -2147483648, max: 2147483647 });
    fc.assert(
      fc.property(fc.array(int32, { maxLength: 5 }), int32, int32, (list, value, single) => {
        const m = create(Holder, { closedList: list, closedMap: { k: value }, closedSingle: single } as never);
        for (const enumAsInteger of [false, true]) {
          const json = toJson(Holder, m, { enumAsInteger });
          expect(fromJson(Holder, json)).toEqual(m);
          expect(fromJsonString(Holder, toJsonString(Holder, m, { enumAsInteger }))).toEqual(m);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("protobuf-es refuses the number it wrote itself (the drop-in difference closed-enum-number)", () => {
    expect(() => pbFromJson(Holder, { closedList: ["CLOSED_ONE", 5] })).toThrow();
    expect(fromJson(Holder, { closedList: ["CLOSED_ONE", 5] })).toMatchObject({ closedList: [1, 5] });
  });
});

// ---------------------------------------------------------------------------------------------------------
describe("json_format = LEGACY_BEST_EFFORT: a type whose JSON names clash is refused, never merged", () => {
  const legacy = { features: { jsonFormat: FeatureSet_JsonFormat.LEGACY_BEST_EFFORT } };
  const int = (name: string, number: number, jsonName: string) => ({
    name,
    number,
    type: INT32,
    label: OPTIONAL,
    jsonName,
  });
  const registry = editions("legacy", {
    options: legacy,
    messageType: [
      // protoc's JSON name of foo_bar and of foo__bar is fooBar.
      { name: "Snake", field: [int("foo_bar", 1, "fooBar"), int("fooBar", 2, "fooBar")] },
      { name: "Double", field: [int("foo_bar", 1, "fooBar"), int("foo__bar", 2, "fooBar")] },
      { name: "Custom", field: [int("x", 1, "same"), int("y", 2, "same")] },
      // a's JSON name is b's proto name: reported at b, whose proto name a reader takes for a.
      { name: "JsonIsProto", field: [int("a", 1, "b"), int("b", 2, "bee")] },
      // gamma's proto name is one's JSON name: reported at gamma.
      { name: "ProtoIsJson", field: [int("one", 1, "gamma"), int("gamma", 2, "g")] },
      // One protobuf-es property (fooBar) for two fields of different JSON names.
      { name: "Property", field: [int("foo_bar", 1, "a"), int("fooBar", 2, "b")] },
      { name: "Fine", field: [int("foo_bar", 1, "fooBar"), int("baz", 2, "baz")] },
      {
        name: "Outer",
        field: [
          { name: "inner", number: 1, type: MESSAGE, label: OPTIONAL, typeName: ".ed.Snake", jsonName: "inner" },
          { name: "inners", number: 2, type: MESSAGE, label: REPEATED, typeName: ".ed.Snake", jsonName: "inners" },
          { name: "fine", number: 3, type: MESSAGE, label: OPTIONAL, typeName: ".ed.Fine", jsonName: "fine" },
        ],
      },
    ],
  });
  const type = (name: string) => registry.getMessage(`ed.${name}`)!;

  it.each<[string, string[]]>([
    ["Snake", ["foo_bar", "fooBar"]],
    ["Double", ["foo_bar", "foo__bar"]],
    ["Custom", ["x", "y"]],
    ["JsonIsProto", ["a", "b"]],
    ["ProtoIsJson", ["one", "gamma"]],
    ["Property", ["foo_bar", "fooBar"]],
  ])("%s: every entry point refuses it (rule duplicate-field, naming both fields)", (name, fields) => {
    // "No field may be merged or dropped silently" (issue 26): {"fooBar":1} would set both fields, and a
    // message holding both would be written as one member.
    const M = type(name);
    const errors = [
      catchWkt(() => fromJson(M, {})),
      catchWkt(() => fromJsonString(M, "{}")),
      catchWkt(() => toJson(M, create(M))),
      catchWkt(() => toJsonString(M, create(M))),
      catchWkt(() => mergeFromJson(M, create(M), {})),
      catchWkt(() => mergeFromJsonString(M, create(M), "{}")),
      catchWkt(() => jsonSchema(M)),
      catchWkt(() => jsonSchema(M, { io: "input" })),
      catchWkt(() => patch(M, create(M), {})),
    ];
    for (const e of errors) {
      expect({ rule: e.rule, jsonPath: e.jsonPath, typeName: e.typeName }).toEqual({
        rule: "duplicate-field",
        jsonPath: "$",
        typeName: `ed.${name}`,
      });
      for (const f of fields) expect(e.detail).toContain(f);
    }
    expect(validateJson(M, { fooBar: 1 }).map((i) => [i.rule, i.jsonPath])).toEqual([["duplicate-field", "$"]]);
    expect(validateJsonString(M, '{"fooBar": 1}').map((i) => [i.rule, i.jsonPath])).toEqual([["duplicate-field", "$"]]);
  });

  it("the error names both fields with their JSON names", () => {
    expect(catchWkt(() => fromJson(type("Snake"), {})).detail).toContain(
      'fields fooBar (JSON name "fooBar") and foo_bar (JSON name "fooBar") share the key "fooBar" (the JSON name of both)',
    );
    expect(catchWkt(() => fromJson(type("ProtoIsJson"), {})).detail).toContain(
      'fields gamma (JSON name "g") and one (JSON name "gamma") share the key "gamma" (the proto name of the first, the JSON name of the second)',
    );
  });

  it("nested: the error is at the path of the value of that type, on read and on write, every time", () => {
    const Outer = type("Outer");
    for (let n = 0; n < 2; n++) {
      expect(catchWkt(() => fromJson(Outer, { inner: {} }))).toMatchObject({
        rule: "duplicate-field",
        jsonPath: "$.inner",
      });
      expect(catchWkt(() => fromJson(Outer, { inners: [{}] }))).toMatchObject({ jsonPath: "$.inners[0]" });
      expect(catchWkt(() => fromJsonString(Outer, '{"inner": {"fooBar": 1}}'))).toMatchObject({
        jsonPath: "$.inner",
        line: 1,
      });
    }
    const withInner = create(Outer, { inner: create(type("Snake")) } as never);
    expect(catchWkt(() => toJson(Outer, withInner))).toMatchObject({ rule: "duplicate-field", jsonPath: "$.inner" });
    expect(catchWkt(() => toJsonString(Outer, withInner))).toMatchObject({ jsonPath: "$.inner" });
    expect(validateJson(Outer, { inner: {}, inners: [{}, {}] }).map((i) => i.jsonPath)).toEqual([
      "$.inner",
      "$.inners[0]",
      "$.inners[1]",
    ]);
    // A message of the type inside an Any.
    const Snake = type("Snake");
    const any = anyPack(Snake, create(Snake));
    expect(catchWkt(() => toJson(AnySchema, any, { registry }))).toMatchObject({ rule: "duplicate-field" });
    const anyJson = { "@type": "type.googleapis.com/ed.Snake" };
    expect(catchWkt(() => fromJson(AnySchema, anyJson, { registry }))).toMatchObject({ rule: "duplicate-field" });
  });

  it("a type of the same file without a clash, and a message that never holds the clashing type, work", () => {
    const Fine = type("Fine");
    expect(toJson(Fine, fromJson(Fine, { fooBar: 1, baz: 2 }))).toEqual({ fooBar: 1, baz: 2 });
    const Outer = type("Outer");
    expect(toJson(Outer, fromJson(Outer, { fine: { foo_bar: 3 } }))).toEqual({ fine: { fooBar: 3 } });
  });
});

// ---------------------------------------------------------------------------------------------------------
describe("LEGACY_REQUIRED: JSON we accept is JSON we can write", () => {
  const required = { features: { fieldPresence: FeatureSet_FieldPresence.LEGACY_REQUIRED } };
  const registry = editions("required", {
    messageType: [
      {
        name: "Req",
        field: [
          { name: "req_id", number: 1, type: INT32, label: OPTIONAL, jsonName: "reqId", options: required },
          { name: "note", number: 2, type: STRING, label: OPTIONAL, jsonName: "note" },
          { name: "child", number: 3, type: MESSAGE, label: OPTIONAL, typeName: ".ed.Req", jsonName: "child" },
          { name: "children", number: 4, type: MESSAGE, label: REPEATED, typeName: ".ed.Req", jsonName: "children" },
          {
            name: "by_key",
            number: 5,
            type: MESSAGE,
            label: REPEATED,
            typeName: ".ed.Req.ByKeyEntry",
            jsonName: "byKey",
          },
        ],
        nestedType: [
          {
            name: "ByKeyEntry",
            field: [
              { name: "key", number: 1, type: STRING, label: OPTIONAL, jsonName: "key" },
              { name: "value", number: 2, type: MESSAGE, label: OPTIONAL, typeName: ".ed.Req", jsonName: "value" },
            ],
            options: { mapEntry: true },
          },
        ],
      },
    ],
  });
  const Req = registry.getMessage("ed.Req")!;
  const reg = createRegistry(Req);

  // Go's protojson: "If AllowPartial is set, input for messages that will result in missing required fields
  // will not return an error" (UnmarshalOptions); without it, Unmarshal ends with proto.CheckInitialized.
  it.each<[JsonValue, string]>([
    [{}, "$.reqId"],
    [{ reqId: null }, "$.reqId"], // null is the default: the field stays unset
    [{ req_id: 1, child: {} }, "$.child.reqId"],
    [{ reqId: 1, child: { reqId: 2, child: { note: "x" } } }, "$.child.child.reqId"],
    [{ reqId: 1, children: [{ reqId: 2 }, {}] }, "$.children[1].reqId"],
    [{ reqId: 1, byKey: { "a b": {} } }, '$.byKey["a b"].reqId'],
  ])("fromJson refuses %j (rule required at %s); allowPartial reads it as protobuf-es does", (json, path) => {
    expect(catchWkt(() => fromJson(Req, json))).toMatchObject({ rule: "required", jsonPath: path, typeName: "ed.Req" });
    expect(catchWkt(() => fromJsonString(Req, JSON.stringify(json)))).toMatchObject({
      rule: "required",
      jsonPath: path,
    });
    expect(validateJson(Req, json).map((i) => [i.rule, i.jsonPath])).toEqual([["required", path]]);
    expect(validateJsonString(Req, JSON.stringify(json)).map((i) => [i.rule, i.jsonPath])).toEqual([
      ["required", path],
    ]);
    const partial = { allowPartial: true };
    expect(fromJson(Req, json, partial)).toEqual(pbFromJson(Req, json));
    expect(fromJsonString(Req, JSON.stringify(json), partial)).toEqual(pbFromJson(Req, json));
    expect(validateJson(Req, json, partial)).toEqual([]);
  });

  it("from text, the error is located at the object that leaves the field out", () => {
    const text = '{\n  "reqId": 1,\n  "child": {"note": "x"}\n}';
    expect(catchWkt(() => fromJsonString(Req, text))).toMatchObject({ jsonPath: "$.child.reqId", line: 3, column: 12 });
    expect(validateJsonString(Req, text)).toMatchObject([
      { rule: "required", jsonPath: "$.child.reqId", line: 3, column: 12 },
    ]);
  });

  it("validateJson reports every missing required field, each at its path", () => {
    const json = { child: {}, children: [{ reqId: 1 }, {}] };
    expect(validateJson(Req, json).map((i) => i.jsonPath)).toEqual(["$.child.reqId", "$.children[1].reqId", "$.reqId"]);
  });

  it("in an Any: the contents are checked too", () => {
    const json = { "@type": "type.googleapis.com/ed.Req", note: "x" };
    expect(catchWkt(() => fromJson(AnySchema, json, { registry: reg }))).toMatchObject({
      rule: "required",
      jsonPath: "$.reqId",
    });
    expect(validateJson(AnySchema, json, { registry: reg }).map((i) => i.jsonPath)).toEqual(["$.reqId"]);
    const whole = { "@type": "type.googleapis.com/ed.Req", reqId: 1 };
    expect(toJson(AnySchema, fromJson(AnySchema, whole, { registry: reg }), { registry: reg })).toEqual(whole);
  });

  it("what fromJson accepts, toJson writes, and it reads back the same", () => {
    const json = { reqId: 0, child: { reqId: 1 }, children: [{ reqId: 2 }], byKey: { k: { reqId: 3, note: "n" } } };
    const m = fromJson(Req, json);
    expect(toJson(Req, m)).toEqual(json);
    expect(fromJson(Req, toJson(Req, m))).toEqual(m);
  });

  it("law: fromJson accepts exactly the JSON whose message toJson can write", () => {
    const req: fc.Memo<JsonValue> = fc.memo((n) =>
      fc.record(
        {
          reqId: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(null)),
          note: fc.string({ maxLength: 3 }),
          ...(n > 1 ? { child: req(n - 1), children: fc.array(req(n - 1), { maxLength: 2 }) } : {}),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(req(3), (json) => {
        const partial = fromJson(Req, json, { allowPartial: true });
        let writable = true;
        try {
          toJson(Req, partial);
        } catch {
          writable = false;
        }
        let accepted = true;
        try {
          fromJson(Req, json);
        } catch {
          accepted = false;
        }
        expect(accepted).toBe(writable);
        expect(validateJson(Req, json).length === 0).toBe(accepted);
      }),
      { numRuns: 300 },
    );
  });

  it("a merge sets some fields of a whole message: its JSON may leave required fields out", () => {
    const target = fromJson(Req, { reqId: 1 });
    mergeFromJson(Req, target, { note: "x" });
    expect(toJson(Req, target)).toEqual({ reqId: 1, note: "x" });
    mergeFromJsonString(Req, target, '{"note": "y"}');
    expect(toJson(Req, target)).toEqual({ reqId: 1, note: "y" });
  });

  it("a PATCH body holds the fields it changes: it may leave required fields out", () => {
    const stored = fromJson(Req, { reqId: 1, note: "a" });
    expect(toJson(Req, patch(Req, stored, { note: "b" }))).toEqual({ reqId: 1, note: "b" });
  });

  // The body may leave required fields out, but the result must be writable: "JSON we accept must be writable"
  // (issue 26), as Go's proto.CheckInitialized ends an Unmarshal unless AllowPartial.
  describe("the result of a PATCH may not lack a required field where the update touched it", () => {
    const stored = fromJson(Req, { reqId: 1, note: "a", child: { reqId: 2 }, byKey: { k: { reqId: 3 } } });
    it.each<[JsonValue, PatchOptions, string, RegExp]>([
      [{}, { updateMask: ["req_id"] }, "$.reqId", /the update clears the required field req_id/],
      [{ reqId: null }, {}, "$.reqId", /the update clears/],
      [{ child: {} }, { updateMask: ["child.req_id"] }, "$.child.reqId", /the update clears/],
      [{ child: { note: "x" } }, { updateMask: "child" }, "$.child.reqId", /a message the update replaces/],
      [{ note: "x" }, { updateMask: "*" }, "$.reqId", /a message the update replaces/],
      [{ children: [{ reqId: 5 }, {}] }, {}, "$.children[1].reqId", /replaces or creates/],
      [{ byKey: { n: { note: "x" } } }, {}, "$.byKey.n.reqId", /replaces or creates/],
      [{ by_key: { k: {} } }, { updateMask: ["by_key.k"], aip161: true }, "$.by_key.k.reqId", /replaces/],
    ])("body %j with %j: rule required at %s", (body, options, path, detail) => {
      const e = catchWkt(() => patch(Req, stored, body, options));
      expect(e).toMatchObject({ rule: "required", jsonPath: path, typeName: "ed.Req" });
      expect(e.detail).toMatch(detail);
      expect(e.detail).toMatch(/allowPartial accepts a result without it/);
      // allowPartial: protobuf-es holds the partial result; toJson refuses to write it, as before.
      const partial = patch(Req, stored, body, { ...options, allowPartial: true });
      expect(() => toJson(Req, partial)).toThrow();
      // jsonPatch writes JSON: the error stands whatever allowPartial says.
      const storedJson = toJson(Req, stored) as JsonObject;
      for (const o of [options, { ...options, allowPartial: true }]) {
        const j = catchWkt(() => jsonPatch(Req, storedJson, body, o));
        expect([j.rule, j.jsonPath]).toEqual(["required", path]);
        expect(j.detail).toMatch(/jsonPatch writes its result as JSON/);
      }
    });

    it("a created message is checked whole; a message the mask only goes through, at the fields it names", () => {
      // child.note on a stored resource without child creates child: its req_id is missing.
      const bare = fromJson(Req, { reqId: 1 });
      expect(catchWkt(() => patch(Req, bare, { child: { note: "x" } }))).toMatchObject({ jsonPath: "$.child.reqId" });
      // A stored message that already lacks req_id (read as partial) is not the update's doing.
      const old = fromJson(Req, { reqId: 1, child: { note: "a" } }, { allowPartial: true });
      const kept = patch(Req, old, { child: { note: "b" } });
      expect((kept as unknown as { child: { note: string } }).child.note).toBe("b");
      expect(toJson(Req, patch(Req, stored, { note: "b", child: { note: "c" } }))).toEqual({
        reqId: 1,
        note: "b",
        child: { reqId: 2, note: "c" },
        byKey: { k: { reqId: 3 } },
      });
    });

    it("from text too, the error placed in the body", () => {
      const e = catchWkt(() =>
        patchFromJsonString(Req, stored, '{\n  "child": {"note": "x"}\n}', { updateMask: ["child"] }),
      );
      expect(e).toMatchObject({ rule: "required", jsonPath: "$.child.reqId", line: 2 });
    });

    it("allowPartial must be a boolean", () => {
      expect(catchWkt(() => patch(Req, stored, {}, { allowPartial: 1 as never }))).toMatchObject({ rule: "range" });
      expect(() => patch(Req, stored, {}, { allowPartial: undefined })).not.toThrow();
    });
  });

  it("proto2 required (TestAllRequiredTypesProto2) is the same feature", () => {
    expect(catchWkt(() => fromJson(TestAllRequiredTypesProto2, {}))).toMatchObject({
      rule: "required",
      jsonPath: "$.requiredInt32",
    });
    expect(() => fromJson(TestAllRequiredTypesProto2, {}, { allowPartial: true })).not.toThrow();
  });
});
