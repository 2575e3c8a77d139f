// jsonSchema: the JSON Schema of the proto3 JSON form, checked by a real validator (ajv, JSON Schema 2020-12)
// against the decoder: every conformance-suite JSON input and every hostile-table input that fromJsonString
// accepts is valid against the input schema, what toJson writes is valid against the output schema, and a
// rejected input that the schema lets through is one whose reason JSON Schema cannot state (named below).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { create, createFileRegistry, type DescMessage, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import {
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  TimestampSchema,
  Int64ValueSchema,
  DurationSchema,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fromJsonString,
  isWktJsonError,
  jsonSchema,
  toJson,
  type JsonSchemaOptions,
  type WktJsonError,
} from "../src/index.js";
import { jsonPathSegments } from "../src/codec/json-text.js";
import {
  TestAllTypesEdition2023,
  TestAllTypesProto2,
  TestAllTypesProto3,
  testRegistry,
} from "./conformance-registry.js";
import { arbMessage } from "./arbitrary.js";
import { catchWkt } from "./helpers.js";
import { cpuMs, leastOf } from "./cost.js";
import { ajv2020, ajvOptions, schemaValidator, type Validate } from "./fixtures/ajv.js";
import { hostileCases } from "./hostile/cases.js";

/** ajv's validator of jsonSchema(schema, options) with the conformance types' registry. */
const validator = (schema: DescMessage, options: JsonSchemaOptions = {}): Validate =>
  schemaValidator(schema, { ...options, registry: testRegistry });

/**
 * The most levels of objects and arrays a value may nest for ajv in this process. ajv's code for a message of
 * some 200 fields, two names each, takes a large stack frame, and a value nested 50 levels deep through such a
 * message exhausts the default stack (a limit of ajv's generated code, not of the schema): deeper values are
 * validated in a worker with a 64 MB stack.
 */
const ajvDepth = 40;

function nesting(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") max = Math.max(max, ++depth);
    else if (c === "}" || c === "]") depth--;
  }
  return max;
}

interface Input {
  source: string;
  schema: DescMessage;
  text: string;
  ignoreUnknownFields: boolean;
}

const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/conformance-json-inputs.json", import.meta.url), "utf8"),
) as {
  inputs: [string, string, true?][];
};
const conformanceInputs: Input[] = fixture.inputs.map(([typeName, text, ignore]) => ({
  source: "conformance",
  schema: testRegistry.getMessage(typeName)!,
  text,
  ignoreUnknownFields: ignore === true,
}));
const hostileInputs: Input[] = hostileCases.map((c) => ({
  source: "hostile",
  schema: c.schema,
  text: c.text,
  ignoreUnknownFields: c.options?.ignoreUnknownFields === true,
}));

/** The decoder's verdict: the message, or its error. */
function decode(input: Input): { message: unknown } | { error: WktJsonError } {
  try {
    return {
      message: fromJsonString(input.schema, input.text, {
        registry: testRegistry,
        ignoreUnknownFields: input.ignoreUnknownFields,
      }),
    };
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    return { error: e };
  }
}

/**
 * Whether an Any's `@type` names a well-known type, whose value the schema checks (issue 26: "The well-known
 * types are a fixed set: constrain them with if/then on @type").
 */
const wellKnownUrl = (url: unknown): boolean =>
  typeof url === "string" &&
  /\/google\.protobuf\.(Any|Timestamp|Duration|FieldMask|Struct|Value|ListValue|Empty|(Double|Float|Int64|UInt64|Int32|UInt32|Bool|String|Bytes)Value)$/.test(
    url,
  );

/**
 * The value at a decoder error's path, in the JSON.parse'd input, and whether the path goes through an Any of a
 * type that is not well-known (the schema does not resolve its @type).
 */
