import { describe, expect, it } from "vitest";
import {
  type JsonTextParseOptions,
  jsonTextMaxDepthDefault,
  locateJsonPath,
  parseJsonText,
  parseJsonTextStrict,
  takeInexactIntegers,
  textKeptEveryMember,
} from "../src/codec/json-text.js";
import { catchWkt } from "./helpers.js";

/** Both paths: the hybrid entry point, and the strict parser it falls back to. */
const parsers: [string, (text: string, options?: JsonTextParseOptions) => unknown][] = [
  ["parseJsonText", parseJsonText],
  ["parseJsonTextStrict", (text, options) => parseJsonTextStrict(text, options?.maxDepth ?? jsonTextMaxDepthDefault)],
];

const itself = (v: unknown) => v as object;

/** Every value in `v`, with -0 made visible, so that toEqual can tell -0 from 0. */
function showZeros(v: unknown): unknown {
  if (Object.is(v, -0)) return "-0";
  if (Array.isArray(v)) return v.map(showZeros);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) Object.defineProperty(out, k, { value: showZeros(e), enumerable: true });
    return out;
  }
  return v;
}

describe.each(parsers)("%s", (_, parse) => {
  it.each([
    ["0"],
    ["-0"],
    ["1"],
    ["-1"],
    ["1.5"],
    ["-1.5e-3"],
    ["1E+2"],
    ["1e-7"],
    ["0.1"],
    ["-0.0"],
    ["0e0"],
    ["123456789012345"], // 15 digits: the fast path
    ["9007199254740991"], // Number.MAX_SAFE_INTEGER stays a number
    ["-9007199254740991"],
    ["1e21"],
    ["1.7976931348623157e308"],
    ["5e-324"],
    ["1e400"], // Infinity, as JSON.parse
    ["true"],
    ["false"],
    ["null"],
    ['""'],
    ['"abc"'],
    ['"\\"\\\\\\/\\b\\f\\n\\r\\t"'],
    ['"\\u00e9\\u65E5"'],
    ['"\\uD83D\\uDE00"'],
    ['"\\uD800"'], // lone surrogates are kept
    ['"\\uDC00x"'],
    ['"日本🎉"'],
    ['"\u007f\u2028\u2029"'],
    ["[]"],
    ["{}"],
    [" [ 1 , 2 ] "],
    ["\t\n\r 1 \t\n\r"],
    ['{"a":{"b":[1,{"c":null}]}}'],
    ['{"1":1,"0":0,"b":2}'],
    ['{"":1}'],
    ["[[],[[]],{}]"],
    ['{"a":"x:y","b":":)","c":" :"}'], // colons in strings
    ['{"a" : 1, "b"\n:\t2}'], // whitespace before colons
    ['{"a\\\\":1,"b":"\\":"}'], // a key ending in a backslash, an escaped quote before a colon
    ['{"a\\u0062":1,"ac":2}'],
    ['{"constructor":1,"prototype":2,"toString":3,"hasOwnProperty":4}'],
    ['[{"a":1},{"a":1}]'], // the same key in sibling objects
    ['{"a":{"a":{"a":1}}}'],
  ])("parses %j like JSON.parse", (text) => {
    expect(showZeros(parse(text))).toEqual(showZeros(JSON.parse(text)));
  });

  it.each([
    ["9007199254740992", 9007199254740992n], // 2^53 is not safe: 2^53 + 1 reads the same
    ["9007199254740993", 9007199254740993n],
    ["-9007199254740992", -9007199254740992n],
    ["-9223372036854775808", -9223372036854775808n],
    ["9223372036854775807", 9223372036854775807n],
    ["18446744073709551615", 18446744073709551615n],
    ["100000000000000000000", 100000000000000000000n],
    ["9007199254740991", 9007199254740991],
    ["-9007199254740991", -9007199254740991],
    ["1e21", 1e21],
    ["12345678901234567890.0", 12345678901234567890.0],
    ["12345678901234567890e0", 12345678901234567890],
    ["9007199254740993.5", 9007199254740993.5],
    ['{"id":9223372036854775807,"n":1}', { id: 9223372036854775807n, n: 1 }],
    ["[1, 99999999999999999999, -0]", [1, 99999999999999999999n, -0]],
  ])("reads %s exactly", (text, expected) => {
    const v = parse(text);
    expect(v).toEqual(expected);
    if (typeof expected === "number") expect(typeof v).toBe("number");
  });

  it.each([
    // [text, rule, path, line, column]
    ["[1,]", "syntax", "$[1]", 1, 4],
    ['{"a":1,}', "syntax", "$", 1, 8],
    ["01", "syntax", "$", 1, 2],
    ["[01]", "syntax", "$[0]", 1, 3],
    ["-01", "syntax", "$", 1, 3],
    ["+1", "syntax", "$", 1, 1],
    [".5", "syntax", "$", 1, 1],
    ["1.", "syntax", "$", 1, 3],
    ["1.e5", "syntax", "$", 1, 3],
    ["1e", "syntax", "$", 1, 3],
    ["1e+", "syntax", "$", 1, 4],
    ["-", "syntax", "$", 1, 2],
    ["- 1", "syntax", "$", 1, 2],
    ["NaN", "syntax", "$", 1, 1],
    ["Infinity", "syntax", "$", 1, 1],
    ["-Infinity", "syntax", "$", 1, 2],
    ["0x10", "syntax", "$", 1, 2],
    ["1_000", "syntax", "$", 1, 2],
    ['"abc', "syntax", "$", 1, 5],
    ['{"a":"abc', "syntax", "$.a", 1, 10],
    ['"\\', "syntax", "$", 1, 3],
    ["[1,2", "syntax", "$", 1, 5],
    ['["a"', "syntax", "$", 1, 5],
    ['{"a":1', "syntax", "$", 1, 7],
    ['{"a"', "syntax", "$.a", 1, 5],
    ['{"a":', "syntax", "$.a", 1, 6],
    ["{", "syntax", "$", 1, 2],
    ["[", "syntax", "$[0]", 1, 2],
    ['"\\x"', "syntax", "$", 1, 2],
    ['"\\\'"', "syntax", "$", 1, 2],
    ['"\\U0041"', "syntax", "$", 1, 2],
    ['"\\u12G4"', "syntax", "$", 1, 6],
    ['"\\u12"', "syntax", "$", 1, 6],
    ['"a\tb"', "syntax", "$", 1, 3],
    ['"a\nb"', "syntax", "$", 1, 3],
    ['"\u0000"', "syntax", "$", 1, 2],
    ['{"k\u001f":1}', "syntax", "$", 1, 4],
    ["}", "syntax", "$", 1, 1],
    ["]", "syntax", "$", 1, 1],
    ["1 2", "syntax", "$", 1, 3],
    ["{} {}", "syntax", "$", 1, 4],
    ["[1]]", "syntax", "$", 1, 4],
    ["[tru]", "syntax", "$[0]", 1, 5],
    ["nul", "syntax", "$", 1, 4],
    ["True", "syntax", "$", 1, 1],
    ["'a'", "syntax", "$", 1, 1],
    ["{a:1}", "syntax", "$", 1, 2],
    ["{'a':1}", "syntax", "$", 1, 2],
    ['{"a":1 "b":2}', "syntax", "$", 1, 8],
    ['{"a":1,,"b":2}', "syntax", "$", 1, 8],
    ["[,1]", "syntax", "$[0]", 1, 2],
    ['{"a":}', "syntax", "$.a", 1, 6],
    ['{"a" 1}', "syntax", "$.a", 1, 6],
    ["// c\n1", "syntax", "$", 1, 1],
    ["/* c */ 1", "syntax", "$", 1, 1],
    ["", "syntax", "$", 1, 1],
    ["   ", "syntax", "$", 1, 4],
    ["\uFEFF{}", "syntax", "$", 1, 1], // a BOM: JSON.parse rejects it too
    ["\u00A01", "syntax", "$", 1, 1], // no-break space is not JSON whitespace
    ["[1,\u20282]", "syntax", "$[1]", 1, 4],
    ['{"a":[1,{"b":[2,x]}]}', "syntax", "$.a[1].b[1]", 1, 17],
    ['{"a b":{"c.d":[0,-]}}', "syntax", '$["a b"]["c.d"][1]', 1, 19],
    ['{\n  "a": 1,\n  "b": tru\n}', "syntax", "$.b", 3, 11],
    ["[\r\n1,\r\n]", "syntax", "$[1]", 3, 1],
    ["[\r1,\r]", "syntax", "$[1]", 3, 1],
    ["[\n\n  1 2]", "syntax", "$", 3, 5],
    ['["日本🎉", x]', "syntax", "$[1]", 1, 10], // columns count UTF-16 code units
    ['{"a":1,"a":2}', "duplicate-field", "$.a", 1, 8],
    ['{"a":{"b":1,"b":2}}', "duplicate-field", "$.a.b", 1, 13],
    ['[{"x":1},{"x":1,"x":2}]', "duplicate-field", "$[1].x", 1, 17],
    ['{"a\\u0062":1,"ab":2}', "duplicate-field", "$.ab", 1, 14],
    ['{"__proto__":1,"__proto__":2}', "duplicate-field", "$.__proto__", 1, 16],
    ['{"a b":1,"a b":2}', "duplicate-field", '$["a b"]', 1, 10],
    ['{"a":1, "b":2,\n "a" :3}', "duplicate-field", "$.a", 2, 2],
    ['{"a":{"x":[1,2]},"a":{}}', "duplicate-field", "$.a", 1, 18],
    ['{"a":1,"a":2', "duplicate-field", "$.a", 1, 8], // the first failure counts
  ])("rejects %j (%s at %s, %i:%i)", (text, rule, path, line, column) => {
    expect(catchWkt(() => parse(text))).toMatchObject({ rule, jsonPath: path, line, column, typeName: "JSON" });
  });

  describe("depth", () => {
    const arrays = (n: number) => "[".repeat(n) + "]".repeat(n);
    const objects = (n: number) => '{"a":'.repeat(n - 1) + "{}" + "}".repeat(n - 1);
    it.each([
      [arrays, 2, 3, undefined],
      [arrays, 3, 3, undefined],
      [arrays, 4, 3, { jsonPath: "$[0][0][0]", column: 4 }],
      [objects, 2, 3, undefined],
      [objects, 3, 3, undefined],
      [objects, 4, 3, { jsonPath: "$.a.a.a", column: 16 }],
      [arrays, 1, 0, { jsonPath: "$", column: 1 }],
      [arrays, jsonTextMaxDepthDefault - 1, undefined, undefined],
      [arrays, jsonTextMaxDepthDefault, undefined, undefined],
      [arrays, jsonTextMaxDepthDefault + 1, undefined, { jsonPath: "$" + "[0]".repeat(512), column: 513 }],
    ])("%#: depth %i with limit %s", (make, depth, maxDepth, failure) => {
      const text = make(depth);
      const options = maxDepth === undefined ? {} : { maxDepth };
      if (failure === undefined) {
        expect(parse(text, options)).toEqual(JSON.parse(text));
      } else {
        expect(catchWkt(() => parse(text, options))).toMatchObject({ rule: "depth", line: 1, ...failure });
      }
    });

    it("stops 100,000 [ with a depth error, not a stack overflow", () => {
      expect(catchWkt(() => parse("[".repeat(100_000)))).toMatchObject({ rule: "depth", column: 513 });
    });

    it('stops 100,000 {"a": with a depth error, not a stack overflow', () => {
      const e = catchWkt(() => parse('{"a":'.repeat(100_000)));
      expect(e).toMatchObject({ rule: "depth", column: 512 * 5 + 1, jsonPath: "$" + ".a".repeat(512) });
    });

    it("stops 100,000 nested arrays that close, too", () => {
      expect(catchWkt(() => parse(arrays(100_000)))).toMatchObject({ rule: "depth", column: 513 });
    });

    it("parses 100,000 nested arrays with a limit that allows them, without recursion", () => {
      let v = parse(arrays(100_000), { maxDepth: Infinity });
      for (let d = 1; d < 100_000; d++) v = (v as unknown[])[0];
      expect(v).toEqual([]);
    });
  });

  it.each([
    ["[1]", 2, { rule: "size", jsonPath: "$", line: 1, column: 3 }],
    ["[1]", 3, undefined],
    ["[1]", 4, undefined],
    ["[\n10]", 4, { rule: "size", jsonPath: "$", line: 2, column: 3 }],
    ["", 0, { rule: "syntax", jsonPath: "$", line: 1, column: 1 }], // within the limit, but empty
    ["1", 0, { rule: "size", jsonPath: "$", line: 1, column: 1 }],
  ])("applies maxLength to %j with limit %i", (text, maxLength, failure) => {
    // Only the entry point applies maxLength.
    if (parse !== parseJsonText) return;
    if (failure === undefined) expect(parse(text, { maxLength })).toEqual(JSON.parse(text));
    else expect(catchWkt(() => parse(text, { maxLength }))).toMatchObject(failure);
  });

  it.each([
    ['{"__proto__": {"polluted": 1}}', itself, "__proto__"],
    ['{"a": [{"__proto__": {"polluted": 1}}]}', (v: unknown) => (v as { a: object[] }).a[0]!, "__proto__"],
    ['{"constructor": {"polluted": 1}}', itself, "constructor"],
    ['{"prototype": {"polluted": 1}}', itself, "prototype"],
    ['{"__proto__": {"polluted": 1}, "big": 9007199254740993}', itself, "__proto__"], // the strict path
  ])("keeps %s as own data, touching no prototype", (text, holderOf, key) => {
    const holder = holderOf(parse(text));
    expect(Object.getOwnPropertyDescriptor(holder, key)).toEqual({
      value: { polluted: 1 },
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect(Object.getPrototypeOf(holder)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("parseJsonText", () => {
  it("rejects a non-string with a WktJsonError", () => {
    expect(catchWkt(() => parseJsonText(42 as unknown as string))).toMatchObject({ rule: "json-type", jsonPath: "$" });
  });

  it("finds duplicates even when Object.prototype has an enumerable property", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto["injected"] = 1;
    try {
      expect(catchWkt(() => parseJsonText('{"a":1,"a":2}'))).toMatchObject({
        rule: "duplicate-field",
        jsonPath: "$.a",
      });
      expect(parseJsonText('{"a":1,"b":2}')).toEqual({ a: 1, b: 2 });
    } finally {
      delete proto["injected"];
    }
  });
});

describe("textKeptEveryMember", () => {
  it.each<[string, string, number, boolean]>([
    ["no object", "[1, 2]", 0, true],
    ["every member kept", '{"a": 1, "b": {"c": 2}}', 3, true],
    ["a repeated key", '{"a": 1, "a": 2}', 1, false],
    ["a repeated key, nested", '{"a": {"b": 1, "b": 2}, "c": 3}', 3, false],
    ["colons in strings, every member kept", '{"t": "12:30:00", "u": "http://x", "v": {"w": ":"}}', 4, true],
    ["colons in strings and a repeated key", '{"t": "12:30", "t": "13:30"}', 1, false],
    ["a colon in a key", '{"a:b": 1, "c": 2}', 2, true],
    ["whitespace before the colons", '{"a" : 1, "b"\n: 2}', 2, true],
    ["whitespace before the colons, a repeated key", '{"a" : 1, "a" : 2}', 1, false],
    ["more colons than keys at once", '{"a": "::::::::"}', 1, true],
  ])("%s", (_, text, keys, kept) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(textKeptEveryMember(text, keys)).toBe(kept);
  });
});

describe("locateJsonPath", () => {
  it.each([
    ['{"a":1}', "$.a", 5],
    ['{"a":1}', "$", 0],
    ["  {}", "$", 2],
    ['{ "a" : { "b" : [ 10 , 20 ] } }', "$.a.b[1]", 23],
    ['{ "a" : { "b" : [ 10 , 20 ] } }', "$.a.b[0]", 18],
    ['{"x y":{"q\\"r":5}}', '$["x y"]["q\\"r"]', 15],
    ['{"s":"\\"a\\": 1","a":2}', "$.a", 20], // the key inside the string must not match
    ['{"s":"{\\"a\\":0}","a":2}', "$.a", 21],
    ['{"a":{"a":1},"b":{"a":3}}', "$.b.a", 22],
    ['{"\\u0061":7}', "$.a", 10],
    ['{"a":"]}","b":1}', "$.b", 14],
    ['{"a$1":1}', "$.a$1", 7],
    ["[[1,[2,3]],4]", "$[0][1][1]", 7],
    ["[[1,[2,3]],4]", "$[1]", 11],
    ['[{"a":[{}, {"b": true}]}]', "$[0].a[1].b", 17],
    ['{"a":1}', "$.b", undefined],
    ["[1,2]", "$[2]", undefined],
    ["[]", "$[0]", undefined],
    ['{"a":1}', "$.a.b", undefined],
    ['{"a":1}', "$[0]", undefined],
    ['{"a":', "$.a", undefined],
    ['{"a" 1}', "$.a", undefined],
    ['{"a":1}', "a", undefined],
    ['{"a":1}', "$.", undefined],
    ['{"a":1}', "$[x]", undefined],
    ['{"a":1}', '$["a', undefined],
    ["", "$", undefined],
  ])("finds %j at %s", (text, path, offset) => {
    const at = locateJsonPath(text, path);
    if (offset === undefined) {
      expect(at).toBeUndefined();
    } else {
      expect(at).toMatchObject({ offset, line: 1, column: offset + 1 });
    }
  });

  it("reports lines and columns", () => {
    const text = '{\n  "items": [\n    {"t": "x"},\r\n    {"t": "y"}\n  ]\n}';
    expect(locateJsonPath(text, "$.items[1].t")).toEqual({ line: 4, column: 11, offset: text.indexOf('"y"') });
    expect(locateJsonPath(text, "$.items[0]")).toEqual({ line: 3, column: 5, offset: text.indexOf('{"t"') });
  });

  it("never throws on any text", () => {
    for (const text of ['{"a":[', '"', "\\", "{{{{", '{"a":"\\', "]]]", '[1,"a\\"]']) {
      expect(locateJsonPath(text, "$.a[3]")).toBeUndefined();
    }
  });
});

describe("inexact integers (exactNumbers)", () => {
  /** The value and the listing of a parse, the listing as [key, double, offset] rows. */
  function parsed(parse: () => unknown): { value: unknown; found: unknown[] } {
    const value = showZeros(parse());
    const found = takeInexactIntegers();
    return {
      value,
      found: found === undefined ? [] : found.keys.map((k, i) => [k, showZeros(found.values[i]), found.offsets[i]]),
    };
  }

  it.each([
    // [text, [key, double, offset] of each listed literal]
    ["1.00000000000000000001", [["", 1, 0]]],
    [" -1e-400", [["", -0, 1]]],
    ["[0.99999999999999999999, 1.0, 1e2, 100.000, 1.5e1]", [[0, 1, 1]]],
    [
      '{"a": 1e-400, "b": [123456789012345678901234567890e-29, 4503599627370496.5]}',
      [
        ["a", 0, 6],
        [1, 4503599627370496, 56],
      ],
    ],
    ['{"a": 1.0000000000000000000000, "b": 9.223372036854775807e18, "c": 9007199254740993.5}', []],
    ['{"s": "1.00000000000000000001", "t": ["1e-400"]}', []],
    ['{"0": 1e-400}', [["0", 0, 6]]], // a digit key: for...in order, the hybrid leaves it to the strict parser
    ['{"a": 1e-400, "a": 2}', "duplicate-field"],
  ])("%s: both parsers give the double and list the same literals", (text, expected) => {
    const fast = (() => {
      try {
        return parsed(() => parseJsonText(text, { exactNumbers: true }));
      } catch (e) {
        return (e as { rule: string }).rule;
      }
    })();
    const strict = (() => {
      try {
        return parsed(() => parseJsonTextStrict(text, jsonTextMaxDepthDefault, true));
      } catch (e) {
        return (e as { rule: string }).rule;
      }
    })();
    expect(strict).toEqual(fast);
    if (typeof expected === "string") {
      expect(fast).toBe(expected);
      return;
    }
    expect((fast as { found: unknown[] }).found).toEqual(expected.map(([k, v, o]) => [k, showZeros(v), o]));
    // Without exactNumbers, nothing is listed.
    parseJsonText(text);
    expect(takeInexactIntegers()).toBeUndefined();
  });
});
