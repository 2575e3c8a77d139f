// registryFromTypes in time linear in its input, and without exhausting the stack, whatever the shape of the
// Types: chains of packages (each file imports the next), types nested by name thousands deep, many packages of
// one source file, many packages referencing one large package, many fields referencing one large enum, many
// proto3 optional fields, a repeated custom option given many times. Each shape is built at size n and 10n,
// and the 10n run must take less than 15 times a run at n (n built ten times in a row, every result kept, as in
// linear.test.ts; CPU time, the least of up to six interleaved rounds), a ratio rather than a wall-clock limit. The size
// of a name-nested set is its text: the full name of a type nested k deep is k segments long, so the input
// grows with the square of the depth, and 10n is √10 times as deep.

import { create, createFileRegistry, type DescMessage, type Registry } from "@bufbuild/protobuf";
import {
  EnumSchema,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  file_google_protobuf_descriptor,
  FileDescriptorProtoSchema,
  StringValueSchema,
  FeatureSet_FieldPresence,
  FeatureSetSchema,
  Field_Cardinality,
  Field_Kind,
  FieldSchema,
  OptionSchema,
  Syntax,
  TypeSchema,
  type Enum,
  type Field,
  type Type,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { anyPack } from "../../src/wkt/any.js";
import { registryFromTypes, type TypeSet } from "../../src/descriptors/registry-from-types.js";
import { isWktJsonError } from "../../src/errors.js";
import { fromJson } from "../../src/codec/from-json.js";
import { registryNestingMax } from "../../src/limits.js";
import { toJson } from "../../src/codec/to-json.js";
import { collectGarbage, cpuMs, leastOf, linearBound } from "../cost.js";

const G = "type.googleapis.com/";

function field(name: string, number: number, more: Partial<Field> = {}): Field {
  return create(FieldSchema, {
    name,
    number,
    jsonName: "",
    kind: Field_Kind.TYPE_INT32,
    cardinality: Field_Cardinality.OPTIONAL,
    ...more,
  } as never);
}

function messageField(name: string, number: number, typeName: string): Field {
  return field(name, number, { kind: Field_Kind.TYPE_MESSAGE, typeUrl: G + typeName });
}

function type(name: string, fields: Field[] = [], more: Partial<Type> = {}): Type {
  return create(TypeSchema, { name, fields, syntax: Syntax.PROTO3, ...more } as never);
}

/** p0.M references p1.M, which references p2.M, ...: each package a file importing the next. */
function chain(n: number): TypeSet {
  const types: Type[] = [];
  for (let i = 0; i < n; i++)
    types.push(type(`p${i}.M`, i + 1 < n ? [messageField("next", 1, `p${i + 1}.M`)] : [field("x", 1)]));
  return { types };
}

/** a.B0, a.B0.B1, a.B0.B1.B2, ... with about `chars` characters of names in all; each references its child. */
function nestedByName(chars: number): TypeSet {
  const types: Type[] = [];
  let name = "a";
  for (let total = 0, i = 0; total < chars; i++) {
    name += `.B${i}`;
    total += name.length;
    types.push(type(name, [field("x", 1)]));
  }
  types.forEach((t, i) => {
    const child = types[i + 1];
    if (child !== undefined) t.fields.push(messageField("child", 2, child.name));
  });
  return { types };
}

/** q0.M, q1.M, ...: one package each, all declared in the same source file. */
function packagesOfOneFile(n: number): TypeSet {
  const types: Type[] = [];
  for (let i = 0; i < n; i++)
    types.push(type(`q${i}.M`, [field("x", 1)], { sourceContext: { fileName: "one.proto" } } as Partial<Type>));
  return { types };
}

/** n/2 types in package hub, and n/2 packages each with a type referencing one of them. */
function star(n: number): TypeSet {
  const types: Type[] = [];
  for (let i = 0; i < n / 2; i++) types.push(type(`hub.H${i}`, [field("x", 1)]));
  for (let i = 0; i < n / 2; i++) types.push(type(`s${i}.M`, [messageField("h", 1, `hub.H${i}`)]));
  return { types };
}

/** One enum of n/2 values and one proto2 type with n/2 fields of that enum, each with a default. */
function enumDefaults(n: number): TypeSet {
  const values = Array.from({ length: n / 2 }, (_, i) => ({ name: `V${i}`, number: i }));
  const e: Enum = create(EnumSchema, { name: "e.E", enumvalue: values, syntax: Syntax.PROTO2 });
  const fields = Array.from({ length: n / 2 }, (_, i) =>
    field(`f${i}`, i + 1, { kind: Field_Kind.TYPE_ENUM, typeUrl: `${G}e.E`, defaultValue: `V${i}` }),
  );
  return { types: [type("e.M", fields, { syntax: Syntax.PROTO2 })], enums: [e] };
}

/** One proto3 type with n optional fields, each in its synthetic oneof. */
function proto3Optionals(n: number): TypeSet {
  const fields = Array.from({ length: n }, (_, i) => field(`f${i}`, i + 1, { oneofIndex: i + 1 }));
  return { types: [type("o.M", fields, { oneofs: fields.map((f) => `_${f.name}`) })] };
}

/** A registry with the custom option `acme.tags`, a repeated string in MessageOptions. */
const tagsRegistry = createFileRegistry(
  create(FileDescriptorProtoSchema, {
    name: "acme/tags.proto",
    package: "acme",
    syntax: "proto3",
    dependency: ["google/protobuf/descriptor.proto"],
    extension: [
      {
        name: "tags",
        number: 50002,
        label: FieldDescriptorProto_Label.REPEATED,
        type: FieldDescriptorProto_Type.STRING,
        extendee: ".google.protobuf.MessageOptions",
        jsonName: "tags",
      },
    ],
  }),
  () => file_google_protobuf_descriptor,
);

/** One type with the repeated custom option acme.tags given n times. */
function repeatedOption(n: number): TypeSet {
  const options = Array.from({ length: n }, (_, i) =>
    create(OptionSchema, {
      name: "acme.tags",
      value: anyPack(StringValueSchema, create(StringValueSchema, { value: `t${i}` })),
    }),
  );
  return { types: [type("r.M", [field("x", 1)], { options })] };
}

/** Runs registryFromTypes; anything but a registry fails the test (a RangeError, a WktJsonError). */
function build(set: TypeSet, registry?: Registry): void {
  const reg = registryFromTypes(set, registry === undefined ? {} : { registry });
  expect(reg.getMessage((set.types?.[0] as Type).name)).toBeDefined();
}

const shapes: [string, (n: number) => TypeSet, number, Registry?][] = [
  ["a chain of packages", chain, 1_000],
  ["types nested by name (size in characters)", nestedByName, 1_300_000],
  ["packages of one source file", packagesOfOneFile, 1_000],
  ["packages referencing one large package", star, 2_000],
  ["fields of one large enum, with defaults", enumDefaults, 2_000],
  ["proto3 optional fields", proto3Optionals, 2_000],
  ["a repeated custom option given many times", repeatedOption, 5_000, tagsRegistry],
];

describe("registryFromTypes in linear time", () => {
  it.each(shapes)(
    "%s: 10n within 32x of n (linear 10x, quadratic 100x)",
    (_, make, n, registry) => {
      const small = make(n);
      const large = make(10 * n);
      build(small, registry); // warm up
      // n is built ten times in a row and 10n once, keeping every registry, so that the garbage collector has as
      // much to do for both; CPU time, the least of each over up to six interleaved rounds (see ../cost.ts).
      const timeOf = (set: TypeSet, times: number): number => {
        const kept: Registry[] = [];
        collectGarbage();
        return (
          cpuMs(() => {
            for (let k = 0; k < times; k++)
              kept.push(registryFromTypes(set, registry === undefined ? {} : { registry }));
          }) / times
        );
      };
      const [s, l] = leastOf(
        () => [timeOf(small, 10), timeOf(large, 1)],
        6,
        ([s, l]) => l! / s! < linearBound(10),
      );
      expect(l! / s!).toBeLessThan(linearBound(10));
    },
    120_000,
  );
});

describe("registryFromTypes on deep shapes", () => {
  it("builds a chain of 10,000 packages", () => {
    const reg = registryFromTypes(chain(10_000));
    expect(reg.getMessage("p0.M")?.field["next"]?.message?.typeName).toBe("p1.M");
    expect(reg.getMessage("p9998.M")?.field["next"]?.message?.typeName).toBe("p9999.M");
    expect(reg.getFile("p9999/types.proto")).toBeDefined();
  });

  it("builds 2,000 types nested by name, and the codec reads and writes the deepest", () => {
    const types: Type[] = [];
    let name = "a";
    for (let i = 0; i < 2_000; i++) {
      name += `.B${i}`;
      types.push(type(name, [field("x", 1)], { syntax: Syntax.EDITIONS, edition: "2023" }));
    }
    // The outermost type makes presence implicit; the types cut from it past registryNestingMax inherit that.
    (types[0] as Type).options.push(
      create(OptionSchema, {
        name: "features",
        value: anyPack(
          FeatureSetSchema,
          create(FeatureSetSchema, { fieldPresence: FeatureSet_FieldPresence.IMPLICIT }),
        ),
      }),
    );
    const reg = registryFromTypes({ types });
    const deepest = reg.getMessage(name) as DescMessage;
    expect(deepest.typeName).toBe(name);
    expect(deepest.field["x"]?.presence).toBe(FeatureSet_FieldPresence.IMPLICIT);
    expect(reg.getMessage((types[registryNestingMax + 5] as Type).name)?.field["x"]?.presence).toBe(
      FeatureSet_FieldPresence.IMPLICIT,
    );
    expect(toJson(deepest, fromJson(deepest, { x: 7 }, { registry: reg }), { registry: reg })).toEqual({ x: 7 });
    expect(toJson(deepest, fromJson(deepest, { x: 0 }, { registry: reg }), { registry: reg })).toEqual({});
  });

  it("reports types cut apart by deep nesting that reference each other up and down as a cycle, a WktJsonError", () => {
    const set = nestedByName(2 * registryNestingMax * registryNestingMax * 4);
    const types = set.types as Type[];
    const deep = types[types.length - 1] as Type;
    deep.fields.push(messageField("top", 3, (types[0] as Type).name));
    let error: unknown;
    try {
      registryFromTypes(set);
    } catch (e) {
      error = e;
    }
    expect(isWktJsonError(error) && error.rule).toBe("syntax");
  });
});
