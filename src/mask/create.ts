/**
 * Create requests (AIP-133) with AIP-203 field behaviour for creation: a request body decoded into the new
 * resource, without what the server owns and with what the client must give.
 *
 * AIP-133: "The request message must include a field for the resource" (the body, in proto3 JSON). AIP-203,
 * `google.api.field_behavior`, read from each field's options (extension 1052 of google.protobuf.FieldOptions)
 * or given as lists of paths, as PATCH reads them (field-behavior.ts):
 *
 * - OUTPUT_ONLY: "including the field in a request does nothing (the server must clear out any value in this
 *   field and must not throw an error as a result of the presence of a value)". Such members of the body are
 *   dropped, at every depth (in messages the body sets, list elements and map values, where the descriptor's
 *   options apply; the path lists name fields through singular message fields); with `strict: true` each is
 *   an error instead.
 * - REQUIRED: "the field must be present (and set to a non-empty value)"; a message "is present if it has at
 *   least one field that is not at its default value" (`requiredPresent`). Checked in the resource and in
 *   every message the body sets (list elements and map values too), after the output-only members are gone.
 * - IMMUTABLE: "may be set in a request to create a resource, but may not be changed thereafter": may be set.
 * - IDENTIFIER (the resource's `name`): "not accepted as input (i.e. OUTPUT_ONLY) in the context of a create
 *   method" (AIP-203; field_behavior.proto: "for Create methods name is optional and unused"): dropped as an
 *   OUTPUT_ONLY member is (refused under `strict`). The server names the resource (AIP-133: a user-chosen ID
 *   comes in the request's `{resource}_id` field, not in the body).
 *
 * Errors are the decoder's for the body (its paths from the body's root, or from the `path` option), and rule
 * `field-behavior` at the JSON path of the member as the client named it (the JSON name for a member the body
 * lacks).
 *
 * @module
 */
import type { DescMessage, JsonValue, MessageShape } from "@bufbuild/protobuf";
import { hasCustomJsonRepresentation } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { stackOverflowAsDepth } from "../codec/depth-errors.js";
import { maxDepthError } from "../internal/depth-error.js";
import { charge, workMeter, type WorkMeter } from "../internal/meter.js";
import { mapKeyFromJson } from "../internal/scalar.js";
import { defaultMaxDepth } from "../limits.js";
import { pathJoin, type PathSegment } from "../path.js";
import {
  boxNone,
  fieldGet,
  fieldIsSet,
  planOf,
  type FieldAccess,
  type MessagePlan,
  type Msg,
} from "../wkt/field-access.js";
import { decodeBodyValue, scanObject, type BodyDecoder, type BodyScan } from "./body-scan.js";
import { bodyText } from "./body-text.js";
import {
  behavior,
  behaviorBelow,
  behaviorOfType,
  identifierBit,
  outputOnlyBit,
  requiredBit,
  requiredPresent,
  type BehaviorLists,
} from "./field-behavior.js";
import { atBody, bodyError, readOptions, type Opts, type PatchOptions } from "./patch-options.js";

/**
 * Options of {@link createFromJson}: the decoder's options for the body (with its base `path`, under which every
 * error is reported), and field behaviour as {@link patch} takes it (`outputOnly`, `immutable` and `required`
 * path lists, `strict`).
 */
export type CreateOptions = Omit<
  PatchOptions,
  "updateMask" | "impliedMask" | "aip161" | "immutableSetOnce" | "maskPath"
>;

/**
 * Decodes a create request's body (AIP-133) into the new resource, with AIP-203's rules for creation: OUTPUT_ONLY
 * members the client sent are dropped (`strict: true`: refused), at every depth, and so is the IDENTIFIER
 * (`name`: the server names the resource); REQUIRED fields must be present, in the resource and in every
 * message the body sets (a message counts when one of its fields is not at its default); IMMUTABLE fields may
 * be set. Behaviour comes from the fields'
 * `google.api.field_behavior` options and from the `outputOnly`, `required` and `immutable` path lists.
 *
 * The body is a JSON value: one from `JSON.parse` has already lost the digits of an integer beyond 2^53
 * (`9007199254740993` is ...992) and the first of two members of the same name. {@link createFromJsonString}
 * takes the body as it arrived and keeps both, with errors that carry line and column.
 *
 * @throws {WktJsonError} the decoder's rules for the body (`json-type`, `unknown-field` unless
 *   `ignoreUnknownFields`, `syntax`, `range`, ...), with paths from the body's root (from the `path` option when
 *   given, as every error below: `$.Definition.title`); `field-behavior` for a
 *   REQUIRED field missing (at the JSON path the client would use: `$.author.givenName`) or, under `strict`, an
 *   OUTPUT_ONLY member sent (at its path); `required` for a proto2 required field left out, at any depth, as
 *   `fromJson` reads (unless `allowPartial`); `depth` and `size` beyond the limits; `range` for a bad option.
 * @example
 * const book = createFromJson(BookSchema, { title: "Dune", createTime: "2020-01-01T00:00:00Z" }, { outputOnly: ["create_time"], required: ["title"] });
 * [book.title, book.createTime]; //=> ["Dune", undefined]
 * createFromJson(BookSchema, { tags: ["sf"] }, { required: ["title"] }); // throws WktJsonError (rule "field-behavior", jsonPath "$.title")
 */
