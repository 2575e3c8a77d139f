/**
 * The writer of wide messages (more members than {@link wideMembers}): the output object is written into a copy
 * of the shape of the last one of its type, instead of growing member by member. The same output as the
 * writer of any message (to-json.ts), faster for a type whose messages set the same many fields each time.
 *
 * @module
 * @internal
 */
import type { DescMessage, JsonObject } from "@bufbuild/protobuf";
import { checkMessage } from "../internal/message-type.js";
import { writeExtensions, type MessageWriters } from "./to-json-fields.js";
import { enter, fieldJson, nextField, type FieldPlan, type MessageWriter } from "./to-json-plan.js";

/**
 * Past how many members an output object is written into a copy of the last one's shape (see
 * {@link compileWide}). Added one by one, each member moves the object to the next layout of V8's transition
 * tree, and past its in-object slots (about 4) its property store is grown and copied again and again; a copy
 * of an object of the same members is one allocation, and a store into a member it has costs about 2/3 of a
 * store that adds one (a keyed store either way). Below this, a copy costs more than it saves.
 */
export const wideMembers = 16;

/** The nesting depths (from 1, the message written) at which a wide message's writer keeps a shape. */
const shapeDepths = 4;

/** The members a wide message's writer wrote last, as keys in order and as an object with those keys. */
interface WideShape {
  readonly proto: boolean;
  readonly keys: readonly string[];
  readonly template: JsonObject;
}

/**
 * The writer of a message type with more fields than {@link wideMembers}. When the last message written at the
 * same depth had more members than that, the next one is compared with its shape ({@link WideShape}) as its
 * fields are found: once its first {@link wideMembers} members are those of the shape, in that order, the
 * rest of it is written into a copy of the shape's object, with the members written so far, and each further
 * member overwrites its own in place as long as the fields come in the shape's order. At the first field
 * that does not, and when fields of the shape are left over, the members written so far are copied into a new
 * object and writing goes on as for any message: the output is the same either way, and a message is never
 * written twice. A message with fewer members never comes to the copy and costs one comparison per member.
 * `other` is the writer of any message of the type, for the options it does not take.
 */
export function compileWide(
  desc: DescMessage,
  plans: readonly FieldPlan[],
  writers: MessageWriters,
  other: MessageWriter,
): MessageWriter {
  const typeName = desc.typeName;
  // By nesting depth (up to shapeDepths): a message of the type at the same depth as one before is taken as
  // likely to set the same fields (a recursive field nests a message of the type that sets others).
  const shapes: (WideShape | undefined)[] = new Array<WideShape | undefined>(shapeDepths).fill(undefined);
  // Shapes made after a miss cost one each, messages written from a shape to its end earn one back (up to
  // shapeCredit): a type whose wide messages set different fields each time stops making shapes.
  let credit = shapeCredit;
  return (message, ctx) => {
    // Fields written although unset (to-json-emit.ts): the writer of any message, `other`, writes them.
    if (ctx.emit !== undefined) return other(message, ctx);
    checkMessage(message, typeName);
    enter(ctx, typeName);
    const proto = ctx.useProtoFieldName;
    const depth = ctx.depth;
    const s = depth < shapeDepths ? shapes[depth] : undefined;
    let keys = s !== undefined && s.proto === proto ? s.keys : undefined;
    let out: JsonObject = {};
    let stored = 0;
    // One call site of nextField per writer (see there).
    for (let i = 0; (i = nextField(plans, i, message, ctx)) < plans.length; i++) {
      const plan = ctx.foundPlan!;
      const json = fieldJson(plan, ctx.foundValue, ctx);
      if (json === undefined) continue; // an empty map, not written
      const key = proto ? plan.protoName : plan.jsonName;
      if (keys !== undefined) {
        if (keys[stored] === key) {
          if (stored === wideMembers) out = withMembers(s!.template, out, keys, stored);
          out[key] = json;
          stored++;
          continue;
        }
        // Past wideMembers, `out` is the copy, with members of the shape not written yet.
        if (stored > wideMembers) out = membersOf(out, keys, stored);
        keys = undefined;
      }
      out[key] = json;
      stored++;
    }
    if (keys !== undefined && stored !== keys.length) {
      if (stored > wideMembers) out = membersOf(out, keys, stored);
      keys = undefined;
    }
    if (keys !== undefined) {
      if (credit < shapeCredit) credit++;
    } else if (stored > wideMembers && depth < shapeDepths && (s === undefined || credit-- > 0)) {
      shapes[depth] = wideShape(out, proto);
    }
    if (ctx.registry !== undefined && message.$unknown !== undefined) writeExtensions(desc, message, ctx, out, writers);
    ctx.depth--;
    return out;
  };
}

/** See {@link compileWide}. */
const shapeCredit = 8;

/** A copy of `template` with the first `n` members of `from` (whose keys are the first of `keys`) written in. */
function withMembers(template: JsonObject, from: JsonObject, keys: readonly string[], n: number): JsonObject {
  const out = { ...template };
  for (let k = 0; k < n; k++) out[keys[k]!] = from[keys[k]!]!;
  return out;
}

/** The first `n` members of `from`, whose keys are `keys`, in a new object. */
function membersOf(from: JsonObject, keys: readonly string[], n: number): JsonObject {
  const out: JsonObject = {};
  for (let k = 0; k < n; k++) out[keys[k]!] = from[keys[k]!]!;
  return out;
}

/** The shape of `out` (no integer-like keys, no __proto__: see compileMessage). */
function wideShape(out: JsonObject, proto: boolean): WideShape {
  const keys = Object.keys(out);
  // A copy of `out` itself, so that each member keeps the representation V8 gave it there. One made another
  // way (JSON.parse of the keys with null values) made the full TestAllTypesProto3 36-56% slower: its copies
  // took new layouts at the first writes, copy after copy. Values are replaced by placeholders of the same
  // kind, so that the shape holds on to no part of the caller's output (numbers and booleans hold nothing).
  const template: JsonObject = { ...out };
  for (const k of keys) {
    const v = template[k];
    if (typeof v === "string") template[k] = "";
    else if (typeof v === "object") template[k] = null;
  }
  return { proto, keys, template };
}