function at(value: unknown, path: string): { value: unknown; inAny: boolean } {
  let v = value;
  let inAny = false;
  const isAny = (x: unknown): x is { "@type": unknown } =>
    typeof x === "object" && x !== null && !Array.isArray(x) && Object.prototype.hasOwnProperty.call(x, "@type");
  for (const s of jsonPathSegments(path) ?? []) {
    if (isAny(v) && !wellKnownUrl(v["@type"])) inAny = true;
    v = (v as Record<string | number, unknown> | undefined)?.[s];
  }
  if (isAny(v) && !wellKnownUrl(v["@type"])) inAny = true;
  return { value: v, inAny };
}

/**
 * Why JSON Schema cannot refuse a value that the decoder refuses, or undefined when it should have. Every
 * reason is a fact about JSON Schema (it sees what JSON.parse makes of the text) or about a rule no pattern
 * states simply.
 */
function inexpressible(parsed: unknown, input: Input, e: WktJsonError): string | undefined {
  const { value, inAny } = at(parsed, e.jsonPath);
  if (inAny || e.typeName === "google.protobuf.Any")
    return "inside an Any of a type that is not well-known: the schema does not resolve @type";
  switch (e.rule) {
    case "duplicate-field":
      // A key repeated in the text: JSON.parse keeps the last. (Both names of a field is refused by the schema.)
      return /is repeated|given twice/.test(e.detail) && !/given twice, as/.test(e.detail)
        ? "a repeated key, or a map key in two spellings"
        : undefined;
    case "utf16":
      return "a lone surrogate: JSON Schema has no notion of UTF-16";
    case "not-finite":
      return "1e309: JSON.parse makes it Infinity";
    case "depth":
    case "size":
      return "a limit of the decoder";
  }
  if (typeof value === "number" && !Number.isSafeInteger(value) && /64/.test(e.typeName)) {
    return "a number beyond 2^53: JSON.parse rounds it";
  }
  if (
    typeof value === "number" &&
    Number.isInteger(value) &&
    (e.rule === "syntax" || e.rule === "enum") &&
    /its fraction is beyond what a double holds/.test(e.detail)
  ) {
    return "a number literal whose decimal value is not an integer, though JSON.parse's double is";
  }
  if (typeof value === "string" && /[eE.]/.test(value) && (e.rule === "range" || e.rule === "syntax")) {
    return "a number in a string with a fraction or an exponent: its value is not checked";
  }
  if (e.typeName === "google.protobuf.Timestamp" && e.rule === "range")
    return "the instant range of a Timestamp with an offset";
  return undefined;
}

const everyInput = [...conformanceInputs, ...hostileInputs];

