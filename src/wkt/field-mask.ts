/**
 * google.protobuf.FieldMask: its JSON form. (Validation against a schema and set algebra are re-exported from
 * field-mask-check.ts and field-mask-algebra.ts; projection and update on messages and on plain JSON are in
 * mask/; the one path parser is internal/mask-path.ts.)
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
 * Validating a mask against a schema is field-mask-check.ts; the set algebra, field-mask-algebra.ts; both are
 * exported from here as well.
 *
 * @module
 */
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { callAtBase } from "../internal/base-path.js";
import { describe } from "../internal/describe.js";
import { maxSegments, noteJsonText } from "../internal/mask-path.js";
import { fieldMaskTypeName } from "../internal/names.js";
import { isDigit } from "../internal/scan.js";

export type { FieldMaskLike } from "../internal/mask-path.js";
export { fieldMaskCheck, fieldMaskIsValid } from "./field-mask-check.js";
export type { FieldMaskCheckOptions } from "./field-mask-check.js";
export * from "./field-mask-algebra.js";

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
 * The text `*` alone is the mask `["*"]`, every field: AIP-134 "Update masks must support a special value `*`,
 * meaning full replacement", AIP-157 "An explicit value of `"*"` should be supported, and must return all
 * fields". The empty string is the empty mask, which selects nothing (see the `mask` module).
 *
 * @throws {WktJsonError} rule `json-type` if `json` is not a string; `mask-path` for a path that cannot be a
 *   proto path (holds `_` or a character other than ASCII letters, digits and `.`, has an empty path or
 *   segment, a segment starting with a digit, or more than 100 segments, the limit of every mask path; `*`
 *   beside other paths); at `$`, or at `options.path` when given. Rule `range` for a `path` option that is not
 *   a string starting with `$`.
 * @example
 * fieldMaskFromJson("user.displayName,photo").paths; //=> ["user.display_name", "photo"]
 * fieldMaskFromJson("*").paths; //=> ["*"]
 * fieldMaskFromJson("").paths; //=> []
 * fieldMaskFromJson("title,author_name", { path: "$.updateMask" }); // throws WktJsonError (rule "mask-path", jsonPath "$.updateMask")
 */
export function fieldMaskFromJson(json: unknown, options?: FieldMaskJsonOptions): FieldMask;
/** @hidden */
// Without options, so that `texts.map(fieldMaskFromJson)` still compiles (map passes an index second).
export function fieldMaskFromJson(json: unknown): FieldMask;
export function fieldMaskFromJson(json: unknown, options?: FieldMaskJsonOptions): FieldMask {
  // With options, the error of the parse moves under the base path; without, this test is all it adds.
  return options === undefined ? fieldMaskParse(json) : callAtBase(fieldMaskParse, json, options, fieldMaskTypeName);
}

/**
 * {@link fieldMaskFromJson} without options, for the codec: its errors are at `$`, and the codec moves them to
 * the field's path.
 *
 * @internal
 */
export function fieldMaskParse(json: unknown): FieldMask {
  if (typeof json !== "string") {
    throw new WktJsonError("json-type", "$", fieldMaskTypeName, `expected a string, got ${describe(json)}`);
  }
  const n = json.length;
  if (n === 0) return { $typeName: fieldMaskTypeName, paths: [] };
  // AIP-134 "a special value `*`, meaning full replacement"; AIP-157 "An explicit value of "*" ... must return
  // all fields": the whole mask `*`, which no path of identifiers can be.
  if (n === 1 && json.charCodeAt(0) === 42) return { $typeName: fieldMaskTypeName, paths: ["*"] };
  // Every valid character is ASCII, and up to the first one that is not, byte i is character i; byte n is 0.
  const codes = asciiCodes(json);
  const paths = n < decodeMin ? pathsBySlicing(json, codes, n) : pathsByDecoding(codes, n);
  if (paths === undefined) throw jsonMaskError(json);
  noteJsonText(paths); // so that a later error quotes the paths as the client wrote them
  return { $typeName: fieldMaskTypeName, paths };
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
    if (isDigit(c)) {
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
    if (c === 42 && i === pathStart && (i + 1 === json.length || json.charCodeAt(i + 1) === 44)) {
      return jsonPathError(json, pathStart, segStart, starAlone);
    }
    return jsonPathError(json, pathStart, segStart, invalidCharacter(json, i, pathStart));
  }
  // What is left of a refused mask: an empty last path or segment.
  return jsonPathError(json, pathStart, segStart, "is empty");
}

