/**
 * Schema-aware PATCH: AIP-134 updates of a stored resource from a request body, with AIP-203 field behaviour.
 *
 * AIP-134: "The request message must contain a field for the resource ... an `update_mask` ... Update masks must
 * support a special value `*`, meaning full replacement. If the update mask is omitted, the service must treat
 * it as an implied field mask equivalent to all fields that are populated" (here: present in the body, `null`
 * included, which clears a field). Fields named by the mask take the body's value; a repeated, map or message
 * field named by the mask is replaced, not appended to or merged into (a message field reached through a
 * longer path is entered, so `author.given_name` changes only that member).
 *
 * The implied mask goes down into the body's objects for singular message fields (`{"author": {"givenName":
 * "x"}}` gives `author.given_name`, as grpc-gateway computes it from a JSON body), and stops at repeated and map
 * fields, well-known types with their own JSON form, `null` and `{}`; `impliedMask: "fields"` keeps only the
 * top-level fields, for APIs where a sent object replaces the stored one.
 *
 * AIP-203, `google.api.field_behavior` (read from each field's options when the descriptor carries them, as
 * extension 1052 of google.protobuf.FieldOptions, or given as lists of paths):
 *
 * - OUTPUT_ONLY: "the field is provided in responses, but including the field in a request does nothing (the
 *   server must clear out any value in this field and must not throw an error as a result of the presence of a
 *   value)". Such members of the body are dropped, and mask paths naming them ignored; with `strict: true`
 *   either is an error. Where the mask replaces a message holding an output-only field, the stored value is
 *   kept. Inside lists and maps (no identity to find the stored value by) the field is cleared.
 * - IMMUTABLE (and IDENTIFIER): "the field may be set in a request that creates the resource, but may not be
 *   changed afterwards": an update that changes a value set in the stored resource is an error; sending the
 *   same value, or setting a field the stored resource lacks, is not.
 * - REQUIRED: "a field ... must be provided": an update that leaves it unset (or at its default, for fields
 *   without presence) is an error, for the fields the mask touches; in a message the update sets, its required
 *   fields too.
 *
 * Errors are our usual ones for the body (its paths from the body's root) and the mask, and rule
 * `field-behavior` for AIP-203, at the JSON path of the field.
 *
 * @module
 */
import {
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type MessageShape,
} from "@bufbuild/protobuf";
import { hasCustomJsonRepresentation } from "@bufbuild/protobuf/wkt";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { WktJsonError } from "../errors.js";
import {
  checkedPaths,
  checkedTrie,
  checkMessage,
  fieldGet,
  fieldIsSet,
  fieldValueEquals,
  planOf,
  boxNone,
  type FieldPlan,
  type MessagePlan,
  type Msg,
} from "../wkt/field-mask.js";
import { fieldMaskFromJson } from "../wkt/field-mask.js";
import { fieldMaskMerge } from "./field-mask-apply.js";
import { fromJson, stackOverflowAsDepth, type JsonReadOptions } from "../codec/from-json.js";
import { describe } from "../internal/describe.js";
import { setOwn } from "../internal/json-value.js";
import { formatPath, isStar, WILD, type FieldMaskLike, type Node, type Segment } from "../internal/mask-path.js";
import { defaultMaxDepth } from "../limits.js";
import { pathJoin, type PathSegment } from "../path.js";
import { toJson, type JsonWriteOptions } from "../codec/to-json.js";