describe("the inputs the decoder accepts are valid against the input schema", () => {
  it("has the conformance suite's inputs (1,000) and the hostile table's", () => {
    expect(conformanceInputs.length).toBe(1000);
    expect(hostileInputs.length).toBeGreaterThanOrEqual(567);
  });

  it.each(["conformance", "hostile"])(
    "%s: accepted ⇒ valid; toJson's output valid against the output schemas",
    // A hang guard: 5 s alone (when it took 9 s alone, it took 64 s beside two busy loops and other work).
    { timeout: 240_000 },
    (source) => {
      let accepted = 0;
      const failures: string[] = [];
      for (const input of everyInput.filter((i) => i.source === source)) {
        const r = decode(input);
        if (!("message" in r)) continue;
        accepted++;
        const parsed = JSON.parse(input.text) as unknown;
        const inOptions: JsonSchemaOptions = { io: "input", ignoreUnknownFields: input.ignoreUnknownFields };
        if (nesting(input.text) > ajvDepth) continue; // see "values nested deeper than ajv's stack allows"
        if (!validator(input.schema, inOptions)(parsed)) {
          failures.push(
            `input ${input.schema.typeName} ${input.text.slice(0, 200)}: ${JSON.stringify(validator(input.schema, inOptions).errors)}`,
          );
        }
        for (const write of [{}, { useProtoFieldName: true }, { enumAsInteger: true }, { alwaysEmitImplicit: true }]) {
          const json = toJson(input.schema, r.message as never, { registry: testRegistry, ...write });
          const outOptions: JsonSchemaOptions = { io: "output", ...write };
          if (!validator(input.schema, outOptions)(json)) {
            failures.push(
              `output ${JSON.stringify(write)} ${input.schema.typeName} ${JSON.stringify(json).slice(0, 200)}: ${JSON.stringify(validator(input.schema, outOptions).errors)}`,
            );
          }
          // Canonical output is input too.
          const back: JsonSchemaOptions = { io: "input" };
          if (!validator(input.schema, back)(json))
            failures.push(`output as input ${JSON.stringify(json).slice(0, 200)}`);
        }
      }
      expect(failures).toEqual([]);
      expect(accepted).toBeGreaterThan(source === "conformance" ? 500 : 200);
    },
  );

  it.each(["conformance", "hostile"])("%s: rejected ⇒ invalid, unless JSON Schema cannot state the rule", (source) => {
    const unexplained: string[] = [];
    const reasons = new Map<string, number>();
    let rejected = 0;
    let refused = 0;
    for (const input of everyInput.filter((i) => i.source === source)) {
      const r = decode(input);
      if (!("error" in r)) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(input.text);
      } catch {
        continue; // not JSON at all: nothing for a JSON Schema validator to see
      }
      if (r.error.rule === "depth" || r.error.rule === "size") continue;
      rejected++;
      const options: JsonSchemaOptions = { io: "input", ignoreUnknownFields: input.ignoreUnknownFields };
      if (!validator(input.schema, options)(parsed)) {
        refused++;
        continue;
      }
      const why = inexpressible(parsed, input, r.error);
      if (why === undefined)
        unexplained.push(`${r.error.rule} ${r.error.jsonPath} ${input.schema.typeName} ${input.text.slice(0, 160)}`);
      else reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
    expect(unexplained).toEqual([]);
    // Most refusals are the schema's too (the hostile table is mostly about what JSON.parse hides: repeated keys,
    // lone surrogates, digits beyond 2^53).
    expect(refused / rejected).toBeGreaterThan(source === "conformance" ? 0.8 : 0.7);
  });
});

describe("random messages", () => {
  it.each([TestAllTypesProto3, TestAllTypesProto2, TestAllTypesEdition2023])(
    "%s: toJson's output is valid against the output and the input schema",
    (schema) => {
      const writes = [{}, { useProtoFieldName: true }, { enumAsInteger: true }, { alwaysEmitImplicit: true }] as const;
      fc.assert(
        fc.property(
          arbMessage(schema, { maxDepth: 3, setChance: 0.3 }),
          fc.constantFrom(...writes),
          (message, write) => {
            const json = toJson(schema, message as never, { registry: testRegistry, ...write });
            const output = validator(schema, { io: "output", ...write });
            expect(output(json), JSON.stringify(output.errors)).toBe(true);
            const input = validator(schema, { io: "input" });
            expect(input(json), JSON.stringify(input.errors)).toBe(true);
          },
        ),
        { numRuns: 300 },
      );
    },
    120_000,
  );
});

