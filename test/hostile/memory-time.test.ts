// The time of giving up early (maxValues) on the costliest shape of memory.test.ts, in a file of its own so
// that it runs in a fresh process: after that file's tests, in one process, the heap they leave made the ratio
// 20 on Node 24 (3-7 alone).

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import { fromJsonString } from "../../src/codec/from-json.js";
import { TestAllTypesProto3, testRegistry as registry } from "../conformance-registry.js";
import { cpuMs, linearBound } from "../cost.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const MB = 2 ** 20;
const schema = TestAllTypesProto3;

/** `{"repeatedNestedMessage":[{"corecursive":{}},...]}` of about `size` code units: a TestAllTypesProto3 per 19. */
function make(size: number): string {
  const piece = '{"corecursive":{}}';
  return (
    '{"repeatedNestedMessage":[' +
    Array(Math.max(1, Math.floor(size / (piece.length + 1))))
      .fill(piece)
      .join(",") +
    "]}"
  );
}

describe("maxValues: giving up costs time in proportion to the text", () => {
  // Giving up early must not cost more than decoding: n against 10n, time within 20x. As in linear.test.ts,
  // the small text runs ten times in a row with every outcome kept alive, so that the garbage collector does
  // comparable work in both, each measurement after a full collection.
  // Only this shape: for the others of memory.test.ts the time of giving up is that of JSON.parse building a
  // tree of millions of small objects, and V8's collector alone takes 30-65x the time for 10x such a tree
  // (measured with JSON.parse by itself); the success paths of those shapes are in linear.test.ts.
  it("a TestAllTypesProto3 per 19 code units: 10x the text within twice JSON.parse's ratio (at least 20x)", () => {
    const time = (text: string, times: number): number => {
      const kept: unknown[] = [];
      gc(); // each measurement starts from a collected heap
      return cpuMs(() => {
        for (let k = 0; k < times; k++) {
          try {
            kept.push(fromJsonString(schema, text, { registry }));
          } catch (e) {
            if (!isWktJsonError(e)) throw e;
            kept.push(e);
          }
        }
      });
    };
    // The reference, measured in the same rounds: JSON.parse of the same texts, linear by construction, so that
    // the collector, which scales both, cannot fail the test; CPU time (see ../cost.ts), so load cannot either. The bound is linearBound (../cost.ts), √10 times the reference's ratio, at least 32 (it
    // was 15 flat: on Node 26 this call reads 15.0-16.5 on a quiet machine, at bdbcccf as now, against 10-12 on
    // Node 20 and 24, while JSON.parse reads 10). A walk quadratic in the text gives 100x.
    const reference = (text: string, times: number): number => {
      const kept: unknown[] = [];
      gc();
      return cpuMs(() => {
        for (let k = 0; k < times; k++) kept.push(JSON.parse(text));
      });
    };
    const small = make(MB);
    const large = make(10 * MB);
    time(small, 1);
    reference(small, 1);
    let best = Infinity;
    for (let round = 0; round < 4 && best >= 1; round++) {
      const ours = (10 * time(large, 1)) / time(small, 10);
      const bound = linearBound(10, (10 * reference(large, 1)) / reference(small, 10));
      best = Math.min(best, ours / bound);
    }
    expect(best).toBeLessThan(1);
  }, 120_000);
});
