import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { type Duration, DurationSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  durationAbs,
  durationAdd,
  durationCheck,
  durationCompare,
  durationFromJson,
  durationFromMs,
  durationFromNanos,
  durationFromSeconds,
  durationIsValid,
  type DurationLike,
  durationNegate,
  durationSubtract,
  durationToJson,
  durationToMs,
  durationToNanos,
  durationToSeconds,
} from "../../src/wkt/duration.js";
import { bigintOf } from "../../src/wkt/seconds-nanos.js";
import { isWktJsonError } from "../../src/errors.js";
import { durationSecondsMax } from "../../src/limits.js";

const maxNanos = BigInt(durationSecondsMax) * 1_000_000_000n + 999_999_999n;
const runs = { numRuns: 1000 };
const zero = create(DurationSchema);

/** A valid Duration built field by field (not through our normalisation), biased toward short fractions. */
const arbDuration: fc.Arbitrary<Duration> = fc
  .record({
    seconds: fc.oneof(
      fc.bigInt({ min: -BigInt(durationSecondsMax), max: BigInt(durationSecondsMax) }),
      fc.bigInt({ min: -100n, max: 100n }),
      fc.constantFrom(0n, 1n, -1n, BigInt(durationSecondsMax), -BigInt(durationSecondsMax)),
    ),
    nanos: fc.oneof(
      fc.integer({ min: 0, max: 999_999_999 }),
      fc.integer({ min: 0, max: 999 }).map((n) => n * 1_000_000),
      fc.integer({ min: 0, max: 999_999 }).map((n) => n * 1_000),
      fc.constantFrom(0, 1, 999_999_999),
    ),
    negativeWhenZero: fc.boolean(),
  })
  .map(({ seconds, nanos, negativeWhenZero }) => {
    const negative = seconds < 0n || (seconds === 0n && negativeWhenZero);
    return create(DurationSchema, { seconds, nanos: negative ? 0 - nanos : nanos });
  });

/** Independent canonical formatter. */
function canonical(d: Duration): string {
  const negative = d.seconds < 0n || d.nanos < 0;
  const seconds = negative ? -d.seconds : d.seconds;
  const nanos = Math.abs(d.nanos);
  let frac = "";
  if (nanos !== 0) {
    const f = String(nanos).padStart(9, "0");
    frac = "." + (f.endsWith("000000") ? f.slice(0, 3) : f.endsWith("000") ? f.slice(0, 6) : f);
  }
  return (negative ? "-" : "") + String(seconds) + frac + "s";
}

/** Valid Duration text with 0 to 9 fraction digits (canonical or not), and the nanosecond count it denotes. */
const arbText = fc
  .record({
    negative: fc.boolean(),
    seconds: fc.oneof(fc.bigInt({ min: 0n, max: BigInt(durationSecondsMax) }), fc.bigInt({ min: 0n, max: 1000n })),
    frac: fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 9 }),
  })
  .map(({ negative, seconds, frac }) => {
    const text = (negative ? "-" : "") + String(seconds) + (frac === "" ? "" : "." + frac) + "s";
    const ns = seconds * 1_000_000_000n + BigInt(frac.padEnd(9, "0"));
    return { text, ns: negative ? -ns : ns };
  });

function worksOrWkt(f: () => unknown): void {
  try {
    f();
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
  }
}

const arbChar = fc.oneof(
  fc.constantFrom("0", "1", "9", "-", "+", ".", "s", "S", "e", " ", "\u0661", "\u2212", "\uD800"),
  fc.string({ minLength: 1, maxLength: 2 }),
);
function arbMutation(valid: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const edit = fc.tuple(fc.constantFrom("insert", "delete", "replace", "duplicate"), fc.nat(), arbChar);
  return fc.tuple(valid, fc.array(edit, { minLength: 1, maxLength: 4 })).map(([s, edits]) => {
    for (const [op, at, c] of edits) {
      const i = s.length === 0 ? 0 : at % (s.length + 1);
      if (op === "insert") s = s.slice(0, i) + c + s.slice(i);
      else if (op === "delete") s = s.slice(0, i) + s.slice(i + 1);
      else if (op === "replace") s = s.slice(0, i) + c + s.slice(i + 1);
      else s = s.slice(0, i) + s.slice(i / 2, i) + s.slice(i);
    }
    return s;
  });
}