describe("values nested deeper than ajv's stack allows", () => {
  /** ajv's verdicts on `data` for each document (compiled once for the same text), in a worker with a 64 MB stack. */
  function inWorker(docs: JsonObject[], data: unknown[]): Promise<boolean[]> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(
        `const { parentPort, workerData } = require("node:worker_threads");
         const Ajv2020 = require(workerData.ajv).default;
         const ajv = new Ajv2020(workerData.options);
         const compiled = new Map();
         const compile = (doc) => {
           const text = JSON.stringify(doc);
           if (!compiled.has(text)) compiled.set(text, ajv.compile(doc));
           return compiled.get(text);
         };
         parentPort.postMessage(workerData.docs.map((doc, i) => compile(doc)(workerData.data[i])));`,
        {
          eval: true,
          workerData: {
            docs,
            data,
            options: ajvOptions,
            ajv: createRequire(import.meta.url).resolve("ajv/dist/2020.js"),
          },
          resourceLimits: { stackSizeMb: 64 },
        },
      );
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  }

  it("are valid against the input schema, and toJson's output against the output schema", async () => {
    const deep = everyInput.filter((i) => nesting(i.text) > ajvDepth);
    const docs: JsonObject[] = [];
    const data: unknown[] = [];
    for (const input of deep) {
      const r = decode(input);
      if (!("message" in r)) continue;
      docs.push(
        jsonSchema(input.schema, {
          io: "input",
          ignoreUnknownFields: input.ignoreUnknownFields,
          registry: testRegistry,
        }),
      );
      data.push(JSON.parse(input.text));
      docs.push(jsonSchema(input.schema, { registry: testRegistry }));
      data.push(toJson(input.schema, r.message as never, { registry: testRegistry }));
    }
    expect(docs.length).toBeGreaterThanOrEqual(2); // the conformance suite's 100-level recursive message, at least
    expect(await inWorker(docs, data)).toEqual(docs.map(() => true));
  });
});

