// PATCH takes time linear in the body (issue 26). Split from test/patch.test.ts so that it runs once in CI
// (scripts/runtimes.mjs `onceOnly`): it checks a bound of our own algorithm, not anything a runtime changes.

import { describe, expect, it } from "vitest";
import { fromJson, patch } from "../../src/index.js";
import { cpuMs, linearBound } from "../cost.js";
import { Book } from "../patch/registry.js";

const stored = fromJson(Book, {
  name: "shelves/1/books/1",
  title: "The Dispossessed",
  tags: ["sf", "utopia"],
  labels: { shelf: "a", lang: "en" },
  chapters: [{ id: "c1", title: "One", pages: 20 }],
});

describe("hostile bodies", () => {
  it("takes time linear in the body", () => {
    // Against a linear reference (a deep copy of the same body) timed in the same rounds, the least of three
    // for each, so that the garbage collector weighs on both sides; CPU time (see cost.ts), so that load cannot
    // move it: 10 times the body may cost at most √10 times what it costs the copy (linearBound in cost.ts;
    // quadratic work would be about 10 times).
    const body = (n: number) => ({
      tags: Array.from({ length: n }, (_, i) => `t${i}`),
      labels: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"])),
      chapters: Array.from({ length: n }, (_, i) => ({ title: `c${i}` })),
    });
    const timed = (f: () => unknown): number => Math.max(cpuMs(f), 0.05);
    const bodies = [body(10_000), body(100_000)] as const;
    patch(Book, stored, body(2_000));
    const best = [Infinity, Infinity, Infinity, Infinity]; // patch small, patch large, copy small, copy large
    for (let round = 0; round < 3; round++) {
      bodies.forEach((b, i) => {
        best[i] = Math.min(
          best[i]!,
          timed(() => patch(Book, stored, b)),
        );
        best[2 + i] = Math.min(
          best[2 + i]!,
          timed(() => JSON.parse(JSON.stringify(b))),
        );
      });
    }
    const [small, large, copySmall, copyLarge] = best as [number, number, number, number];
    expect(large / small).toBeLessThan(linearBound(10, copyLarge / copySmall));
  });
});
