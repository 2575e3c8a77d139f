/**
 * The work meter: one bound on the time of every loop whose trip count a client controls (mask parsing,
 * normalizing and algebra, projection and omission, the implied masks of PATCH, the command line's pre-scan).
 *
 * A meter is made per call. It starts with {@link workBase} steps and earns {@link workPerCodeUnit} steps for
 * each UTF-16 code unit of client input the call reads (a mask's paths, the members and values of the data it
 * walks), so that a call on n code units may take at most `workBase + workPerCodeUnit * n` steps, whatever the
 * shape of the input. A step is one unit of bounded work: a node of a trie visited, a pair of nodes compared, a
 * member copied. Past the allowance the call stops with rule `size`, having done no more than that.
 *
 * Why one meter instead of a budget per function: budgets added where a shape was reported each counted a
 * different thing, and the work done after them (normalizing a result, copying a shared subtree) was not
 * counted at all. One allowance, earned from the input and charged by every loop, bounds them all at once.
 *
 * @internal
 * @module
 */
import { WktJsonError } from "../errors.js";
import { formatBound, workStepsBase, workStepsPerCodeUnit } from "../limits.js";

/** Steps any call may take, whatever its input: enough for every small mask and body. */
export const workBase = workStepsBase;

/** Steps a call earns per UTF-16 code unit of client input it reads. */
export const workPerCodeUnit = workStepsPerCodeUnit;

/**
 * A per-call allowance of steps. `left` is public so that a hot loop may decrement it inline; {@link charge}
 * is the checked way.
 *
 * @internal
 */
export interface WorkMeter {
  /** Steps left; negative means spent. */
  left: number;
  /** The type the call works on, for the error (`google.protobuf.FieldMask`, a message's name, ...). */
  readonly typeName: string;
}

/**
 * A meter for a call that reads `codeUnits` UTF-16 code units of client input up front (more may be earned
 * with {@link earn} as the call reads on).
 *
 * @internal
 * @example
 * const m = workMeter(fieldMaskTypeName, text.length);
 * charge(m, node.children.size); // throws rule `size` once the call has done more than its input allows
 */
export function workMeter(typeName: string, codeUnits = 0): WorkMeter {
  return { left: workBase + workPerCodeUnit * codeUnits, typeName };
}

/**
 * A meter that never runs out, for callers that chose no bound (a budget option set to `Infinity`: trusted
 * input).
 *
 * @internal
 */
export function unmetered(typeName: string): WorkMeter {
  return { left: Infinity, typeName };
}

/** Adds the allowance of `codeUnits` more code units of client input read. @internal */
export function earn(m: WorkMeter, codeUnits: number): void {
  m.left += workPerCodeUnit * codeUnits;
}

/** Charges `steps` to the meter; rule `size` once it is spent. @internal */
export function charge(m: WorkMeter, steps: number): void {
  if ((m.left -= steps) < 0) throw workError(m);
}

/**
 * The `size` error of a spent meter, at `$` (the public function puts it under its base path).
 *
 * @internal
 */
export function workError(m: WorkMeter): WktJsonError {
  return new WktJsonError(
    "size",
    "$",
    m.typeName,
    `the input takes more work than its size allows (${formatBound(workBase)} steps plus ` +
      `${workPerCodeUnit} per UTF-16 code unit of input; README, Hostile input)`,
  );
}