export function createFromJson<Desc extends DescMessage>(
  schema: Desc,
  body: JsonValue,
  options?: CreateOptions,
): MessageShape<Desc> {
  const o = readCreateOptions(schema, options);
  return createRun(schema, body, o);
}

/**
 * {@link createFromJson} of the request body as it arrived: the text is parsed once, keeping every digit of a
 * 64-bit integer (`9007199254740993` exact in an int64 field) and refusing a repeated member (`duplicate-field`),
 * and every error carries the `line` and `column` of the member it names (for a REQUIRED member the body lacks:
 * of the object that lacks it).
 *
 * @throws {WktJsonError} as {@link createFromJson}, plus `syntax` for text that is not JSON, `duplicate-field`
 *   for a repeated member, `size` beyond `maxLength`.
 * @example
 * const book = createFromJsonString(BookSchema, '{"title": "Dune", "createTime": "2020-01-01T00:00:00Z"}', { outputOnly: ["create_time"] });
 * [book.title, book.createTime]; //=> ["Dune", undefined]
 * createFromJsonString(BookSchema, '{\n  "tags": []\n}', { required: ["title"] }); // throws WktJsonError (rule "field-behavior", jsonPath "$.title", line 1, column 1)
 * // A JSON document sent in the form field "Definition": errors are under it, line and column kept.
 * createFromJsonString(BookSchema, '{"title": 1}', { path: "$.Definition" });
 * // throws WktJsonError (jsonPath "$.Definition.title", path ["Definition", "title"], line 1, column 11)
 */
export function createFromJsonString<Desc extends DescMessage>(
  schema: Desc,
  text: string,
  options?: CreateOptions,
): MessageShape<Desc> {
  const o = readCreateOptions(schema, options);
  const body = bodyText(text, options, o.base);
  return createRun(schema, body.value, o, undefined, body.decode, body.locate);
}

/**
 * Checks and reads the options of a create request: those of PATCH without the update's own (the update mask's,
 * `immutableSetOnce`), which a create request has no use for and which are ignored.
 *
 * @internal
 */
export function readCreateOptions(schema: DescMessage, options: CreateOptions | undefined): Opts {
  let o: Opts;
  if (options === undefined || typeof options !== "object" || options === null) o = readOptions(schema, options);
  else {
    const {
      updateMask: _m,
      impliedMask: _i,
      aip161: _a,
      immutableSetOnce: _s,
      maskPath: _p,
      ...own
    } = options as PatchOptions;
    o = readOptions(schema, own);
  }
  // A create body is the whole resource, which could not be written without its proto2 required fields: unlike
  // a PATCH body, it may leave them out only under allowPartial, as fromJson reads.
  return { ...o, read: { ...o.read, allowPartial: options?.allowPartial === true } };
}

/**
 * The create request `body` under the read options `o`, decoded by `decode` (default: `fromJson`, for a JSON
 * value): for {@link createFromJson}, its text entry point and `standardSchema`'s create mode. With `issues`,
 * field-behaviour problems are pushed there (the walk goes on past them) instead of thrown; the decoder's
 * errors are thrown all the same. Every error and issue (all are about the body) is under the body's base path
 * `o.base`, after `locate` (the text entry point) gave it a line and column; those about the options at `$`.
 *
 * @internal
 */
export function createRun<Desc extends DescMessage>(
  schema: Desc,
  body: JsonValue,
  o: Opts,
  issues?: WktJsonError[],
  decode: BodyDecoder = decodeBodyValue,
  locate?: (e: unknown) => unknown,
): MessageShape<Desc> {
  const from = issues?.length ?? 0;
  const message = atBody(o.base, () => createWalk(schema, body, o, issues, decode), locate);
  if (issues !== undefined && (o.base !== "$" || locate !== undefined)) {
    for (let i = from; i < issues.length; i++) issues[i] = bodyError(issues[i], o.base, locate) as WktJsonError;
  }
  return message;
}