describe("duration properties", () => {
  it("round-trips every valid Duration", () => {
    fc.assert(
      fc.property(arbDuration, (d) => {
        expect(durationFromJson(durationToJson(d))).toEqual(d);
      }),
      runs,
    );
  });

  it("prints the canonical form and keeps canonical text", () => {
    fc.assert(
      fc.property(arbDuration, (d) => {
        const text = canonical(d);
        expect(durationToJson(d)).toBe(text);
        expect(durationToJson(durationFromJson(text))).toBe(text);
      }),
      runs,
    );
  });

  it("reads any fraction length", () => {
    fc.assert(
      fc.property(arbText, ({ text, ns }) => {
        fc.pre(ns >= -maxNanos && ns <= maxNanos);
        expect(durationFromJson(text)).toEqual(durationFromNanos(ns));
      }),
      runs,
    );
  });

  it("agrees with @bufbuild/protobuf on valid input", () => {
    fc.assert(
      fc.property(arbDuration, arbText, (d, { text, ns }) => {
        expect(durationToJson(d)).toBe(toJson(DurationSchema, d));
        fc.pre(ns >= -maxNanos && ns <= maxNanos);
        const theirs = fromJson(DurationSchema, text);
        // @bufbuild/protobuf returns nanos -0 for "-0.0s" (see duration.test.ts); that is the only difference.
        expect(durationFromJson(text)).toEqual({ ...theirs, nanos: theirs.nanos + 0 });
      }),
      runs,
    );
  });

  it("adds like nanosecond arithmetic, and never wraps", () => {
    fc.assert(
      fc.property(arbDuration, arbDuration, (a, b) => {
        const sum = durationToNanos(a) + durationToNanos(b);
        if (sum >= -maxNanos && sum <= maxNanos) {
          expect(durationAdd(a, b)).toEqual(durationFromNanos(sum));
          expect(durationAdd(b, a)).toEqual(durationFromNanos(sum));
        } else {
          expect(() => durationAdd(a, b)).toThrow(expect.objectContaining({ rule: "range", jsonPath: "$" }));
        }
        const diff = durationToNanos(a) - durationToNanos(b);
        if (diff >= -maxNanos && diff <= maxNanos) {
          expect(durationSubtract(a, b)).toEqual(durationFromNanos(diff));
          expect(durationSubtract(a, b)).toEqual(durationAdd(a, durationNegate(b)));
        } else {
          expect(() => durationSubtract(a, b)).toThrow(expect.objectContaining({ rule: "range", jsonPath: "$" }));
        }
      }),
      runs,
    );
  });

  it("cancels: d + (-d) = 0", () => {
    fc.assert(
      fc.property(arbDuration, (d) => {
        expect(durationAdd(d, durationNegate(d))).toEqual(zero);
        expect(durationNegate(durationNegate(d))).toEqual(d);
      }),
      runs,
    );
  });

  it("keeps every result valid and sign-consistent", () => {
    fc.assert(
      fc.property(arbDuration, arbDuration, (a, b) => {
        for (const f of [
          () => durationAdd(a, b),
          () => durationSubtract(a, b),
          () => durationNegate(a),
          () => durationAbs(a),
        ]) {
          let r: Duration;
          try {
            r = f();
          } catch (e) {
            if (isWktJsonError(e) && e.rule === "range") continue;
            throw e;
          }
          durationCheck(r);
          expect(Object.is(r.nanos, -0)).toBe(false);
        }
      }),
      runs,
    );
  });

  it("compares like nanosecond counts; abs is the magnitude", () => {
    fc.assert(
      fc.property(arbDuration, arbDuration, (a, b) => {
        const na = durationToNanos(a);
        const nb = durationToNanos(b);
        expect(durationCompare(a, b)).toBe(na < nb ? -1 : na > nb ? 1 : 0);
        expect(durationToNanos(durationAbs(a))).toBe(na < 0n ? -na : na);
      }),
      runs,
    );
  });

  it("converts to and from nanos, ms and seconds", () => {
    fc.assert(
      fc.property(arbDuration, (d) => {
        const ns = durationToNanos(d);
        expect(durationFromNanos(ns)).toEqual(d);
        expect(durationToMs(d)).toBe(Number(`${ns}e-6`));
        expect(durationToSeconds(d)).toBe(Number(`${ns}e-9`));
      }),
      runs,
    );
  });

  it("reads a number of seconds by its decimal digits", () => {
    // Up to 15 significant digits survive the trip through a double, so the decimal text is exact.
    const arbDecimal = fc
      .record({
        negative: fc.boolean(),
        int: fc.integer({ min: 0, max: 999_999 }),
        frac: fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 9 }),
      })
      .map(({ negative, int, frac }) => (negative ? "-" : "") + String(int) + (frac === "" ? "" : "." + frac));
    fc.assert(
      fc.property(arbDecimal, (text) => {
        expect(durationFromSeconds(Number(text))).toEqual(durationFromJson(text + "s"));
        expect(durationFromSeconds(durationToSeconds(durationFromJson(text + "s")))).toEqual(
          durationFromJson(text + "s"),
        );
      }),
      runs,
    );
  });

  it("reads whole milliseconds exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), (ms) => {
        const ns = BigInt(ms) * 1_000_000n;
        if (ns >= -maxNanos && ns <= maxNanos) expect(durationFromMs(ms)).toEqual(durationFromNanos(ns));
        else expect(() => durationFromMs(ms)).toThrow(expect.objectContaining({ rule: "range" }));
      }),
      runs,
    );
  });

  it("bigintOf agrees with BigInt on every safe integer", () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.integer({ min: -(2 ** 40), max: 2 ** 40 })), (n) => {
        expect(bigintOf(n)).toBe(BigInt(n));
      }),
      runs,
    );
  });

  it("decodes or throws WktJsonError for any string", () => {
    const nearValid = fc.string({ unit: fc.constantFrom(..."0123456789-.+sS e"), maxLength: 25 });
    const utf16 = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });
    for (const arb of [fc.string(), utf16, nearValid]) {
      fc.assert(
        fc.property(arb, (s) => {
          worksOrWkt(() => durationCheck(durationFromJson(s)));
        }),
        runs,
      );
    }
  });

  it("decodes or throws WktJsonError for mutations of valid strings, and what decodes is valid", () => {
    fc.assert(
      fc.property(
        arbMutation(
          fc.oneof(
            arbText.map((x) => x.text),
            arbDuration.map(canonical),
          ),
        ),
        (s) => {
          try {
            const d = durationFromJson(s);
            expect(durationIsValid(d)).toBe(true);
            expect(durationFromJson(durationToJson(d))).toEqual(d);
          } catch (e) {
            if (!isWktJsonError(e)) throw e;
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("works or throws WktJsonError for any JS value", () => {
    const arbField = fc.oneof(fc.anything(), fc.bigInt(), fc.double(), fc.integer(), fc.constantFrom(-0, NaN, 2 ** 53));
    const arbValue = fc.oneof(
      fc.anything(),
      fc.record({ seconds: arbField, nanos: arbField }),
      fc.record({
        seconds: fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        nanos: fc.integer({ min: -2e9, max: 2e9 }),
      }),
    );
    fc.assert(
      fc.property(arbValue, arbValue, (a, b) => {
        const x = a as DurationLike;
        const y = b as DurationLike;
        worksOrWkt(() => durationFromJson(a));
        worksOrWkt(() => durationCheck(x));
        expect(typeof durationIsValid(x)).toBe("boolean");
        worksOrWkt(() => durationToJson(x));
        worksOrWkt(() => durationAdd(x, y));
        worksOrWkt(() => durationSubtract(x, y));
        worksOrWkt(() => durationNegate(x));
        worksOrWkt(() => durationAbs(x));
        worksOrWkt(() => durationCompare(x, y));
        worksOrWkt(() => durationToNanos(x));
        worksOrWkt(() => durationToMs(x));
        worksOrWkt(() => durationToSeconds(x));
        worksOrWkt(() => durationFromNanos(a as bigint));
        worksOrWkt(() => durationFromMs(a as number));
        worksOrWkt(() => durationFromSeconds(a as number));
      }),
      runs,
    );
  });

  it("works or throws WktJsonError for any number of seconds or ms", () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.double({ min: -1e12, max: 1e12 })), (x) => {
        for (const f of [durationFromSeconds, durationFromMs]) {
          try {
            expect(durationIsValid(f(x))).toBe(true);
          } catch (e) {
            if (!isWktJsonError(e)) throw e;
          }
        }
      }),
      runs,
    );
  });
});
