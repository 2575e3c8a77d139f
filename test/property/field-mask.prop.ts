import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import { fieldMaskFromJson, fieldMaskToJson } from "../../src/wkt/field-mask.js";

// A proto field name that has a lower-camel form: lower-case words of letters and digits, starting with a
// letter, joined by single underscores (each "_" is then followed by a lower-case letter).
const arbWord = fc.tuple(
  fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz"),
  fc.string({ unit: fc.constantFrom(..."abcxyz0129"), maxLength: 5 }),
);
const arbName = fc
  .array(arbWord, { minLength: 1, maxLength: 4 })
  .map((words) => words.map((w) => w.join("")).join("_"));
const arbProtoPath = fc.array(arbName, { minLength: 1, maxLength: 4 }).map((names) => names.join("."));
const arbProtoPaths = fc.array(arbProtoPath, { maxLength: 6 });

// A JSON-form path: segments of ASCII letters and digits starting with a letter.
const arbCamelName = fc.tuple(
  fc.constantFrom(..."abcxyzABCXYZ"),
  fc.string({ unit: fc.constantFrom(..."abyzABYZ0189"), maxLength: 6 }),
);
const arbJsonPath = fc
  .array(arbCamelName, { minLength: 1, maxLength: 3 })
  .map((s) => s.map((t) => t.join("")).join("."));
const arbJsonMask = fc.array(arbJsonPath, { maxLength: 5 }).map((paths) => paths.join(","));

// Strings that often come close to valid: the interesting characters, densely.
const arbNearMask = fc.string({ unit: fc.constantFrom(..."aZ1_.,- é\ud800"), maxLength: 12 });

describe("FieldMask JSON properties", () => {
  it("round-trips every list of valid proto paths", () => {
    fc.assert(
      fc.property(arbProtoPaths, (paths) => {
        expect(fieldMaskFromJson(fieldMaskToJson(paths)).paths).toEqual(paths);
      }),
    );
  });

  it("round-trips every valid JSON form", () => {
    fc.assert(
      fc.property(arbJsonMask, (json) => {
        expect(fieldMaskToJson(fieldMaskFromJson(json))).toBe(json);
      }),
    );
  });

  it("agrees with @bufbuild/protobuf on valid paths, both ways", () => {
    fc.assert(
      fc.property(arbProtoPaths, arbJsonMask, (paths, json) => {
        expect(fieldMaskToJson(paths)).toBe(toJson(FieldMaskSchema, create(FieldMaskSchema, { paths })));
        expect(fieldMaskFromJson(json)).toStrictEqual(fromJson(FieldMaskSchema, json));
      }),
    );
  });

  it("decodes any string or throws WktJsonError; what it decodes encodes back to the same string", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), arbNearMask), (s) => {
        let mask;
        try {
          mask = fieldMaskFromJson(s);
        } catch (e) {
          expect(isWktJsonError(e) && e.rule === "mask-path").toBe(true);
          return;
        }
        expect(fieldMaskToJson(mask)).toBe(s);
      }),
    );
  });

  it("encodes any list of strings or throws WktJsonError; what it encodes decodes back to the same paths", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: "binary" }), arbNearMask), { maxLength: 4 }), (paths) => {
        let json;
        try {
          json = fieldMaskToJson(paths);
        } catch (e) {
          expect(isWktJsonError(e) && e.rule === "mask-path").toBe(true);
          return;
        }
        expect(fieldMaskFromJson(json).paths).toEqual(paths);
      }),
    );
  });

  it("accepts a JSON value only if it is a string", () => {
    fc.assert(
      fc.property(fc.anything(), (x) => {
        try {
          fieldMaskFromJson(x);
          expect(typeof x).toBe("string");
        } catch (e) {
          expect(isWktJsonError(e)).toBe(true);
        }
      }),
    );
  });
});
