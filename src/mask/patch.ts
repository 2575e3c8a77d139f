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
 * AIP-203, `google.api.field_behavior` (OUTPUT_ONLY, IMMUTABLE, REQUIRED): see field-behavior.ts. Output-only
 * members of the body are dropped and mask paths naming them ignored (an error under `strict: true`), and their
 * stored values kept wherever the mask rewrites something above them (a message, `*`, a map entry by its key, a
 * list element by its position); an immutable field may not change once set, by clearing its parent either,
 * nor be set by an update (unless `immutableSetOnce`); a required field may not be left unset or empty.
 *
 * Errors are our usual ones for the body (its paths from the body's root, or from the `path` option: the body
 * of a request that holds it in a member) and the mask (at `maskPath`), and rule `field-behavior` for AIP-203,
 * at the JSON path of the field in the body.
 *
 * @module
 */
import type { DescMessage, JsonObject, JsonValue, MessageShape } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { fromJson, mayHoldRequired, requiredFieldsOf } from "../codec/from-json.js";
import { stackOverflowAsDepth } from "../codec/depth-errors.js";
import { toJson } from "../codec/to-json.js";
import type { JsonWriteOptions } from "../codec/to-json-options.js";
import { atMaskPath } from "../internal/mask-base.js";
import { formatPath, WILD, type Segment } from "../internal/mask-path.js";
import { emptyNode, isEmptyNode, isStar, LEAF, type Node } from "../internal/mask-trie.js";
import { charge, unmetered, workMeter, type WorkMeter } from "../internal/meter.js";
import { fieldMaskTypeName } from "../internal/names.js";
import { optionsTypeName } from "../internal/options.js";
import { defaultMaxDepth } from "../limits.js";
import {
  boxNone,
  checkMessage,
  fieldGet,
  fieldIsSet,
  planOf,
  type FieldAccess,
  type MessagePlan,
  type Msg,
} from "../wkt/field-access.js";
import type { PathSegment } from "../path.js";
import { clientPath } from "./client-path.js";
import { mergeMasked, rejectWildcards, type MergeFlags } from "./field-mask-merge.js";
import {
  ALL,
  behavior,
  behaviorBelow,
  behaviorOfType,
  keepBehavior,
  outputOnlyBit,
  type BehaviorLists,
  type BehaviorWalk,
} from "./field-behavior.js";
import { decodeBodyValue, scanObject, type BodyDecoder, type BodyScan } from "./body-scan.js";
import { atBody, readOptions, type JsonPatchOptions, type Opts, type PatchOptions } from "./patch-options.js";
import { bodyText } from "./body-text.js";

