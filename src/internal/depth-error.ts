/**
 * The `depth` error of a value nested one level past the `maxDepth` a caller set (or its default): the codec's
 * reader, writer and validator, the JSON value copies (Struct fields), `patch` and the JSON mask functions all
 * stop there with the same words, so a caller reads one message for one rule.
 *
 * @module
 * @internal
 */
import { WktJsonError } from "../errors.js";

/**
 * @internal The `depth` error of a `typeName` value entered one level beyond `maxDepth`; without `maxDepth`
 * (a walk that holds only the levels left) the message names the option but not its value.
 */
export function maxDepthError(typeName: string, maxDepth?: number): WktJsonError {
  const limit = maxDepth === undefined ? "" : ` (${maxDepth})`;
  return new WktJsonError("depth", "$", typeName, `nesting is deeper than maxDepth${limit}`);
}