/**
 * Encodes a FieldMask (or its list of proto paths) as its JSON form: the paths in lower-camel form, joined by
 * commas. The mask `["*"]` (every field) is `"*"`.
 *
 * @throws {WktJsonError} rule `json-type` if a path is not a string; `mask-path` for a path whose lower-camel
 *   form would not decode to the same path (an upper-case letter; `_` before a digit, before `_`, or at the end
 *   of a segment; a character other than `a-z`, `0-9`, `_`, `.`; an empty path or segment; a segment starting
 *   with a digit); at `$`, or at `options.path` when given. Rule `range` for a `path` option that is not a string
 *   starting with `$`.
 * @example
 * fieldMaskToJson(["user.display_name", "photo"]); //=> "user.displayName,photo"
 * fieldMaskToJson(["foo_3_bar"]); // throws WktJsonError (rule "mask-path", jsonPath "$")
 * fieldMaskToJson(["foo_3_bar"], { path: "$.updateMask" }); // throws WktJsonError (rule "mask-path", jsonPath "$.updateMask")
 */
export function fieldMaskToJson(mask: FieldMask | readonly string[], options?: FieldMaskJsonOptions): string;
/** @hidden */
// Without options, so that `masks.map(fieldMaskToJson)` still compiles (map passes an index second).
export function fieldMaskToJson(mask: FieldMask | readonly string[]): string;
export function fieldMaskToJson(mask: FieldMask | readonly string[], options?: FieldMaskJsonOptions): string {
  if (options !== undefined) return callAtBase(fieldMaskToJson, mask, options, fieldMaskTypeName);
  const paths: unknown = Array.isArray(mask) ? mask : (mask as Partial<FieldMask> | null | undefined)?.paths;
  if (!Array.isArray(paths)) {
    throw new WktJsonError(
      "json-type",
      "$",
      fieldMaskTypeName,
      `expected a FieldMask or an array of paths, got ${describe(mask)}`,
    );
  }
  // The whole mask `*` (AIP-134, AIP-157) is written as it is; beside other paths it has no JSON form.
  if (paths.length === 1 && paths[0] === "*") return "*";
  let result = "";
  for (let k = 0; k < paths.length; k++) {
    const p = paths[k];
    if (typeof p !== "string") {
      throw new WktJsonError("json-type", "$", fieldMaskTypeName, `path ${k} is ${describe(p)}, not a string`);
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
    throw new WktJsonError("json-type", "$", fieldMaskTypeName, `expected an array of paths, got ${describe(paths)}`);
  }
  const copy: string[] = [];
  for (let k = 0; k < paths.length; k++) {
    const p = paths[k];
    if (typeof p !== "string") {
      throw new WktJsonError("json-type", "$", fieldMaskTypeName, `path ${k} is ${describe(p)}, not a string`);
    }
    copy.push(p);
  }
  return { $typeName: fieldMaskTypeName, paths: copy };
}

/** The lower-camel form of one proto path, or a `mask-path` error if it would not decode back to `p`. */
function camelPath(p: string): string {
  if (p === "*") throw protoPathError(p, 0, starAlone);
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
    fieldMaskTypeName,
    `path ${JSON.stringify(shown)} has more than ${maxSegments} segments`,
  );
}

/** What a path `*` beside other paths is told. */
const starAlone = "stands for every field only as the whole mask: beside other paths it has no JSON form";

function invalidCharacter(json: string, i: number, pathStart: number): string {
  if (json.charCodeAt(i) === 95) {
    // A proto name where the JSON form was wanted (`due_time`): say how to write it.
    let end = json.indexOf(",", pathStart);
    if (end < 0) end = json.length;
    const camel = json.slice(pathStart, end).replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    const hint = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)*$/.test(camel) ? `; write ${JSON.stringify(camel)}` : "";
    return `holds '_', which the lower-camel JSON form cannot contain${hint}`;
  }
  return `holds the character ${JSON.stringify(String.fromCodePoint(json.codePointAt(i)!))}`;
}

function jsonPathError(json: string, pathStart: number, segStart: number, what: string): WktJsonError {
  let pathEnd = json.indexOf(",", segStart);
  if (pathEnd < 0) pathEnd = json.length;
  const path = json.slice(pathStart, pathEnd);
  const detail = `path ${JSON.stringify(path)}: ${segmentText(json, segStart, pathEnd)} ${what}`;
  return new WktJsonError("mask-path", "$", fieldMaskTypeName, detail);
}

function protoPathError(p: string, segStart: number, what: string): WktJsonError {
  const detail = `path ${JSON.stringify(p)}: ${segmentText(p, segStart, p.length)} ${what}`;
  return new WktJsonError("mask-path", "$", fieldMaskTypeName, detail);
}

function segmentText(s: string, segStart: number, end: number): string {
  let segEnd = s.indexOf(".", segStart);
  if (segEnd < 0 || segEnd > end) segEnd = end;
  const seg = s.slice(segStart, segEnd);
  return seg === "" ? "a segment" : `segment ${JSON.stringify(seg)}`;
}
