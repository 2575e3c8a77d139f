/**
 * The error of a helper that reports at `$` (a type URL parser, a count check), moved to where the value sits in
 * the input being read: the one place the descriptors modules re-home an error.
 *
 * @module
 * @internal
 */
import { WktJsonError } from "../errors.js";

/** The error of a helper (reported at `$`) reported at `path` under `typeName`; anything else as it is. @internal */
export function movedError(e: unknown, path: string, typeName: string): unknown {
  if (!(e instanceof WktJsonError)) return e;
  return new WktJsonError(e.rule, path, typeName, e.detail, e.cause === undefined ? undefined : { cause: e.cause });
}