describe("boundaries: the schema and the decoder agree", () => {
  const M = TestAllTypesProto3;
  // [member, JSON value, accepted by the decoder]
  const rows: [string, JsonValue, boolean][] = [
    ["optionalInt32", -2147483648, true],
    ["optionalInt32", -2147483649, false],
    ["optionalInt32", 2147483647, true],
    ["optionalInt32", 2147483648, false],
    ["optionalInt32", "2147483647", true],
    ["optionalInt32", "2147483648", false],
    ["optionalInt32", "1e2", true],
    ["optionalInt32", "1.5", false],
    ["optionalInt32", "+1", false],
    ["optionalInt32", "01", false],
    ["optionalInt32", true, false],
    ["optionalUint32", 4294967295, true],
    ["optionalUint32", -1, false],
    ["optionalInt64", "9223372036854775807", true],
    ["optionalInt64", "9223372036854775808", false],
    ["optionalInt64", "-9223372036854775808", true],
    ["optionalInt64", "-9223372036854775809", false],
    ["optionalUint64", "18446744073709551615", true],
    ["optionalUint64", "18446744073709551616", false],
    ["optionalUint64", "-1", false],
    ["optionalFloat", 3.4028234663852886e38, true],
    ["optionalFloat", 3.5e38, false],
    ["optionalFloat", "NaN", true],
    ["optionalFloat", "nan", false],
    ["optionalDouble", "-Infinity", true],
    ["optionalBytes", "AQID", true],
    ["optionalBytes", "AQI", true],
    ["optionalBytes", "AQ-_", true],
    ["optionalBytes", "A", false],
    ["optionalBytes", "AQ==AQ==", false],
    ["optionalBool", "true", false],
    ["optionalNestedEnum", "BAZ", true],
    ["optionalNestedEnum", 2, true],
    ["optionalNestedEnum", 123, true], // open enum: any int32
    ["optionalNestedEnum", "QUX", false],
    ["optionalNestedEnum", null, true],
    ["optionalTimestamp", "2024-02-29T00:00:00Z", true],
    ["optionalTimestamp", "2023-02-29T00:00:00Z", false],
    ["optionalTimestamp", "1900-02-29T00:00:00Z", false],
    ["optionalTimestamp", "2000-02-29T00:00:00Z", true],
    ["optionalTimestamp", "2024-04-31T00:00:00Z", false],
    ["optionalTimestamp", "2024-01-01T24:00:00Z", false],
    ["optionalTimestamp", "2024-01-01T00:00:60Z", false],
    ["optionalTimestamp", "2024-01-01t00:00:00Z", false],
    ["optionalTimestamp", "2024-01-01T00:00:00.123456789+05:30", true],
    ["optionalTimestamp", "2024-01-01T00:00:00.1234567891Z", false],
    ["optionalTimestamp", "0001-01-01T00:00:00Z", true],
    ["optionalTimestamp", "0000-12-31T23:59:59Z", false],
    ["optionalTimestamp", "9999-12-31T23:59:59.999999999Z", true],
    ["optionalDuration", "315576000000.999999999s", true],
    ["optionalDuration", "315576000001s", false],
    ["optionalDuration", "-315576000000s", true],
    ["optionalDuration", "01s", false],
    ["optionalDuration", "1.s", false],
    ["optionalDuration", "1", false],
    ["optionalFieldMask", "a.bC,d", true],
    ["optionalFieldMask", "", true],
    ["optionalFieldMask", "a_b", false],
    ["optionalFieldMask", "a,,b", false],
    ["optionalFieldMask", "1a", false],
    ["optionalStruct", { a: [1, { b: null }] }, true],
    ["optionalStruct", [1], false],
    ["optionalValue", null, true],
    ["optionalAny", {}, true],
    ["optionalAny", { a: 1 }, false],
    ["optionalAny", { "@type": "not a url" }, false],
    ["optionalEmpty", { a: 1 }, false],
    ["optionalInt64Wrapper", "1", true],
    ["optionalInt64Wrapper", null, true],
    ["repeatedInt64Wrapper", [null], false],
    ["repeatedInt32", [1, "2"], true],
    ["repeatedInt32", 1, false],
    ["repeatedValue", [null], true],
    ["mapInt32Int32", { "-2147483648": 1, "+07": 2 }, true],
    ["mapInt32Int32", { "2147483648": 1 }, false],
    ["mapInt32Int32", { "1.0": 1 }, false],
    ["mapBoolBool", { true: false }, true],
    ["mapBoolBool", { yes: false }, false],
    ["mapStringNestedMessage", { a: null }, false],
    ["optional_int32", 1, true],
    ["optionalNestedMessage", { a: 1, corecursive: { optionalInt32: 2 } }, true],
    ["optionalNestedMessage", { b: 1 }, false],
    ["oneofUint32", 1, true],
    ["oneofString", null, true],
  ];

  it.each(rows)("%s: %j (decoder accepts: %s)", (member, value, accepted) => {
    const json = { [member]: value };
    const text = JSON.stringify(json);
    const decoded = decode({ source: "", schema: M, text, ignoreUnknownFields: false });
    expect("message" in decoded).toBe(accepted);
    expect(validator(M, { io: "input" })(json)).toBe(accepted);
  });

  it.each<[JsonValue, boolean]>([
    [{ oneofUint32: 1, oneofString: "a" }, false],
    [{ oneofUint32: 1, oneofString: null }, true],
    [{ oneofUint32: null, oneof_string: "a" }, true],
    [{ oneofNullValue: null, oneofUint32: 1 }, false], // null is NullValue's value: it sets the oneof
    [{ optionalInt32: 1, optional_int32: 1 }, false], // one field under both names
    [{ optionalInt32: 1, optionalInt64: 1 }, true],
    [{ unknownMember: 1 }, false],
  ])("members together: %j (decoder accepts: %s)", (json, accepted) => {
    expect("message" in decode({ source: "", schema: M, text: JSON.stringify(json), ignoreUnknownFields: false })).toBe(
      accepted,
    );
    expect(validator(M, { io: "input" })(json)).toBe(accepted);
  });

  it("ignoreUnknownFields: unknown members and enum names are allowed, as the decoder skips them", () => {
    const v = validator(M, { io: "input", ignoreUnknownFields: true });
    expect(v({ unknownMember: 1, optionalNestedEnum: "QUX" })).toBe(true);
    // An unknown enum name does not set its oneof, so another member may.
    expect(v({ oneofEnum: "QUX", oneofUint32: 1 })).toBe(true);
    expect(v({ oneofEnum: "FOO", oneofUint32: 1 })).toBe(false);
    expect(
      "message" in
        decode({ source: "", schema: M, text: '{"oneofEnum":"QUX","oneofUint32":1}', ignoreUnknownFields: true }),
    ).toBe(true);
  });

  it("a wrapper at the root reads null, as the decoder does", () => {
    expect(validator(Int64ValueSchema, { io: "input" })(null)).toBe(true);
    expect(validator(Int64ValueSchema, { io: "output" })(null)).toBe(false);
    expect(validator(TimestampSchema, { io: "input" })(null)).toBe(false);
  });
});