/** Options of {@link patch}: the decoder's options for the body, plus the update mask and field behaviour. */
export interface PatchOptions extends Partial<JsonReadOptions> {
  /**
   * The request's update mask: a FieldMask, an array of proto paths (`["title", "author.given_name"]`), or the
   * FieldMask JSON form as a query parameter carries it (`"title,author.givenName"`). `*` alone (`"*"` or
   * `["*"]`) replaces the whole resource. Undefined (default): the fields present in the body (see `impliedMask`).
   */
  updateMask?: FieldMaskLike | string | undefined;
  /**
   * How far the mask implied by the body goes: `"leaves"` (default) down through singular message fields,
   * so a sent message is merged member by member; `"fields"` the body's top-level fields only, so a sent
   * message replaces the stored one.
   */
  impliedMask?: "leaves" | "fields";
  /** Paths (proto names, through singular message fields) of OUTPUT_ONLY fields, besides the descriptor's. */
  outputOnly?: readonly string[];
  /** Paths of IMMUTABLE fields, besides those the descriptor marks IMMUTABLE or IDENTIFIER. */
  immutable?: readonly string[];
  /** Paths of REQUIRED fields, besides the descriptor's. */
  required?: readonly string[];
  /** An OUTPUT_ONLY field in the body or the mask is an error (rule `field-behavior`) instead of being ignored. */
  strict?: boolean;
  /** Accept AIP-161 map keys in `updateMask` (`labels.env`). Default false. */
  aip161?: boolean;
}

/** Options of {@link jsonPatch}: those of {@link patch}, plus how the result is written (`toJson`'s options). */
export interface JsonPatchOptions
  extends PatchOptions, Partial<Pick<JsonWriteOptions, "useProtoFieldName" | "enumAsInteger" | "alwaysEmitImplicit">> {}

/**
 * Applies a PATCH request body to a stored message (AIP-134) and returns the updated message; neither input is
 * changed. The body is proto3 JSON (what `JSON.parse` gives), decoded and checked first. The update mask is
 * `options.updateMask`, else the fields the body holds; masked repeated, map and message fields are replaced.
 * Field behaviour (AIP-203) comes from the descriptor's `google.api.field_behavior` options and from the
 * `outputOnly`, `immutable` and `required` path lists: output-only fields of the body are ignored, immutable
 * fields may not change once set, required fields may not be cleared.
 *
 * @throws {WktJsonError} the decoder's rules for the body (`json-type`, `unknown-field` unless
 *   `ignoreUnknownFields`, `syntax`, `range`, ...), with paths from the body's root; `mask-path` or `syntax`
 *   for an update mask that does not name fields of `schema`; `field-behavior` for an immutable field changed,
 *   a required field cleared, or (under `strict`) an output-only field sent; `json-type` if `stored` is not a
 *   message of `schema`; `range` for a bad option.
 * @example
 * const stored = create(BookSchema, { name: "books/1", title: "Dune", tags: ["sf"] });
 * const updated = patch(BookSchema, stored, { title: "Dune Messiah", tags: ["sequel"], name: "x" }, { outputOnly: ["name"] });
 * [updated.name, updated.title, updated.tags]; //=> ["books/1", "Dune Messiah", ["sequel"]]
 * patch(BookSchema, stored, { title: "" }, { required: ["title"] }); // throws WktJsonError (rule "field-behavior", path "$.title")
 */
export function patch<Desc extends DescMessage>(
  schema: Desc,
  stored: MessageShape<Desc>,
  body: JsonValue,
  options?: PatchOptions,
): MessageShape<Desc> {
  checkMessage(schema, stored, "stored");
  const o = readOptions(schema, options);
  return run(schema, stored, body, o);
}

/**
 * Applies a PATCH request body to a resource kept as proto3 JSON: {@link patch} on the stored JSON decoded, the
 * result written back as canonical proto3 JSON (with `toJson`'s `useProtoFieldName`, `enumAsInteger` and
 * `alwaysEmitImplicit` when given). Unlike `jsonMerge`, the body is checked against the schema: a misspelt
 * field is an error, not a new property, and `{"tags": "x"}` cannot replace a list with a string.
 *
 * @throws {WktJsonError} as {@link patch}; an error in the stored JSON has its own path and a detail that
 *   starts with "the stored resource".
 * @example
 * const stored = { name: "books/1", title: "Dune", author: { givenName: "Frank", familyName: "Herbert" } };
 * jsonPatch(BookSchema, stored, { author: { givenName: "F." } });
 * //=> { name: "books/1", title: "Dune", author: { givenName: "F.", familyName: "Herbert" } }
 * jsonPatch(BookSchema, stored, { titel: "x" }); // throws WktJsonError (rule "unknown-field", path "$.titel")
 */
