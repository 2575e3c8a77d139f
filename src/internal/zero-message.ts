/**
 * Zero messages for the JSON reader, equal to what `create(desc)` returns but made faster.
 *
 * `create(desc)` adds the members of a message one keyed store at a time, and V8 turns an object that gets
 * more than a dozen or so members that way into a dictionary: about 13 µs for TestAllTypesProto3's 125 members
 * on the benchmark machine, most of the time of reading a message that sets few fields. Here the zero message
 * of a type is built once, in fast mode (`JSON.parse` makes objects of many members that way), and each
 * message is a copy of it (`{...template}`, one allocation of the same shape) into which fresh lists, maps and
 * oneof holders go: about 5.5 µs. The reader uses it for messages that set few fields (see from-json.ts).
 * Adding a member to a copy turns it into a dictionary, copying every member, so {@link zeroMessageWith} makes
 * copies that already have the members a message's fields will add.
 *
 * A type whose zero message has a prototype chain (protobuf-es keeps proto2 default values there), 128
 * members or more, or an unusual member name is left to `create`.
 *
 * @internal
 * @module
 */
import { create, type DescMessage } from "@bufbuild/protobuf";

interface Template {
  /** The members every message shares (primitives, and the constants create() shares too); undefined: use create(). */
  readonly base: Record<string, unknown> | undefined;
  /** How many members `base` has. */
  readonly size: number;
  /** Local names of the members each message gets its own of: lists, maps, oneofs. */
  readonly lists: readonly string[];
  readonly maps: readonly string[];
  readonly oneofs: readonly string[];
  /** Bases with more members after the zero message's, by their local names joined with ",". */
  readonly withAdded: Map<string, Record<string, unknown>>;
}

/** Most bases with added members kept per type: beyond, new lists of members are left to create(). */
const withAddedMax = 32;

/**
 * Most members of a base. `JSON.parse` makes an object of 128 members or more a dictionary in V8, and a
 * spread copy of a dictionary is slow (about 100 µs for 128 members, against 1 µs for 100): such types are
 * left to create().
 */
const membersMax = 127;

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
  const t = templateOf(desc);
  if (t.base === undefined) return create(desc) as Record<string, unknown>;
  return copy(t, t.base);
}

/**
 * Returns a new zero message of `desc` that also has the members `added` (local names of fields the zero
 * message lacks: message fields, fields with explicit presence), after the others and in that order, each
 * holding undefined; or undefined when there is none to copy (see {@link zeroMessage}; at most 32 lists of
 * added members per type, and 127 members in all). The caller sets them and deletes those it does not set:
 * the message is then what `create(desc)` followed by setting them in that order makes.
 *
 * @internal
 * @example
 * zeroMessageWith(TestAllTypesProto3, ["optionalNestedMessage"])?.optionalNestedMessage; //=> undefined (but own)
 */
export function zeroMessageWith(desc: DescMessage, added: readonly string[]): Record<string, unknown> | undefined {
  const t = templateOf(desc);
  if (t.base === undefined || t.size + added.length > membersMax) return undefined;
  const key = added.length === 1 ? added[0]! : added.join(",");
  let base = t.withAdded.get(key);
  if (base === undefined) {
    if (t.withAdded.size >= withAddedMax) return undefined;
    const keys = [...Object.keys(t.base), ...added];
    if (new Set(keys).size !== keys.length || added.includes("__proto__")) return undefined;
    const values = { ...t.base } as Record<string, unknown>;
    for (const k of added) values[k] = undefined;
    base = fastCopy(keys, values);
    t.withAdded.set(key, base);
  }
  return copy(t, base);
}

/**
 * How many members {@link zeroMessageWith} can add to a zero message of `desc`; -1 when it makes no copies of
 * that type (and {@link zeroMessage} returns create()'s message).
 *
 * @internal
 * @example
 * zeroMessageRoom(TestAllTypesProto3); //=> 2 (125 members, 127 at most)
 */
export function zeroMessageRoom(desc: DescMessage): number {
  const t = templateOf(desc);
  return t.base === undefined ? -1 : membersMax - t.size;
}

function templateOf(desc: DescMessage): Template {
  let t = templates.get(desc);
  if (t === undefined) {
    t = compileTemplate(desc);
    templates.set(desc, t);
  }
  return t;
}

/** A copy of `base`, one allocation of its shape, with its own lists, maps and oneof holders. */
function copy(t: Template, base: Record<string, unknown>): Record<string, unknown> {
  const m = { ...base };
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
  const withAdded = new Map<string, Record<string, unknown>>();
  const keys = Object.keys(zero);
  if (Object.getPrototypeOf(zero) !== Object.prototype || keys.length > membersMax || keys.includes("__proto__")) {
    return { base: undefined, size: 0, lists, maps, oneofs, withAdded };
  }
  return { base: fastCopy(keys, zero), size: keys.length, lists, maps, oneofs, withAdded };
}

/**
 * An object in fast mode with the members `keys` in that order, holding the values of `values`: their names
 * with a placeholder each, parsed (`JSON.parse` makes objects of many members in fast mode, keyed stores do
 * not). Each member then holds a fraction, an object and its value in turn, so that its field is general from
 * the start and a reader's store of another kind of value does not make V8 replace the shape of every copy.
 */
function fastCopy(keys: readonly string[], values: Record<string, unknown>): Record<string, unknown> {
  const skeleton: Record<string, string> = {};
  for (const k of keys) skeleton[k] = "";
  const out = JSON.parse(JSON.stringify(skeleton)) as Record<string, unknown>;
  for (const k of keys) {
    out[k] = 0.5;
    out[k] = {};
    out[k] = values[k];
  }
  return out;
}
