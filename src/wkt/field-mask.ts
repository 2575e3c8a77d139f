/**
 * google.protobuf.FieldMask: its JSON form, validation against a schema, and set algebra. (Projection and update
 * on messages and on plain JSON are in field-mask-apply.ts; the one path parser is internal/mask-path.ts.)
 *
 * Spec (wkt.md): "FieldMask | paths: string[] | one string, paths joined by commas, each name in lower-camel
 * form". The comment in google/protobuf/field_mask.proto adds: "The implementation of any API method which has
 * a FieldMask type field in the request should verify the included field paths, and return an
 * `INVALID_ARGUMENT` error if any path is unmappable", and that a path whose lower-camel form does not map
 * back to the same proto name is an error when serializing. Rule 7: "A repeated field is allowed only at the
 * last position of a path."
 *
 * The accept/reject decisions of the JSON form follow protobuf-go's `protojson` (marshalFieldMask /
 * unmarshalFieldMask), which passes every FieldMask case of the conformance suite:
 *
 * - Encoding (proto path → JSON): every segment must be a proto identifier (`[A-Za-z_][A-Za-z0-9_]*`, no empty
 *   segment, no empty path) whose snake→camel→snake round trip gives it back. That rejects upper-case letters
 *   (conformance FieldMaskPathsDontRoundTrip: `fooBar`), `_` before a digit (FieldMaskNumbersDontRoundTrip:
 *   `foo_3_bar`; the C++ reference writer prints `foo3Bar` here and fails that RECOMMENDED test, Go and
 *   protobuf-es reject), `__` (FieldMaskTooManyUnderscore: `foo__bar`), and `_` at the end of a segment.
 *   A leading `_` before a lower-case letter round-trips (`_foo` ↔ `Foo`) and is accepted, as by Go, C++ and
 *   protobuf-es.
 * - Decoding (JSON → proto paths): a path holding `_` is rejected (conformance FieldMaskInvalidCharacter:
 *   `foo,bar_bar`); each upper-case letter becomes `_` plus its lower-case form; the result must be a proto
 *   path as above, so empty paths or segments (`a..b`, `a,`, `,`), a segment starting with a digit, and any
 *   character other than ASCII letters, digits and `.` are rejected. The empty string is the empty mask.
 *   Unlike Go we do not trim surrounding white space first: ` a` is rejected, as by the C++ reference parser.
 *   protobuf-es only checks for `_` and accepts everything else (`a..b`, `1a`, ` x`, `a,` → `["a", ""]`).
 *
 * Every path the decoder produces encodes back to the same JSON string.
 *
 * Validation and algebra. Every `mask` parameter takes a FieldMask message or an array of path strings; every
 * function that returns a mask returns a new FieldMask message with canonical, sorted paths (except
 * {@link fieldMaskForAllFields}, {@link fieldMaskFromFieldNumbers} and {@link fieldMaskFromDiff}, which keep the
 * schema's field order). The schema-free operations (normalize, union, intersect, covers, subtract without a
 * schema) read the AIP-161 syntax (`labels.env`, `` labels.`team name` ``, `authors.*.given_name`, the lone
 * `*`): a strict proto path is a special case of it. The schema-aware ones are strict proto (rule 7) unless
 * given `{ aip161: true }`.
 *
 * - A path covers itself and every path below it; `*` covers every key at its position, and the lone `*`
 *   covers everything.
 * - Go's `fieldmaskpb` and Java's `FieldMaskUtil` sort and drop covered paths the same way; they have no
 *   wildcards or map keys, no subtract that expands a parent into its remaining fields, and no diff.
 *
 * @module
 */
