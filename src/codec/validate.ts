/**
 * Collect-all validation of proto3 JSON, for tools and editors: every problem of an input (rule, JSON path,
 * and for text the line and column), where {@link fromJson} stops at the first. An input has no issues
 * exactly when `fromJson` (or `fromJsonString`) accepts it.
 *
 * The walk follows the decoder step by step (the same checks, in the same order, with the same depth
 * counting) and keeps going past a problem: every bad member of a message, every bad list item and map entry,
 * the contents of Any, Struct, Value and ListValue. Leaves (scalars, enums, Timestamp, Duration, FieldMask,
 * wrappers, Empty) are read by the decoder's own compiled readers, so each rule exists once. A value that is
 * wrong as a whole (an object where a string belongs) is one issue; nothing below it is looked at.
 *
 * From text, a key repeated in one object is reported for each repeat (the first member's value is the one
 * checked); malformed text ends the walk where it stops making sense, with one `syntax` issue.
 *
 * @module
 */
import { create, type DescField, type DescMessage, type JsonValue, type ScalarType } from "@bufbuild/protobuf";
import { AnySchema, isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { isWktJsonError, WktJsonError, type WktJsonIssue, type WktRule } from "../errors.js";
import {
  anyEmpty,
  anyEmptyNotObject,
  anyExtraMember,
  anyFormLegacyEmpty,
  anyFormValue,
  anyJsonError,
  anyJsonForm,
  anyJsonHead,
  anyNoValue,
  anyValueFormKey,
  checkNoAtTypeField,
} from "../wkt/any-json-form.js";
import {
  compileValue,
  fieldCost,
  listItemCost,
  mapEntryCost,
  memberCharge,
  messageEnterCost,
  readerFor,
  requiredFieldsOf,
  requiredMissingError,
} from "./from-json.js";
import { zeroMessageCost } from "./zero-message.js";
import { nullIsValue, structIsPlainJson, wrapperIsUnboxed } from "../internal/field-form.js";
import { maxDepthError } from "../internal/depth-error.js";
import { stackOverflowAsDepth, textDepthAsMaxDepth } from "./depth-errors.js";
import { extensionAsField } from "./extension-field.js";
import {
  extensionOfKey,
  fieldKeys,
  givenBefore,
  givenTwiceError,
  unknownFieldError,
  type FieldKey,
} from "./field-keys.js";
import {
  makeContext,
  skipped,
  textParseOptions,
  type JsonReadOptions,
  type ReadContext,
  type ValueReader,
} from "./read-context.js";
import { describe } from "../internal/describe.js";
import { earned, extensionCost, structCost, unlimitedBudget, valueCost, valuesError } from "../internal/budget.js";
import {
  anyTypeName,
  durationTypeName,
  emptyTypeName,
  fieldMaskTypeName,
  listValueTypeName,
  structTypeName,
  timestampTypeName,
  valueTypeName,
} from "../internal/names.js";
import { countOption, optionsTypeName } from "../internal/options.js";
import { basePathOf } from "../internal/base-path.js";
import { notFiniteLiteralDetail } from "../internal/not-finite.js";
import { isLongPath, issuePath, pathFormat, type PathFormat } from "../internal/issue-path.js";
import { wktJsonToBinaryFast } from "../internal/wkt-binary.js";
import {
  jsonPathSegments,
  lineColumns,
  locateJsonPaths,
  numberLiteralAt,
  parseJsonText,
  parseJsonTextStrict,
  takeInexactIntegers,
  type InexactIntegers,
  type JsonTextDuplicate,
} from "./json-text.js";
import { inexactDetail, inexactMarked } from "./inexact-integers.js";
import { copyJsonObject, copyValue, jsonCopyCharge, setOwn } from "../internal/json-value.js";
import { literalRangeDetail, mapKeyFromJson } from "../internal/scalar.js";
import { isWellFormed } from "../internal/utf16.js";
import type { PathSegment } from "../path.js";
import { anyJsonTarget } from "./any-fallback.js";
import { reservedKeys } from "./reserved-names.js";
import {
  listCharge,
  listValueFromJsonInternal,
  structFromJsonInternal,
  structMemberCharge,
  valueFromJsonInternal,
} from "../wkt/struct-decode.js";

export type { WktJsonIssue } from "../errors.js";

/**
 * An issue as the walk records it: its path as segments relative to the value validated (the input's own keys,
 * shared), made into a {@link WktJsonIssue} once its detail, line and column are final ({@link publicIssues}).
 */
interface Found {
  rule: WktRule;
  segments: readonly PathSegment[];
  typeName: string;
  detail: string;
  line?: number;
  column?: number;
}

/** Options of {@link validateJson} and {@link validateJsonString}: those of the decoder, plus a cap. */
export interface ValidateJsonOptions extends JsonReadOptions {
  /** Most issues reported; the walk stops at this many. Default {@link validateMaxIssuesDefault}. */
  maxIssues: number;
}

/** Default of {@link ValidateJsonOptions.maxIssues}: plenty for people, and a bound on hostile input. */
export const validateMaxIssuesDefault = 1000;

/**
 * Lists every problem of a proto3 JSON value (what `JSON.parse` returns) for a message type, in the order the
 * decoder meets them; empty exactly when {@link fromJson} accepts the value.
 *
 * @throws {WktJsonError} rule `range` for an invalid `maxDepth`, `maxValues`, `maxIssues` or `path` option, `json-type`
 *   for a `registry` that is not a Registry; never for the input (beyond `maxValues`, the walk ends with a `size`
 *   issue).
 * @example
 * validateJson(TestSchema, { optionalInt32: "x", repeatedTimestamp: ["2024-02-30T00:00:00Z"], bogus: 1 });
 * //=> [{ rule: "syntax", jsonPath: "$.optionalInt32", path: ["optionalInt32"], ... },
 * //    { rule: "range", jsonPath: "$.repeatedTimestamp[0]", path: ["repeatedTimestamp", 0], ... },
 * //    { rule: "unknown-field", jsonPath: "$.bogus", path: ["bogus"], ... }]
 */
export function validateJson(
  schema: DescMessage,
  json: JsonValue,
  options?: Partial<ValidateJsonOptions>,
): WktJsonIssue[] {
  const ctx = makeContext(options, false);
  const max = maxIssuesOf(options);
  const base = basePathOf(options, optionsTypeName);
  const format = pathFormat();
  const walk = new Walk(ctx, max);
  withoutStacks(() => walk.root(schema, json));
  return publicIssues(walk.issues, base, format);
}

/**
 * Lists every problem of a proto3 JSON text for a message type, each with its line and column, sorted by
 * position; empty exactly when {@link fromJsonString} accepts the text.
 *
 * @throws {WktJsonError} rule `range` for an invalid `maxDepth`, `maxLength`, `maxValues`, `maxIssues` or
 *   `path` option, `json-type` for a `registry` that is not a Registry; never for the input (beyond `maxValues`, the
 *   walk ends with a `size` issue).
 * @example
 * validateJsonString(TestSchema, '{\n  "optionalInt32": "x",\n  "optionalInt32": 2\n}');
 * //=> [{ rule: "syntax", jsonPath: "$.optionalInt32", line: 2, column: 20, ... },
 * //    { rule: "duplicate-field", jsonPath: "$.optionalInt32", line: 3, column: 3, ... }]
 * validateJsonString(TestSchema, '{"optionalInt32": "x"}', { path: "$.Definition" })[0]?.jsonPath;
 * //=> "$.Definition.optionalInt32"
 */
export function validateJsonString(
  schema: DescMessage,
  text: string,
  options?: Partial<ValidateJsonOptions>,
): WktJsonIssue[] {
  const ctx = makeContext(options, true);
  const max = maxIssuesOf(options);
  const base = basePathOf(options, optionsTypeName);
  const parseOptions = textParseOptions(ctx.maxDepth, options?.maxLength);
  let value: unknown;
  const duplicates: JsonTextDuplicate[] = [];
  let inexact: InexactIntegers | undefined;
  try {
    value = parseJsonText(text, parseOptions);
    inexact = takeInexactIntegers();
  } catch (caught) {
    const e = textDepthAsMaxDepth(caught, ctx.maxDepth);
    if (!isWktJsonError(e)) throw e;
    const format = pathFormat();
    if (e.rule !== "duplicate-field") return publicIssues([foundOf(e)], base, format);
    // Parse again, recording every repeated key instead of stopping at the first.
    try {
      value = parseJsonTextStrict(text, parseOptions.maxDepth!, true, duplicates);
      inexact = takeInexactIntegers();
    } catch (caught) {
      const later = textDepthAsMaxDepth(caught, ctx.maxDepth);
      if (!isWktJsonError(later)) throw later;
      const found = duplicateIssues(text, duplicates, max).concat(foundOf(later)).slice(0, max);
      return publicIssues(found, base, format);
    }
  }
  const format = pathFormat();
  const walk = new Walk(ctx, Math.max(0, max - duplicates.length));
  // Literals like 1e-400 are judged by their text, as fromJsonString does (inexact-integers.ts); the walk's
  // tree is its own, so it is not restored.
  if (inexact !== undefined) value = inexactMarked(value, inexact);
  withoutStacks(() => walk.root(schema, value));
  const located = locateJsonPaths(
    text,
    // A required member the text lacks is located at the object that lacks it.
    walk.issues.map((i) => (i.rule === "required" ? i.segments.slice(0, -1) : i.segments)),
  );
  const issues: { issue: Found; offset: number }[] = [];
  walk.issues.forEach((issue, k) => {
    const at = located[k];
    if (at !== undefined) {
      issue.line = at.line;
      issue.column = at.column;
      if (inexact !== undefined) issue.detail = inexactDetail(issue.detail, at.offset, inexact) ?? issue.detail;
      // A number beyond a double's range, as the text wrote it (the decoder's error says the same).
      if (issue.rule === "not-finite")
        issue.detail = notFiniteLiteralDetail(numberLiteralAt(text, at.offset)) ?? issue.detail;
      // In a double, a float or an integer field, as the decoder's error says too.
      if (issue.rule === "range")
        issue.detail =
          literalRangeDetail(issue.typeName, issue.detail, numberLiteralAt(text, at.offset)) ?? issue.detail;
    }
    issues.push({ issue, offset: at === undefined ? Infinity : at.offset });
  });
  const dup = duplicateIssues(text, duplicates, max);
  dup.forEach((issue, k) => issues.push({ issue, offset: duplicates[k]!.offset }));
  // Sorted by position; the sort is stable, so issues at one place keep the decoder's order.
  issues.sort((a, b) => a.offset - b.offset);
  return publicIssues(
    issues.slice(0, max).map((e) => e.issue),
    base,
    format,
  );
}

/**
 * Runs `walk` with V8's stack capture off. The walk meets one error of the decoder per issue, and capturing
 * its stack costs ten times as much as the rest of the issue; issues are data and keep no stack. Where
 * `Error.stackTraceLimit` is not a writable number (other engines, a frozen realm), `walk` just runs.
 */
function withoutStacks(walk: () => void): void {
  const E = Error as { stackTraceLimit?: unknown };
  const limit = E.stackTraceLimit;
  if (typeof limit !== "number") return walk();
  try {
    E.stackTraceLimit = 0;
  } catch {
    return walk();
  }
  try {
    walk();
  } finally {
    E.stackTraceLimit = limit;
  }
}

function maxIssuesOf(options: Partial<ValidateJsonOptions> | undefined): number {
  return countOption("maxIssues", options?.maxIssues, validateMaxIssuesDefault);
}

/**
 * The issues of a call, as the library reports them ({@link WktJsonIssue}), under the base path `base` (the
 * `path` option: `$`, or where the value validated sits in the caller's document).
 */
function publicIssues(found: readonly Found[], base: string, format: PathFormat): WktJsonIssue[] {
  const baseKeys = base === "$" ? undefined : jsonPathSegments(base);
  return found.map((f) => publicIssue(f, base, baseKeys, format));
}

/**
 * The issue of `f`: plain data, except that under a long path ({@link isLongPath}) `jsonPath` and `message` are
 * own, enumerable accessors that format them from the keys at each read (so `JSON.stringify`, spreads and
 * equality see them as data, and the issue holds no copy of a long key); writing one replaces it.
 */
function publicIssue(
  f: Found,
  base: string,
  baseKeys: readonly PathSegment[] | undefined,
  format: PathFormat,
): WktJsonIssue {
  const { rule, typeName, detail } = f;
  const path = baseKeys === undefined ? f.segments : baseKeys.concat(f.segments);
  let issue: { -readonly [K in keyof WktJsonIssue]: WktJsonIssue[K] };
  if (!isLongPath(path)) {
    const jsonPath = base + issuePath(f.segments, format).slice(1);
    issue = { rule, message: `${typeName} at ${jsonPath}: ${detail}`, path, jsonPath, typeName, detail };
  } else {
    let jsonPath: string | undefined;
    let message: string | undefined;
    const at = (): string => jsonPath ?? base + issuePath(f.segments, format).slice(1);
    issue = {
      rule,
      get message(): string {
        return message ?? `${typeName} at ${at()}: ${detail}`;
      },
      set message(v: string) {
        message = v;
      },
      path,
      get jsonPath(): string {
        return at();
      },
      set jsonPath(v: string) {
        jsonPath = v;
      },
      typeName,
      detail,
    };
  }
  if (f.line !== undefined) issue.line = f.line;
  if (f.column !== undefined) issue.column = f.column;
  return issue;
}

/** The issue of an error raised with its path from the root (the text parser's). */
function foundOf(e: WktJsonError): Found {
  const found: Found = {
    rule: e.rule,
    segments: jsonPathSegments(e.jsonPath) ?? [],
    typeName: e.typeName,
    detail: e.detail,
  };
  if (e.line !== undefined) found.line = e.line;
  if (e.column !== undefined) found.column = e.column;
  return found;
}

/** The repeated keys the text parser recorded, as issues with their positions (one pass for all of them). */
function duplicateIssues(text: string, duplicates: readonly JsonTextDuplicate[], max: number): Found[] {
  const shown = duplicates.slice(0, max);
  const positions = lineColumns(
    text,
    shown.map((d) => d.offset),
  );
  return shown.map((d) => {
    const at = positions.get(d.offset)!;
    return {
      rule: "duplicate-field",
      segments: d.segments,
      typeName: "JSON",
      detail: `the member ${JSON.stringify(d.name)} is repeated`,
      line: at.line,
      column: at.column,
    };
  });
}

/** Thrown to stop the walk at the issue cap. */
const full = Symbol("full");

/** What a leaf read gave when it failed (the issue is recorded). */
const failed = Symbol("failed");

/** What an Any costs of the budget, as the decoder's reader charges it on entry. */
let anyCost: number | undefined;

/** A key that names a field, with what setting the field costs of the budget, as the decoder charges it. */
interface Member extends FieldKey {
  /** Whether the field adds a member to the zero message (see the decoder's FieldEntry). */
  readonly adds: boolean;
  /** What setting it costs (the decoder's fieldCost). */
  readonly cost: number;
}

const membersCache = new WeakMap<DescMessage, Map<string, Member>>();

/** The keys that name a field of `desc` ({@link fieldKeys}), by key. */
function membersOf(desc: DescMessage): Map<string, Member> {
  let members = membersCache.get(desc);
  if (members === undefined) {
    const zero = create(desc);
    members = new Map(
      fieldKeys(desc).map((k) => {
        const adds = k.field.oneof === undefined && !Object.prototype.hasOwnProperty.call(zero, k.field.localName);
        return [k.key, { ...k, adds, cost: fieldCost(k.field, adds) }];
      }),
    );
    membersCache.set(desc, members);
  }
  return members;
}

/** The decoder's value readers of a field: [singular, in a list or map]. */
const valueReaders = new WeakMap<DescField, [ValueReader | undefined, ValueReader | undefined]>();

function valueReaderOf(field: DescField, message: DescMessage | undefined, inCollection: boolean): ValueReader {
  let pair = valueReaders.get(field);
  if (pair === undefined) valueReaders.set(field, (pair = [undefined, undefined]));
  const k = inCollection ? 1 : 0;
  return (pair[k] ??= compileValue(field, message, inCollection));
}

/** Which walk a message type takes. */
type Kind = "message" | "leaf" | "any" | "struct" | "value" | "list";

function kindOf(desc: DescMessage): Kind {
  switch (desc.typeName) {
    case anyTypeName:
      return "any";
    case structTypeName:
      return "struct";
    case valueTypeName:
      return "value";
    case listValueTypeName:
      return "list";
    case timestampTypeName:
    case durationTypeName:
    case fieldMaskTypeName:
    case emptyTypeName:
      return "leaf";
  }
  return isWrapperDesc(desc) ? "leaf" : "message";
}

/** How free-form JSON is read: as Struct/Value/ListValue messages (struct.ts), or as a Struct field's plain copy. */
type TreeMode = "message" | "copy";

/**
 * One validation: the decoder's context (its depth kept in step with the decoder's), the path of the value
 * being looked at, and the issues so far. Anything but our error (and the cap) aborts the whole walk, so the
 * path is pushed and popped without `finally`.
 */
class Walk {
  /** The issues so far; each holds its path as segments (the input's own keys, shared). */
  readonly issues: Found[] = [];
  private readonly path: PathSegment[] = [];
  /** What the message being walked costs more if the decoder makes it with create() (charged once). */
  private upgrade = 0;

  constructor(
    private readonly ctx: ReadContext,
    private readonly max: number,
  ) {}

  root(schema: DescMessage, json: unknown): void {
    if (this.max <= 0) return;
    try {
      this.message(schema, json);
    } catch (e) {
      if (e === full) return;
      const error = stackOverflowAsDepth(e, schema.typeName, this.ctx.maxDepth);
      if (!(error instanceof WktJsonError)) throw error;
      this.path.length = 0;
      this.add(error);
    }
  }

  /** Records an error raised for the value at the current path (its own path is relative to that value). */
  private add(e: WktJsonError): void {
    const segments = this.path.slice();
    if (e.jsonPath.length > 1) {
      const below = jsonPathSegments(e.jsonPath);
      if (below !== undefined) for (const s of below) segments.push(s);
    }
    this.issues.push({ rule: e.rule, segments, typeName: e.typeName, detail: e.detail });
    if (this.issues.length >= this.max) throw full;
  }

  /** Records an error the decoder raised; gives {@link failed}. */
  private caught(e: unknown, depth: number): typeof failed {
    // The decoder does not unwind its depth count when it throws: it stops. The walk goes on.
    this.ctx.depth = depth;
    if (!(e instanceof WktJsonError)) throw e;
    this.add(e);
    // A leaf that spent the last of the budget (a Timestamp, a wrapper message): the decoder stops there.
    if (this.ctx.values > this.ctx.maxValues) throw full;
    return failed;
  }

  /** Runs a decoder function on a leaf; records its error and gives {@link failed}, else gives its value. */
  private leaf(read: () => unknown): unknown {
    const depth = this.ctx.depth;
    try {
      return read();
    } catch (e) {
      return this.caught(e, depth);
    }
  }

  /** Reads a leaf with one of the decoder's value readers, as {@link leaf}. */
  private read(reader: ValueReader, json: unknown): unknown {
    const depth = this.ctx.depth;
    try {
      return reader(json, this.ctx);
    } catch (e) {
      return this.caught(e, depth);
    }
  }

  private error(rule: WktRule, typeName: string, detail: string): void {
    this.add(new WktJsonError(rule, "$", typeName, detail));
  }

  /** Records a required field the current object leaves out: the issue names it, the text locates the object. */
  private missing(field: DescField): void {
    const e = requiredMissingError(field);
    this.issues.push({
      rule: e.rule,
      segments: [...this.path, field.jsonName],
      typeName: e.typeName,
      detail: e.detail,
    });
    if (this.issues.length >= this.max) throw full;
  }

  /** Records an issue for the member or item `segment` of the current value. */
  private errorAt(segment: PathSegment, rule: WktRule, typeName: string, detail: string): void {
    this.path.push(segment);
    this.error(rule, typeName, detail);
    this.path.pop();
  }

  /**
   * One level of message nesting, as the decoder's `enter`; false (with the issue) beyond maxDepth. Spends
   * `cost` of the budget, as the decoder does.
   */
  private enter(typeName: string, cost: number): boolean {
    if (++this.ctx.depth > this.ctx.maxDepth) {
      this.ctx.depth--;
      this.add(maxDepthError(typeName, this.ctx.maxDepth));
      return false;
    }
    this.spend(cost, typeName);
    return true;
  }

  /**
   * Spends `n` of the budget (maxValues) where the decoder does; beyond it the decoder stops with a `size`
   * error, and so does the walk: the issue, then nothing more.
   */
  private spend(n: number, typeName: string): void {
    if ((this.ctx.values += n) > this.ctx.maxValues) {
      this.add(valuesError(typeName, this.ctx));
      throw full;
    }
  }

  /** A message; gives {@link skipped} for an Any the decoder leaves out (`unresolvedAny: "skip"`). */
  private message(desc: DescMessage, json: unknown): unknown {
    switch (kindOf(desc)) {
      case "leaf":
        this.leaf(() => readerFor(desc)(json, this.ctx));
        return;
      case "any":
        return this.any(json);
      case "struct":
        this.structMessage(json);
        return;
      case "value":
        this.spend(valueCost, valueTypeName);
        this.tree(json, this.ctx.maxDepth - this.ctx.depth, "message", valueTypeName);
        return;
      case "list":
        if (!Array.isArray(json)) {
          this.leaf(() => listValueFromJsonInternal(json, this.ctx.maxDepth - this.ctx.depth, this.ctx));
          return;
        }
        this.list(json, this.ctx.maxDepth - this.ctx.depth, "message", listValueTypeName);
        return;
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      this.leaf(() => readerFor(desc)(json, this.ctx)); // the decoder's json-type error
      return;
    }
    // A type whose JSON names clash: the decoder refuses it before reading (one issue, nothing below).
    const members = this.leaf(() => membersOf(desc));
    if (members === failed) return;
    const cost = zeroMessageCost(desc);
    if (!this.enter(desc.typeName, cost.enter)) return;
    const obj = json as Record<string, unknown>;
    const keys = Object.keys(obj);
    const oneofs = new Set<string>();
    const required = this.ctx.allowPartial ? undefined : requiredFieldsOf(desc);
    const given = required === undefined ? undefined : new Set<DescField>();
    // What the message costs more when the decoder makes it with create(), as the decoder charges it.
    const outer = this.upgrade;
    this.upgrade = cost.upgrade;
    for (let i = 0; i < keys.length; i++) {
      this.path.push(keys[i]!);
      const set = this.member(members as Map<string, Member>, desc, obj, keys, i, oneofs);
      if (set !== undefined) given?.add(set);
      this.path.pop();
    }
    this.upgrade = outer;
    // The decoder's required check (checkRequired), for each field left out: located at the object.
    if (required !== undefined) {
      for (const f of required) if (!given!.has(f)) this.missing(f);
    }
    this.ctx.depth--;
  }

  /**
   * Member `keys[i]` of a message's object, as the decoder's reader takes it; gives the field it sets (a bad
   * value counts as set, its issue recorded), or undefined.
   */
  private member(
    members: Map<string, Member>,
    desc: DescMessage,
    obj: Record<string, unknown>,
    keys: readonly string[],
    i: number,
    oneofs: Set<string>,
  ): DescField | undefined {
    const key = keys[i]!;
    const typeName = desc.typeName;
    const member = members.get(key);
    if (member === undefined) {
      const ext = extensionOfKey(key, this.ctx.registry, typeName);
      // The decoder reads an extension like a field of its own (no oneof, no duplicate check).
      if (ext !== undefined) {
        this.spend(extensionCost, typeName);
        this.field(extensionAsField(ext), obj[key], new Set(), false);
      } else if (!this.ctx.ignoreUnknownFields && !(this.ctx.ignoreReservedNames && reservedKeys(desc)?.has(key))) {
        this.add(unknownFieldError(typeName, key));
      }
      return undefined;
    }
    const other = member.otherName;
    if (other !== undefined && givenBefore(obj, keys, other, i)) {
      this.add(givenTwiceError(member, key));
      return member.field; // given under its other name before
    }
    const v = obj[key];
    let charge = memberCharge(member, key, v, this.ctx);
    if (member.adds || i >= 16) {
      charge += this.upgrade;
      this.upgrade = 0;
    }
    this.spend(charge, typeName);
    return this.field(member.field, v, oneofs, true) ? member.field : undefined;
  }

  /**
   * One member of a message: a list, a map, or a singular field (maybe in a oneof). Tells whether a singular
   * field outside a oneof is set, as the decoder sets it: not by null, nor by an enum name skipped.
   */
  private field(field: DescField, json: unknown, oneofs: Set<string>, cached: boolean): boolean {
    const parentName = field.parent.typeName;
    switch (field.fieldKind) {
      case "list": {
        if (json === null) return false;
        if (!Array.isArray(json)) {
          this.error("json-type", parentName, `expected an array, got ${describe(json)}`);
          return false;
        }
        this.spend(json.length * (listItemCost(field) - earned.element * this.ctx.perCodeUnit), parentName);
        const message = field.listKind === "message" ? field.message : undefined;
        const nullable = nullIsValue(field);
        const reader = this.leafReader(field, message, true, cached);
        for (let i = 0; i < json.length; i++) {
          const item: unknown = json[i];
          if (typeof item === "string") this.ctx.values -= this.ctx.perCodeUnit * (item.length + earned.string);
          this.path.push(i);
          if (item === null && !nullable) this.error("json-type", parentName, "a list item cannot be null");
          else if (reader !== undefined) this.read(reader, item);
          else this.value(field, message, item);
          this.path.pop();
        }
        return false;
      }
      case "map": {
        if (json === null) return false;
        if (typeof json !== "object" || Array.isArray(json)) {
          this.error("json-type", parentName, `expected an object, got ${describe(json)}`);
          return false;
        }
        const message = field.mapKind === "message" ? field.message : undefined;
        const reader = this.leafReader(field, message, true, cached);
        const nullable = nullIsValue(field);
        const obj = json as Record<string, unknown>;
        // The keys the decoder would have set so far, in their canonical form ("-0" and "0" are one key).
        const set = new Set<string>();
        const keys = Object.keys(obj);
        const entry = { cost: mapEntryCost(field) };
        for (const key of keys) {
          this.path.push(key);
          // As the decoder charges an entry: before its key is read.
          this.spend(memberCharge(entry, key, obj[key], this.ctx), parentName);
          this.mapEntry(field, field.mapKey, message, reader, nullable, obj, key, set);
          this.path.pop();
        }
        return false;
      }
      default: {
        const message = field.fieldKind === "message" ? field.message : undefined;
        const nullable = nullIsValue(field);
        if (json === null && !nullable) return false; // the default value, in a oneof or not
        const reader = this.leafReader(field, message, false, cached);
        const read = (): unknown => (reader !== undefined ? this.read(reader, json) : this.value(field, message, json));
        if (field.oneof !== undefined) {
          const name = field.oneof.localName;
          if (oneofs.has(name)) {
            this.error("oneof", parentName, `oneof ${field.oneof.name} is already set by another field`);
            return false;
          }
          // A bad value counts as set, so that a second member is reported too.
          if (read() !== skipped) oneofs.add(name);
          return false;
        }
        return read() !== skipped;
      }
    }
  }

  private mapEntry(
    field: DescField,
    keyType: ScalarType,
    message: DescMessage | undefined,
    reader: ValueReader | undefined,
    nullable: boolean,
    obj: Record<string, unknown>,
    key: string,
    set: Set<string>,
  ): void {
    const parentName = field.parent.typeName;
    const k = this.leaf(() => mapKeyFromJson(keyType, key));
    if (k === failed) return;
    if (set.has(k as string)) {
      this.error("duplicate-field", parentName, `map key ${JSON.stringify(k)} is given twice`);
      return;
    }
    const item = obj[key];
    if (item === null && !nullable) {
      this.error("json-type", parentName, "a map value cannot be null");
      return;
    }
    // An enum value skipped under ignoreUnknownFields sets no entry.
    const v = reader !== undefined ? this.read(reader, item) : this.value(field, message, item);
    if (v !== skipped) set.add(k as string);
  }

  /**
   * The decoder's reader for a value of `field` that the walk treats as a leaf (a scalar, an enum, an unboxed
   * wrapper), or undefined for a message the walk goes into.
   */
  private leafReader(
    field: DescField,
    message: DescMessage | undefined,
    inCollection: boolean,
    cached: boolean,
  ): ValueReader | undefined {
    // As the decoder's compileValue: only a singular wrapper field outside a oneof is unboxed to its scalar.
    if (message !== undefined && !wrapperIsUnboxed(field, message, inCollection)) return undefined;
    return cached ? valueReaderOf(field, message, inCollection) : compileValue(field, message, inCollection);
  }

  /** A message-typed value of a field (the field itself, a list item, a map value) that the walk goes into. */
  private value(field: DescField, message: DescMessage | undefined, json: unknown): unknown {
    if (message === undefined) return undefined; // not reached: scalars and enums have a leaf reader
    if (structIsPlainJson(field, message)) {
      // A Struct field outside Value is a plain JSON object: the copy's rules.
      const depthLeft = this.ctx.maxDepth - this.ctx.depth;
      if (typeof json !== "object" || json === null || Array.isArray(json)) {
        return this.leaf(() => copyJsonObject(json, depthLeft, structTypeName, this.ctx));
      }
      this.object(json as Record<string, unknown>, depthLeft, "copy", structTypeName);
      return undefined;
    }
    return this.message(message, json);
  }

  /**
   * google.protobuf.Any, as `anyFromJsonInternal` reads it after the decoder counted its level; gives
   * {@link skipped} where the decoder does.
   */
  private any(json: unknown): unknown {
    if (!this.enter(anyTypeName, (anyCost ??= messageEnterCost(AnySchema)))) return undefined;
    const v = this.anyBody(json);
    this.ctx.depth--;
    return v;
  }

  private anyBody(json: unknown): unknown {
    const head = anyJsonHead(json);
    if (typeof head === "number") {
      if (head !== anyEmpty) this.add(anyJsonError(head, json));
      return undefined;
    }
    const keys = head;
    const obj = json as Record<string, unknown>;
    // Errors at "@type" and "@value" have their paths below the Any.
    const target = this.leaf(() => anyJsonTarget(obj, keys, this.ctx.registry, this.ctx.unresolvedAny));
    if (target === failed || target instanceof Uint8Array) return undefined;
    if (target === undefined) return skipped;
    const inner = target as DescMessage;
    const form = anyJsonForm(inner, obj, keys.length);
    if (form === anyFormValue) {
      if (!this.ctx.ignoreUnknownFields) {
        for (const k of keys) if (!anyValueFormKey(k)) this.add(anyJsonError(anyExtraMember, k, inner));
      }
      if (!Object.prototype.hasOwnProperty.call(obj, "value")) {
        this.add(anyJsonError(anyNoValue, undefined, inner));
        return;
      }
      // The decoder first tries the bytes straight from the JSON (Struct, Value, ListValue), which spends none
      // of the budget (the bytes are no larger than the JSON); only what that does not take is read and counted.
      if (wktJsonToBinaryFast(inner, obj["value"], this.ctx.maxDepth - this.ctx.depth) !== undefined) return undefined;
      this.path.push("value");
      const v = this.message(inner, obj["value"]);
      this.path.pop();
      // An Any in an Any, left out: so is this one.
      return v === skipped ? skipped : undefined;
    }
    // A type with a field whose JSON name is "@type" cannot be read from an Any's JSON form (see wkt/any-json-form.ts).
    this.path.push("@type");
    const clash = this.leaf(() => checkNoAtTypeField(inner, "read"));
    this.path.pop();
    if (clash === failed) return;
    if (form === anyFormLegacyEmpty) {
      const v = obj["value"];
      if (typeof v !== "object" || v === null || Array.isArray(v)) {
        this.add(anyJsonError(anyEmptyNotObject, v, inner));
        return;
      }
      this.path.push("value");
      this.message(inner, v);
      this.path.pop();
      return;
    }
    // The embedded message's own members, "@type" aside; its paths are those of the Any's object.
    const body: Record<string, unknown> = {};
    for (const k of keys) if (k !== "@type") setOwn(body, k, obj[k]);
    this.message(inner, body);
  }

  /** google.protobuf.Struct as a message: a plain JSON object (of any realm), as `structFromRoot` takes it. */
  private structMessage(json: unknown): void {
    const depthLeft = this.ctx.maxDepth - this.ctx.depth;
    if (typeof json !== "object" || json === null || !isPlain(json, "message")) {
      this.leaf(() => structFromJsonInternal(json, depthLeft, this.ctx));
      return;
    }
    this.object(json as Record<string, unknown>, depthLeft, "message", structTypeName);
  }

  /**
   * Any JSON value inside Struct, Value or ListValue (`mode` "message", as struct.ts reads it) or inside a
   * Struct field's plain copy ("copy", as json-value.ts reads it), with `depthLeft` levels of objects and
   * arrays allowed.
   */
  private tree(json: unknown, depthLeft: number, mode: TreeMode, typeName: string): void {
    if (typeof json === "object" && json !== null) {
      if (Array.isArray(json)) {
        this.list(json, depthLeft, mode, typeName);
        return;
      }
      if (isPlain(json, mode)) {
        this.object(json as Record<string, unknown>, depthLeft, mode, typeName);
        return;
      }
    } else if (typeof json === "boolean" || (typeof json === "number" && json - json === 0)) {
      return; // a JSON scalar both readers take as it is
    } else if (typeof json === "string" && isWellFormed(json)) {
      // A string of a Value earns its length when read; the copy's, with its member or element.
      if (mode === "message") this.ctx.values -= this.ctx.perCodeUnit * (json.length + earned.string);
      return;
    }
    // Anything else (a non-finite number, a string with a lone surrogate, a bigint, something that is not JSON,
    // null): the decoder's own answer.
    // The value was charged by its container (or the root); the reader charges nothing more for what lands here.
    this.leaf(() =>
      mode === "message"
        ? valueFromJsonInternal(json, depthLeft, unlimitedBudget())
        : copyValue(json, depthLeft, typeName),
    );
  }

  private list(json: readonly unknown[], depthLeft: number, mode: TreeMode, typeName: string): void {
    if (depthLeft <= 0) {
      this.leaf(() =>
        mode === "message"
          ? listValueFromJsonInternal(json, depthLeft, this.ctx)
          : copyValue(json, depthLeft, typeName, this.ctx),
      );
      return;
    }
    // As listFrom or copyValue charge it, all at once.
    if (mode === "message") this.spend(listCharge(json.length, this.ctx), listValueTypeName);
    else this.spend(jsonCopyCharge.array(json.length, this.ctx), typeName);
    for (let i = 0; i < json.length; i++) {
      const e: unknown = json[i];
      if (mode === "copy" && typeof e === "string") this.ctx.values += jsonCopyCharge.stringElement(e, this.ctx);
      this.path.push(i);
      this.tree(json[i], depthLeft - 1, mode, typeName);
      this.path.pop();
    }
  }

  private object(json: Record<string, unknown>, depthLeft: number, mode: TreeMode, typeName: string): void {
    if (depthLeft <= 0) {
      this.leaf(() =>
        mode === "message"
          ? structFromJsonInternal(json, depthLeft, this.ctx)
          : copyJsonObject(json, depthLeft, typeName, this.ctx),
      );
      return;
    }
    // As structFrom or copyObject charge it: the object, then member by member.
    this.spend(
      mode === "message" ? structCost : jsonCopyCharge.object(),
      mode === "message" ? structTypeName : typeName,
    );
    const nested = mode === "message" ? valueTypeName : typeName;
    for (const key of Object.keys(json)) {
      this.path.push(key); // the reader charges the member with its key as the error's path
      this.spend(
        mode === "message" ? structMemberCharge(key, this.ctx) : jsonCopyCharge.member(key, json[key], this.ctx),
        nested,
      );
      this.path.pop();
      if (!isWellFormed(key)) {
        if (mode === "message")
          this.errorAt(key, "utf16", structTypeName, "the member name has a lone surrogate, which UTF-8 cannot carry");
        else this.errorAt(key, "utf16", typeName, "the key has a lone surrogate, which is not valid UTF-8");
        continue;
      }
      this.path.push(key);
      this.tree(json[key], depthLeft - 1, mode, nested);
      this.path.pop();
    }
  }
}

/**
 * Whether an object is a JSON object for the decoder: struct.ts takes a plain object of any realm, the copy
 * of a Struct field only one of this realm (or with a null prototype).
 */
function isPlain(json: object, mode: TreeMode): boolean {
  const p = Object.getPrototypeOf(json) as object | null;
  if (p === Object.prototype || p === null) return true;
  return mode === "message" && Object.getPrototypeOf(p) === null;
}
