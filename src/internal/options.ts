/**
 * The count options, checked in one place: `maxDepth` (and protobuf-es's `recursionLimit`), `maxValues`,
 * `maxPaths`, `maxLength`, `maxIssues`. Every public function that takes one of them checks it here, so the same
 * value gets the same answer and the same message from every function (rule `range`, path `$`, typeName
 * `"options"`), and each message states the option's unit.
 *
 * A depth must be finite: the walks recurse, and a bound that never stops them would let a stack overflow reach
 * the caller. The budgets may be `Infinity` (no bound), which the caller chooses for trusted input.
 *
 * @module
 * @internal
 */
import { WktJsonError } from "../errors.js";
import { describe } from "./describe.js";

/** The typeName of every option error: the options, not the input, are wrong. */
export const optionsTypeName = "options";

/** What a count option accepts: a whole number from `min` up, and `Infinity` when `unbounded`. */
export interface CountRule {
  readonly min: number;
  readonly unbounded: boolean;
  /** What the option counts, for the message: "levels of nesting", "values", ... */
  readonly unit: string;
}

/** The rule of each count option of the public API. */
export const countRules = {
  maxDepth: { min: 1, unbounded: false, unit: "levels of nesting" },
  recursionLimit: { min: 1, unbounded: false, unit: "levels of nesting" },
  maxValues: { min: 0, unbounded: true, unit: "values" },
  maxPaths: { min: 0, unbounded: true, unit: "paths" },
  maxLength: { min: 0, unbounded: true, unit: "UTF-16 code units" },
  maxIssues: { min: 1, unbounded: true, unit: "issues" },
} as const satisfies Record<string, CountRule>;

/** The name of a count option of the public API. */
export type CountOption = keyof typeof countRules;

/**
 * Returns the count option `name` as given, or `fallback` when it is `undefined`; throws rule `range` for
 * anything else: a value that is not a number, NaN, a fraction, a number below the option's minimum, or
 * `Infinity` for a depth.
 *
 * @internal
 */
export function countOption(name: CountOption, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  return checkCount(name, value, countRules[name]);
}

/**
 * {@link countOption} for an option outside {@link countRules} (the type resolver's `maxConcurrent`, ...),
 * with its own rule and the same message.
 *
 * @internal
 */
export function checkCount(name: string, value: unknown, rule: CountRule): number {
  if (
    typeof value === "number" &&
    value >= rule.min &&
    (Number.isInteger(value) || (rule.unbounded && value === Infinity))
  ) {
    return value;
  }
  throw countOptionError(name, value, rule);
}

/** The `range` error of a count option: the option, what it accepts with its unit, and what it got. */
export function countOptionError(name: string, value: unknown, rule: CountRule): WktJsonError {
  const accepts = `a whole number from ${rule.min} up${rule.unbounded ? ", or Infinity" : ""}`;
  return new WktJsonError(
    "range",
    "$",
    optionsTypeName,
    `${name} must be ${accepts} (${rule.unit}), got ${shown(value)}`,
  );
}

/**
 * @internal An option's value in an error message: a number as written (`1.5`, `NaN`, `-1`), anything else by
 * its kind; the number itself is what the caller needs to see.
 */
export function shown(value: unknown): string {
  return typeof value === "number" ? String(value) : describe(value);
}
