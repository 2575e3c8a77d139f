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
