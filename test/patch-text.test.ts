// The text entry points of PATCH and create bodies (patchFromJsonString, jsonPatchFromJsonString,
// createFromJsonString): the request body as it arrived, parsed once with every digit and the duplicate-key
// check kept, every error about the body with its line and column.

import { create, type JsonObject } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  createFromJson,
  createFromJsonString,
  fromJson,
  fromJsonString,
  jsonPatch,
  jsonPatchFromJsonString,
  patch,
  patchFromJsonString,
  toJson,
  type WktJsonError,
} from "../src/index.js";
import { TestAllTypesProto3 } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";
import { Book } from "./patch/registry.js";

const storedJson = {
  name: "shelves/1/books/1",
  title: "The Dispossessed",
  author: { id: "a-7", givenName: "Ursula", familyName: "Le Guin" },
  isbn: "978-0-06-051275-9",
  createTime: "2024-01-01T00:00:00Z",
} satisfies JsonObject;
const stored = fromJson(Book, storedJson);

const where = (e: WktJsonError) => ({ rule: e.rule, jsonPath: e.jsonPath, line: e.line, column: e.column });

/** The three entry points on a body text, the stored Book where there is one. */
const entries = {
  patchFromJsonString: (text: string, o?: object) => toJson(Book, patchFromJsonString(Book, stored, text, o)),
  jsonPatchFromJsonString: (text: string, o?: object) => jsonPatchFromJsonString(Book, storedJson, text, o),
  createFromJsonString: (text: string, o?: object) => toJson(Book, createFromJsonString(Book, text, o)),
};

describe.each(Object.entries(entries))("%s", (_, call) => {
  it("gives the decoder's errors their line and column", () => {
    const text = '{\n  "title": "T",\n  "publishTime": "1974-02-30T00:00:00Z"\n}';
    expect(where(catchWkt(() => call(text)))).toEqual({
      rule: "range",
      jsonPath: "$.publishTime",
      line: 3,
      column: 18,
    });
    expect(where(catchWkt(() => call('{"title": "T",\n "titel": 1}')))).toEqual({
      rule: "unknown-field",
      jsonPath: "$.titel",
      line: 2,
      column: 11,
    });
    expect(where(catchWkt(() => call('{"title": "T"')))).toMatchObject({ rule: "syntax", line: 1 });
  });

  it('refuses a repeated member, which JSON.parse keeps the last of: a repeated "title" is duplicate-field', () => {
    const e = catchWkt(() => call('{\n  "title": "A",\n  "title": "B"\n}'));
    expect(where(e)).toEqual({ rule: "duplicate-field", jsonPath: "$.title", line: 3, column: 3 });
  });

  it("drops the output-only members, and refuses them under strict with their line and column", () => {
    const text = '{"title": "T",\n "createTime": "2030-01-01T00:00:00Z"}';
    expect(call(text)).toMatchObject({ title: "T" });
    expect((call(text) as JsonObject).createTime).not.toBe("2030-01-01T00:00:00Z");
    expect(where(catchWkt(() => call(text, { strict: true })))).toEqual({
      rule: "field-behavior",
      jsonPath: "$.createTime",
      line: 2,
      column: 16,
    });
  });

  it("places a required field's error: at the member sent, else at the object that lacks it", () => {
    expect(where(catchWkt(() => call('{\n  "title": ""\n}')))).toEqual({
      rule: "field-behavior",
      jsonPath: "$.title",
      line: 2,
      column: 12,
    });
    const text = '{"title": "T",\n  "author": {\n    "givenName": ""\n  }\n}';
    expect(where(catchWkt(() => call(text)))).toEqual({
      rule: "field-behavior",
      jsonPath: "$.author.givenName",
      line: 3,
      column: 18,
    });
  });

  it("refuses text that is not a string, and takes maxLength", () => {
    expect(catchWkt(() => call(5 as never)).rule).toBe("json-type");
    expect(catchWkt(() => call('{"title": "T"}', { maxLength: 5 })).rule).toBe("size");
    expect(catchWkt(() => call('{"title": "T"}', { maxLength: -1 })).rule).toBe("range");
  });

  it('takes the base path of the body ("$.Definition", a JSON document in a form field), as fromJsonString does', () => {
    const at = { path: "$.Definition" };
    const placed = (text: unknown, o: object = at) => {
      const e = catchWkt(() => call(text as string, o));
      return { ...where(e), path: e.path };
    };
    // The decoder's errors, the parser's, and the walks' (field behaviour): under the base, line and column kept.
    expect(placed('{"title": "T",\n "titel": 1}')).toEqual({
      rule: "unknown-field",
      jsonPath: "$.Definition.titel",
      path: ["Definition", "titel"],
      line: 2,
      column: 11,
    });
    expect(placed('{\n  "title": "A",\n  "title": "B"\n}')).toMatchObject({
      jsonPath: "$.Definition.title",
      line: 3,
      column: 3,
    });
    expect(placed('{"title": "T"')).toMatchObject({ rule: "syntax", jsonPath: "$.Definition", line: 1 });
    expect(placed(5)).toMatchObject({ rule: "json-type", jsonPath: "$.Definition" });
    expect(placed('{"title": "T"}', { ...at, maxLength: 5 })).toMatchObject({ rule: "size", jsonPath: "$.Definition" });
    expect(placed('{\n  "title": ""\n}')).toEqual({
      rule: "field-behavior",
      jsonPath: "$.Definition.title",
      path: ["Definition", "title"],
      line: 2,
      column: 12,
    });
    const text = '{"title": "T",\n "createTime": "2030-01-01T00:00:00Z"}';
    expect(placed(text, { ...at, strict: true })).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.Definition.createTime",
      line: 2,
      column: 16,
    });
    // The options' errors stay at $, the default base is the body's root.
    expect(placed('{"title": "T"}', { ...at, maxLength: -1 })).toMatchObject({ rule: "range", jsonPath: "$" });
    expect(placed('{"title": "T"}', { path: "Definition" })).toMatchObject({ rule: "range", jsonPath: "$" });
    expect(placed('{"title": 1}', {})).toMatchObject({ jsonPath: "$.title", path: ["title"], line: 1, column: 11 });
  });
});