import { ScalarType, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { callAtBase } from "../internal/base-path.js";
import {
  asMsg,
  checkMessage,
  depthError,
  fieldGet,
  fieldIsSet,
  planOf,
  type FieldAccess,
  type MessagePlan,
  type Msg,
} from "./field-access.js";
import { fieldValueEquals } from "./message-equals.js";
import {
  defaultMaskMaxPaths,
  defaultMaxDepth,
  formatBound,
  int64Max,
  int64Min,
  maskStepsPerPath,
  uint64Max,
} from "../limits.js";
import {
  anyLeaf,
  BudgetExceeded,
  countPaths,
  coversPath,
  emptyNode,
  fieldMaskType as maskTypeName,
  formatPath,
  intersect,
  isEmptyNode,
  isIntegerText,
  isSimplePath,
  isStar,
  LEAF,
  makeMask,
  maskPathError,
  maskPaths,
  maxSegments,
  normalize,
  overlaps,
  parseMask,
  parsePath,
  pathsOf,
  stepAll,
  trieOf,
  WILD,
  type FieldMaskLike,
  type Node,
  type Segment,
} from "../internal/mask-path.js";

export type { FieldMaskLike } from "../internal/mask-path.js";

const fieldMaskType = "google.protobuf.FieldMask";

/** Options of {@link fieldMaskFromJson} and {@link fieldMaskToJson}. */
export interface FieldMaskJsonOptions {
  /**
   * JSON path of the value in the caller's document, such as `"$.updateMask"`: an error is reported at this path
   * instead of `$`. A string starting with `$`. Default `"$"`.
   */
  path?: string | undefined;
}

/** "_a" to "_z", indexed by an upper-case letter's code minus 65. */
const underscoreLower: readonly string[] = Array.from({ length: 26 }, (_, k) => "_" + String.fromCharCode(97 + k));

const utf8 = new TextEncoder();
/** Reused by asciiCodes for inputs below scratchMax characters; fieldMaskFromJson never re-enters itself. */
let scratch = new Uint8Array(256);
const scratchMax = 65_536;

/**
 * The UTF-8 bytes of `s`, at least `s.length + 1` of them valid: while `s` is ASCII, byte i is its char code i;
 * byte `s.length` of an ASCII string is 0, the end mark; and the first byte above 127 is where its first other
 * character starts (a byte 255 stands in for a character that did not fit). The parser scans these bytes rather
 * than calling charCodeAt: V8 re-checks a string's representation on every charCodeAt, while a typed-array load
 * is a plain load; the scan is about twice as fast. The end mark lets the inner loop over lower-case letters
 * stop without a separate index check.
 */
function asciiCodes(s: string): Uint8Array {
  const n = s.length;
  let buf = scratch;
  if (n >= buf.length) {
    buf = new Uint8Array(Math.max(n + 1, buf.length * 2));
    if (buf.length <= scratchMax) scratch = buf;
  }
  const r = utf8.encodeInto(s, buf);
  // r.written === buf.length only when a character took more than one byte, whose first byte stops the scan.
  if (r.written < buf.length) buf[r.written] = r.read < n ? 255 : 0;
  return buf;
}

const utf8Decoder = new TextDecoder();
/** Reused by pathsByDecoding while they stay within scratchMax bytes. */
let snakeScratch = new Uint8Array(512);
let commaScratch = new Int32Array(128);

/**
 * From this many characters of JSON on, {@link pathsByDecoding} builds the paths. Below it, slicing and
 * concatenating the input costs less than the fixed cost of a TextDecoder call (about 0.1 µs on Node): on Node
 * 20 and 24 the two ways cost the same at about 100-140 characters of typical paths (1-3 segments of 1-3
 * words), and decoding costs about a quarter less at 400 characters, a third less at 800.
 */
const decodeMin = 128;

/**
 * The proto paths of a mask of `n` characters whose bytes `codes` are (from asciiCodes), built in one piece:
 * the snake_case bytes of the whole mask, one TextDecoder call, and a slice per path. That costs a byte write
 * per character where the other way costs two or three string operations per capital letter. Undefined when
 * the mask is not valid ({@link jsonMaskError} words the reason).
 */
function pathsByDecoding(codes: Uint8Array, n: number): string[] | undefined {
  let out = snakeScratch; // every capital adds a "_"
  if (2 * n > out.length) {
    out = new Uint8Array(2 * n);
    if (out.length <= scratchMax) snakeScratch = out;
  }
  let commas = commaScratch; // where each path but the last ends in `out`
  if (n >= 2 * commas.length) {
    commas = new Int32Array((n >> 1) + 1);
    if (commas.byteLength <= scratchMax) commaScratch = commas;
  }
  let w = 0; // bytes written to `out`
  let m = 0; // paths ended by a comma
  let segStart = 0;
  let segs = 1;
  let i = 0;
  for (;;) {
    let c = codes[i]! | 0;
    while ((c - 97) >>> 0 < 26) {
      out[w++] = c;
      c = codes[++i]! | 0;
    }
    if ((c - 65) >>> 0 < 26) {
      out[w] = 95;
      out[w + 1] = c + 32;
      w += 2;
      i++;
    } else if ((c - 48) >>> 0 < 10) {
      if (i === segStart) return undefined;
      out[w++] = c;
      i++;
    } else if (c === 46) {
      if (i === segStart || ++segs > maxSegments) return undefined;
      out[w++] = c;
      segStart = ++i;
    } else if (c === 44) {
      if (i === segStart) return undefined;
      commas[m++] = w;
      out[w++] = c;
      segs = 1;
      segStart = ++i;
    } else if (c === 0 && i === n && i !== segStart) {
      break;
    } else {
      return undefined;
    }
  }
  const snake = utf8Decoder.decode(out.subarray(0, w));
  const paths: string[] = [];
  let start = 0;
  for (let k = 0; k < m; k++) {
    const end = commas[k]!;
    paths[k] = snake.slice(start, end);
    start = end + 1;
  }
  paths[m] = snake.slice(start);
  return paths;
}

/**
 * Decodes the JSON form of a FieldMask, one string of comma-separated lower-camel paths, into proto paths.
 *
 * @throws {WktJsonError} rule `json-type` if `json` is not a string; `mask-path` for a path that cannot be a
 *   proto path (holds `_` or a character other than ASCII letters, digits and `.`, has an empty path or
 *   segment, a segment starting with a digit, or more than 100 segments, the limit of every mask path); at `$`,
 *   or at `options.path` when given. Rule `range` for a `path` option that is not a string starting with `$`.
 * @example
 * fieldMaskFromJson("user.displayName,photo").paths; //=> ["user.display_name", "photo"]
 * fieldMaskFromJson("").paths; //=> []
 * fieldMaskFromJson("title,author_name", { path: "$.updateMask" }); // throws WktJsonError (rule "mask-path", path "$.updateMask")
 */
export function fieldMaskFromJson(json: unknown, options?: FieldMaskJsonOptions): FieldMask;
/** @hidden */
// Without options, so that `texts.map(fieldMaskFromJson)` still compiles (map passes an index second).
export function fieldMaskFromJson(json: unknown): FieldMask;
export function fieldMaskFromJson(json: unknown, options?: FieldMaskJsonOptions): FieldMask {
  // With options, the same function runs again without them and its error moves under the base path; the call
  // without options (the whole-message codec's, the benchmarked one) pays only this test. A boolean has no path
  // either: the codec calls every leaf reader with its exactNumbers flag second.
  if (options !== undefined && typeof options !== "boolean") {
    return callAtBase(fieldMaskFromJson, json, options, fieldMaskType);
  }
  if (typeof json !== "string") {
    throw new WktJsonError("json-type", "$", fieldMaskType, `expected a string, got ${describe(json)}`);
  }
  const n = json.length;
  if (n === 0) return { $typeName: fieldMaskType, paths: [] };
  // Every valid character is ASCII, and up to the first one that is not, byte i is character i; byte n is 0.
  const codes = asciiCodes(json);
  const paths = n < decodeMin ? pathsBySlicing(json, codes, n) : pathsByDecoding(codes, n);
  if (paths === undefined) throw jsonMaskError(json);
  return { $typeName: fieldMaskType, paths };
}

/**
 * The proto paths of the mask `json` of `n` characters whose bytes `codes` are (from asciiCodes): slices of
 * `json` and, for each capital letter, "_" and its lower case. Undefined when the mask is not valid; only
 * {@link jsonMaskError} words the reason, which keeps this loop small.
 */
function pathsBySlicing(json: string, codes: Uint8Array, n: number): string[] | undefined {
  const paths: string[] = [];
  let count = 0; // paths so far: `paths[count++] = p` stays inline where `push` calls a builtin
  let out = ""; // the snake_case form of the current path, up to `from` (when from > pathStart)
  let from = 0; // first index of `json` not yet copied to `out`
  let pathStart = 0;
  let segStart = 0;
  let segs = 1; // segments of the current path so far
  let i = 0;
  for (;;) {
    let c = codes[i]! | 0;
    // Most characters are lower-case letters: a loop without calls over them keeps the scan tight. Each class
    // is one unsigned comparison (`(c - 97) >>> 0 < 26` is 97 <= c <= 122), here and in pathsByDecoding: 2-4%
    // less time on 4 paths than two comparisons each. `| 0` on the loads: were a load ever past the end,
    // undefined would read as 0, which stops the scan, rather than as NaN, which `>>> 0` turns into 0 (a letter).
    while ((c - 97) >>> 0 < 26) c = codes[++i]! | 0;
    if ((c - 65) >>> 0 < 26) {
      // A-Z: "_" + lower case. A leading capital gives a leading "_", which round-trips.
      out = (from === pathStart ? json.slice(from, i) : out + json.slice(from, i)) + underscoreLower[c - 65]!;
      from = ++i;
    } else if ((c - 48) >>> 0 < 10) {
      if (i === segStart) return undefined;
      i++;
    } else if (c === 46) {
      if (i === segStart || ++segs > maxSegments) return undefined;
      segStart = ++i;
    } else if (c === 44) {
      if (i === segStart) return undefined;
      paths[count++] = from === pathStart ? json.slice(pathStart, i) : out + json.slice(from, i);
      segs = 1;
      from = pathStart = segStart = ++i;
    } else if (c === 0 && i === n && i !== segStart) {
      break;
    } else {
      return undefined;
    }
  }
  paths[count] = from === pathStart ? json.slice(pathStart) : out + json.slice(from);
  return paths;
}

/**
 * The error for a mask that pathsBySlicing or pathsByDecoding refused: the first rule the mask breaks, scanning
 * from its start, with the path and segment that break it.
 */
function jsonMaskError(json: string): WktJsonError {
  let pathStart = 0;
  let segStart = 0;
  let segs = 1;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) continue;
    if (c >= 48 && c <= 57) {
      if (i === segStart) return jsonPathError(json, pathStart, segStart, "starts with a digit");
      continue;
    }
    if (c === 46) {
      if (i === segStart) return jsonPathError(json, pathStart, segStart, "is empty");
      if (++segs > maxSegments) return tooManySegments(json, pathStart);
      segStart = i + 1;
      continue;
    }
    if (c === 44) {
      if (i === segStart) return jsonPathError(json, pathStart, segStart, "is empty");
      segs = 1;
      pathStart = segStart = i + 1;
      continue;
    }
    // "_", any other ASCII character, or a character that is not ASCII.
    return jsonPathError(json, pathStart, segStart, invalidCharacter(json, i));
  }
  // What is left of a refused mask: an empty last path or segment.
  return jsonPathError(json, pathStart, segStart, "is empty");
}

