import { create, fromBinary, toBinary, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import {
  BoolValueSchema,
  EnumSchema,
  Field_Cardinality,
  Field_Kind,
  FieldSchema,
  Int32ValueSchema,
  StringValueSchema,
  Syntax,
  TypeSchema,
  type Enum,
  type Option,
  type Type,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyPack } from "../../src/wkt/any.js";
import { apiVersion, apiVersionIsValid } from "../../src/descriptors/api-version.js";
import { mixinHttpPath, mixinInheritDoc } from "../../src/descriptors/mixin.js";
import { registryFromTypes } from "../../src/descriptors/registry-from-types.js";
import { isWktJsonError } from "../../src/errors.js";
import { fromJson } from "../../src/codec/from-json.js";
import { toJson } from "../../src/codec/to-json.js";
import { createTypeResolver, type TypeFetch } from "../../src/descriptors/type-resolver.js";

const G = "type.googleapis.com/";

/** Runs `fn`; a WktJsonError counts as an answer, anything else thrown fails the property. */
function answer<T>(fn: () => T): T | "error" {
  try {
    return fn();
  } catch (e) {
    if (isWktJsonError(e)) return "error";
    throw e;
  }
}

// Types built from a small vocabulary, so that names collide, nest and reference each other often.
const names = ["a.A", "a.A.B", "a.A.E", "a.C", "b.D", "a.A.B.C", "X", "a..A", "", "1a.B"];
const refUrls = [
  ...names.map((n) => G + n),
  `${G}google.protobuf.Timestamp`,
  `${G}google.protobuf.NullValue`,
  "",
  "ftp://x/a.A",
  `${G}`,
];
const anyBool = (v: boolean) => anyPack(BoolValueSchema, create(BoolValueSchema, { value: v }));
const optionPool: Option[] = [
  { $typeName: "google.protobuf.Option", name: "deprecated", value: anyBool(true) },
  { $typeName: "google.protobuf.Option", name: "packed", value: anyBool(false) },
  { $typeName: "google.protobuf.Option", name: "map_entry", value: anyBool(true) },
  {
    $typeName: "google.protobuf.Option",
    name: "deprecated",
    value: anyPack(StringValueSchema, create(StringValueSchema, { value: "x" })),
  },
  {
    $typeName: "google.protobuf.Option",
    name: "ctype",
    value: anyPack(Int32ValueSchema, create(Int32ValueSchema, { value: 7 })),
  },
  { $typeName: "google.protobuf.Option", name: "acme.custom", value: anyBool(true) },
] as Option[];

const arbField = fc.record({
  kind: fc.integer({ min: 0, max: 19 }),
  cardinality: fc.integer({ min: 0, max: 4 }),
  number: fc.constantFrom(-1, 0, 1, 2, 3, 536_870_911, 536_870_912),
  name: fc.constantFrom("x", "y", "key", "value", "no name", "_x"),
  typeUrl: fc.constantFrom(...refUrls),
  oneofIndex: fc.integer({ min: -1, max: 3 }),
  packed: fc.boolean(),
  jsonName: fc.constantFrom("", "x", "jsonName"),
  defaultValue: fc.constantFrom(
    "",
    "1",
    "-0x10",
    "abc",
    "inf",
    "nan",
    "true",
    '\\x41\\"',
    "\\400",
    "E_A",
    "2147483648",
    "1e+10",
  ),
  options: fc.subarray(optionPool, { maxLength: 2 }),
});

const arbSyntax = fc.record({
  syntax: fc.integer({ min: 0, max: 3 }),
  edition: fc.constantFrom("", "2023", "2024", "EDITION_2023", "1999", "x"),
});

const arbType: fc.Arbitrary<Type> = fc
  .record({
    name: fc.constantFrom(...names),
    fields: fc.array(arbField, { maxLength: 4 }),
    oneofs: fc.subarray(["o", "_x", "p"]),
    options: fc.subarray(optionPool, { maxLength: 2 }),
    sourceContext: fc.record({ fileName: fc.constantFrom("", "a.proto", "b.proto") }),
    s: arbSyntax,
  })
  .map(({ s, ...t }) =>
    create(TypeSchema, { ...t, ...s, fields: t.fields.map((f) => create(FieldSchema, f as never)) } as never),
  );

const arbEnum: fc.Arbitrary<Enum> = fc
  .record({
    name: fc.constantFrom(...names),
    enumvalue: fc.array(
      fc.record({ name: fc.constantFrom("E_A", "E_B", "bad name"), number: fc.integer({ min: -2, max: 2 }) }),
      { maxLength: 3 },
    ),
    s: arbSyntax,
  })
  .map(({ s, ...e }) => create(EnumSchema, { ...e, ...s } as never));

describe("registryFromTypes", () => {
  it("builds a registry the codec can use from any Types, or throws WktJsonError", () => {
    let built = 0;
    fc.assert(
      fc.property(fc.array(arbType, { maxLength: 4 }), fc.array(arbEnum, { maxLength: 2 }), (types, enums) => {
        const reg = answer(() => registryFromTypes({ types, enums }));
        if (reg === "error") return;
        built++;
        for (const t of reg) {
          if (t.kind !== "message" || t.typeName.startsWith("google.protobuf.")) continue;
          const desc = t as DescMessage;
          const json = answer(() => toJson(desc, fromJson(desc, {}, { registry: reg }), { registry: reg }));
          if (json !== "error")
            expect(answer(() => fromJson(desc, json as JsonValue, { registry: reg }))).not.toBe("error");
        }
      }),
      { numRuns: 400 },
    );
    expect(built).toBeGreaterThan(20); // the vocabulary is not so broken that nothing builds
  });
});

describe("registryFromTypes and JSON names", () => {
  // Field names and JSON names from a vocabulary where they clash often: a message registryFromTypes accepts
  // must be written with one member per field, none of them "@type", and read back to the same message.
  const arbNamedField = fc.record({
    name: fc.constantFrom("a", "b", "a_b", "aB", "c_d", "type"),
    jsonName: fc.constantFrom("", "a", "b", "aB", "cD", "@type", "x", "@x"),
  });
  it("writes a message of an accepted Type with one JSON member per field, and reads it back", () => {
    let built = 0;
    fc.assert(
      fc.property(
        fc.array(arbNamedField, { maxLength: 4 }),
        fc.constantFrom(Syntax.PROTO2, Syntax.PROTO3),
        (named, syntax) => {
          const fields = named.map((f, j) =>
            create(FieldSchema, {
              ...f,
              number: j + 1,
              kind: Field_Kind.TYPE_INT32,
              cardinality: Field_Cardinality.OPTIONAL,
            }),
          );
          const reg = answer(() => registryFromTypes({ types: [create(TypeSchema, { name: "a.M", fields, syntax })] }));
          if (reg === "error") return;
          built++;
          const desc = reg.getMessage("a.M") as DescMessage;
          const json = Object.fromEntries(desc.fields.map((f, j) => [f.jsonName, j + 1]));
          expect(Object.keys(json)).toHaveLength(fields.length);
          expect(json).not.toHaveProperty("@type");
          const message = fromJson(desc, json, { registry: reg });
          expect(toJson(desc, message, { registry: reg })).toEqual(json);
          desc.fields.forEach((f, j) => expect((message as Record<string, unknown>)[f.localName]).toBe(j + 1));
        },
      ),
      { numRuns: 300 },
    );
    expect(built).toBeGreaterThan(20);
  });
});

describe("createTypeResolver", () => {
  it("resolves any response body or rejects with WktJsonError", async () => {
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      arbType.map((t) => toBinary(TypeSchema, { ...t, name: "a.A" })),
      fc.constant(
        toBinary(
          TypeSchema,
          create(TypeSchema, {
            name: "a.A",
            fields: [
              {
                name: "b",
                number: 1,
                kind: Field_Kind.TYPE_MESSAGE,
                cardinality: Field_Cardinality.OPTIONAL,
                typeUrl: `${G}a.A`,
              },
            ],
            syntax: Syntax.PROTO3,
          }),
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(200, 204, 301, 404, 500), async (bytes, status) => {
        const fetch: TypeFetch = async () => ({
          ok: status < 300,
          status,
          arrayBuffer: async () => bytes.slice().buffer,
        });
        try {
          const reg = await createTypeResolver({ fetch, origins: [`https://${G}`] }).resolve(`${G}a.A`);
          // A map entry type is no message in protobuf-es: the registry has it only behind a map field.
          const mapEntry = fromBinary(TypeSchema, bytes).options.some((o) => o.name === "map_entry");
          if (!mapEntry) expect(reg.getMessage("a.A")).toBeDefined();
        } catch (e) {
          if (!isWktJsonError(e)) throw e;
          expect([
            "fetch",
            "binary",
            "type-url",
            "unknown-type",
            "enum",
            "range",
            "syntax",
            "size",
            "duplicate-field",
          ]).toContain(e.rule);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("rule 3", () => {
  const arbName = fc
    .tuple(
      fc.constantFrom("acme", "google.storage"),
      fc.constantFrom("", "v0", "v1", "v2", "v1beta1", "v2alpha", "vx", "v"),
      fc.constantFrom("Api"),
    )
    .map(([p, v, s]) => [p, v, s].filter((x) => x !== "").join("."));
  const arbVersion = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.tuple(fc.nat(3), fc.nat(12)).map(([a, b]) => `${a}.${b}`),
    fc.nat(3).map(String),
  );

  it("any name and version give a version or an api-version error, and apiVersionIsValid agrees", () => {
    fc.assert(
      fc.property(arbName, arbVersion, (name, version) => {
        let v: ReturnType<typeof apiVersion> | undefined;
        try {
          v = apiVersion({ name, version });
        } catch (e) {
          if (!isWktJsonError(e) || e.rule !== "api-version" || e.jsonPath !== "$.version") throw e;
        }
        expect(apiVersionIsValid({ name, version })).toBe(v !== undefined);
        if (v !== undefined && version !== "")
          expect(`${v.major}.${v.minor}`).toBe(version.includes(".") ? version : `${version}.0`);
      }),
      { numRuns: 500 },
    );
  });

  it("a version written from apiVersion reads back the same", () => {
    fc.assert(
      fc.property(arbName, arbVersion, (name, version) => {
        if (!apiVersionIsValid({ name, version })) return;
        const v = apiVersion({ name, version });
        expect(apiVersion({ name, version: `${v.major}.${v.minor}` })).toEqual(v);
      }),
    );
  });
});

describe("rule 4", () => {
  const arbSegment = fc.constantFrom("v1", "v2", "v1beta1", "{name=**}", "books", "x:get", "");
  const arbPath = fc.array(arbSegment, { minLength: 1, maxLength: 4 }).map((s) => "/" + s.join("/"));

  it("mixinHttpPath rewrites any path or throws a mixin error, and rewriting twice is rewriting once", () => {
    fc.assert(
      fc.property(
        fc.oneof(arbPath, fc.string({ maxLength: 8 })),
        fc.constantFrom("v2", "v3alpha", "2", ""),
        fc.constantFrom("", "acls", "/a/b/"),
        (path, version, root) => {
          const out = answer(() => mixinHttpPath(path, version, root));
          if (out === "error") return;
          expect(out.startsWith("/")).toBe(true);
          expect(mixinHttpPath(mixinHttpPath(path, version), version)).toBe(mixinHttpPath(path, version));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("mixinInheritDoc keeps any documentation with text outside comments", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (own, inherited) => {
        const out = mixinInheritDoc(own, inherited);
        expect(out === own || out === inherited).toBe(true);
        if (!own.includes("(--") && own.trim() !== "") expect(out).toBe(own);
        if (own.trim() === "") expect(out).toBe(inherited);
      }),
      { numRuns: 300 },
    );
  });
});