describe("the output schema", () => {
  const M = TestAllTypesProto3;
  it.each<[JsonSchemaOptions, JsonValue, boolean]>([
    [{}, { optionalInt64: "1" }, true],
    [{}, { optionalInt64: 1 }, false], // canonical 64-bit integers are strings
    [{}, { optionalInt64: "01" }, false],
    [{}, { optional_int64: "1" }, false], // JSON names
    [{ useProtoFieldName: true }, { optional_int64: "1" }, true],
    [{ useProtoFieldName: true }, { optionalInt64: "1" }, false],
    [{}, { optionalNestedEnum: "BAZ" }, true],
    [{}, { optionalNestedEnum: 2 }, true], // an open enum writes a number it does not declare as a number
    [{ enumAsInteger: true }, { optionalNestedEnum: "BAZ" }, false],
    [{}, { optionalTimestamp: "2024-01-01T00:00:00+01:00" }, false], // Z only
    [{}, { optionalTimestamp: "2024-01-01T00:00:00.1Z" }, false], // 0, 3, 6 or 9 digits
    [{}, { optionalTimestamp: "2024-01-01T00:00:00.100Z" }, true],
    [{}, { optionalDuration: "1.5s" }, false],
    [{}, { optionalDuration: "1.500s" }, true],
    [{}, { optionalBytes: "AQ-_" }, false], // standard base64 with padding
    [{}, { optionalInt32: null }, false],
    [{}, { mapInt32Int32: { "+1": 1 } }, false],
    [{}, { mapInt32Int32: { "-1": 1 } }, true],
    [{ alwaysEmitImplicit: true }, {}, false],
  ])("%j: %j is valid: %s", (options, json, ok) => {
    expect(validator(M, { io: "output", ...options })(json)).toBe(ok);
  });

  it("marks proto2 required fields required", () => {
    const doc = jsonSchema(testRegistry.getMessage("protobuf_test_messages.proto2.TestAllRequiredTypesProto2")!);
    const def = (doc.$defs as JsonObject)["protobuf_test_messages.proto2.TestAllRequiredTypesProto2"] as JsonObject;
    expect(def.required).toContain("requiredInt32");
    expect(
      (jsonSchema(TestAllTypesProto2).$defs as JsonObject)["protobuf_test_messages.proto2.TestAllTypesProto2"],
    ).not.toHaveProperty("required");
  });
});