/**
 * Encodes a FieldMask (or its list of proto paths) as its JSON form: the paths in lower-camel form, joined by
 * commas.
 *
 * @throws {WktJsonError} rule `json-type` if a path is not a string; `mask-path` for a path whose lower-camel
 *   form would not decode to the same path (an upper-case letter; `_` before a digit, before `_`, or at the end
 *   of a segment; a character other than `a-z`, `0-9`, `_`, `.`; an empty path or segment; a segment starting
 *   with a digit); at `$`, or at `options.path` when given. Rule `range` for a `path` option that is not a string
 *   starting with `$`.
 * @example
 * fieldMaskToJson(["user.display_name", "photo"]); //=> "user.displayName,photo"
 * fieldMaskToJson(["foo_3_bar"]); // throws WktJsonError (rule "mask-path", path "$")
 * fieldMaskToJson(["foo_3_bar"], { path: "$.updateMask" }); // throws WktJsonError (rule "mask-path", path "$.updateMask")
 */
export function fieldMaskToJson(mask: FieldMask | readonly string[], options?: FieldMaskJsonOptions): string;
/** @hidden */
// Without options, so that `masks.map(fieldMaskToJson)` still compiles (map passes an index second).
export function fieldMaskToJson(mask: FieldMask | readonly string[]): string;
export function fieldMaskToJson(mask: FieldMask | readonly string[], options?: FieldMaskJsonOptions): string {
  if (options !== undefined) return callAtBase(fieldMaskToJson, mask, options, fieldMaskType);
  const paths: unknown = Array.isArray(mask) ? mask : (mask as Partial<FieldMask> | null | undefined)?.paths;
  if (!Array.isArray(paths)) {
    throw new WktJsonError(
      "json-type",
      "$",
      fieldMaskType,
      `expected a FieldMask or an array of paths, got ${describe(mask)}`,
    );
  }
  let result = "";
  for (let k = 0; k < paths.length; k++) {
    const p = paths[k];
    if (typeof p !== "string") {
      throw new WktJsonError("json-type", "$", fieldMaskType, `path ${k} is ${describe(p)}, not a string`);
    }
    if (k > 0) result += ",";
    result += camelPath(p);
  }
  return result;
}