export function jsonPatch(
  schema: DescMessage,
  stored: JsonValue,
  body: JsonValue,
  options?: JsonPatchOptions,
): JsonObject {
  const o = readOptions(schema, options);
  let message: MessageShape<DescMessage>;
  try {
    message = fromJson(schema, stored, o.read);
  } catch (e) {
    if (!(e instanceof WktJsonError)) throw e;
    throw new WktJsonError(e.rule, e.path, e.typeName, `the stored resource: ${e.detail}`, { cause: e });
  }
  const result = run(schema, message, body, o);
  const write: Partial<JsonWriteOptions> = {};
  if (o.read.registry !== undefined) write.registry = o.read.registry;
  for (const name of ["useProtoFieldName", "enumAsInteger", "alwaysEmitImplicit"] as const) {
    const v = options?.[name];
    if (v !== undefined) write[name] = v;
  }
  return toJson(schema, result, write) as JsonObject;
}

// ---------------------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------------------

const outputOnlyBit = 1;
const immutableBit = 2;
const requiredBit = 4;

interface Opts {
  read: Partial<JsonReadOptions>;
  /** The explicit mask's trie (`*` as isStar), or undefined for the implied mask. */
  mask: Node | undefined;
  leaves: boolean;
  strict: boolean;
  aip161: boolean;
  /** Field behaviour by proto path from the root, from the path lists. */
  lists: Map<string, number>;
}

function readOptions(schema: DescMessage, options: PatchOptions | undefined): Opts {
  planOf(schema); // checks the schema
  if (options !== undefined && (typeof options !== "object" || options === null))
    throw optionError("options", options, "an object");
  const flag = (name: "strict" | "aip161"): boolean => {
    const v = options?.[name];
    if (v !== undefined && typeof v !== "boolean") throw optionError(name, v, "a boolean");
    return v === true;
  };
  const strict = flag("strict");
  const aip161 = flag("aip161");
  const implied = options?.impliedMask ?? "leaves";
  if (implied !== "leaves" && implied !== "fields") throw optionError("impliedMask", implied, `"leaves" or "fields"`);
  const read: Partial<JsonReadOptions> = {};
  for (const name of ["ignoreUnknownFields", "registry", "recursionLimit", "maxDepth", "maxValues"] as const) {
    if (options?.[name] !== undefined) (read as Record<string, unknown>)[name] = options[name];
  }
  let mask: Node | undefined;
  const m = options?.updateMask;
  if (m !== undefined) {
    // "*" is no FieldMask JSON (a path of identifiers), but AIP-134's full replacement, as a query parameter sends it.
    const fm: FieldMaskLike =
      typeof m !== "string" ? m : m === "*" ? ["*"] : fieldMaskFromJson(m, { path: "$.updateMask" });
    mask = checkedTrie(schema, fm, aip161, "updateMask");
  }
  const lists = new Map<string, number>();
  for (const [name, bit] of [
    ["outputOnly", outputOnlyBit],
    ["immutable", immutableBit],
    ["required", requiredBit],
  ] as const) {
    const paths = options?.[name];
    if (paths === undefined) continue;
    for (const segs of checkedPaths(schema, paths, false, name)) {
      if (segs.includes(WILD)) throw optionError(name, "*", "paths of fields");
      const key = segs.join(".");
      lists.set(key, (lists.get(key) ?? 0) | bit);
    }
  }
  return { read, mask, leaves: implied === "leaves", strict, aip161, lists };
}

