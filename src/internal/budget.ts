/**
 * The decoder's work budget (`maxValues` of `fromJson`, `fromJsonString`, `validateJson*`): what a decoded
 * message holds, counted as it is built, so that memory is bounded whatever the shape of the input. The
 * counter lives in the read context; each reader adds its cost with one integer addition and compares.
 *
 * What counts (each unit is about one member or one element in memory, some 20 to 60 bytes with the parsed
 * JSON that backs it):
 * - a message: 1 plus its number of fields (protobuf-es gives a message a member per field, set or not),
 *   well-known types too (Timestamp 3, a wrapper 2, Any 3 plus its message, Empty 1);
 * - an element of a repeated field, an entry of a map: 1 (a message element adds its message's cost);
 * - a google.protobuf.Value: 2 (the Value and its `kind`); a Struct or ListValue: 1 more (plus its Values);
 * - a value inside a Struct field outside Value (kept as plain JSON): 1.
 *
 * @internal
 * @module
 */
import { WktJsonError } from "../errors.js";
import { formatBound } from "../limits.js";

/** The counter: units used so far and the most allowed. The decoder's read context is one. */
export interface ValueBudget {
  values: number;
  readonly maxValues: number;
}

/** A budget that never runs out, for the functions without the option (structFromJson, ...). */
export function unlimitedBudget(): ValueBudget {
  return { values: 0, maxValues: Infinity };
}

/** The `size` error of a spent budget, for the value being read (`$`, the caller prefixes its path). */
export function valuesError(typeName: string, budget: ValueBudget): WktJsonError {
  return new WktJsonError(
    "size",
    "$",
    typeName,
    `the input decodes to more than maxValues (${formatBound(budget.maxValues)}) values; ` +
      "a message counts 1 plus its number of fields, a list element or map entry 1, a google.protobuf.Value 2",
  );
}

/**
 * The costs of the budget, named once (see the module comment). The readers charge these and nothing else;
 * issue 25's work meter will change them here.
 */
/** A google.protobuf.Value: the Value and its `kind`. */
export const valueCost = 2;
/** A Struct or a ListValue, on top of its Values. */
export const containerCost = 1;
/** An element of a repeated field or ListValue, an entry of a map, or a value kept as plain JSON. */
export const elementCost = 1;
/** A message with `fieldCount` fields: one member per field, set or not, and the message itself. */
export function messageCost(fieldCount: number): number {
  return 1 + fieldCount;
}
/** A ListValue of `n` elements: the list and a Value for each. */
export function listValueCost(n: number): number {
  return containerCost + valueCost * n;
}
