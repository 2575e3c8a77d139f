// missingTypeUrls and missingTypeUrlsFromJson (src/codec/missing-type-urls.ts): every type URL the codec would
// fail on with `unknown-type`, all at once, each once in the order met; inside the Anys the registry resolves
// too; bounded by maxDepth, and linear in a value that shares its parts.

import { create, createRegistry, toBinary, type JsonValue } from "@bufbuild/protobuf";
import { AnySchema, anyPack, DurationSchema, OptionSchema, TypeSchema, type Any } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromJson, missingTypeUrls, missingTypeUrlsFromJson, toJson } from "../src/index.js";
import { isWktJsonError } from "../src/errors.js";
import { catchWkt } from "./helpers.js";
import { Gone, Holder, Known, goneUrl, knownUrl, registry } from "./fixtures/any-holder.js";

const url = (name: string) => `example.com/acme.${name}`;
const missing = (name: string): Any => create(AnySchema, { typeUrl: url(name), value: new Uint8Array([8, 1]) });
const known = (name: string, inner?: Any): Any => anyPack(Known, create(Known, { name, inner }));

describe("missingTypeUrls", () => {
  it("lists each missing URL once, in the order met, at every depth and inside known Anys", () => {
    const m = create(Holder, {
      single: missing("A"),
      list: [known("k", missing("B")), missing("A"), anyPack(AnySchema, missing("C"))],
      map: { x: missing("D"), y: known("y") },
      choice: { case: "inOneof", value: missing("E") },
      child: create(Holder, { single: known("c", known("cc", missing("F"))) }),
    });
    expect(missingTypeUrls(Holder, m, { registry })).toEqual(["A", "B", "C", "D", "E", "F"].map(url));
    // Without the registry, Known is missing too, and what it holds is not looked into.
    expect(missingTypeUrls(Holder, m)).toEqual([url("A"), knownUrl, url("C"), url("D"), url("E")]);
  });

  it("is empty exactly when toJson meets no unknown type", () => {
    const item = fc.oneof(
      fc.constantFrom("A", "B").map(missing),
      fc.constant(known("k")),
      fc.constantFrom("A", "B").map((n) => known("k", missing(n))),
      fc.constant(anyPack(Gone, create(Gone))),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 4 }), (list) => {
        const m = create(Holder, { list });
        const urls = missingTypeUrls(Holder, m, { registry });
        let error: unknown;
        try {
          toJson(Holder, m, { registry });
        } catch (e) {
          error = e;
        }
        expect(urls.length === 0).toBe(error === undefined);
        if (error !== undefined) expect(isWktJsonError(error) && error.rule).toBe("unknown-type");
        // Every URL listed, once resolved, is no longer missing: a registry with Gone leaves only example.com's.
        expect(missingTypeUrls(Holder, m, { registry: createRegistry(registry, createRegistry(Gone)) })).toEqual(
          urls.filter((u) => u !== goneUrl),
        );
      }),
      { numRuns: 50 },
    );
  });

  it("passes over what decoding reports: an empty Any, a malformed URL, bytes that are not the type", () => {
    const m = create(Holder, {
      list: [
        create(AnySchema),
        create(AnySchema, { typeUrl: "no-slash" }),
        create(AnySchema, { typeUrl: knownUrl, value: new Uint8Array([255]) }),
      ],
    });
    expect(missingTypeUrls(Holder, m, { registry })).toEqual([]);
  });

  it("is bounded: maxDepth (rule depth); a cycle, and an Any held many times, are walked once", () => {
    let deep = create(Holder);
    for (let i = 0; i < 150; i++) deep = create(Holder, { child: deep });
    expect(catchWkt(() => missingTypeUrls(Holder, deep))).toMatchObject({ rule: "depth" });
    expect(missingTypeUrls(Holder, deep, { maxDepth: 200 })).toEqual([]);
    // A cycle is walked once; so is an Any held many times.
    const cycle = create(Holder, { single: missing("Cycle") });
    (cycle as unknown as { child: unknown }).child = cycle;
    expect(missingTypeUrls(Holder, cycle)).toEqual([url("Cycle")]);
    const one = known("k", missing("One"));
    expect(missingTypeUrls(Holder, create(Holder, { list: new Array(100_000).fill(one) }), { registry })).toEqual([
      url("One"),
    ]);
  });

  it("an Any of an Any 100,000 deep, under a maxDepth the stack cannot take: rule depth, not a short list", () => {
    // Built outside in, in one buffer: each level is the Any's type URL (field 1) and its value (field 2).
    const n = 100_000;
    const anyUrl = new TextEncoder().encode("type.googleapis.com/google.protobuf.Any");
    const head = [0x0a, anyUrl.length, ...anyUrl];
    const varint = (v: number): number[] => {
      const out: number[] = [];
      for (; v > 127; v = Math.floor(v / 128)) out.push((v % 128) | 128);
      return [...out, v];
    };
    const innermost = toBinary(AnySchema, missing("Deep"));
    const sizes = [innermost.length]; // sizes[k]: the bytes of the Any k levels above the innermost
    for (let k = 1; k <= n; k++) sizes.push(head.length + 1 + varint(sizes[k - 1]!).length + sizes[k - 1]!);
    const bytes = new Uint8Array(sizes[n]!);
    let at = 0;
    for (let k = n; k >= 1; k--) {
      for (const b of [...head, 0x12, ...varint(sizes[k - 1]!)]) bytes[at++] = b;
    }
    bytes.set(innermost, at);
    const deep = create(AnySchema, { typeUrl: "type.googleapis.com/google.protobuf.Any", value: bytes });
    // A stack overflow met while decoding one level's bytes was taken for bytes that are not an Any: the walk
    // stopped there and listed nothing.
    expect(catchWkt(() => missingTypeUrls(AnySchema, deep, { maxDepth: 1e7 }))).toMatchObject({ rule: "depth" });
    let json: JsonValue = { "@type": url("Deep") };
    for (let k = 0; k < n; k++) json = { "@type": "type.googleapis.com/google.protobuf.Any", value: json };
    expect(catchWkt(() => missingTypeUrlsFromJson(AnySchema, json, { maxDepth: 1e7 }))).toMatchObject({
      rule: "depth",
    });
  });

  it("checks its options", () => {
    expect(catchWkt(() => missingTypeUrls(Holder, create(Holder), { maxDepth: 0 }))).toMatchObject({ rule: "range" });
    expect(catchWkt(() => missingTypeUrls(Holder, create(Holder), { registry: {} as never }))).toMatchObject({
      rule: "json-type",
    });
    expect(catchWkt(() => missingTypeUrls({} as never, create(Holder) as never))).toMatchObject({ rule: "json-type" });
  });
});