function optionError(name: string, value: unknown, expected: string): WktJsonError {
  const got = typeof value === "string" ? JSON.stringify(value) : describe(value);
  return new WktJsonError("range", "$", "options", `${name} must be ${expected}, got ${got}`);
}

// ---------------------------------------------------------------------------------------------------------
// google.api.field_behavior
// ---------------------------------------------------------------------------------------------------------

/** google.api.field_behavior: `repeated google.api.FieldBehavior field_behavior = 1052` on FieldOptions. */
const fieldBehaviorExtension = 1052;
const behaviorRequired = 2;
const behaviorOutputOnly = 3;
const behaviorImmutable = 5;
const behaviorIdentifier = 8;

const behaviorCache = new WeakMap<DescField, number>();

/**
 * The field's behaviour bits from its descriptor options. protobuf-es keeps an extension the registry does not
 * know among the options' unknown fields (`$unknown`, raw wire data), which is where this reads it, packed or
 * not; options it cannot read count as none.
 */
function descriptorBehavior(field: DescField): number {
  let bits = behaviorCache.get(field);
  if (bits !== undefined) return bits;
  bits = 0;
  const unknown = (
    field.proto?.options as { $unknown?: { no: number; wireType: number; data: Uint8Array }[] } | undefined
  )?.$unknown;
  if (Array.isArray(unknown)) {
    for (const u of unknown) {
      if (u.no !== fieldBehaviorExtension) continue;
      try {
        const r = new BinaryReader(u.data);
        const values: number[] = [];
        if (u.wireType === 0) values.push(r.int32());
        else if (u.wireType === 2) {
          const end = r.uint32() + r.pos;
          while (r.pos < end) values.push(r.int32());
        }
        for (const v of values) {
          if (v === behaviorOutputOnly) bits |= outputOnlyBit;
          else if (v === behaviorImmutable || v === behaviorIdentifier) bits |= immutableBit;
          else if (v === behaviorRequired) bits |= requiredBit;
        }
      } catch {
        // Malformed option bytes: no behaviour.
      }
    }
  }
  behaviorCache.set(field, bits);
  return bits;
}

function behavior(o: Opts, fp: FieldPlan, path: string | undefined): number {
  const bits = descriptorBehavior(fp.field);
  return path === undefined || o.lists.size === 0 ? bits : bits | (o.lists.get(path) ?? 0);
}

// ---------------------------------------------------------------------------------------------------------
// The update
// ---------------------------------------------------------------------------------------------------------

function run<Desc extends DescMessage>(
  schema: Desc,
  stored: MessageShape<Desc>,
  body: JsonValue,
  o: Opts,
): MessageShape<Desc> {
  // The body first, as the decoder reads it: every error has its path from the body's root.
  let message = fromJson(schema, body, o.read);
  const plan = planOf(schema);
  const maxDepth = o.read.maxDepth ?? o.read.recursionLimit ?? defaultMaxDepth;
  const scan: BodyScan = { o, implied: o.mask === undefined ? [] : undefined, dropped: false };
  let cleaned: unknown;
  try {
    cleaned = scanObject(plan, body as Msg, [], "", true, scan, maxDepth);
  } catch (e) {
    throw stackOverflowAsDepth(e, schema.typeName, maxDepth);
  }
  if (scan.dropped) message = fromJson(schema, cleaned as JsonValue, o.read);

  let paths: string[];
  let touched: Node | typeof ALL;
  if (o.mask !== undefined && (o.mask.leaf || isStar(o.mask))) {
    // checkedTrie gives the lone `*` as the whole message (a leaf at the root).
    paths = ["*"];
    touched = ALL;
  } else {
    const kept = o.mask !== undefined ? keptPaths(plan, o.mask, o) : scan.implied!.map((p) => p.split("."));
    paths = kept.map((segs) => formatPath(segs));
    touched = { leaf: false, children: undefined, any: undefined };
    for (const segs of kept) insert(touched, segs);
  }
  const result = fieldMaskMerge(schema, stored, message, paths, {
    replaceMessageFields: true,
    replaceRepeatedFields: true,
    aip161: o.aip161,
  });
  const walk: BehaviorWalk = { o, restore: [] };
  try {
    checkBehavior(plan, result as unknown as Msg, stored as unknown as Msg, touched, "", [], walk, defaultMaxDepth);
  } catch (e) {
    throw stackOverflowAsDepth(e, schema.typeName, defaultMaxDepth);
  }
  if (walk.restore.length === 0) return result;
  // Output-only fields inside what the mask replaced: the stored values again.
  return fieldMaskMerge(schema, result, stored, walk.restore, {
    replaceMessageFields: true,
    replaceRepeatedFields: true,
  });
}

