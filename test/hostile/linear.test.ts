// Linear time in the input size for every codec: each worst shape we know is fed at 250 KB and at 1 MB, and
// the 1 MB rate (CPU time per UTF-16 code unit) must stay within 2x of the 250 KB rate. A quadratic step (string
// building, backtracking, a position computed per error from the start, a BigInt of a megabyte of digits)
// gives 4x at 4x the size, and more at once past its constant. The figure is CPU time, the least of up to eight
// interleaved rounds for each size (see ../cost.ts), so a busy machine cannot fail the test and a slow one
// passes as well as a fast one. (It was 1 MB against 10 MB in wall time, retried on failure: 34 s, and a
// figure that load could move; then 1 MB against 4 MB in CPU time, 15 s. At 250 KB every shape reads 0.4-1.7,
// as at 1 MB (0.9-1.4), and a position computed per error from the start, put into lineColumns for the test,
// read 5.05 on the validateJsonString shape.)

import type { DescMessage } from "@bufbuild/protobuf";
import { FieldMaskSchema, StructSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import { fromJsonString } from "../../src/codec/from-json.js";
import { toJsonString } from "../../src/codec/to-json.js";
import { validateJsonString } from "../../src/codec/validate.js";
import { TestAllTypesProto3, testRegistry } from "../conformance-registry.js";
import { leastOf, perUnit } from "../cost.js";
import { repeatToSize, wideObject } from "./texts.js";

const registry = testRegistry;
const M = TestAllTypesProto3;

/** An object of distinct members `"<prefix>k": value` up to about `size` code units. */
function wide(prefix: string, value: string, size: number): string {
  return wideObject(size, (k) => `"${prefix}${k}":${value}`);
}

/** Runs `op`, giving its result or the WktJsonError it throws; anything else fails. */
function run(op: () => unknown): unknown {
  try {
    return op();
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    return e;
  }
}

type Op = (text: string) => unknown;
const decode =
  (schema: DescMessage, options?: object): Op =>
  (text) =>
    run(() => fromJsonString(schema, text, { registry, ...options }));

/** [name, text of about `size` code units, operation, what the operation must give on it]. */
const shapes: [string, (size: number) => string, Op, "ok" | "error"][] = [
  [
    "int64 extremes, unquoted",
    (n) => repeatToSize('{"repeatedInt64":[', "-9223372036854775808", "]}", n),
    decode(M),
    "ok",
  ],
  [
    "int64 in exponent form",
    (n) => repeatToSize('{"repeatedUint64":[', "1.8446744073709551615e19", "]}", n),
    decode(M),
    "ok",
  ],
  [
    "strings of escapes and surrogate pairs",
    (n) => repeatToSize('{"repeatedString":[', '"\\n\\"\\u00e9a\\\\\\ud83d\\ude00"', "]}", n),
    decode(M),
    "ok",
  ],
  ["a wide map<string, string>", (n) => `{"mapStringString":${wide("k", '"v"', n)}}`, decode(M), "ok"],
  ["a wide Struct of small lists", (n) => wide("k", '[1,"a",null,-0]', n), decode(StructSchema), "ok"],
  [
    "Struct fields of lists nested 90 deep",
    (n) =>
      repeatToSize(
        '{"repeatedStruct":[',
        '{"a":' + "[".repeat(90) + '"' + "x".repeat(400) + '"' + "]".repeat(90) + "}",
        "]}",
        n,
      ),
    decode(M),
    "ok",
  ],
  [
    "Timestamps with offsets",
    (n) => repeatToSize('{"repeatedTimestamp":[', '"2024-02-29T12:00:00.123456789+01:00"', "]}", n),
    decode(M),
    "ok",
  ],
  [
    "Durations at the bound",
    (n) => repeatToSize('{"repeatedDuration":[', '"-315576000000.999999999s"', "]}", n),
    decode(M),
    "ok",
  ],
  [
    "one FieldMask of camel humps",
    (n) => '"' + repeatToSize("", "aB.cD.eFgH", "", n - 2) + '"',
    decode(FieldMaskSchema),
    "ok",
  ],
  ["one long base64 bytes", (n) => '{"optionalBytes":"' + "QUJD".repeat(Math.floor(n / 4)) + '"}', decode(M), "ok"],
  [
    "Anys of Durations",
    (n) =>
      repeatToSize(
        '{"repeatedAny":[',
        '{"@type":"type.googleapis.com/google.protobuf.Duration","value":"1.5s"}',
        "]}",
        n,
      ),
    decode(M),
    "ok",
  ],
  [
    "one integer literal of up to a million digits",
    (n) => '{"optionalValue":' + "7".repeat(n) + "}",
    decode(M),
    "error",
  ],
  ["an int64 string of up to a million digits", (n) => '{"optionalInt64":"' + "7".repeat(n) + '"}', decode(M), "error"],
  [
    "a bad value at the very end, after many lines",
    (n) => repeatToSize('{"repeatedInt32":[\n', "1", ',"x"]}', n, ",\n"),
    decode(M),
    "error",
  ],
  [
    "a repeated key at the very end",
    (n) => repeatToSize('{"repeatedInt32":[', "1", '],"repeatedInt32":[]}', n),
    decode(M),
    "error",
  ],
  [
    "validateJsonString: an issue in every 50th item, all listed",
    (n) => repeatToSize('{"repeatedInt32":[\n', "1,".repeat(49) + '"x"', "]}", n, ",\n"),
    (t) => run(() => validateJsonString(M, t, { registry, maxIssues: Infinity })),
    "ok",
  ],
  [
    "toJsonString of many messages",
    (n) => repeatToSize('{"repeatedForeignMessage":[', '{"c":-2147483648}', "]}", n),
    (t) => toJsonString(M, fromJsonString(M, t)),
    "ok",
  ],
];

/** The large text's rate over the small text's: the least of each over up to eight interleaved rounds. */
function rateRatio(op: Op, small: string, large: string): number {
  const times = Math.round(large.length / small.length);
  const [s, l] = leastOf(
    () => [perUnit(op, small, times), perUnit(op, large, 1)],
    8,
    ([s, l]) => l! / s! < bound,
  );
  return l! / s!;
}

/** The rate of the 1 MB text over that of the 250 KB text must stay below this; a quadratic reads 4. */
const bound = 2;

describe("linear time", () => {
  it.each(shapes)("%s: 1 MB at the rate of 250 KB, within 2x", (_, make, op, expected) => {
    const small = make(250_000);
    const large = make(1_000_000);
    const first = op(small); // warm up, and check the shape does what it says
    expect(isWktJsonError(first) ? "error" : "ok").toBe(expected);
    expect(rateRatio(op, small, large)).toBeLessThan(bound);
  });
});