describe("the base path of the body and the update mask's path", () => {
  const at = { path: "$.Definition" };
  it.each([
    ["patchFromJsonString", (o: object) => patchFromJsonString(Book, stored, '{"title": "T"}', o)],
    ["jsonPatchFromJsonString", (o: object) => jsonPatchFromJsonString(Book, storedJson, '{"title": "T"}', o)],
  ])("%s: a mask error is at maskPath, not under the body's path", (_, call) => {
    expect(where(catchWkt(() => call({ ...at, updateMask: "titel" })))).toEqual({
      rule: "mask-path",
      jsonPath: "$.updateMask",
      line: undefined,
      column: undefined,
    });
    expect(catchWkt(() => call({ ...at, updateMask: "titel", maskPath: "$.mask" })).jsonPath).toBe("$.mask");
    const strict = catchWkt(() => call({ ...at, updateMask: ["create_time"], strict: true }));
    expect([strict.rule, strict.jsonPath]).toEqual(["field-behavior", "$.updateMask"]);
  });

  it("an immutable field's change is under the base, at its member", () => {
    const e = catchWkt(() => patchFromJsonString(Book, stored, '{\n  "isbn": "x"\n}', at));
    expect(where(e)).toEqual({ rule: "field-behavior", jsonPath: "$.Definition.isbn", line: 2, column: 11 });
  });

  it("an error in the stored JSON keeps its own path: it is not in the body", () => {
    const e = catchWkt(() => jsonPatchFromJsonString(Book, { title: 1 }, '{"title": "T"}', at));
    expect([e.jsonPath, e.line, e.detail.startsWith("the stored resource")]).toEqual(["$.title", undefined, true]);
  });
});