/** Everything below: the mask names the whole value. */
const ALL: unique symbol = Symbol("all");

/** Adds a path (its segments) to a trie of the fields the update touches. */
function insert(root: Node, segs: readonly Segment[]): void {
  let node = root;
  for (const s of segs) {
    if (node.leaf) return;
    let next: Node | undefined;
    if (s === WILD) next = node.any ??= { leaf: false, children: undefined, any: undefined };
    else {
      node.children ??= new Map();
      next = node.children.get(s);
      if (next === undefined) node.children.set(s, (next = { leaf: false, children: undefined, any: undefined }));
    }
    node = next;
  }
  node.leaf = true;
  node.children = undefined;
  node.any = undefined;
}

interface BodyScan {
  o: Opts;
  /** The implied mask's paths, when there is no explicit mask. */
  implied: string[] | undefined;
  /** Whether an output-only member was dropped (the body is decoded again without it). */
  dropped: boolean;
}

/** Members of a message's JSON object by JSON name and proto name. */
const membersCache = new WeakMap<MessagePlan, Map<string, FieldPlan>>();

function membersOf(plan: MessagePlan): Map<string, FieldPlan> {
  let m = membersCache.get(plan);
  if (m === undefined) {
    m = new Map();
    for (const fp of plan.fields) {
      m.set(fp.field.jsonName, fp);
      m.set(fp.name, fp);
    }
    membersCache.set(plan, m);
  }
  return m;
}

/**
 * Walks a message's JSON object of the (already decoded, so well-formed) body: drops output-only members (or
 * throws under `strict`), and collects the implied mask's paths where `implied` (the prefix is a path from the
 * root through singular message fields; inside lists and maps it is undefined). Returns the object, or a copy
 * without the dropped members.
 */
