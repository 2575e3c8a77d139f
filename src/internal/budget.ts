/**
 * The decoder's memory budget (`maxValues` of `fromJson`, `fromJsonString`, `validateJson*`, `anyFromJson`,
 * `standardSchema`): what a call allocates, charged as it is built, against an allowance earned from the input
 * as it is read, so that the memory of a call is bounded by its input whatever the shape of that input.
 *
 * Units: one unit is 8 bytes of memory (a V8 word on 64-bit Node), and each allocation is charged what it
 * costs there (measured by bench/values-memory.mjs, `calibrate`): a message its object and the members
 * protobuf-es's `create()` gives it (see codec/zero-message.ts), an element of a repeated field its slot, a
 * bigint, a Uint8Array, a google.protobuf.Value, a Struct member, each its size.
 *
 * Allowance: by default a call may hold {@link ValueBudget.maxValues} units whatever its input (the base, so
 * that every small body of wide messages decodes), plus {@link ValueBudget.perCodeUnit} units for each code
 * unit of JSON text its input takes. That text is counted from the JSON value itself, the same whether it came
 * from `fromJsonString`'s parser or from a value given to `fromJson` (see {@link earned}), so that a text and
 * its parsed value get the same decision. A caller's own `maxValues` is a fixed cap: nothing is earned.
 *
 * The counter `values` is the units charged less the units earned; each reader adds its cost with one
 * addition and compares. Charges and credits are made at the same points by every reader of one JSON value (the
 * decoder, the collect-all validator, the text fast path of Struct), so that they stop at the same place.
 *
 * @internal
 * @module
 */
import { WktJsonError } from "../errors.js";
import { formatBound } from "../limits.js";

/** The counter: units charged less units earned, the allowance, and what a code unit of input earns. */
export interface ValueBudget {
  values: number;
  readonly maxValues: number;
  /** Units earned per code unit of input read; 0 for a fixed cap (a `maxValues` the caller gave). */
  readonly perCodeUnit: number;
}

/** A budget that never runs out, for the functions without the option (structFromJson, ...). */
export function unlimitedBudget(): ValueBudget {
  return { values: 0, maxValues: Infinity, perCodeUnit: 0 };
}

/** The `size` error of a spent budget, for the value being read (`$`, the caller prefixes its path). */
export function valuesError(typeName: string, budget: ValueBudget): WktJsonError {
  const allowance =
    budget.perCodeUnit > 0
      ? `the input decodes to more memory than its size allows (maxValues: ${formatBound(budget.maxValues)} ` +
        `units of 8 bytes plus ${formatBound(budget.perCodeUnit)} per code unit of its JSON text)`
      : `the input decodes to more than maxValues (${formatBound(budget.maxValues)}) units of 8 bytes of memory`;
  return new WktJsonError("size", "$", typeName, allowance + "; README, Hostile input");
}

/**
 * What the JSON text of a value earns, in code units, counted from the value (never more than the shortest
 * text of it, so never more than the text a client sent): each value 1 where it is referenced (a member or an
 * element: the separator before it, or its opening bracket) and 1 for itself (its shortest form, a digit), a
 * member its key's length and 3 (quotes and colon), a string its length and 1 more (its quotes, less the 1).
 * The readers add these where they have the lengths in hand.
 */
export const earned = {
  /** An element of a list: its separator and its shortest form. */
  element: 2,
  /** A member of an object, on top of its key's length: separator, quotes, colon, the value's shortest form. */
  member: 5,
  /** A string, on top of its length: its second quote (the first is the value's shortest form). */
  string: 1,
} as const;

/**
 * The costs, in units of 8 bytes (see the module comment), named once. The readers charge these and nothing
 * else. Measured on Node 20 (x64) by `node bench/values-memory.mjs calibrate`.
 */
/** The slot of an element in a repeated field's array, grown by push (up to half again as large). */
export const slotCost = 2;
/** A member of an object V8 keeps as a dictionary (a map entry, a Struct member): its entry at half load. */
export const keyedCost = 6;
/** A google.protobuf.Value: the Value, its `kind`, and a boxed number (a double). */
export const valueCost = 12;
/** A google.protobuf.Struct: the message and its `fields` object (its members cost {@link keyedCost} each). */
export const structCost = 12;
/** A ListValue of `n` elements: the message, its array and a slot per element (each Value apart). */
export function listValueCost(n: number): number {
  return 9 + n;
}
/** A plain JSON object copied into a Struct field (its members {@link keyedCost} each). */
export const jsonObjectCost = 7;
/** A plain JSON array of `n` elements copied into a Struct field. */
export function jsonArrayCost(n: number): number {
  return 4 + 3 * n;
}
/** A bigint (a 64-bit integer field, not `longAsString`). */
export const bigintCost = 3;
/**
 * A Uint8Array (a bytes field), whatever its length: its contents, at most 3/4 byte per code unit, apart. 24 on
 * Node 20; Node 24 and 26 keep a word more.
 */
export const bytesCost = 25;
/** A double boxed in a message's member (a singular float or double field). */
export const boxedNumberCost = 2;
/** A oneof's new `{ case, value }` holder. */
export const oneofCaseCost = 4;
/** An extension set on a message: protobuf-es keeps it as unknown fields (a record and its bytes). */
export const extensionCost = 40;

/** A JS object in V8's fast mode with `members` in-object members (and its map's slack of one). */
export function fastObjectCost(members: number): number {
  return 4 + members;
}

/**
 * A JS object in V8's dictionary mode with `members` members: its hash table has a power of two entries of 3
 * words, at least 1.5 per member. protobuf-es's `create()` gives a message of more than a dozen members this
 * form (it adds them one keyed store at a time), and so does any object of 128 members or more.
 */
export function dictObjectCost(members: number): number {
  let capacity = 4;
  while (capacity < members * 1.5) capacity *= 2;
  return 13 + 3 * capacity;
}
