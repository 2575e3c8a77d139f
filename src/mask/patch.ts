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
 * members of the body are dropped and mask paths naming them ignored (an error under `strict: true`); an
 * immutable field may not change once set; a required field may not be left unset.
 *
 * Errors are our usual ones for the body (its paths from the body's root) and the mask, and rule
 * `field-behavior` for AIP-203, at the JSON path of the field.
 *
 * @module
 */
import { type DescMessage, type JsonObject, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import { hasCustomJsonRepresentation } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { fromJson } from "../codec/from-json.js";
import { stackOverflowAsDepth } from "../codec/depth-errors.js";
import { maxDepthError } from "../internal/depth-error.js";
import { toJson } from "../codec/to-json.js";
import type { JsonWriteOptions } from "../codec/to-json-options.js";
import { setOwn } from "../internal/json-value.js";
import { formatPath, WILD, type Segment } from "../internal/mask-path.js";
import { emptyNode, insertPath, isStar, type Node } from "../internal/mask-trie.js";
import { fieldMaskTypeName } from "../internal/names.js";
import { optionsTypeName } from "../internal/options.js";
import { defaultMaxDepth } from "../limits.js";
import { pathJoin, type PathSegment } from "../path.js";
import { boxNone, checkMessage, fieldsByJsonKey, planOf, type MessagePlan, type Msg } from "../wkt/field-access.js";
import { fieldMaskMerge } from "./field-mask-merge.js";
import { ALL, behavior, checkBehavior, outputOnlyBit, type BehaviorWalk } from "./field-behavior.js";
import { readOptions, type JsonPatchOptions, type Opts, type PatchOptions } from "./patch-options.js";

export type { PatchOptions, JsonPatchOptions } from "./patch-options.js";

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
    // An option's error is about the options, whichever input they were first applied to.
    if (!(e instanceof WktJsonError) || e.typeName === optionsTypeName) throw e;
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
  const scan: BodyScan = { o, implied: o.mask === undefined ? [] : undefined, dropped: false, maxDepth };
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
    touched = emptyNode();
    for (const segs of kept) insertPath(touched, segs);
  }
  const result = fieldMaskMerge(schema, stored, message, paths, {
    replaceMessageFields: true,
    replaceRepeatedFields: true,
    aip161: o.aip161,
  });
  const walk: BehaviorWalk = { lists: o.lists, restore: [] };
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

interface BodyScan {
  o: Opts;
  /** The implied mask's paths, when there is no explicit mask. */
  implied: string[] | undefined;
  /** Whether an output-only member was dropped (the body is decoded again without it). */
  dropped: boolean;
  /** The nesting limit the body was decoded under. */
  maxDepth: number;
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
  if (depthLeft <= 0) throw maxDepthError(plan.desc.typeName, scan.maxDepth);
  const members = fieldsByJsonKey(plan);
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
    if ((behavior(scan.o.lists, fp, path) & outputOnlyBit) !== 0) {
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
      if ((behavior(o.lists, fp, path) & outputOnlyBit) !== 0) {
        if (o.strict) {
          throw new WktJsonError(
            "field-behavior",
            "$",
            fieldMaskTypeName,
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