export type { PatchOptions, JsonPatchOptions } from "./patch-options.js";

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Applies a PATCH request body to a stored message (AIP-134) and returns the updated message; neither input is
 * changed. The body is proto3 JSON (what `JSON.parse` gives), decoded and checked first: such a value has
 * already lost the digits of an integer beyond 2^53 (`9007199254740993` is ...992) and the first of two members
 * of the same name; {@link patchFromJsonString} takes the body as it arrived and keeps both. The update mask is
 * `options.updateMask`, else the fields the body holds; masked repeated, map and message fields are replaced.
 * Field behaviour (AIP-203) comes from the descriptor's `google.api.field_behavior` options and from the
 * `outputOnly`, `immutable` and `required` path lists (IDENTIFIER is IMMUTABLE in an update, and its errors
 * say IDENTIFIER): output-only fields of the body are ignored and the stored values kept (also below a replaced
 * message, map entry or list element: a list element is matched by its position), immutable fields may not
 * change once set nor be set by an update (`immutableSetOnce` allows the latter), required fields may not be
 * cleared. Field behaviour is not applied inside an Any's packed message.
 * A refusal's path names each member as the body spelt it (`$.by_key.east.code` for a body that used the proto
 * name).
 *
 * @throws {WktJsonError} the decoder's rules for the body (`json-type`, `unknown-field` unless
 *   `ignoreUnknownFields`, `syntax`, `range`, ...), with paths from the body's root, or from the `path` option
 *   when given (`$.Definition.title`), as every error about the body below; `mask-path` for an update
 *   mask that does not parse or name fields of `schema`, at `$.updateMask` (or `maskPath`), quoting a path of
 *   the JSON form as the client wrote it; `field-behavior` for an immutable field changed
 *   (or cleared with its parent, or set when the stored resource leaves it unset), a required field cleared, or
 *   (under `strict`) an output-only field sent; `json-type` if `stored` is not a
 *   message of `schema`; `range` for a bad option; `required` (unless `allowPartial`) for a result that lacks a
 *   proto2 required field where the update touched it (the mask clears it, or a message the update replaces or
 *   creates lacks it), at that field's path; `depth` for a stored resource nested deeper than
 *   `maxDepth` (or `recursionLimit`, default 100), at the path of its first message past the limit, the
 *   detail starting with "the stored resource".
 * @example
 * const stored = create(BookSchema, { name: "books/1", title: "Dune", tags: ["sf"] });
 * const updated = patch(BookSchema, stored, { title: "Dune Messiah", tags: ["sequel"], name: "x" }, { outputOnly: ["name"] });
 * [updated.name, updated.title, updated.tags]; //=> ["books/1", "Dune Messiah", ["sequel"]]
 * patch(BookSchema, stored, { title: "" }, { required: ["title"] }); // throws WktJsonError (rule "field-behavior", jsonPath "$.title")
 * // The body in the request member "book": errors about it are under "$.book", those about the mask at "$.updateMask".
 * patch(BookSchema, stored, { titel: "x" }, { path: "$.book" }); // throws WktJsonError (rule "unknown-field", jsonPath "$.book.titel")
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
 * field is an error, not a new property, and `{"tags": "x"}` cannot replace a list with a string. A body from
 * `JSON.parse` has lost what {@link jsonPatchFromJsonString} keeps (digits beyond 2^53, a repeated member).
 *
 * @throws {WktJsonError} as {@link patch}; an error in the stored JSON has its own path and a detail that
 *   starts with "the stored resource". A result that lacks a required field where the update touched it is
 *   an error (rule `required`) whatever `allowPartial` says: JSON cannot hold it.
 * @example
 * const stored = { name: "books/1", title: "Dune", author: { givenName: "Frank", familyName: "Herbert" } };
 * jsonPatch(BookSchema, stored, { author: { givenName: "F." } });
 * //=> { name: "books/1", title: "Dune", author: { givenName: "F.", familyName: "Herbert" } }
 * jsonPatch(BookSchema, stored, { titel: "x" }); // throws WktJsonError (rule "unknown-field", jsonPath "$.titel")
 */
export function jsonPatch(
  schema: DescMessage,
  stored: JsonValue,
  body: JsonValue,
  options?: JsonPatchOptions,
): JsonObject {
  return jsonPatchOf(schema, stored, options, (message, o) => run(schema, message, body, o));
}

/**
 * {@link jsonPatch} with the body applied by `apply` to the stored resource decoded: for jsonPatch and its
 * text entry point.
 */
function jsonPatchOf(
  schema: DescMessage,
  stored: JsonValue,
  options: JsonPatchOptions | undefined,
  apply: (message: MessageShape<DescMessage>, o: Opts) => MessageShape<DescMessage>,
): JsonObject {
  // The result is written as JSON: it may not lack a required field, whatever allowPartial says.
  const o = { ...readOptions(schema, options), partial: false, jsonOnly: true };
  let message: MessageShape<DescMessage>;
  try {
    message = fromJson(schema, stored, o.read);
  } catch (e) {
    // An option's error is about the options, whichever input they were first applied to.
    if (!(e instanceof WktJsonError) || e.typeName === optionsTypeName) throw e;
    throw new WktJsonError(e.rule, e.jsonPath, e.typeName, `the stored resource: ${e.detail}`, { cause: e });
  }
  const result = apply(message, o);
  const write: Partial<JsonWriteOptions> = {};
  if (o.read.registry !== undefined) write.registry = o.read.registry;
  for (const name of ["useProtoFieldName", "enumAsInteger", "alwaysEmitImplicit"] as const) {
    const v = options?.[name];
    if (v !== undefined) write[name] = v;
  }
  return toJson(schema, result, write) as JsonObject;
}

