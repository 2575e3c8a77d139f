// fromHttpRequest takes CPU time linear in the query and the path (issue 29's hostile pass): many repetitions of
// a repeated field, many map entries, one huge value, a path of many segments under `**`. Runs once in CI (the
// lead's run-once list): it checks a bound of our own algorithm, not anything a runtime changes.
import { describe, expect, it } from "vitest";
import { fromHttpRequest, type HttpRequest, type HttpRule } from "../../src/index.js";
import { cpuMs, leastOf, linearBound } from "../cost.js";
import { Everything } from "../http/registry.js";

const unbounded = { maxParams: Infinity, maxLength: Infinity, maxValues: Infinity };

/** The least CPU time of `fromHttpRequest` on a small and a 10 times larger request, and of a linear reference. */
function ratios(
  rule: HttpRule,
  request: (n: number) => HttpRequest,
  reference: (r: HttpRequest) => unknown,
): { ratio: number; bound: number } {
  const small = request(4_000);
  const large = request(40_000);
  const decode = (r: HttpRequest) => cpuMs(() => fromHttpRequest(Everything, r, { rule, ...unbounded }));
  decode(request(200)); // compiled once, warm
  const [s, l, rs, rl] = leastOf(
    () => [decode(small), decode(large), cpuMs(() => reference(small)), cpuMs(() => reference(large))],
    3,
    ([a, b, c, d]) => b! / Math.max(a!, 0.05) < linearBound(10, d! / Math.max(c!, 0.05)) / 2,
  ) as [number, number, number, number];
  return { ratio: l / Math.max(s, 0.05), bound: linearBound(10, rl / Math.max(rs, 0.05)) };
}

/** A linear reference: the query parsed by URLSearchParams, and its entries copied. */
const parseQuery = (r: HttpRequest) => [...new URLSearchParams(r.query as string)].map(([k, v]) => ({ [k]: v }));

describe("fromHttpRequest takes time linear in the request", () => {
  it.each([
    ["a repeated field given n times", (n: number) => "tags=a&".repeat(n)],
    ["n map entries", (n: number) => Array.from({ length: n }, (_, i) => `labels%5Bk${i}%5D=v`).join("&")],
    ["n repeated timestamps", (n: number) => "times=2024-01-01T00%3A00%3A00Z&".repeat(n)],
    ["one value of 10n characters", (n: number) => "name=" + "%C3%A9".repeat(n * 2)],
  ])("%s", (_, query) => {
    const { ratio, bound } = ratios({ get: "/e" }, (n) => ({ method: "GET", path: "/e", query: query(n) }), parseQuery);
    expect(ratio).toBeLessThan(bound);
  });

  it("a path of n segments under {name=**}", () => {
    const { ratio, bound } = ratios(
      { get: "/{name=**}" },
      (n) => ({ method: "GET", path: "/a%2Fb".repeat(n) }),
      (r) => r.path.split("/").map(decodeURIComponent).join("/"),
    );
    expect(ratio).toBeLessThan(bound);
  });
});