/**
 * Makes a FieldMask holding a copy of `paths`, as written (no validation or conversion; use
 * {@link fieldMaskToJson} to check that they have a JSON form).
 *
 * @throws {WktJsonError} rule `json-type` if `paths` is not an array or a path is not a string.
 * @example
 * fieldMaskFromPaths(["config.url"]); //=> { $typeName: "google.protobuf.FieldMask", paths: ["config.url"] }
 */
export function fieldMaskFromPaths(paths: readonly string[]): FieldMask {
  if (!Array.isArray(paths)) {
    throw new WktJsonError("json-type", "$", fieldMaskType, `expected an array of paths, got ${describe(paths)}`);
  }
  const copy: string[] = [];
  for (let k = 0; k < paths.length; k++) {
    const p = paths[k];
    if (typeof p !== "string") {
      throw new WktJsonError("json-type", "$", fieldMaskType, `path ${k} is ${describe(p)}, not a string`);
    }
    copy.push(p);
  }
  return { $typeName: fieldMaskType, paths: copy };
}

/** The lower-camel form of one proto path, or a `mask-path` error if it would not decode back to `p`. */
function camelPath(p: string): string {
  const n = p.length;
  let out = ""; // lower-camel form of p, up to `from`
  let from = 0;
  let segStart = 0;
  let under = false; // the previous character was "_"
  for (let i = 0; i < n; i++) {
    const c = p.charCodeAt(i);
    if (c >= 97 && c <= 122) {
      if (under) {
        out += p.slice(from, i - 1) + String.fromCharCode(c - 32);
        from = i + 1;
        under = false;
      }
      continue;
    }
    if (c >= 48 && c <= 57) {
      // foo_3_bar -> foo3Bar -> foo3_bar (conformance FieldMaskNumbersDontRoundTrip).
      if (under) throw protoPathError(p, segStart, "has '_' before a digit, which lower camel case loses");
      if (i === segStart) throw protoPathError(p, segStart, "starts with a digit");
      continue;
    }
    if (c === 95) {
      // foo__bar -> fooBar -> foo_bar (conformance FieldMaskTooManyUnderscore).
      if (under) throw protoPathError(p, segStart, "has '__', which lower camel case loses");
      under = true;
      continue;
    }
    if (c === 46) {
      if (under) throw protoPathError(p, segStart, "ends with '_', which lower camel case loses");
      if (i === segStart) throw protoPathError(p, segStart, "is empty");
      segStart = i + 1;
      continue;
    }
    // fooBar -> fooBar -> foo_bar (conformance FieldMaskPathsDontRoundTrip).
    if (c >= 65 && c <= 90) {
      throw protoPathError(p, segStart, "has an upper-case letter; proto field names in a path are snake_case");
    }
    throw protoPathError(p, segStart, `holds the character ${JSON.stringify(p[i])}`);
  }
  if (under) throw protoPathError(p, segStart, "ends with '_', which lower camel case loses");
  if (n === segStart) throw protoPathError(p, segStart, "is empty");
  return from === 0 ? p : out + p.slice(from);
}

/** The error for a path of more than {@link maxSegments} segments, as the path parser words it. */
function tooManySegments(json: string, pathStart: number): WktJsonError {
  let end = json.indexOf(",", pathStart);
  if (end < 0) end = json.length;
  const shown = end - pathStart > 200 ? json.slice(pathStart, pathStart + 200) + "…" : json.slice(pathStart, end);
  return new WktJsonError(
    "mask-path",
    "$",
    fieldMaskType,
    `path ${JSON.stringify(shown)} has more than ${maxSegments} segments`,
  );
}

function invalidCharacter(json: string, i: number): string {
  if (json.charCodeAt(i) === 95) return "holds '_', which the lower-camel JSON form cannot contain";
  return `holds the character ${JSON.stringify(String.fromCodePoint(json.codePointAt(i)!))}`;
}

function jsonPathError(json: string, pathStart: number, segStart: number, what: string): WktJsonError {
  let pathEnd = json.indexOf(",", segStart);
  if (pathEnd < 0) pathEnd = json.length;
  const path = json.slice(pathStart, pathEnd);
  const detail = `path ${JSON.stringify(path)}: ${segmentText(json, segStart, pathEnd)} ${what}`;
  return new WktJsonError("mask-path", "$", fieldMaskType, detail);
}

function protoPathError(p: string, segStart: number, what: string): WktJsonError {
  const detail = `path ${JSON.stringify(p)}: ${segmentText(p, segStart, p.length)} ${what}`;
  return new WktJsonError("mask-path", "$", fieldMaskType, detail);
}

function segmentText(s: string, segStart: number, end: number): string {
  let segEnd = s.indexOf(".", segStart);
  if (segEnd < 0 || segEnd > end) segEnd = end;
  const seg = s.slice(segStart, segEnd);
  return seg === "" ? "a segment" : `segment ${JSON.stringify(seg)}`;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : typeof v;
}

// ---------------------------------------------------------------------------------------------------------
// Validation against a schema
// ---------------------------------------------------------------------------------------------------------

/** Options of {@link fieldMaskCheck} and {@link fieldMaskIsValid}. */
export interface FieldMaskCheckOptions {
  /**
   * Accept the AIP-161 syntax: map keys (`labels.env`, `` labels.`team name` ``, `ratings.42`) and `*` for every
   * entry of a map or element of a repeated field (`authors.*.given_name`). Default false: strict proto paths
   * (rule 7), field names only, a repeated or map field only in the last position.
   */
  aip161?: boolean;
}