/**
 * The PATCH of `stored` by `body` under the read options `o`, the body decoded by `decode`: for {@link patch},
 * {@link jsonPatch} and their text entry points. The errors about the body (its decoding, its members, the
 * field behaviour and required fields of the result, whose paths are the body's) are under the body's base
 * path `o.base`, after `locate` (the text entry points) gave them a line and column; those about the update
 * mask are at `o.maskPath`, those about the stored resource at its own paths.
 *
 * @internal
 */
export function run<Desc extends DescMessage>(
  schema: Desc,
  stored: MessageShape<Desc>,
  body: JsonValue,
  o: Opts,
  decode: BodyDecoder = decodeBodyValue,
  locate?: (e: unknown) => unknown,
): MessageShape<Desc> {
  const base = o.base;
  // The body first, as the decoder reads it: every error has its path from the body's root.
  let message = atBody(base, () => decode(schema, body, o), locate) as MessageShape<Desc>;
  const plan = planOf(schema);
  const maxDepth = o.read.maxDepth ?? o.read.recursionLimit ?? defaultMaxDepth;
  const m = workMeter(schema.typeName, o.maskUnits);
  // The implied mask is built as a trie while the body is walked: no path string per field per level.
  const implied = o.mask === undefined ? emptyNode() : undefined;
  const scan: BodyScan = { o, dropped: false, maxDepth, m };
  const cleaned = atBody(
    base,
    () => {
      try {
        return scanObject(plan, body as Msg, [], o.lists, implied, scan, maxDepth);
      } catch (e) {
        throw stackOverflowAsDepth(e, schema.typeName, maxDepth);
      }
    },
    locate,
  );
  if (scan.dropped) message = atBody(base, () => decode(schema, cleaned as JsonValue, o), locate) as MessageShape<Desc>;

  let mask: Node;
  let touched: Node | typeof ALL;
  if (o.mask !== undefined && (o.mask.leaf || isStar(o.mask))) {
    // checkedTrie gives the lone `*` as the whole message (a leaf at the root).
    mask = LEAF;
    touched = ALL;
  } else {
    mask = o.mask !== undefined ? keptTrie(plan, o.mask, o, m) : implied!;
    touched = mask;
  }
  const replace: MergeFlags = { replaceMessage: true, replaceRepeated: true };
  // The stored resource is copied within the call's depth limit; a `depth` error names where it nests too deep.
  const names = { target: "the stored resource", source: "the body" };
  let result: Msg;
  try {
    result = mergeMasked(plan, stored as unknown as Msg, message as unknown as Msg, mask, replace, m, maxDepth, names);
  } catch (e) {
    throw stackOverflowAsDepth(e, schema.typeName, maxDepth);
  }
  // Types without field behaviour (none in the descriptor, no path lists) skip the walk.
  if (behaviorOfType(schema) !== 0 || o.lists.children !== undefined) {
    const free = unmetered(schema.typeName);
    const walk: BehaviorWalk = { m, free, setOnce: o.setOnce, cleared: -1, root: plan, body, star: touched === ALL };
    // Its errors name members of the body (as the client spelt them): under the body's base.
    atBody(
      base,
      () => {
        try {
          keepBehavior(plan, result, stored as unknown as Msg, touched, o.lists, [], walk, 0, maxDepth);
        } catch (e) {
          throw stackOverflowAsDepth(e, schema.typeName, maxDepth);
        }
      },
      locate,
    );
  }
  // JSON we accept must be writable: the result may not lack a required field where the update touched it.
  if (!o.partial && mayHoldRequired(schema)) {
    const check: RequiredCheck = { m, root: plan, body, jsonOnly: o.jsonOnly };
    atBody(
      base,
      () => {
        try {
          requiredTouched(plan, result, stored as unknown as Msg, touched, [], check, maxDepth);
        } catch (e) {
          throw stackOverflowAsDepth(e, schema.typeName, maxDepth);
        }
      },
      locate,
    );
  }
  return result as unknown as MessageShape<Desc>;
}

