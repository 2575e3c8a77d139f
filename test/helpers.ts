import fc from "fast-check";
import { expect } from "vitest";
import { isWktJsonError, type WktJsonError } from "../src/errors.js";

/**
 * Runs `fn` and returns the WktJsonError it throws. Fails the test if it returns normally or throws anything
 * else (a TypeError or RangeError escaping is a defect).
 */
export function catchWkt(fn: () => unknown): WktJsonError {
  try {
    fn();
  } catch (e) {
    if (isWktJsonError(e)) return e;
    throw new Error(`expected a WktJsonError, got ${String(e)}`, { cause: e });
  }
  throw new Error("expected a WktJsonError, but nothing was thrown");
}

/** Runs `fn`; returns what it threw, `undefined` when it returned. Fails on anything but our error. */
export function ours(fn: () => unknown): WktJsonError | undefined {
  try {
    fn();
  } catch (e) {
    if (isWktJsonError(e)) return e;
    throw new Error(`a foreign exception escaped: ${e instanceof Error ? `${e.name}: ${e.message}` : typeof e}`, {
      cause: e,
    });
  }
  return undefined;
}

/**
 * fast-check: any value (of any kind, or one of `special`) in the hostile argument of any of `table`'s calls
 * gives a result or our error ({@link ours}).
 */
export function anyValueInAnyArgument(
  table: readonly (readonly [string, (h: unknown) => unknown])[],
  special: readonly unknown[],
  numRuns: number,
): void {
  const arbValue = fc.oneof(
    fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withNullPrototype: true,
      withSparseArray: true,
    }),
    fc.constantFrom(...special),
  );
  fc.assert(
    fc.property(fc.integer({ min: 0, max: table.length - 1 }), arbValue, (i, h) => {
      ours(() => table[i]![1](h));
    }),
    { numRuns },
  );
}

/**
 * Asserts that two byte arrays are equal, byte for byte. expect(a).toEqual(b) says the same, but walks a
 * Uint8Array as a generic object: 13 s for the 25 pages of 300 KB in wide-roundtrip.prop.ts, against
 * milliseconds here. On a difference it shows the lengths and the 32 bytes from the first that differs.
 */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  if (actual.length === expected.length && Buffer.compare(actual, expected) === 0) return;
  let from = 0;
  while (from < actual.length && actual[from] === expected[from]) from++;
  const window = (b: Uint8Array) => ({ length: b.length, from, bytes: Array.from(b.subarray(from, from + 32)) });
  expect(window(actual)).toEqual(window(expected));
}

/** The bytes of `parts` one after the other (a part may be a plain array of byte values). */
export function concatBytes(...parts: (Uint8Array | readonly number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
