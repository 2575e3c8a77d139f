// The FieldMask trie and algebra on the one work meter (issue 25): the shapes that got past the old bounds are
// refused with rule `size` or give the right result, the work counted in steps grows with the input (not its
// square), and real masks of the size of the largest APIs are still accepted by every function.
//
// No timings here: the steps a meter counts are deterministic. Times are measured by hand (the report of the
// change that added this file gives them).

import { describe, expect, it } from "vitest";
import { catchWkt } from "../helpers.js";
import {
  fieldMaskCheck,
  fieldMaskCovers,
  fieldMaskIntersect,
  fieldMaskIsValid,
  fieldMaskNormalize,
  fieldMaskSubtract,
  fieldMaskUnion,
  jsonOmit,
  jsonProject,
} from "../../src/index.js";
import { intersect, overlaps } from "../../src/internal/mask-algebra.js";
import { countPaths, normalize, parseMask, pathsOf } from "../../src/internal/mask-trie.js";
import { unmetered, workMeter, type WorkMeter } from "../../src/internal/meter.js";
import { TestAllTypesProto3 } from "../conformance-registry.js";

const big = (): WorkMeter => ({ left: 1e15, typeName: "t" });
/** The steps `op` charges to a meter. */
function steps(op: (m: WorkMeter) => unknown): number {
  const m = big();
  op(m);
  return 1e15 - m.left;
}

function sizeRule(fn: () => unknown): { rule: string; jsonPath: string } {
  const e = catchWkt(fn);
  return { rule: e.rule, jsonPath: e.jsonPath };
}