/** The state of {@link requiredTouched}. */
interface RequiredCheck {
  m: WorkMeter;
  /** The root's plan and the body as the client sent it: the error's path names the body's keys. */
  root: MessagePlan;
  body: unknown;
  /** jsonPatch: the result is written as JSON, so allowPartial cannot help. */
  jsonOnly: boolean;
}

/**
 * Throws rule `required` where the result of a PATCH leaves a proto2 required field unset where the update
 * touched it (`node`, {@link ALL} for a value it wrote whole): a field the mask names, and every message the
 * update replaced (a masked message, list or map of messages, from the body) or created (one the stored
 * resource lacks, which the mask goes into). Messages the mask only goes through are not checked beyond the
 * fields it names. A step per message visited and per field the mask names.
 */
function requiredTouched(
  plan: MessagePlan,
  result: Msg,
  stored: Msg | undefined,
  node: Node | typeof ALL,
  at: PathSegment[],
  check: RequiredCheck,
  depthLeft: number,
): void {
  if (node === ALL || stored === undefined) return requiredWhole(plan, result, at, check, depthLeft);
  if (depthLeft <= 0 || node.children === undefined) return;
  charge(check.m, node.children.size);
  for (const [name, child] of node.children) {
    const fp = plan.byName.get(name)!;
    const set = fieldIsSet(fp, result);
    if (child.leaf) {
      if (!set && isRequired(plan, fp)) {
        throw requiredError(fp, [...at, fp.field.jsonName], check, true);
      }
      if (set && fp.message !== undefined && fp.box === boxNone && mayHoldRequired(fp.message)) {
        at.push(fp.field.jsonName);
        requiredValue(fp, fieldGet(fp, result), at, check, depthLeft);
        at.pop();
      }
      continue;
    }
    if (!set || fp.message === undefined || fp.box !== boxNone || !mayHoldRequired(fp.message)) continue;
    const sub = planOf(fp.message);
    at.push(fp.field.jsonName);
    if (fp.kind === "map") {
      // AIP-161 keys: an entry the mask names whole, or one the stored map lacks, is checked whole.
      const map = fieldGet(fp, result) as Msg;
      const old = fieldIsSet(fp, stored) ? (fieldGet(fp, stored) as Msg) : undefined;
      for (const [key, entry] of child.children ?? []) {
        if (!hasOwn.call(map, key)) continue;
        at.push(key);
        const s = old !== undefined && hasOwn.call(old, key) ? (old[key] as Msg) : undefined;
        requiredTouched(sub, map[key] as Msg, s, entry.leaf ? ALL : entry, at, check, depthLeft - 1);
        at.pop();
      }
    } else {
      const s = fieldIsSet(fp, stored) ? (fieldGet(fp, stored) as Msg) : undefined;
      requiredTouched(sub, fieldGet(fp, result) as Msg, s, child, at, check, depthLeft - 1);
    }
    at.pop();
  }
}

/** Every required field of a message the update wrote whole, and of the messages below it. */
function requiredWhole(plan: MessagePlan, msg: Msg, at: PathSegment[], check: RequiredCheck, depthLeft: number): void {
  if (depthLeft <= 0 || !mayHoldRequired(plan.desc)) return;
  charge(check.m, 1);
  const required = requiredFieldsOf(plan.desc);
  if (required !== undefined) {
    for (const f of required) {
      const fp = plan.byNumber.get(f.number)!;
      if (!fieldIsSet(fp, msg)) throw requiredError(fp, [...at, f.jsonName], check, false);
    }
  }
  for (const fp of plan.fields) {
    if (fp.message === undefined || fp.box !== boxNone || !fieldIsSet(fp, msg) || !mayHoldRequired(fp.message))
      continue;
    at.push(fp.field.jsonName);
    requiredValue(fp, fieldGet(fp, msg), at, check, depthLeft);
    at.pop();
  }
}