/** {@link createRun} with the paths of its errors and issues from the body's root. */
function createWalk<Desc extends DescMessage>(
  schema: Desc,
  body: JsonValue,
  o: Opts,
  issues: WktJsonError[] | undefined,
  decode: BodyDecoder,
): MessageShape<Desc> {
  // The body first, as the decoder reads it: every error has its path from the body's root.
  let message = decode(schema, body, o) as unknown as Msg;
  // A well-known type with its own JSON form (a Timestamp, a Struct, ...) has no field behaviour to apply, nor
  // has a type whose descriptor gives none when no path list is given: both cost nothing more than decoding.
  if (hasCustomJsonRepresentation(schema) || (behaviorOfType(schema) === 0 && o.lists.children === undefined)) {
    return message as unknown as MessageShape<Desc>;
  }
  const plan = planOf(schema);
  const maxDepth = o.read.maxDepth ?? o.read.recursionLimit ?? defaultMaxDepth;
  const m = workMeter(schema.typeName);
  const scan: BodyScan = { o, dropped: false, maxDepth, m, issues, drop: createDrops };
  let cleaned: Msg;
  try {
    cleaned = scanObject(plan, body as Msg, [], o.lists, undefined, scan, maxDepth);
    if (scan.dropped) message = decode(schema, cleaned as JsonValue, o) as unknown as Msg;
    checkRequired(plan, message, cleaned, o.lists, [], { m, issues, maxDepth }, maxDepth);
  } catch (e) {
    throw stackOverflowAsDepth(e, schema.typeName, maxDepth);
  }
  return message as unknown as MessageShape<Desc>;
}

/** What a create request drops from its body: OUTPUT_ONLY and IDENTIFIER members (AIP-203). */
const createDrops = outputOnlyBit | identifierBit;

interface RequiredWalk {
  m: WorkMeter;
  issues: WktJsonError[] | undefined;
  maxDepth: number;
}

/**
 * Checks the REQUIRED fields of a message of the body (`msg`, decoded from `json`, its object in the body
 * without output-only members) and goes into the messages it sets: singular message fields, list elements and
 * map values. `lists` is the path lists' node of the message (undefined inside lists and maps). `at` is the
 * path of `json` by the keys the client sent. A step per message (and per map entry), as patch's walk
 * charges; the loop over a message's fields is bounded by the decoder's budget, which charged each of them.
 */
function checkRequired(
  plan: MessagePlan,
  msg: Msg,
  json: Msg,
  lists: BehaviorLists | undefined,
  at: PathSegment[],
  walk: RequiredWalk,
  depthLeft: number,
): void {
  // Not reached: the body was decoded under the same maxDepth. A guard all the same.
  if (depthLeft <= 0) throw maxDepthError(plan.desc.typeName, walk.maxDepth);
  charge(walk.m, 1);
  for (const fp of plan.fields) {
    const bits = behavior(lists, fp);
    if ((bits & createDrops) !== 0) continue; // dropped from the body: unset
    if ((bits & requiredBit) !== 0 && !requiredPresent(fp, msg, walk.m, depthLeft)) {
      const e = new WktJsonError(
        "field-behavior",
        pathJoin("$", ...at, keyOf(fp, json) ?? fp.field.jsonName),
        plan.desc.typeName,
        `${fp.name} is REQUIRED: a create request must set it`,
      );
      if (walk.issues === undefined) throw e;
      walk.issues.push(e);
      continue;
    }
    const sub = fp.message;
    if (sub === undefined || fp.box !== boxNone || hasCustomJsonRepresentation(sub) || !fieldIsSet(fp, msg)) continue;
    const below = fp.kind === "message" ? behaviorBelow(lists, fp) : undefined;
    // No REQUIRED field below (behaviorOfType; the path lists reach only through singular message fields).
    if (below === undefined && (behaviorOfType(sub) & requiredBit) === 0) continue;
    const key = keyOf(fp, json);
    if (key === undefined) continue; // not from the body (a default the decoder gave): nothing the client sent
    const p = planOf(sub);
    const v = fieldGet(fp, msg);
    const jv = json[key];
    at.push(key);
    if (fp.kind === "message") {
      checkRequired(p, v as Msg, jv as Msg, below, at, walk, depthLeft - 1);
    } else if (fp.kind === "list") {
      const list = v as Msg[];
      const jl = jv as Msg[];
      for (let i = 0; i < list.length; i++) {
        at.push(i);
        checkRequired(p, list[i]!, jl[i]!, undefined, at, walk, depthLeft - 1);
        at.pop();
      }
    } else if (fp.kind === "map") {
      const map = v as Record<string, Msg>;
      const jm = jv as Record<string, Msg>;
      for (const k of Object.keys(jm)) {
        const entry = map[mapKeyFromJson(fp.mapKey!, k)];
        if (entry === undefined) continue;
        at.push(k);
        checkRequired(p, entry, jm[k]!, undefined, at, walk, depthLeft - 1);
        at.pop();
      }
    }
    at.pop();
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The key by which the body's object names the field (its JSON name or its proto name), if it has it. */
function keyOf(fp: FieldAccess, json: Msg): string | undefined {
  const jsonName = fp.field.jsonName;
  if (hasOwn.call(json, jsonName)) return jsonName;
  return hasOwn.call(json, fp.name) ? fp.name : undefined;
}