const keys = (n: number, prefix = "k"): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/** A seeded generator, so that the masks are the same on every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

describe("intersect: a result that shares one subtree under many keys", () => {
  // `k<i>` ∩ `*.s<j>`: the meet of each key with `*` is b's whole `*` subtree, shared. Normalizing walked it
  // once per key before the path count refused it: 206 KB of masks took 60-90 s.
  const shape = (n: number): [string[], string[]] => [keys(n), keys(n, "*.s")];

  it("is refused by the path count at 206 KB, the issue's size", () => {
    const [a, b] = shape(13_000);
    expect(sizeRule(() => fieldMaskIntersect(a, b))).toEqual({ rule: "size", jsonPath: "$" });
    expect(catchWkt(() => fieldMaskIntersect(a, b)).detail).toContain("maxPaths (10,000)");
  });

  it("a 50-path server mask against a 591 KB client mask is refused", () => {
    const server = keys(50, "field");
    const client: string[] = [];
    for (let j = 0; client.length < 32_500; j++) client.push(`*.sub${j}.leaf${j % 7}`);
    expect(sizeRule(() => fieldMaskIntersect(server, client))).toEqual({ rule: "size", jsonPath: "$" });
    // Within maxPaths it is right: each server field with the client's `*` subtree under it.
    expect(fieldMaskIntersect(server.slice(0, 3), client.slice(0, 3)).paths).toEqual(
      ["field0", "field1", "field2"].flatMap((f) => [`${f}.sub0.leaf0`, `${f}.sub1.leaf1`, `${f}.sub2.leaf2`]),
    );
  });

  it("gives the right result within maxPaths, beside a `*` of its own", () => {
    const [a, b] = shape(30);
    const expected = keys(30)
      .flatMap((k) => keys(30, "s").map((s) => `${k}.${s}`))
      .sort();
    expect(fieldMaskIntersect(a, b).paths).toEqual(expected);
    // With `*.s0` in a: it is in the result too, and covers each `k<i>.s0` there.
    const r = fieldMaskIntersect([...a, "*.s0"], b).paths;
    expect(r).toEqual(["*.s0", ...expected.filter((p) => !p.endsWith(".s0"))].sort());
    // With `*.s0.q`: nothing of the keys' subtrees is covered by it.
    expect(fieldMaskIntersect([...a, "*.s0.q"], b).paths).toEqual(["*.s0.q", ...expected].sort());
  });

  it("normalizes and counts a shared subtree once: the steps grow with the masks, not their product", () => {
    const run = (n: number): number =>
      steps((m) => {
        const [a, b] = shape(n);
        const t = intersect(parseMask(a, true, undefined, m), parseMask(b, true, undefined, m), m);
        countPaths(t, 10_000, m);
      });
    const small = run(1_000);
    const large = run(10_000);
    expect(large / small).toBeLessThan(15); // the product would be 100x
  });
});

describe("normalize: nodes paired with many patterns that generalize them", () => {
  // c<i>.a^60.y, each generalized at every depth by up to m patterns `*.{a|*}^60.z` (none covers it): the walk
  // pairs each node of each chain with each pattern, n x m x depth. 439 KB took 7 s, 1.5 MB 80 s.
  function shape(kb: number): string[] {
    const r = random(7);
    const depth = 60;
    const total = Math.round((kb * 1024) / 128);
    const out: string[] = [];
    for (let j = 0; j < Math.max(20, Math.round(total / 8)); j++) {
      const segs = ["*"];
      for (let k = 0; k < depth; k++) segs.push(r() < 0.5 ? "a" : "*");
      out.push([...segs, "z"].join("."));
    }
    for (let i = 0; out.length < total; i++) out.push(`c${i}.${Array<string>(depth).fill("a").join(".")}.y`);
    return out;
  }

  it("is refused with rule size by every function that reads the mask, at 439 KB", () => {
    const mask = shape(439);
    const refused = { rule: "size", jsonPath: "$" };
    const normalized = catchWkt(() => fieldMaskNormalize(mask));
    expect({ rule: normalized.rule, jsonPath: normalized.jsonPath }).toEqual(refused);
    expect(normalized.detail).toContain("more work than its size allows");
    expect(sizeRule(() => fieldMaskUnion(mask, ["x"]))).toEqual(refused);
    expect(sizeRule(() => fieldMaskCovers(mask, "x"))).toEqual(refused);
    expect(sizeRule(() => fieldMaskIntersect(mask, ["*"]))).toEqual(refused);
    expect(sizeRule(() => fieldMaskSubtract(mask, ["q"]))).toEqual(refused);
    expect(catchWkt(() => jsonProject({ a: 1 }, mask)).rule).toBe("size");
    expect(catchWkt(() => jsonOmit({ a: 1 }, mask)).rule).toBe("size");
  }, 60_000);

  it("is refused within the allowance its text earns, not long after", () => {
    const m = workMeter("t");
    expect(catchWkt(() => parseMask(shape(44), true, undefined, m)).rule).toBe("size");
    // Stopped at the first charge past the allowance: no more than one node's pairs beyond it.
    expect(m.left).toBeLessThan(0);
    expect(m.left).toBeGreaterThan(-1_000);
  });

  it("gives the right result at a size it accepts, and with maxPaths: Infinity (trusted)", () => {
    const mask = shape(3).slice(0, 30);
    expect(fieldMaskNormalize(mask).paths).toEqual([...mask].sort());
    // A pattern that covers the chains: they go, the patterns stay.
    const covered = [...mask, "*.a.a.a"];
    expect(fieldMaskNormalize(covered).paths).toEqual(
      ["*.a.a.a", ...mask.filter((p) => p.startsWith("*") && !p.startsWith("*.a.a.a."))].sort(),
    );
    const trusted = shape(44);
    expect(fieldMaskIntersect(trusted, ["*"], { maxPaths: Infinity }).paths).toEqual([...trusted].sort());
  }, 60_000);
});

describe("subtract: named children against a `*` subtree", () => {
  // `*.x<i>` minus `k<j>.y<j>`: each named child of b was tested against all of a's `*` children, 10,000 +
  // 10,000 paths (174 KB) 2.3-2.6 s.
  it("10,000 + 10,000 paths give the right result", () => {
    const a = keys(10_000, "*.x");
    expect(
      fieldMaskSubtract(
        a,
        keys(10_000, "k").map((k, j) => `${k}.y${j}`),
      ).paths,
    ).toEqual([...a].sort());
    const a2 = a.map((p) => `${p}.z`);
    expect(
      fieldMaskSubtract(
        a2,
        keys(10_000, "k").map((k) => `${k}.*.q`),
      ).paths,
    ).toEqual([...a2].sort());
  });

  it("names the child that a `*` cannot lose, among 10,000, within the work the masks earn", () => {
    const a = keys(10_000, "*.x").map((p) => `${p}.z`);
    const b = [...keys(10_000, "k").map((k) => `${k}.*.q`), "k9999.x5.z.w"];
    const e = catchWkt(() => fieldMaskSubtract(a, b));
    expect(e.rule).toBe("mask-path");
    expect(e.detail).toContain('path "k9999"');
  });

  it("still names the child that a `*` cannot lose", () => {
    const e = catchWkt(() => fieldMaskSubtract(["*.x", "*.y"], ["k1.q", "k2.y", "k3.x"]));
    expect(e.rule).toBe("mask-path");
    expect(e.detail).toContain('path "k2"');
    expect(e.detail).toContain("every entry but one");
  });

  it("tests overlap in steps that grow with the masks, not their product", () => {
    const run = (n: number): number =>
      steps((m) => {
        const a = parseMask(keys(n, "*.x"), true, undefined, m);
        const b = parseMask(
          keys(n, "k").map((k) => `${k}.*.q`),
          true,
          undefined,
          m,
        );
        overlaps(a, b, m);
      });
    expect(run(20_000) / run(2_000)).toBeLessThan(15); // the product would be 100x
  });
});

describe("real masks are accepted by every function under the defaults", () => {
  // 10,000 plain paths and 2,000 with a few `*`: larger than the masks of real APIs.
  const plain = Array.from({ length: 10_000 }, (_, i) => `message${i % 100}.field_${i}.sub${i % 13}`);
  const stars = Array.from({ length: 2_000 }, (_, i) => `labels${i % 50}.*.value${i}.*.name`);
  const all = [...plain, ...stars];

  it("normalize, union, covers, intersect, subtract", () => {
    expect(fieldMaskNormalize(all).paths).toHaveLength(12_000);
    expect(fieldMaskUnion(plain, stars).paths).toHaveLength(12_000);
    expect(fieldMaskCovers(all, "labels3.k.value3.x.name")).toBe(true);
    expect(fieldMaskCovers(all, "labels3.k.value4.x.name")).toBe(false);
    expect(fieldMaskIntersect(plain, all).paths).toHaveLength(10_000);
    expect(fieldMaskIntersect(plain, ["*.*.*"]).paths).toHaveLength(10_000);
    expect(fieldMaskSubtract(all, stars).paths).toHaveLength(10_000);
    expect(jsonProject({ message1: { field_1: { sub1: 1 }, x: 2 } }, all)).toEqual({
      message1: { field_1: { sub1: 1 } },
    });
    expect(jsonOmit({ message1: { field_1: { sub1: 1 }, x: 2 } }, all)).toEqual({ message1: { field_1: {}, x: 2 } });
  });

  it("check and subtract with a schema: 10,000 map keys", () => {
    const paths = Array.from(
      { length: 10_000 },
      (_, i) => `map_string_nested_message.key${i}.corecursive.optional_int32`,
    );
    expect(fieldMaskCheck(TestAllTypesProto3, paths, { aip161: true })).toBeUndefined();
    expect(fieldMaskIsValid(TestAllTypesProto3, paths, { aip161: true })).toBe(true);
    const r = fieldMaskSubtract(paths, paths.slice(0, 5_000), TestAllTypesProto3, { maxPaths: 20_000 });
    expect(r.paths).toHaveLength(5_000);
  });

  it("trusted masks (maxPaths: Infinity) are not metered", () => {
    const m = unmetered("t");
    const t = parseMask(all, true, undefined, m);
    expect(pathsOf(normalize(t, m), m)).toHaveLength(12_000);
    expect(m.left).toBe(Infinity);
  });
});
