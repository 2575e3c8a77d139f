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
import { dictObjectCost, fastObjectCost } from "../internal/budget.js";

interface Template {
  /** The members every message shares (primitives, and the constants create() shares too); undefined: use create(). */
  readonly base: Record<string, unknown> | undefined;
  /** How many members `base` has. */
  readonly size: number;
  /** Local names of the members each message gets its own of: lists, maps, oneofs. */
  readonly lists: readonly string[];
  readonly maps: readonly string[];
  readonly oneofs: readonly string[];
  /** The list of no added member (its base is `base`); undefined with `base`. */
  root: ZeroShape | undefined;
  /** How many lists of added members have been reached from `root`. */
  shapes: number;
  /** What a message of the type costs of the decoder's budget ({@link zeroMessageCost}), once computed. */
  cost: ZeroMessageCost | undefined;
}

/**
 * What a new message of a type costs of the decoder's budget (internal/budget.ts), in its units of 8 bytes:
 * `enter`, the message as the reader makes it (its object with the members of `create()`, and its own lists,
 * maps and oneof holders); `upgrade`, what it costs more when the reader makes it with `create()` instead of
 * copying the zero message (more than 16 members given, or a member added: V8 then keeps it as a dictionary).
 *
 * @internal
 */
export interface ZeroMessageCost {
  readonly enter: number;
  readonly upgrade: number;
}

/**
 * A list of members added to the zero message of a type, reached from the empty list one member at a time
 * ({@link zeroShapeStep}): a reader that meets the fields of a JSON object in order walks to the list of the
 * members they add without building a key for it, and finds its base there ({@link zeroMessageAt}).
 *
 * @internal
 */
export interface ZeroShape {
  readonly t: Template;
  /** Local names of the added members, in order. */
  readonly added: readonly string[];
  /** The zero message with those members: made on first use; null when none can be (a name given twice). */
  base: Record<string, unknown> | null | undefined;
  /** The lists one member longer, by the index of that member's field in the type's `fields`. */
  readonly next: (ZeroShape | undefined)[];
}

/**
 * Most lists of added members kept per type (each with its base, once used): beyond, new lists of members
 * are left to create(). A list reached on the way to a longer one counts too.
 */
const shapesMax = 64;

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
 * holding undefined; or undefined when there is none to copy (see {@link zeroMessage}; at most 64 lists of
 * added members per type, and 127 members in all). The caller sets them and deletes those it does not set:
 * the message is then what `create(desc)` followed by setting them in that order makes. The reader walks to
 * the same list with {@link zeroShapeStep}.
 *
 * @internal
 * @example
 * zeroMessageWith(TestAllTypesProto3, ["optionalNestedMessage"])?.optionalNestedMessage; //=> undefined (but own)
 */
export function zeroMessageWith(desc: DescMessage, added: readonly string[]): Record<string, unknown> | undefined {
  let shape = templateOf(desc).root;
  for (const name of added) {
    if (shape === undefined) return undefined;
    shape = zeroShapeStep(
      shape,
      desc.fields.findIndex((f) => f.localName === name),
      name,
    );
  }
  return shape === undefined ? undefined : zeroMessageAt(shape);
}

/**
 * The list of no added member of `desc`, from which {@link zeroShapeStep} walks; undefined when no copies of
 * the type are made (see {@link zeroMessage}).
 *
 * @internal
 * @example
 * zeroShapeRoot(TestAllTypesProto3)?.added; //=> []
 */
export function zeroShapeRoot(desc: DescMessage): ZeroShape | undefined {
  return templateOf(desc).root;
}

/**
 * The list `shape` with one more member, `localName`, the member of the field at `index` in the type's
 * `fields`; undefined when it would hold more than 127 members in all or the type has 64 lists already.
 *
 * @internal
 * @example
 * const index = TestAllTypesProto3.fields.findIndex((f) => f.localName === "optionalNestedMessage");
 * zeroShapeStep(zeroShapeRoot(TestAllTypesProto3)!, index, "optionalNestedMessage")?.added; //=> ["optionalNestedMessage"]
 */
export function zeroShapeStep(shape: ZeroShape, index: number, localName: string): ZeroShape | undefined {
  let next = shape.next[index];
  if (next === undefined) {
    const t = shape.t;
    if (t.size + shape.added.length >= membersMax || t.shapes >= shapesMax) return undefined;
    t.shapes++;
    next = { t, added: [...shape.added, localName], base: undefined, next: [] };
    shape.next[index] = next;
  }
  return next;
}

/**
 * A new zero message with the members of `shape` added, as {@link zeroMessageWith} describes it; undefined
 * when there is none (a member named twice, or `__proto__`).
 *
 * @internal
 * @example
 * zeroMessageAt(zeroShapeRoot(TimestampSchema)!); //=> { $typeName: "google.protobuf.Timestamp", seconds: 0n, nanos: 0 }
 */
export function zeroMessageAt(shape: ZeroShape): Record<string, unknown> | undefined {
  let base = shape.base;
  if (base === undefined) base = shape.base = makeBase(shape.t, shape.added);
  return base === null ? undefined : copy(shape.t, base);
}

/** The base of a list of added members, or null when a name is given twice or is `__proto__`. */
function makeBase(t: Template, added: readonly string[]): Record<string, unknown> | null {
  const keys = [...Object.keys(t.base!), ...added];
  if (new Set(keys).size !== keys.length || added.includes("__proto__")) return null;
  const values = { ...t.base } as Record<string, unknown>;
  for (const k of added) values[k] = undefined;
  return fastCopy(keys, values);
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

/**
 * What a message of `desc` costs of the decoder's budget (see {@link ZeroMessageCost}), computed once per type.
 *
 * @internal
 * @example
 * zeroMessageCost(TimestampSchema); //=> { enter: 7, upgrade: 3 } (three members; the bigint apart)
 */
export function zeroMessageCost(desc: DescMessage): ZeroMessageCost {
  const t = templateOf(desc);
  if (t.cost === undefined) {
    const members = Object.keys(create(desc)).length;
    // Fresh per message: a list (an empty JSArray), a map (an object literal), a oneof holder ({ case }).
    const own = 4 * t.lists.length + 7 * t.maps.length + 4 * t.oneofs.length;
    // create() adds members one keyed store at a time: V8 keeps a dozen or so in fast mode, then a dictionary.
    const created = members > 13 ? dictObjectCost(members) : fastObjectCost(members + 3);
    t.cost =
      t.base === undefined
        ? { enter: created + own, upgrade: 0 }
        : { enter: fastObjectCost(members) + own, upgrade: Math.max(0, created - fastObjectCost(members)) };
  }
  return t.cost;
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
  const keys = Object.keys(zero);
  if (Object.getPrototypeOf(zero) !== Object.prototype || keys.length > membersMax || keys.includes("__proto__")) {
    return { base: undefined, size: 0, lists, maps, oneofs, root: undefined, shapes: 0, cost: undefined };
  }
  const base = fastCopy(keys, zero);
  const t: Template = { base, size: keys.length, lists, maps, oneofs, root: undefined, shapes: 0, cost: undefined };
  t.root = { t, added: [], base, next: [] };
  return t;
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