/**
 * Checks that every path of a mask names fields of `schema`: each segment a field (by proto name) of the
 * message reached so far, descending only through singular message fields, a repeated or map field only in the
 * last position (rule 7). With `aip161`, a map field may be followed by a key or `*` and a repeated field by
 * `*`, and then by the fields of the value when it is a message. The lone path `*` (AIP-134) is valid.
 *
 * @throws {WktJsonError} rule `mask-path` naming the first offending path and segment; `json-type` if `mask` is
 *   not a FieldMask or an array of strings.
 * @example
 * fieldMaskCheck(TestAllTypesProto3Schema, ["optional_nested_message.a", "repeated_int32"]); //=> undefined
 * fieldMaskCheck(TestAllTypesProto3Schema, ["repeated_nested_message.a"]); // throws WktJsonError (rule "mask-path")
 */
export function fieldMaskCheck(schema: DescMessage, mask: FieldMaskLike, options?: FieldMaskCheckOptions): void {
  checkedPaths(schema, mask, options?.aip161 === true);
}

/**
 * Tells whether every path of a mask names fields of `schema`; see {@link fieldMaskCheck} for the rules.
 *
 * @throws {WktJsonError} rule `json-type` if `mask` is not a FieldMask or an array of strings.
 * @example
 * fieldMaskIsValid(TestAllTypesProto3Schema, ["optional_int32"]); //=> true
 * fieldMaskIsValid(TestAllTypesProto3Schema, ["no_such_field"]); //=> false
 */
export function fieldMaskIsValid(schema: DescMessage, mask: FieldMaskLike, options?: FieldMaskCheckOptions): boolean {
  const paths = maskPaths(mask);
  try {
    checkedPaths(schema, paths, options?.aip161 === true);
    return true;
  } catch (e) {
    if (e instanceof WktJsonError && e.rule === "mask-path") return false;
    throw e;
  }
}

/**
 * Parses and checks every path of `mask` against `schema`; map keys come back canonical (`007` → `"7"` for an
 * integer key).
 *
 * @internal
 */
export function checkedPaths(schema: DescMessage, mask: unknown, aip161: boolean, what?: string): Segment[][] {
  const paths = maskPaths(mask, what);
  const out: Segment[][] = [];
  const root = planOf(schema);
  for (let k = 0; k < paths.length; k++) out.push(checkPath(root, paths[k]!, parsePath(paths[k]!, aip161), aip161));
  return out;
}

/**
 * The trie of a mask checked against `schema`. The lone `*` becomes the whole message.
 *
 * @internal
 */
export function checkedTrie(schema: DescMessage, mask: unknown, aip161: boolean, what?: string): Node {
  const trie = trieOf(checkedPaths(schema, mask, aip161, what));
  return isStar(trie) ? LEAF : trie;
}

function checkPath(root: MessagePlan, path: string, segs: Segment[], aip161: boolean): Segment[] {
  if (segs.length === 1 && segs[0] === WILD) return segs;
  let plan: MessagePlan | undefined = root;
  let coll: FieldAccess | undefined; // the repeated or map field whose entry comes next
  let scalarOf: FieldAccess | undefined; // the field whose scalar value (or element) we stand on
  const out: Segment[] = new Array(segs.length);
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    if (plan !== undefined) {
      if (s === WILD) {
        throw maskPathError(
          path,
          s,
          `cannot stand for the fields of ${plan.desc.typeName}: \`*\` is every entry of a map or element of a repeated field`,
        );
      }
      const fp = plan.byName.get(s);
      if (fp === undefined) throw maskPathError(path, s, `names no field of ${plan.desc.typeName}`);
      out[i] = s;
      plan = undefined;
      if (fp.kind === "message") plan = planOf(fp.message!);
      else if (fp.kind === "list" || fp.kind === "map") {
        if (!aip161 && i + 1 < segs.length) {
          throw maskPathError(
            path,
            s,
            `is a ${fp.kind === "map" ? "map" : "repeated"} field; a repeated or map field is allowed only in the last position of a path`,
          );
        }
        coll = fp;
      } else scalarOf = fp;
      continue;
    }
    if (coll !== undefined) {
      const fp = coll;
      coll = undefined;
      if (fp.kind === "list") {
        if (s !== WILD) {
          throw maskPathError(
            path,
            s,
            isIntegerText(s)
              ? `addresses an element of the repeated field "${fp.name}" by position, which a mask may not (AIP-161); use "*" for every element`
              : `follows the repeated field "${fp.name}", whose elements have no names; use "*" for every element, then a field of the element`,
          );
        }
        out[i] = WILD;
      } else if (s === WILD) {
        out[i] = WILD;
      } else {
        const key = mapKeyOf(fp.mapKey!, s);
        if (key === undefined) {
          throw maskPathError(
            path,
            s,
            `is not a key of the map field "${fp.name}" (map<${ScalarType[fp.mapKey!].toLowerCase()}, ...>)`,
          );
        }
        out[i] = key;
      }
      if (fp.message !== undefined) plan = planOf(fp.message);
      else scalarOf = fp;
      continue;
    }
    const f = scalarOf!;
    const what = f.kind === "list" || f.kind === "map" ? `the values of "${f.name}" are` : `"${f.name}" is`;
    throw maskPathError(
      path,
      s,
      `is below a scalar: ${what} ${f.field.enum !== undefined ? "an enum" : "scalar"}, without fields`,
    );
  }
  return out;
}