function scanObject(
  plan: MessagePlan,
  obj: Msg,
  at: PathSegment[],
  prefix: string | undefined,
  implied: boolean,
  scan: BodyScan,
  depthLeft: number,
): Msg {
  // Not reached: the body was decoded under the same maxDepth. A guard all the same.
  if (depthLeft <= 0) throw new WktJsonError("depth", "$", plan.desc.typeName, "the body nests deeper than maxDepth");
  const members = membersOf(plan);
  let out: Msg | undefined;
  const keys = Object.keys(obj);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const fp = members.get(key);
    const v = obj[key];
    if (fp === undefined) {
      // Skipped by the decoder (ignoreUnknownFields), or an extension, which a FieldMask cannot name.
      if (implied && scan.implied !== undefined && key.charCodeAt(0) === 91) {
        throw new WktJsonError(
          "mask-path",
          pathJoin("$", ...at, key),
          plan.desc.typeName,
          `the extension ${key} cannot be updated: a FieldMask names fields only; send an updateMask without it`,
        );
      }
      if (out !== undefined) setOwn(out, key, v);
      continue;
    }
    const path = prefix === undefined ? undefined : prefix + fp.name;
    if ((behavior(scan.o, fp, path) & outputOnlyBit) !== 0) {
      if (scan.o.strict) {
        throw new WktJsonError(
          "field-behavior",
          pathJoin("$", ...at, key),
          plan.desc.typeName,
          `${fp.name} is OUTPUT_ONLY: a request may not set it (strict)`,
        );
      }
      scan.dropped = true;
      out ??= copyBefore(obj, keys, k);
      continue;
    }
    let value = v;
    const sub =
      fp.message !== undefined && fp.box === boxNone && !hasCustomJsonRepresentation(fp.message)
        ? planOf(fp.message)
        : undefined;
    const isObj = typeof v === "object" && v !== null && !Array.isArray(v);
    let leaf = true;
    if (sub !== undefined && v !== null) {
      at.push(key);
      if (fp.kind === "message" && isObj) {
        const deeper = implied && scan.o.leaves && Object.keys(v).length > 0;
        if (deeper) leaf = false;
        value = scanObject(sub, v as Msg, at, path === undefined ? undefined : path + ".", deeper, scan, depthLeft - 1);
      } else if (fp.kind === "list" && Array.isArray(v)) {
        let copy: unknown[] | undefined;
        for (let i = 0; i < v.length; i++) {
          at.push(i);
          const e = v[i];
          const r =
            typeof e === "object" && e !== null
              ? scanObject(sub, e as Msg, at, undefined, false, scan, depthLeft - 1)
              : e;
          at.pop();
          if (r !== e) (copy ??= v.slice())[i] = r;
        }
        if (copy !== undefined) value = copy;
      } else if (fp.kind === "map" && isObj) {
        let copy: Msg | undefined;
        const mk = Object.keys(v);
        for (let i = 0; i < mk.length; i++) {
          const e = (v as Msg)[mk[i]!];
          at.push(mk[i]!);
          const r =
            typeof e === "object" && e !== null
              ? scanObject(sub, e as Msg, at, undefined, false, scan, depthLeft - 1)
              : e;
          at.pop();
          if (r !== e) copy ??= { ...(v as Msg) };
          if (copy !== undefined) setOwn(copy, mk[i]!, r);
        }
        if (copy !== undefined) value = copy;
      }
      at.pop();
    }
    if (implied && leaf && scan.implied !== undefined && path !== undefined) scan.implied.push(path);
    if (value !== v) out ??= copyBefore(obj, keys, k);
    if (out !== undefined) setOwn(out, key, value);
  }
  return out ?? obj;
}

/** A copy of the members of `obj` before `keys[k]`. */
function copyBefore(obj: Msg, keys: readonly string[], k: number): Msg {
  const out: Msg = {};
  for (let i = 0; i < k; i++) setOwn(out, keys[i]!, obj[keys[i]!]);
  return out;
}

/**
 * The paths (as segments) of an explicit mask's trie without those through output-only fields (an error under
 * `strict`). Below a map field (AIP-161 keys) paths are kept as they are.
 */
function keptPaths(plan: MessagePlan, node: Node, o: Opts): Segment[][] {
  const out: Segment[][] = [];
  const below = (n: Node, at: Segment[]): void => {
    if (n.leaf) {
      out.push(at);
      return;
    }
    if (n.children !== undefined) for (const [k, c] of n.children) below(c, [...at, k]);
    if (n.any !== undefined) below(n.any, [...at, WILD]);
  };
  const visit = (p: MessagePlan, n: Node, at: string[]): void => {
    if (n.children === undefined) return;
    for (const [name, child] of n.children) {
      const fp = p.byName.get(name)!;
      const segs = [...at, name];
      const path = segs.join(".");
      if ((behavior(o, fp, path) & outputOnlyBit) !== 0) {
        if (o.strict) {
          throw new WktJsonError(
            "field-behavior",
            "$",
            "google.protobuf.FieldMask",
            `updateMask path ${JSON.stringify(path)} names the OUTPUT_ONLY field ${fp.name} (strict)`,
          );
        }
        continue;
      }
      if (child.leaf) out.push(segs);
      else if (fp.kind === "message") visit(planOf(fp.message!), child, segs);
      else below(child, segs);
    }
  };
  visit(plan, node, []);
  return out;
}

