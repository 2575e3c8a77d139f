// No foreign exception from the HTTP request functions: fromHttpRequest, toHttpRequest and httpRuleOf, called
// with values of every JavaScript type in each argument, option, request member and rule member, either return
// or throw our WktJsonError, never a TypeError, a RangeError or an error of @bufbuild/protobuf.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { fromHttpRequest, httpRuleOf, toHttpRequest, type HttpRule } from "../../src/index.js";
import { anyValueInAnyArgument, ours } from "../helpers.js";
import { Everything, method } from "./registry.js";

const get: HttpRule = { get: "/e/{name}" };
const post: HttpRule = { post: "/e/{name}", body: "*" };
const req = { method: "GET", path: "/e/x", query: "i32=1" };
const msg = create(Everything, { name: "x" } as never);

/** Values a fuzzer rarely builds: ones that cannot be turned into a string, lookalikes, throwing getters. */
const special: unknown[] = [
  Symbol("s"),
  5n,
  Object.create(null),
  () => 1,
  {
    get get() {
      throw new Error("getter");
    },
  },
  { kind: "rpc" },
  { kind: "rpc", proto: { options: { $unknown: [{ no: 72295728, wireType: 2, data: 5 }] } } },
  { kind: "rpc", proto: { options: { $unknown: [null] } } },
  { kind: "message", typeName: "x", fields: 5 },
  ["a=1"],
  new Map([["name", 5]]),
  new URLSearchParams("name=%zz"),
  "%E0%A4%A",
  "\uD800",
];

/**
 * A proxy whose every read throws: given where the HTTP functions read the value themselves (the request, its
 * query, the rule), not where the codec reads it (a schema, a message, the codec's options), which the codec's
 * own tests cover.
 */
const trap = new Proxy(
  {},
  {
    get: () => {
      throw new TypeError("trap");
    },
  },
);
const ownReads = new Set([
  "fromHttpRequest(schema, h)",
  "fromHttpRequest({ query: h })",
  "fromHttpRequest(..., { rule: h })",
  "toHttpRequest(..., { rule: h })",
  "fromHttpRequest(..., { rule: { additionalBindings: [h] } })",
]);

/** Each function with the one place that takes the hostile value `h`; everything else is valid. */
const calls: readonly [string, (h: unknown) => unknown][] = [
  ["fromHttpRequest(h, ...)", (h) => fromHttpRequest(h as never, req, { rule: get })],
  ["fromHttpRequest(method, h)", (h) => fromHttpRequest(method("GetBook"), h as never)],
  ["fromHttpRequest(schema, h)", (h) => fromHttpRequest(Everything, h as never, { rule: get })],
  [
    "fromHttpRequest({ method: h })",
    (h) => fromHttpRequest(Everything, { ...req, method: h as string }, { rule: get }),
  ],
  ["fromHttpRequest({ path: h })", (h) => fromHttpRequest(Everything, { ...req, path: h as string }, { rule: get })],
  ["fromHttpRequest({ query: h })", (h) => fromHttpRequest(Everything, { ...req, query: h as never }, { rule: get })],
  [
    "fromHttpRequest({ body: h })",
    (h) => fromHttpRequest(Everything, { method: "POST", path: "/e/x", body: h as never }, { rule: post }),
  ],
  [
    "fromHttpRequest({ bodyText: h })",
    (h) => fromHttpRequest(Everything, { method: "POST", path: "/e/x", bodyText: h as never }, { rule: post }),
  ],
  ["fromHttpRequest(..., h)", (h) => fromHttpRequest(Everything, req, h as never)],
  ["fromHttpRequest(..., { rule: h })", (h) => fromHttpRequest(Everything, req, { rule: h as never })],
  [
    "fromHttpRequest(..., { rule: { get: h } })",
    (h) => fromHttpRequest(Everything, req, { rule: { get: h as never } }),
  ],
  [
    "fromHttpRequest(..., { rule: { body: h } })",
    (h) => fromHttpRequest(Everything, req, { rule: { get: "/e/{name}", body: h as never } }),
  ],
  [
    "fromHttpRequest(..., { rule: { custom: h } })",
    (h) => fromHttpRequest(Everything, req, { rule: { custom: h as never } }),
  ],
  [
    "fromHttpRequest(..., { rule: { additionalBindings: h } })",
    (h) => fromHttpRequest(Everything, req, { rule: { ...get, additionalBindings: h as never } }),
  ],
  [
    "fromHttpRequest(..., { rule: { additionalBindings: [h] } })",
    (h) => fromHttpRequest(Everything, req, { rule: { ...get, additionalBindings: [h as never] } }),
  ],
  [
    "fromHttpRequest(..., { maxParams: h })",
    (h) => fromHttpRequest(Everything, req, { rule: get, maxParams: h as never }),
  ],
  [
    "fromHttpRequest(..., { maxLength: h })",
    (h) => fromHttpRequest(Everything, req, { rule: get, maxLength: h as never }),
  ],
  [
    "fromHttpRequest(..., { maxDepth: h })",
    (h) => fromHttpRequest(Everything, req, { rule: get, maxDepth: h as never }),
  ],
  [
    "fromHttpRequest(..., { registry: h })",
    (h) => fromHttpRequest(Everything, req, { rule: get, registry: h as never }),
  ],
  ["toHttpRequest(h, ...)", (h) => toHttpRequest(h as never, msg as never, { rule: get })],
  ["toHttpRequest(schema, h)", (h) => toHttpRequest(Everything, h as never, { rule: get })],
  ["toHttpRequest(schema, { name: h })", (h) => toHttpRequest(Everything, { ...msg, name: h } as never, { rule: get })],
  ["toHttpRequest(..., h)", (h) => toHttpRequest(Everything, msg as never, h as never)],
  ["toHttpRequest(..., { rule: h })", (h) => toHttpRequest(Everything, msg as never, { rule: h as never })],
  [
    "toHttpRequest(..., { rule: { get: h } })",
    (h) => toHttpRequest(Everything, msg as never, { rule: { get: h as never } }),
  ],
  [
    "toHttpRequest(..., { useProtoFieldName: h })",
    (h) => toHttpRequest(Everything, msg as never, { rule: get, useProtoFieldName: h as never }),
  ],
  ["httpRuleOf(h)", (h) => httpRuleOf(h as never)],
  ["httpRuleOf({ parent: h })", (h) => httpRuleOf({ ...method("GetBook"), parent: h } as never)],
  [
    "httpRuleOf({ proto.options.$unknown: h })",
    (h) => httpRuleOf({ kind: "rpc", name: "M", proto: { options: { $unknown: h } } } as never),
  ],
  [
    "httpRuleOf({ proto.options.$unknown: [h] })",
    (h) => httpRuleOf({ kind: "rpc", name: "M", proto: { options: { $unknown: [h] } } } as never),
  ],
];

describe("no foreign exception from fromHttpRequest, toHttpRequest, httpRuleOf", () => {
  it.each(calls)("%s, with values of every kind", (_, call) => {
    for (const h of special) ours(() => call(h));
    if (ownReads.has(_)) ours(() => call(trap));
  });

  it("any value in any place: a result or our error (fast-check)", () => {
    anyValueInAnyArgument(calls, special, 2000);
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