/** The protobuf-es map key (the object key) for a path segment, or undefined if the key type cannot hold it. */
function mapKeyOf(type: ScalarType, s: string): string | undefined {
  switch (type) {
    case ScalarType.STRING:
      return s;
    case ScalarType.BOOL:
      return s === "true" || s === "false" ? s : undefined;
    default: {
      if (!isIntegerText(s)) return undefined;
      const v = BigInt(s);
      let min: bigint;
      let max: bigint;
      switch (type) {
        case ScalarType.INT32:
        case ScalarType.SINT32:
        case ScalarType.SFIXED32:
          min = -(2n ** 31n);
          max = 2n ** 31n - 1n;
          break;
        case ScalarType.UINT32:
        case ScalarType.FIXED32:
          min = 0n;
          max = 2n ** 32n - 1n;
          break;
        case ScalarType.UINT64:
        case ScalarType.FIXED64:
          min = 0n;
          max = uint64Max;
          break;
        default:
          min = int64Min;
          max = int64Max;
      }
      return v >= min && v <= max ? v.toString() : undefined;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Algebra
// ---------------------------------------------------------------------------------------------------------

/**
 * Sorts the paths of a mask, removes duplicates and every path covered by another (`a.b` goes when `a` is
 * there; `labels.env` when `labels.*` is), and writes each path in canonical form (map keys bare where the
 * syntax allows, quoted otherwise).
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse; `json-type` if `mask` is not a
 *   FieldMask or an array of strings.
 * @example
 * fieldMaskNormalize(["b", "a.x", "a", "b"]).paths; //=> ["a", "b"]
 */
export function fieldMaskNormalize(mask: FieldMaskLike): FieldMask {
  return makeMask(normalizePaths(maskPaths(mask)));
}

function normalizePaths(paths: readonly string[]): string[] {
  for (let k = 0; k < paths.length; k++) {
    if (!isSimplePath(paths[k]!)) return pathsOf(parseMask(paths, true));
  }
  // Only identifiers and integers: '.' sorts below every character a segment may hold, so a path's
  // descendants follow it directly, and comparing with the last path kept is enough.
  const sorted = paths.slice().sort(); // code-unit order, as pathsOf sorts
  const out: string[] = [];
  let last: string | undefined;
  for (let k = 0; k < sorted.length; k++) {
    const p = sorted[k]!;
    if (last !== undefined && (p === last || (p.charCodeAt(last.length) === 46 && p.startsWith(last)))) continue;
    out.push(p);
    last = p;
  }
  return out;
}

/**
 * The union of masks: every path of each, normalized (see {@link fieldMaskNormalize}).
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse; `json-type` if an argument is not a
 *   FieldMask or an array of strings.
 * @example
 * fieldMaskUnion(["config.url"], ["config", "events"]).paths; //=> ["config", "events"]
 */
export function fieldMaskUnion(...masks: FieldMaskLike[]): FieldMask {
  const all: string[] = [];
  for (let k = 0; k < masks.length; k++) {
    const paths = maskPaths(masks[k], `mask ${k}`);
    for (let i = 0; i < paths.length; i++) all.push(paths[i]!);
  }
  return makeMask(normalizePaths(all));
}

/** Options of the FieldMask functions whose result can hold more paths than their input. */
export interface FieldMaskSizeOptions {
  /**
   * The most paths the result may hold (default 10,000): beyond it the function throws rule `size` instead of
   * building it. The work of the function is bounded by this and the size of its input.
   */
  maxPaths?: number;
}

function maxPathsOf(options: FieldMaskSizeOptions | undefined): number {
  const m = options?.maxPaths;
  if (m === undefined) return defaultMaskMaxPaths;
  if (typeof m !== "number" || !(m >= 0) || (m !== Infinity && !Number.isInteger(m))) {
    throw new WktJsonError(
      "range",
      "$",
      fieldMaskType,
      `maxPaths must be a non-negative integer or Infinity, got ${describe(m)}`,
    );
  }
  return m;
}

function tooManyPaths(what: string, maxPaths: number): WktJsonError {
  return new WktJsonError(
    "size",
    "$",
    fieldMaskType,
    `${what} holds more than maxPaths (${formatBound(maxPaths)}) paths`,
  );
}

function tooMuchWork(what: string, maxPaths: number): WktJsonError {
  return new WktJsonError(
    "size",
    "$",
    fieldMaskType,
    `${what} takes more work than maxPaths (${formatBound(maxPaths)}) allows: the \`*\` paths of the masks overlap in too many ways, or the result is too large`,
  );
}

/** The work budget of a walk over two masks given as `paths` and a result of up to `maxPaths` paths. */
function stepBudget(paths: number, maxPaths: number): number {
  return (paths + Math.min(maxPaths, Number.MAX_SAFE_INTEGER)) * maskStepsPerPath;
}

/**
 * The intersection of two masks: what both select (`a` ∩ `a.b` is `a.b`; `authors.*.name` ∩ `authors` is
 * `authors.*.name`), normalized. Two masks of n paths can intersect in n² paths: `maxPaths` caps the result.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse; `json-type` if an argument is not a
 *   FieldMask or an array of strings; `size` when the result would hold more than `maxPaths` paths (default
 *   10,000), or the masks overlap through `*` in so many ways that finding it takes more than 100 steps per
 *   path of the inputs and of `maxPaths`; `range` for a bad `maxPaths`.
 * @example
 * fieldMaskIntersect(["a", "b.c"], ["a.x", "b"]).paths; //=> ["a.x", "b.c"]
 * fieldMaskIntersect(["a.*"], ["*.b"]).paths; //=> ["a.b"]
 */
export function fieldMaskIntersect(a: FieldMaskLike, b: FieldMaskLike, options?: FieldMaskSizeOptions): FieldMask {
  const maxPaths = maxPathsOf(options);
  const pa = maskPaths(a, "mask a");
  const pb = maskPaths(b, "mask b");
  const ta = parseMask(pa, true, "mask a");
  const tb = parseMask(pb, true, "mask b");
  let t: Node;
  try {
    t = intersect(ta, tb, stepBudget(pa.length + pb.length, maxPaths));
  } catch (e) {
    if (e instanceof BudgetExceeded) throw tooMuchWork("the intersection", maxPaths);
    throw e;
  }
  if (countPaths(t, maxPaths) > maxPaths) throw tooManyPaths("the intersection", maxPaths);
  return makeMask(pathsOf(t));
}

/**
 * The paths of `a` less what `b` selects, normalized. When `b` removes part of a path of `a` (`a` minus
 * `a.b`), the rest of it is spelled out from `schema`: the path becomes the remaining fields of its message
 * (`a.c`, `a.d`, ...), recursively. Without a schema that case is an error. Both masks are checked against
 * `schema` when it is given (AIP-161 syntax allowed). Spelling out can make the result larger than `a`:
 * `maxPaths` caps it.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse or (with a schema) names no field;
 *   when `b` removes part of a path of `a` and no schema is given; or when the rest cannot be written as paths
 *   (one map entry out of `labels` or `labels.*`). `json-type` if an argument is not a FieldMask or an array of
 *   strings. `size` when the result would hold more than `maxPaths` paths (default 10,000); `range` for a bad
 *   `maxPaths`.
 * @example
 * fieldMaskSubtract(["a", "b"], ["b"]).paths; //=> ["a"]
 * fieldMaskSubtract(["optional_nested_message"], ["optional_nested_message.a"], TestAllTypesProto3Schema).paths;
 * //=> ["optional_nested_message.corecursive"]
 */
export function fieldMaskSubtract(
  a: FieldMaskLike,
  b: FieldMaskLike,
  schema?: DescMessage,
  options?: FieldMaskSizeOptions,
): FieldMask {
  const maxPaths = maxPathsOf(options);
  let ta: Node;
  let tb: Node;
  let loc: Loc | undefined;
  if (schema === undefined) {
    ta = parseMask(a, true, "mask a");
    tb = parseMask(b, true, "mask b");
  } else {
    ta = checkedTrie(schema, a, true, "mask a");
    tb = checkedTrie(schema, b, true, "mask b");
    loc = planOf(schema);
  }
  // A path of `a` spelled out into n fields adds n leaves, of which those that `b` goes on into are removed
  // again: at most one per node of `b`. So once the leaves added outnumber maxPaths and b's nodes together,
  // the result holds more than maxPaths.
  const ctx: SubtractCtx = { added: 0, limit: Math.min(maxPaths, Number.MAX_SAFE_INTEGER) + countNodes(tb) };
  let r: Node;
  try {
    r = normalize(subtract(ta, [tb], loc, [], ctx));
  } catch (e) {
    if (e instanceof BudgetExceeded) throw tooManyPaths("the difference", maxPaths);
    throw e;
  }
  if (countPaths(r, maxPaths) > maxPaths) throw tooManyPaths("the difference", maxPaths);
  return makeMask(pathsOf(r));
}

interface SubtractCtx {
  /** Leaves added by spelling out paths of `a` so far. */
  added: number;
  limit: number;
}

function countNodes(node: Node): number {
  let n = 0;
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const v = stack.pop()!;
    n++;
    if (v.children !== undefined) for (const c of v.children.values()) stack.push(c);
    if (v.any !== undefined) stack.push(v.any);
  }
  return n;
}

/** Where a trie node stands in a schema: a message, a repeated/map field (its entries come next), or a scalar. */
type Loc = MessagePlan | FieldAccess | null;

function childLoc(loc: Loc | undefined, seg: Segment): Loc | undefined {
  if (loc === undefined || loc === null) return loc;
  if ("byName" in loc) {
    const fp = seg === WILD ? undefined : loc.byName.get(seg);
    if (fp === undefined) return null;
    if (fp.kind === "message") return planOf(fp.message!);
    return fp.kind === "list" || fp.kind === "map" ? fp : null;
  }
  return loc.message !== undefined ? planOf(loc.message) : null;
}

/**
 * `a` less what the set `b` selects (nodes of b's trie at a's depth whose prefixes generalize a's), not
 * normalized; an empty node when nothing is left.
 */
function subtract(a: Node, b: readonly Node[], loc: Loc | undefined, at: Segment[], ctx: SubtractCtx): Node {
  if (anyLeaf(b)) return emptyNode();
  if (isEmptyNode(a) || b.length === 0) return a;
  if (a.leaf) {
    if (loc === undefined) {
      throw maskPathError(
        formatPath(at),
        undefined,
        "loses a part to the subtracted mask; naming what remains of it needs the schema (fieldMaskSubtract(a, b, schema))",
      );
    }
    a = expand(loc, at, ctx);
  }
  let children: Map<string, Node> | undefined;
  if (a.children !== undefined) {
    for (const [k, ac] of a.children) {
      const bk = stepAll(b, k);
      at.push(k);
      const r = bk.length === 0 ? ac : subtract(ac, bk, childLoc(loc, k), at, ctx);
      at.pop();
      if (!isEmptyNode(r)) (children ??= new Map()).set(k, r);
    }
  }
  let any: Node | undefined;
  if (a.any !== undefined) {
    const bAny = stepAll(b, WILD);
    at.push(WILD);
    const rest = bAny.length === 0 ? a.any : subtract(a.any, bAny, childLoc(loc, WILD), at, ctx);
    at.pop();
    // `*` keeps selecting every key, so it cannot lose a part under one key only.
    for (const u of b) {
      if (u.children === undefined) continue;
      for (const [k, bc] of u.children) {
        if (overlaps(rest, bc)) {
          throw maskPathError(
            formatPath([...at, k]),
            undefined,
            `cannot be taken out of "${formatPath([...at, WILD])}": a mask has no way to say "every entry but one"`,
          );
        }
      }
    }
    if (!isEmptyNode(rest)) any = rest;
  }
  return { leaf: false, children, any };
}

/** A leaf at `loc` written as its parts: every field of a message, every entry of a repeated or map field. */
function expand(loc: Loc, at: Segment[], ctx: SubtractCtx): Node {
  if (loc === null) throw maskPathError(formatPath(at), undefined, "is a scalar and has no parts to take away");
  const out = emptyNode();
  if ("byName" in loc) {
    ctx.added += loc.fields.length;
    if (ctx.added > ctx.limit) throw new BudgetExceeded();
    out.children = new Map();
    for (const fp of loc.fields) out.children.set(fp.name, LEAF);
  } else {
    ctx.added++;
    out.any = LEAF;
  }
  return out;
}

/**
 * Tells whether a mask selects a path: the path itself, a path above it, or a wildcard at its position is in
 * the mask (`a` covers `a.b.c`; `labels.*` covers `labels.env`; `*` covers everything).
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse; `json-type` if `mask` is not a
 *   FieldMask or an array of strings, or `path` is not a string.
 * @example
 * fieldMaskCovers(["config", "events"], "config.secret"); //=> true
 * fieldMaskCovers(["config.url"], "config"); //=> false
 */
export function fieldMaskCovers(mask: FieldMaskLike, path: string): boolean {
  if (typeof path !== "string") {
    throw new WktJsonError("json-type", "$", maskTypeName, `path: expected a string, got ${describe(path)}`);
  }
  return coversPath(parseMask(mask, true), parsePath(path, true));
}

/**
 * The mask of every field of `schema`: each top-level field by its proto name, in declaration order.
 *
 * @throws never: the schema defines the paths.
 * @example
 * fieldMaskForAllFields(DurationSchema).paths; //=> ["seconds", "nanos"]
 */
export function fieldMaskForAllFields(schema: DescMessage): FieldMask {
  return makeMask(planOf(schema).fields.map((fp) => fp.name));
}

/**
 * The mask of the top-level fields of `schema` with the given field numbers, in the order given, without
 * duplicates (Java's `FieldMaskUtil.fromFieldNumbers`).
 *
 * @throws {WktJsonError} rule `mask-path` for a number that is not a field of `schema`.
 * @example
 * fieldMaskFromFieldNumbers(DurationSchema, [2, 1]).paths; //=> ["nanos", "seconds"]
 */
export function fieldMaskFromFieldNumbers(schema: DescMessage, numbers: readonly number[]): FieldMask {
  const plan = planOf(schema);
  if (!Array.isArray(numbers)) {
    throw new WktJsonError(
      "json-type",
      "$",
      maskTypeName,
      `numbers: expected an array of field numbers, got ${describe(numbers)}`,
    );
  }
  const seen = new Set<number>();
  const paths: string[] = [];
  for (const n of numbers) {
    const fp = plan.byNumber.get(n);
    if (fp === undefined) {
      throw new WktJsonError(
        "mask-path",
        "$",
        maskTypeName,
        `field number ${typeof n === "number" ? String(n) : describe(n)} is not a field of ${schema.typeName}`,
      );
    }
    if (!seen.has(n)) {
      seen.add(n);
      paths.push(fp.name);
    }
  }
  return makeMask(paths);
}

/**
 * The update mask that turns message `a` into message `b`: the paths of the fields whose values differ, going
 * down into a singular message field set in both (so only its changed sub-fields are listed) and naming any
 * other field whole (a repeated or map field, a oneof member, a field set in one message only). Paths are in
 * schema order. `fieldMaskMerge(schema, a, b, fieldMaskFromDiff(schema, a, b), { replaceMessageFields: true,
 * replaceRepeatedFields: true })` equals `b`. Unknown fields and extensions are not fields of the schema and
 * are not compared. NaN equals NaN and -0 differs from 0, as in the binary encoding.
 *
 * @throws {WktJsonError} rule `json-type` if `a` or `b` is not a message of `schema`; `depth` if messages nest
 *   deeper than the codec's limit (a cycle in a hand-built message).
 * @example
 * fieldMaskFromDiff(TestAllTypesProto3Schema, create(TestAllTypesProto3Schema, { optionalInt32: 1 }),
 *   create(TestAllTypesProto3Schema, { optionalInt32: 2, optionalNestedMessage: { a: 3 } })).paths;
 * //=> ["optional_int32", "optional_nested_message"]
 */
export function fieldMaskFromDiff<Desc extends DescMessage>(
  schema: Desc,
  a: MessageShape<Desc>,
  b: MessageShape<Desc>,
): FieldMask {
  checkMessage(schema, a, "a");
  checkMessage(schema, b, "b");
  const out: string[] = [];
  diff(planOf(schema), a as unknown as Msg, b as unknown as Msg, "", out, defaultMaxDepth);
  return makeMask(out);
}

function diff(plan: MessagePlan, a: Msg, b: Msg, prefix: string, out: string[], depthLeft: number): void {
  if (depthLeft <= 0) throw depthError(plan.desc);
  for (const fp of plan.fields) {
    const sa = fieldIsSet(fp, a);
    const sb = fieldIsSet(fp, b);
    if (!sa && !sb) continue;
    const va = fieldGet(fp, a);
    const vb = fieldGet(fp, b);
    if (sa && sb && fp.kind === "message" && fp.box === 0) {
      diff(planOf(fp.message!), asMsg(va, fp), asMsg(vb, fp), prefix + fp.name + ".", out, depthLeft - 1);
    } else if (sa !== sb || !fieldValueEquals(fp, va, vb, depthLeft)) {
      out.push(prefix + fp.name);
    }
  }
}