describe("missingTypeUrlsFromJson", () => {
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
  const json: JsonValue = {
    single: { "@type": url("A"), anything: [1] },
    list: [
      { "@type": knownUrl, name: "k", inner: { "@type": url("B") } },
      { "@type": url("A") },
      { "@type": "type.googleapis.com/google.protobuf.Any", value: { "@type": url("C") } },
      // The raw form of unresolvedAny "raw": a known type's bytes are looked into.
      { "@type": knownUrl, "@value": b64(toBinary(Known, create(Known, { inner: missing("G") }))) },
      { "@type": url("H"), "@value": "AAEC" },
    ],
    map: { x: { "@type": url("D") }, y: { "@type": knownUrl } },
    inOneof: { "@type": url("E") },
    child: { single: { "@type": knownUrl, inner: { "@type": knownUrl, inner: { "@type": url("F") } } } },
    nope: { "@type": url("NotAField") },
  };

  it("lists each missing URL once, in the order met, at every depth and inside known Anys", () => {
    expect(missingTypeUrlsFromJson(Holder, json, { registry })).toEqual(
      ["A", "B", "C", "G", "H", "D", "E", "F"].map(url),
    );
  });

  it("lists what the decoder fails on first", () => {
    const first = missingTypeUrlsFromJson(Holder, json, { registry })[0];
    expect(catchWkt(() => fromJson(Holder, json, { registry }))).toMatchObject({
      rule: "unknown-type",
      detail: expect.stringContaining(first!.slice(first!.indexOf("/") + 1)),
    });
  });

  it("passes over values of the wrong shape, a malformed URL, and the well-known types", () => {
    const odd: JsonValue = {
      single: "x",
      list: { "@type": url("NotAList") },
      map: [{ "@type": url("NotAMap") }],
      child: { list: [1, null, { "@type": "no-slash" }, {}] },
    };
    expect(missingTypeUrlsFromJson(Holder, odd, { registry })).toEqual([]);
    const type: JsonValue = {
      options: [{ name: "d", value: { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1s" } }],
    };
    expect(missingTypeUrlsFromJson(TypeSchema, type)).toEqual([]);
    expect(missingTypeUrlsFromJson(OptionSchema, { value: { "@type": url("O") } })).toEqual([url("O")]);
  });

  it("is bounded: maxDepth, a cycle, and a document that shares its parts", () => {
    let deep: JsonValue = {};
    for (let i = 0; i < 150; i++) deep = { child: deep };
    expect(catchWkt(() => missingTypeUrlsFromJson(Holder, deep))).toMatchObject({ rule: "depth" });
    let shared: Record<string, JsonValue> = { single: { "@type": url("Deep") } };
    for (let i = 0; i < 60; i++) {
      const below = shared;
      const list = [below, below].map((b) => ({ "@type": "type.googleapis.com/t.Holder", ...b }));
      shared = { child: below, list, map: { a: list[0]! } };
    }
    const withHolder = createRegistry(registry);
    expect(missingTypeUrlsFromJson(Holder, shared, { registry: withHolder })).toEqual([url("Deep")]);
    // A cycle is walked once.
    const cycle: Record<string, unknown> = { single: { "@type": url("Cycle") } };
    cycle["child"] = cycle;
    expect(missingTypeUrlsFromJson(Holder, cycle as JsonValue)).toEqual([url("Cycle")]);
  });

  it("agrees with missingTypeUrls on the JSON toJson writes", () => {
    const m = create(Holder, {
      list: [known("k", known("j"))],
      single: anyPack(DurationSchema, create(DurationSchema)),
    });
    const withAll = { registry };
    expect(missingTypeUrlsFromJson(Holder, toJson(Holder, m, withAll), { registry: createRegistry(Holder) })).toEqual(
      missingTypeUrls(Holder, m, { registry: createRegistry(Holder) }),
    );
  });
});