/** {@link requiredWhole} of a message field's value: the message, each element of a list, each map value. */
function requiredValue(fp: FieldAccess, v: unknown, at: PathSegment[], check: RequiredCheck, depthLeft: number): void {
  const sub = planOf(fp.message!);
  if (fp.kind === "list") {
    const list = v as Msg[];
    charge(check.m, list.length);
    for (let i = 0; i < list.length; i++) {
      at.push(i);
      requiredWhole(sub, list[i]!, at, check, depthLeft - 1);
      at.pop();
    }
  } else if (fp.kind === "map") {
    const map = v as Msg;
    const keys = Object.keys(map);
    charge(check.m, keys.length);
    for (const key of keys) {
      at.push(key);
      requiredWhole(sub, map[key] as Msg, at, check, depthLeft - 1);
      at.pop();
    }
  } else {
    requiredWhole(sub, v as Msg, at, check, depthLeft - 1);
  }
}

function isRequired(plan: MessagePlan, fp: FieldAccess): boolean {
  const required = requiredFieldsOf(plan.desc);
  return required !== undefined && required.includes(fp.field);
}

/** Rule `required` at the field's path as the body spells it, saying how the update left it unset. */
function requiredError(fp: FieldAccess, at: PathSegment[], check: RequiredCheck, masked: boolean): WktJsonError {
  const how = masked
    ? `the update clears the required field ${fp.name}: the update mask (given, or implied by the body) names it ` +
      `and the body gives it no value`
    : `the required field ${fp.name} is missing from a message the update replaces or creates`;
  const fix = check.jsonOnly
    ? "send a value for it (jsonPatch writes its result as JSON, which needs it)"
    : "send a value for it (allowPartial accepts a result without it)";
  return new WktJsonError(
    "required",
    clientPath(check.root, check.body, at),
    fp.field.parent.typeName,
    `${how}; ${fix}`,
  );
}

/**
 * An explicit mask's trie without the paths through output-only fields (an error under `strict`), checked for
 * `*` (an update mask names what it changes). Below a map field of messages the AIP-161 keys are kept and the
 * paths into each entry's message go through the same check (`branches.east.create_time` names an output-only
 * field as `location.verify_time` does). A step per node of the mask.
 */
function keptTrie(plan: MessagePlan, mask: Node, o: Opts, m: WorkMeter): Node {
  const at: Segment[] = [];
  const visit = (p: MessagePlan, n: Node, lists: BehaviorLists | undefined): Node => {
    const out = emptyNode();
    if (n.children === undefined) return out;
    charge(m, n.children.size);
    for (const [name, child] of n.children) {
      const fp = p.byName.get(name)!;
      at.push(name);
      if ((behavior(lists, fp) & outputOnlyBit) !== 0) {
        if (o.strict) {
          throw new WktJsonError(
            "field-behavior",
            o.maskPath,
            fieldMaskTypeName,
            `updateMask path ${JSON.stringify(formatPath(at))} names the OUTPUT_ONLY field ${fp.name}, which a ` +
              `request may not set (strict); take the path out of the mask`,
          );
        }
      } else if (child.leaf || fp.message === undefined || fp.kind === "list") {
        (out.children ??= new Map()).set(name, child);
      } else if (fp.kind === "map") {
        const c = fp.box === boxNone ? entries(planOf(fp.message), child) : child;
        if (!isEmptyNode(c)) (out.children ??= new Map()).set(name, c);
      } else {
        const c = visit(planOf(fp.message), child, behaviorBelow(lists, fp));
        if (!isEmptyNode(c)) (out.children ??= new Map()).set(name, c);
      }
      at.pop();
    }
    return out;
  };
  // The keys of a map of messages in the mask (`*` is refused below), each entry's paths checked as a message's.
  const entries = (value: MessagePlan, n: Node): Node => {
    const out: Node = { ...n, children: undefined };
    if (n.children === undefined) return out;
    charge(m, n.children.size);
    for (const [key, entry] of n.children) {
      at.push(key);
      const c = entry.leaf ? entry : visit(value, entry, undefined);
      if (!isEmptyNode(c)) (out.children ??= new Map()).set(key, c);
      at.pop();
    }
    return out;
  };
  const kept = visit(plan, mask, o.lists);
  atMaskPath(o.maskPath, () => rejectTrieWildcards(kept, m));
  return kept;
}