describe("every digit: an int64 beyond 2^53 is exact from the text, not from a parsed value", () => {
  const M = TestAllTypesProto3;
  type Ints = { optionalInt64: bigint; repeatedUint64: bigint[] };
  const ints = (m: unknown) => m as Ints;
  const text = '{"optionalInt64": 9007199254740993, "repeatedUint64": [18446744073709551615]}';
  const int64 = '{"optionalInt64": 9007199254740993}';

  it("createFromJsonString keeps 9007199254740993; createFromJson of JSON.parse has lost it", () => {
    const m = ints(createFromJsonString(M, text));
    expect([m.optionalInt64, m.repeatedUint64]).toEqual([9007199254740993n, [18446744073709551615n]]);
    expect(ints(createFromJson(M, JSON.parse(int64))).optionalInt64).toBe(9007199254740992n);
  });

  it("patchFromJsonString and jsonPatchFromJsonString keep it", () => {
    expect(ints(patchFromJsonString(M, create(M), text)).optionalInt64).toBe(9007199254740993n);
    expect(ints(patch(M, create(M), JSON.parse(int64))).optionalInt64).toBe(9007199254740992n);
    expect(jsonPatchFromJsonString(M, {}, text)).toEqual({
      optionalInt64: "9007199254740993",
      repeatedUint64: ["18446744073709551615"],
    });
  });

  it("judges an inexact integer literal by its text, as fromJsonString does", () => {
    const e = catchWkt(() => createFromJsonString(M, '{"optionalInt32": 1e-400}'));
    const f = catchWkt(() => fromJsonString(M, '{"optionalInt32": 1e-400}'));
    expect(where(e)).toEqual(where(f));
    expect(where(catchWkt(() => patchFromJsonString(M, create(M), '{"optionalInt32": 1e-400}')))).toEqual(where(f));
  });
});

describe("patchFromJsonString and jsonPatchFromJsonString", () => {
  it("give the same result as patch and jsonPatch of the parsed text", () => {
    const text = '{"title": "T", "author": {"familyName": "K."}, "tags": ["a"], "name": "x"}';
    const o = { updateMask: "title,author.familyName,tags" };
    expect(toJson(Book, patchFromJsonString(Book, stored, text, o))).toEqual(
      toJson(Book, patch(Book, stored, JSON.parse(text), o)),
    );
    expect(jsonPatchFromJsonString(Book, storedJson, text, o)).toEqual(
      jsonPatch(Book, storedJson, JSON.parse(text), o),
    );
  });

  it("places an immutable field cleared with its parent at the value that cleared it", () => {
    const withPress = fromJson(Book, { ...storedJson, printing: { copies: 1, press: "Harper" } });
    for (const text of ['{"title": "T",\n "printing": null}', '{"title": "T",\n "printing": {}}']) {
      expect(where(catchWkt(() => patchFromJsonString(Book, withPress, text)))).toEqual({
        rule: "field-behavior",
        jsonPath: "$.printing.press",
        line: 2,
        column: 14,
      });
    }
  });

  it("places an immutable field's change at its member", () => {
    expect(where(catchWkt(() => patchFromJsonString(Book, stored, '{\n "isbn": "0"}')))).toEqual({
      rule: "field-behavior",
      jsonPath: "$.isbn",
      line: 2,
      column: 10,
    });
  });

  it("gives no position to errors of the update mask or the options, nor to the stored resource's", () => {
    const mask = catchWkt(() => patchFromJsonString(Book, stored, '{"title": "T"}', { updateMask: "titel" }));
    expect(mask.line).toBeUndefined();
    const strictMask = catchWkt(() =>
      patchFromJsonString(Book, stored, '{"title": "T"}', { updateMask: ["create_time"], strict: true }),
    );
    expect([strictMask.rule, strictMask.line]).toEqual(["field-behavior", undefined]);
    const e = catchWkt(() => jsonPatchFromJsonString(Book, { title: 1 }, '{"title": "T"}'));
    expect([e.jsonPath, e.line, e.detail.startsWith("the stored resource")]).toEqual(["$.title", undefined, true]);
  });

  it("checks the stored message as patch does", () => {
    expect(catchWkt(() => patchFromJsonString(Book, {} as never, "{}")).rule).toBe("json-type");
  });
});