describe("the document", () => {
  it("refers to the root type's entry in $defs, one entry per type reached", () => {
    const doc = jsonSchema(TimestampSchema);
    expect(doc).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $ref: "#/$defs/google.protobuf.Timestamp",
      $defs: {
        "google.protobuf.Timestamp": {
          type: "string",
          format: "date-time",
          pattern: expect.stringMatching(/^\^.*Z\$$/),
        },
      },
    });
    const defs = Object.keys(jsonSchema(TestAllTypesProto3).$defs as JsonObject);
    expect(defs).toContain("protobuf_test_messages.proto3.TestAllTypesProto3.NestedMessage");
    expect(defs).toContain("protobuf_test_messages.proto3.ForeignEnum");
    expect(defs).toContain("google.protobuf.Duration");
    expect(new Set(defs).size).toBe(defs.length);
  });

  it("is plain JSON: it survives JSON.stringify unchanged", () => {
    for (const io of ["input", "output"] as const) {
      const doc = jsonSchema(TestAllTypesProto3, { io, registry: testRegistry });
      expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    }
  });

  it("draft-07: definitions and dependencies, and ajv's draft-07 validator agrees on the samples", () => {
    const doc = jsonSchema(TestAllTypesProto3, { target: "draft-07", io: "input" });
    expect(doc.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(doc).toHaveProperty("definitions");
    expect(doc).not.toHaveProperty("$defs");
    const v07 = validator(TestAllTypesProto3, { target: "draft-07", io: "input" });
    const v20 = validator(TestAllTypesProto3, { io: "input" });
    for (const input of conformanceInputs.filter((i) => i.schema === TestAllTypesProto3 && !i.ignoreUnknownFields)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(input.text);
      } catch {
        continue;
      }
      let a: boolean | undefined;
      try {
        a = v20(parsed);
      } catch {
        continue; // too deep for ajv's stack: see above
      }
      expect(v07(parsed)).toBe(a);
    }
  });

  it("refPrefix and nameSuffix: the input and output schemas side by side, as an OpenAPI document's components", () => {
    const refPrefix = "#/components/schemas/";
    const output = jsonSchema(TestAllTypesProto3, { refPrefix });
    const input = jsonSchema(TestAllTypesProto3, { io: "input", refPrefix, nameSuffix: "Input" });
    expect(output.$ref).toBe("#/components/schemas/protobuf_test_messages.proto3.TestAllTypesProto3");
    expect(input.$ref).toBe("#/components/schemas/protobuf_test_messages.proto3.TestAllTypesProto3Input");
    const schemas = { ...(output.$defs as JsonObject), ...(input.$defs as JsonObject) };
    expect(Object.keys(schemas).length).toBe(2 * Object.keys(output.$defs as JsonObject).length);
    // Every $ref names an entry of the components.
    const refs = [...JSON.stringify(schemas).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of refs)
      expect(Object.prototype.hasOwnProperty.call(schemas, ref.slice(refPrefix.length))).toBe(true);
    // The same document under $defs validates as before.
    const v = ajv2020.compile({
      $ref: (input.$ref as string).replace(refPrefix, "#/$defs/"),
      $defs: JSON.parse(JSON.stringify(schemas).replaceAll(refPrefix, "#/$defs/")) as JsonObject,
    });
    expect(v({ optionalInt32: "1", optional_int64: 2 })).toBe(true);
    expect(v({ optionalInt32: "x" })).toBe(false);
  });

  it("extensions of the registry are members [full.name]", () => {
    const v = validator(TestAllTypesProto2, { io: "input" });
    expect(v({ "[protobuf_test_messages.proto2.extension_int32]": 1 })).toBe(true);
    expect(v({ "[protobuf_test_messages.proto2.extension_int32]": "x" })).toBe(false);
    const without = schemaValidator(TestAllTypesProto2, { io: "input" }); // no registry
    expect(without({ "[protobuf_test_messages.proto2.extension_int32]": 1 })).toBe(false);
  });

  it("takes 2,000 types that refer to each other in a chain, in linear time and without recursion", () => {
    const n = 2000;
    const chain = (n: number) => {
      const file = create(FileDescriptorProtoSchema, {
        name: "chain.proto",
        package: "chain",
        syntax: "proto3",
        messageType: Array.from({ length: n }, (_, i) => ({
          name: `M${i}`,
          field:
            i + 1 < n
              ? [
                  {
                    name: "next",
                    number: 1,
                    label: FieldDescriptorProto_Label.OPTIONAL,
                    type: FieldDescriptorProto_Type.MESSAGE,
                    typeName: `.chain.M${i + 1}`,
                    jsonName: "next",
                  },
                ]
              : [],
        })),
      });
      return createFileRegistry(create(FileDescriptorSetSchema, { file: [file] }));
    };
    // Linear time: 2,000 types at the rate of 500 (CPU time per type, the least of up to four interleaved
    // rounds, see cost.ts), within 2x; a walk quadratic in the chain reads 4x. (It was a wall-clock limit of
    // 2 s, which load could fail.)
    const registry = chain(n);
    const [small, large] = [chain(n / 4).getMessage("chain.M0")!, registry.getMessage("chain.M0")!];
    const doc = jsonSchema(large);
    jsonSchema(small); // warm up
    const [s, l] = leastOf(
      () => [cpuMs(() => [1, 2, 3, 4].forEach(() => jsonSchema(small))), cpuMs(() => jsonSchema(large))],
      4,
      ([s, l]) => l! / s! < 2,
    );
    expect(l! / s!).toBeLessThan(2);
    expect(Object.keys(doc.$defs as JsonObject)).toHaveLength(n);
    expect((doc.$defs as JsonObject)["chain.M1998"]).toEqual({
      type: "object",
      properties: { next: { $ref: "#/$defs/chain.M1999" } },
      additionalProperties: false,
    });
    // ajv compiles $refs recursively, so it is shown a chain its stack takes.
    const short = jsonSchema(registry.getMessage("chain.M1900")!);
    const v = ajv2020.compile(short);
    expect(v({ next: { next: { next: {} } } })).toBe(true);
    expect(v({ next: { next: { nxt: {} } } })).toBe(false);
  });

  it("a type named __proto__ is an own entry of $defs, and nothing reaches Object.prototype", () => {
    const file = create(FileDescriptorProtoSchema, {
      name: "proto.proto",
      syntax: "proto3",
      messageType: [
        {
          name: "__proto__",
          field: [
            {
              name: "x",
              number: 1,
              label: FieldDescriptorProto_Label.OPTIONAL,
              type: FieldDescriptorProto_Type.INT32,
              jsonName: "x",
            },
          ],
        },
      ],
    });
    const registry = createFileRegistry(create(FileDescriptorSetSchema, { file: [file] }));
    const doc = jsonSchema(registry.getMessage("__proto__")!);
    expect(Object.prototype.hasOwnProperty.call(doc.$defs, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).properties).toBeUndefined();
    expect(ajv2020.compile(doc)({ x: 1 })).toBe(true);
  });

  it.each<[unknown, string]>([
    [{ io: "both" }, "range"],
    [{ target: "openapi-3.0" }, "range"],
    [{ useProtoFieldName: "yes" }, "range"],
    [{ registry: {} }, "range"],
    [{ refPrefix: "components/schemas/" }, "range"],
    [{ refPrefix: "#/components/schemas" }, "range"],
    [{ refPrefix: "#/a b/" }, "range"],
    [{ nameSuffix: "/x" }, "range"],
    ["input", "range"],
  ])("refuses the options %j (rule %s)", (options, rule) => {
    expect(catchWkt(() => jsonSchema(DurationSchema, options as JsonSchemaOptions))).toMatchObject({
      rule,
      jsonPath: "$",
    });
  });

  it("refuses what is not a message descriptor", () => {
    expect(catchWkt(() => jsonSchema({} as DescMessage))).toMatchObject({ rule: "json-type" });
  });

  it("has a property for every field, under its JSON name (output) or both names (input)", () => {
    const name = "protobuf_test_messages.proto3.TestAllTypesProto3";
    const out = (jsonSchema(TestAllTypesProto3).$defs as JsonObject)[name] as JsonObject;
    expect(Object.keys(out.properties as JsonObject)).toEqual(TestAllTypesProto3.fields.map((f) => f.jsonName));
    const input = (jsonSchema(TestAllTypesProto3, { io: "input" }).$defs as JsonObject)[name] as JsonObject;
    expect(Object.keys(input.properties as JsonObject)).toEqual(
      TestAllTypesProto3.fields.flatMap((f) => (f.jsonName === f.name ? [f.name] : [f.jsonName, f.name])),
    );
  });
});

describe("jsonSchema: a long option value", () => {
  it("is quoted cut short: the message stays small", () => {
    const e = catchWkt(() => jsonSchema(DurationSchema, { io: "x".repeat(1e6) as never }));
    expect([e.rule, e.message.length < 300]).toEqual(["range", true]);
    expect(e.message).toContain("(1000000 characters)");
  });
});
