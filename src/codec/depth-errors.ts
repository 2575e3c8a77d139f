/**
 * The codec's `depth` errors besides one level past `maxDepth` (internal/depth-error.ts's `maxDepthError`,
 * for the reader, the writer and the validator alike): those from elsewhere told in terms of the `maxDepth` the caller set: the engine's
 * stack overflow (a `maxDepth` above what the call stack takes) and the text parser's own nesting guard (a
 * bound derived from `maxDepth`, see {@link textDepthBound}). The reader and the writer both end their calls
 * here, so that nothing but our error reaches the caller.
 *
 * @module
 * @internal
 */
import { WktJsonError } from "../errors.js";
import { formatBound } from "../limits.js";

/**
 * @internal A `maxDepth` set above what the platform's call stack can take ends in a stack overflow; the
 * caller gets our `depth` error instead of the engine's RangeError.
 */
export function stackOverflowAsDepth(e: unknown, typeName: string, maxDepth: number): unknown {
  if (isStackOverflow(e)) {
    return new WktJsonError(
      "depth",
      "$",
      typeName,
      `nesting exhausted the call stack before reaching maxDepth (${maxDepth}); lower maxDepth`,
      { cause: e },
    );
  }
  return e;
}

/**
 * @internal Whether `e` is the engine's stack overflow (V8's and JavaScriptCore's "Maximum call stack size
 * exceeded", SpiderMonkey's "too much recursion" is an InternalError and not matched). A `catch` that stands
 * for "this input is malformed" must let it through: swallowed, it cuts a walk short and its answer is wrong.
 */
export function isStackOverflow(e: unknown): boolean {
  // No regular expression: called in a catch at the bottom of the stack, V8 compiling one overflows again and
  // throws a SyntaxError ("Invalid regular expression: ... Maximum call stack size exceeded"). A builtin call
  // that overflows throws the RangeError itself, which is what the caller wants to pass on anyway.
  return e instanceof RangeError && e.message.includes("call stack");
}

/**
 * @internal The text parser's own nesting guard. The codec enforces `maxDepth` on messages exactly; JSON nesting
 * can be deeper than message nesting (arrays of repeated fields), so the parser gets room for that and stops
 * only what no valid input can reach.
 */
export function textDepthBound(maxDepth: number): number {
  return maxDepth * 2 + 2;
}

/**
 * @internal The text parser's `depth` error (its own bound, {@link textDepthBound}) as the codec's: the detail
 * names `maxDepth` and its configured value, the one number the caller can change (the parser's own bound is
 * derived from it, and naming both read as two limits); rule, path, line and column are kept.
 */
export function textDepthAsMaxDepth(e: unknown, maxDepth: number): unknown {
  if (!(e instanceof WktJsonError) || e.rule !== "depth" || e.typeName !== "JSON") return e;
  const out = new WktJsonError("depth", e.jsonPath, e.typeName, textDepthDetail(maxDepth), { cause: e });
  if (e.line !== undefined) out.line = e.line;
  if (e.column !== undefined) out.column = e.column;
  return out;
}

/**
 * @internal The detail of a text nested deeper than `maxDepth` lets through (the command line's pre-scan says the
 * same): `the text nests objects and arrays deeper than maxDepth (100) allows`.
 */
export function textDepthDetail(maxDepth: number): string {
  return `the text nests objects and arrays deeper than maxDepth (${formatBound(maxDepth)}) allows`;
}
