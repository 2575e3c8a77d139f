// Switching from @bufbuild/protobuf's JSON functions is a change of import: every input of the hostile table
// (test/hostile/cases.ts: 567 texts over every well-known type and a general message) goes through both
// libraries, as text (fromJsonString) and as a value (fromJson of JSON.parse's result), and what each gives is
// compared: both accept and give the same message, written back the same way by toJson and toJsonString under
// every option; or both refuse. Where they disagree, the input must be listed in differences.ts under a
// deliberate difference backed by a spec text, and the table of differences in docs/switching-from-protobuf-es.md must list exactly those.

import {
  fromJson as pbFromJson,
  fromJsonString as pbFromJsonString,
  toBinary,
  toJson as pbToJson,
  toJsonString as pbToJsonString,
  type DescMessage,
  type JsonValue,
} from "@bufbuild/protobuf";
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { fromJson, fromJsonString, toJson, toJsonString } from "../../src/index.js";
import { testRegistry as registry } from "../conformance-registry.js";
import { hostileCases, type Case } from "../hostile/cases.js";
import { differences, divergences, type Divergence } from "./differences.js";

type Relation = "agree" | Divergence[2];

/** How a case is named in differences.ts: its text, or the start and length of a long one. */
function keyOf(c: Case): string {
  return c.text.length > 120 ? `${c.text.slice(0, 60)}… (${c.text.length} code units)` : c.text;
}

function attempt<T>(f: () => T): { ok: true; value: T } | { ok: false } {
  try {
    return { ok: true, value: f() };
  } catch {
    return { ok: false };
  }
}

const writeOptions = [
  {},
  { alwaysEmitImplicit: true },
  { enumAsInteger: true },
  { useProtoFieldName: true },
  { alwaysEmitImplicit: true, enumAsInteger: true, useProtoFieldName: true },
];

/**
 * Whether two JSON values are equal as JSON: members in any order; numbers compared as JSON compares them
 * (`signed`: -0 and 0 differ, for values read back from two texts, where "-0" and "0" are different texts).
 */
function jsonEqual(a: unknown, b: unknown, signed: boolean): boolean {
  if (typeof a === "number" && typeof b === "number") return signed ? Object.is(a, b) : a === b;
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], signed)) return false;
  }
  return true;
}

/** Both messages written by both libraries under every option: the same JSON value, and the same text as JSON. */
function sameOutput(schema: DescMessage, ours: unknown, theirs: unknown): boolean {
  if (!isDeepStrictEqual(toBinary(schema, ours as never), toBinary(schema, theirs as never))) return false;
  for (const o of writeOptions) {
    const options = { registry, ...o };
    const a = attempt(() => toJson(schema, ours as never, options));
    const b = attempt(() => pbToJson(schema, theirs as never, options));
    if (a.ok !== b.ok || (a.ok && b.ok && !jsonEqual(a.value, b.value, false))) return false;
    const at = attempt(() => toJsonString(schema, ours as never, { ...options, prettySpaces: 2 }));
    const bt = attempt(() => pbToJsonString(schema, theirs as never, { ...options, prettySpaces: 2 }));
    if (at.ok !== bt.ok || (at.ok && bt.ok && !jsonEqual(JSON.parse(at.value), JSON.parse(bt.value), true)))
      return false;
  }
  return true;
}

function relation(schema: DescMessage, read: (lib: "ours" | "theirs") => unknown): Relation {
  const ours = attempt(() => read("ours"));
  const theirs = attempt(() => read("theirs"));
  if (!ours.ok) return theirs.ok ? "stricter" : "agree";
  if (!theirs.ok) return "accepted";
  return sameOutput(schema, ours.value, theirs.value) ? "agree" : "output";
}

const documented = new Map<string, { id: string; relation: Divergence[2]; mode: Divergence[3] }>();
for (const [id, list] of divergences) {
  for (const [type, key, rel, mode] of list) documented.set(`${type}\t${key}`, { id, relation: rel, mode });
}

describe("every hostile-table input through both libraries", () => {
  const seen = new Set<string>();

  it.each(hostileCases.map((c, i) => [i, c.group, keyOf(c), c] as const))("#%i %s: %s", (_, __, key, c) => {
    const options = { registry, ...c.options };
    const type = c.schema.typeName.split(".").pop()!;
    const entry = documented.get(`${type}\t${key}`);
    const text = relation(c.schema, (lib) =>
      lib === "ours" ? fromJsonString(c.schema, c.text, options) : pbFromJsonString(c.schema, c.text, options as never),
    );
    const parsed = attempt(() => JSON.parse(c.text) as JsonValue);
    const value = parsed.ok
      ? relation(c.schema, (lib) =>
          lib === "ours"
            ? fromJson(c.schema, parsed.value, options)
            : pbFromJson(c.schema, parsed.value, options as never),
        )
      : "agree";
    if (entry === undefined) {
      expect({ text, value }).toEqual({ text: "agree", value: "agree" });
      return;
    }
    seen.add(`${type}\t${key}`);
    expect(text).toBe(entry.relation);
    expect(value).toBe(entry.mode === "both" ? entry.relation : "agree");
  });

  it("every documented divergence was met", () => {
    expect([...documented.keys()].filter((k) => !seen.has(k))).toEqual([]);
  });
});

describe("the differences are documented", () => {
  it("each has a spec text, and every divergence names one", () => {
    const ids = new Set(differences.map((d) => d.id));
    expect(ids.size).toBe(differences.length);
    for (const d of differences) expect(d.spec.length).toBeGreaterThan(20);
    const fromTable = differences.filter((d) => d.pinnedBy === undefined).map((d) => d.id);
    expect(divergences.map(([id]) => id).sort()).toEqual(fromTable.sort());
    // The others are pinned by a test of their own, which names the id.
    for (const d of differences) {
      if (d.pinnedBy === undefined) continue;
      expect(readFileSync(new URL(d.pinnedBy, import.meta.url), "utf8")).toContain(`"${d.id}"`);
    }
  });

  it("the table of deliberate differences (docs/switching-from-protobuf-es.md) lists exactly these ids", () => {
    const readme = readFileSync(new URL("../../docs/switching-from-protobuf-es.md", import.meta.url), "utf8");
    const start = readme.indexOf("<!-- differences:start -->");
    const end = readme.indexOf("<!-- differences:end -->");
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    const table = readme.slice(start, end);
    const listed = [...table.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(differences.map((d) => d.id));
  });
});