/** `*` in a kept update mask: the error of field-mask-merge.ts, naming the first path (in order) that has one. */
function rejectTrieWildcards(trie: Node, m: WorkMeter): void {
  const segs: Segment[] = [];
  const walk = (n: Node, wild: boolean): void => {
    charge(m, 1);
    if (n.leaf) {
      if (wild) rejectWildcards([segs], [formatPath(segs)]);
      return;
    }
    if (n.children !== undefined) {
      for (const [k, c] of n.children) {
        segs.push(k);
        walk(c, wild);
        segs.pop();
      }
    }
    if (n.any !== undefined) {
      segs.push(WILD);
      walk(n.any, true);
      segs.pop();
    }
  };
  walk(trie, false);
}

/**
 * {@link patch} of the request body as it arrived: the text is parsed once, keeping every digit of a 64-bit
 * integer (`9007199254740993` exact in an int64 field) and refusing a repeated member (`duplicate-field`; a
 * value from `JSON.parse` has lost both), and every error about the body carries the `line` and `column` of the
 * member its path names (for a member the body lacks: of the object that would hold it). Errors about the
 * update mask or the options have no position.
 *
 * @throws {WktJsonError} as {@link patch}, plus `syntax` for text that is not JSON, `duplicate-field` for a
 *   repeated member, `size` beyond `maxLength`.
 * @example
 * const stored = create(BookSchema, { name: "books/1", title: "Dune" });
 * patchFromJsonString(BookSchema, stored, '{"title": "Dune Messiah"}').title; //=> "Dune Messiah"
 * patchFromJsonString(BookSchema, stored, '{\n  "title": "",\n  "title": "x"\n}'); // throws WktJsonError (rule "duplicate-field", jsonPath "$.title", line 3, column 3)
 * // A JSON document sent in the form field "Definition": errors about it are under it, line and column kept.
 * patchFromJsonString(BookSchema, stored, '{"title": 1}', { path: "$.Definition" });
 * // throws WktJsonError (jsonPath "$.Definition.title", path ["Definition", "title"], line 1, column 11)
 */
export function patchFromJsonString<Desc extends DescMessage>(
  schema: Desc,
  stored: MessageShape<Desc>,
  text: string,
  options?: PatchOptions,
): MessageShape<Desc> {
  checkMessage(schema, stored, "stored");
  const o = readOptions(schema, options);
  return runText(schema, stored, text, options, o);
}

/**
 * {@link jsonPatch} of the request body as it arrived (the stored resource is a JSON value, the body is text):
 * the body parsed as {@link patchFromJsonString} parses it, the result proto3 JSON as jsonPatch writes it.
 *
 * @throws {WktJsonError} as {@link jsonPatch} and {@link patchFromJsonString}; only errors about the body have
 *   a line and column.
 * @example
 * const stored = { name: "books/1", title: "Dune", author: { givenName: "Frank", familyName: "Herbert" } };
 * jsonPatchFromJsonString(BookSchema, stored, '{"author": {"givenName": "F."}}').author;
 * //=> { givenName: "F.", familyName: "Herbert" }
 * jsonPatchFromJsonString(BookSchema, stored, '{\n  "titel": "x"\n}'); // throws WktJsonError (rule "unknown-field", jsonPath "$.titel", line 2, column 12)
 */
export function jsonPatchFromJsonString(
  schema: DescMessage,
  stored: JsonValue,
  text: string,
  options?: JsonPatchOptions,
): JsonObject {
  return jsonPatchOf(schema, stored, options, (message, o) => runText(schema, message, text, options, o));
}

/** `run` on a body given as text: parsed once, decoded by the text decoder, its errors placed in the text. */
function runText<Desc extends DescMessage>(
  schema: Desc,
  stored: MessageShape<Desc>,
  text: string,
  options: PatchOptions | undefined,
  o: Opts,
): MessageShape<Desc> {
  const body = bodyText(text, options, o.base);
  return run(schema, stored, body.value, o, body.decode, body.locate);
}
