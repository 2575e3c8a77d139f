import fc from "fast-check";
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