interface BehaviorWalk {
  o: Opts;
  /** Proto paths of output-only fields inside what the mask replaced, to take from the stored resource. */
  restore: string[];
}

/**
 * Checks AIP-203 on the result where the mask touched it: immutable fields against the stored resource (found
 * through singular message fields; `stored` is undefined inside lists and maps), required fields set, and
 * records output-only fields to restore. `prefix` is the proto path from the root, or undefined inside lists
 * and maps, where the path lists do not reach.
 */
function checkBehavior(
  plan: MessagePlan,
  result: Msg,
  stored: Msg | undefined,
  node: Node | typeof ALL,
  prefix: string | undefined,
  at: PathSegment[],
  walk: BehaviorWalk,
  depthLeft: number,
): void {
  if (depthLeft <= 0)
    throw new WktJsonError("depth", "$", plan.desc.typeName, `messages nest deeper than ${defaultMaxDepth} levels`);
  for (const fp of plan.fields) {
    let child: Node | typeof ALL | undefined;
    if (node === ALL) child = ALL;
    else {
      const c = node.children?.get(fp.name);
      child = c === undefined ? undefined : c.leaf ? ALL : c;
    }
    if (child === undefined) continue;
    const path = prefix === undefined ? undefined : prefix + fp.name;
    const bits = behavior(walk.o, fp, path);
    const jsonAt = (): string => pathJoin("$", ...at, fp.field.jsonName);
    if ((bits & outputOnlyBit) !== 0) {
      if (path !== undefined && stored !== undefined && child === ALL) walk.restore.push(path);
      continue;
    }
    const set = fieldIsSet(fp, result);
    if ((bits & immutableBit) !== 0 && stored !== undefined && fieldIsSet(fp, stored)) {
      if (!set || !fieldValueEquals(fp, fieldGet(fp, result), fieldGet(fp, stored), defaultMaxDepth)) {
        throw new WktJsonError(
          "field-behavior",
          jsonAt(),
          plan.desc.typeName,
          `${fp.name} is IMMUTABLE: it may not change once set`,
        );
      }
    }
    if ((bits & requiredBit) !== 0 && !set) {
      throw new WktJsonError(
        "field-behavior",
        jsonAt(),
        plan.desc.typeName,
        `${fp.name} is REQUIRED: an update may not clear it`,
      );
    }
    if (!set || fp.message === undefined || fp.box !== boxNone) continue;
    const sub = planOf(fp.message);
    const v = fieldGet(fp, result);
    at.push(fp.field.jsonName);
    if (fp.kind === "message") {
      const s = stored !== undefined && fieldIsSet(fp, stored) ? (fieldGet(fp, stored) as Msg) : undefined;
      checkBehavior(sub, v as Msg, s, child, path === undefined ? undefined : path + ".", at, walk, depthLeft - 1);
    } else if (child === ALL && fp.kind === "list") {
      const list = v as Msg[];
      for (let i = 0; i < list.length; i++) {
        at.push(i);
        checkBehavior(sub, list[i]!, undefined, ALL, undefined, at, walk, depthLeft - 1);
        at.pop();
      }
    } else if (fp.kind === "map") {
      const map = v as Record<string, Msg>;
      for (const key of Object.keys(map)) {
        let c: Node | typeof ALL | undefined = ALL;
        if (child !== ALL) {
          const n = child.children?.get(key) ?? child.any;
          c = n === undefined ? undefined : n.leaf ? ALL : n;
        }
        if (c === undefined) continue;
        at.push(key);
        checkBehavior(sub, map[key]!, undefined, c, undefined, at, walk, depthLeft - 1);
        at.pop();
      }
    }
    at.pop();
  }
}
