/**
 * Zero messages for the JSON reader, equal to what `create(desc)` returns but made faster.
 *
 * `create(desc)` adds the members of a message one keyed store at a time, and V8 turns an object that gets
 * more than a dozen or so members that way into a dictionary: about 13 µs for TestAllTypesProto3's 125 members
 * on the benchmark machine, most of the time of reading a message that sets few fields. Here the zero message
 * of a type is built once, in fast mode (`JSON.parse` makes objects of many members that way), and each
 * message is a copy of it (`{...template}`, one allocation of the same shape) into which fresh lists, maps and
 * oneof holders go: about 5.5 µs. The reader uses it for messages that set few fields and add no member (see
 * from-json.ts): adding one turns the copy into a dictionary.
 *
 * A type whose zero message has a prototype chain (protobuf-es keeps proto2 default values there) or an
 * unusual member name is left to `create`.
 *
 * @internal
 * @module
 */
import { create, type DescMessage } from "@bufbuild/protobuf";

interface Template {
  /** The members every message shares (primitives, and the constants create() shares too); undefined: use create(). */
  readonly base: Record<string, unknown> | undefined;
  /** Local names of the members each message gets its own of: lists, maps, oneofs. */
  readonly lists: readonly string[];
  readonly maps: readonly string[];
  readonly oneofs: readonly string[];
}

const templates = new WeakMap<DescMessage, Template>();

/**
 * Returns a new zero message of `desc`: the same members, in the same order, with the same values as
 * `create(desc)`, and its own empty lists, maps and oneof holders.
 *
 * @internal
 * @example
 * zeroMessage(TimestampSchema); //=> { $typeName: "google.protobuf.Timestamp", seconds: 0n, nanos: 0 }
 */
export function zeroMessage(desc: DescMessage): Record<string, unknown> {
  let t = templates.get(desc);
  if (t === undefined) {
    t = compileTemplate(desc);
    templates.set(desc, t);
  }
  if (t.base === undefined) return create(desc) as Record<string, unknown>;
  const m = { ...t.base };
  const { lists, maps, oneofs } = t;
  for (let i = 0; i < lists.length; i++) m[lists[i]!] = [];
  for (let i = 0; i < maps.length; i++) m[maps[i]!] = {};
  for (let i = 0; i < oneofs.length; i++) m[oneofs[i]!] = { case: undefined };
  return m;
}

function compileTemplate(desc: DescMessage): Template {
  const zero = create(desc) as Record<string, unknown>;
  const lists: string[] = [];
  const maps: string[] = [];
  const oneofs: string[] = [];
  for (const member of desc.members) {
    if (member.kind === "oneof") oneofs.push(member.localName);
    else if (member.fieldKind === "list") lists.push(member.localName);
    else if (member.fieldKind === "map") maps.push(member.localName);
  }
  const keys = Object.keys(zero);
  if (Object.getPrototypeOf(zero) !== Object.prototype || keys.includes("__proto__")) {
    return { base: undefined, lists, maps, oneofs };
  }
  // The members with a placeholder each, parsed: one object in fast mode. Each member then holds a string, a
  // fraction and its zero value in turn, so that its field is general from the start: a reader that stores a
  // double or an object where the template held a small integer would otherwise make V8 replace the shape of
  // every message copied from it (about three times the time of reading TestAllTypesProto3 in full).
  const skeleton: Record<string, string> = {};
  for (const k of keys) skeleton[k] = "";
  const base = JSON.parse(JSON.stringify(skeleton)) as Record<string, unknown>;
  for (const k of keys) {
    base[k] = 0.5;
    base[k] = zero[k];
  }
  return { base, lists, maps, oneofs };
}
