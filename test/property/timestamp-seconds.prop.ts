// Laws of timestampFromSeconds: the decimal text of an instant's seconds reads back as the instant, exactly to the
// nanosecond, at every point of the range and just outside it; a number reads as its shortest decimal text does.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import { timestampSecondsMax, timestampSecondsMin } from "../../src/limits.js";
import { timestampFromSeconds } from "../../src/wkt/timestamp-seconds.js";
import { timestampFromNanos, timestampToNanos } from "../../src/wkt/timestamp.js";

const nanosMin = BigInt(timestampSecondsMin) * 1_000_000_000n;
const nanosMax = BigInt(timestampSecondsMax) * 1_000_000_000n + 999_999_999n;
const runs = { numRuns: 1000 };

/** The decimal seconds of `ns` nanoseconds since the epoch, with `digits` fraction digits (trailing zeros cut). */
function secondsText(ns: bigint, digits: number): string {
  const neg = ns < 0n;
  const abs = neg ? -ns : ns;
  const frac = String(abs % 1_000_000_000n)
    .padStart(9, "0")
    .slice(0, digits)
    .replace(/0+$/, "");
  return (neg ? "-" : "") + String(abs / 1_000_000_000n) + (frac === "" ? "" : "." + frac);
}

/** Instants in the range, at its ends, and a few seconds beyond each end. */
const arbNanos = fc.oneof(
  fc.bigInt({ min: nanosMin, max: nanosMax }),
  fc.bigInt({ min: nanosMin - 3_000_000_000n, max: nanosMin + 3_000_000_000n }),
  fc.bigInt({ min: nanosMax - 3_000_000_000n, max: nanosMax + 3_000_000_000n }),
  fc.bigInt({ min: -5_000_000_000n, max: 5_000_000_000n }),
);

function outcome(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    if (isWktJsonError(e)) return { rule: e.rule, jsonPath: e.jsonPath };
    throw e;
  }
}

describe("timestampFromSeconds", () => {
  it("reads the decimal text of any instant exactly, and refuses one out of range (range)", () => {
    fc.assert(
      fc.property(arbNanos, (ns) => {
        const text = secondsText(ns, 9);
        if (ns < nanosMin || ns > nanosMax) {
          expect(outcome(() => timestampFromSeconds(text))).toEqual({ rule: "range", jsonPath: "$" });
        } else {
          expect(timestampToNanos(timestampFromSeconds(text))).toBe(ns);
          expect(timestampFromSeconds(text)).toEqual(timestampFromNanos(ns));
        }
      }),
      runs,
    );
  });

  it("reads an integer number of seconds as its text, in range and out", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: timestampSecondsMin - 10, max: timestampSecondsMin + 10 }),
          fc.integer({ min: timestampSecondsMax - 10, max: timestampSecondsMax + 10 }),
          fc.integer({ min: timestampSecondsMin, max: timestampSecondsMax }),
          fc.maxSafeInteger(),
        ),
        (n) => {
          expect(outcome(() => timestampFromSeconds(n))).toEqual(outcome(() => timestampFromSeconds(String(n))));
        },
      ),
      runs,
    );
  });

  it("reads any finite number as its shortest decimal text (where that text has no exponent)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: timestampSecondsMin - 10, max: timestampSecondsMax + 10, noNaN: true }),
          fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        ),
        (x) => {
          const text = String(x);
          fc.pre(!text.includes("e") && !/\.\d{10}/.test(text));
          expect(outcome(() => timestampFromSeconds(x))).toEqual(outcome(() => timestampFromSeconds(text)));
        },
      ),
      runs,
    );
  });

  it("never throws anything but WktJsonError, whatever the text", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^-?[0-9]{0,14}(\.[0-9]{0,11})?[eE ]?$/)), (s) => {
        outcome(() => timestampFromSeconds(s));
      }),
      runs,
    );
  });
});
