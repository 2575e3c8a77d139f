/**
 * google.protobuf.FieldMask: its JSON form. (Set operations, normalize/union/intersect/subtract, will live in
 * this module too; projection and update on messages are in field-mask-apply.ts.)
 *
 * Spec (wkt.md): "FieldMask | paths: string[] | one string, paths joined by commas, each name in lower-camel
 * form". The comment in google/protobuf/field_mask.proto adds: "The implementation of any API method which has
 * a FieldMask type field in the request should verify the included field paths, and return an
 * `INVALID_ARGUMENT` error if any path is unmappable", and that a path whose lower-camel form does not map
 * back to the same proto name is an error when serializing.
 *
 * The accept/reject decisions follow protobuf-go's `protojson` (marshalFieldMask / unmarshalFieldMask), which
 * passes every FieldMask case of the conformance suite:
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
 * @module
 */
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "./errors.js";

const fieldMaskType = "google.protobuf.FieldMask";

/** "_a" to "_z", indexed by an upper-case letter's code minus 65. */
const underscoreLower: readonly string[] = Array.from({ length: 26 }, (_, k) => "_" + String.fromCharCode(97 + k));

const utf8 = new TextEncoder();
/** Reused by asciiCodes for inputs up to scratchMax characters; fieldMaskFromJson never re-enters itself. */
let scratch = new Uint8Array(256);
const scratchMax = 65_536;

/**
 * The UTF-8 bytes of `s`, at least `s.length` of them valid: while `s` is ASCII, byte i is its char code i, and
 * the first byte above 127 is where its first other character starts (a byte 255 stands in for a character
 * that did not fit). The parser scans these bytes rather than calling charCodeAt: V8 re-checks a string's
 * representation on every charCodeAt, while a typed-array load is a plain load; the scan is about twice as
 * fast.
 */
function asciiCodes(s: string): Uint8Array {
  const n = s.length;
  let buf = scratch;
  if (n > buf.length) {
    buf = new Uint8Array(Math.max(n, buf.length * 2));
    if (buf.length <= scratchMax) scratch = buf;
  }
  const r = utf8.encodeInto(s, buf);
  if (r.read < n && r.written < buf.length) buf[r.written] = 255;
  return buf;
}

/**
 * Decodes the JSON form of a FieldMask, one string of comma-separated lower-camel paths, into proto paths.
 *
 * @throws {WktJsonError} rule `json-type` if `json` is not a string; `mask-path` for a path that cannot be a
 *   proto path (holds `_` or a character other than ASCII letters, digits and `.`, has an empty path or
 *   segment, or a segment starting with a digit).
 * @example
 * fieldMaskFromJson("user.displayName,photo").paths; //=> ["user.display_name", "photo"]
 * fieldMaskFromJson("").paths; //=> []
 */
export function fieldMaskFromJson(json: unknown): FieldMask {
  if (typeof json !== "string") {
    throw new WktJsonError("json-type", "$", fieldMaskType, `expected a string, got ${describe(json)}`);
  }
  const paths: string[] = [];
  const n = json.length;
  if (n === 0) return { $typeName: fieldMaskType, paths };
  // Every valid character is ASCII, and up to the first one that is not, byte i is character i.
  const codes = asciiCodes(json);
  let out = ""; // the snake_case form of the current path, up to `from`
  let from = 0; // first index of `json` not yet copied to `out`
  let pathStart = 0;
  let segStart = 0;
  for (let i = 0; i < n; i++) {
    const c = codes[i]!;
    if (c >= 97 && c <= 122) continue; // a-z
    if (c >= 65 && c <= 90) {
      // A-Z: "_" + lower case. A leading capital gives a leading "_", which round-trips.
      out += json.slice(from, i) + underscoreLower[c - 65]!;
      from = i + 1;
      continue;
    }
    if (c >= 48 && c <= 57) {
      if (i === segStart) throw jsonPathError(json, pathStart, segStart, "starts with a digit");
      continue;
    }
    if (c === 46) {
      if (i === segStart) throw jsonPathError(json, pathStart, segStart, "is empty");
      segStart = i + 1;
      continue;
    }
    if (c === 44) {
      if (i === segStart) throw jsonPathError(json, pathStart, segStart, "is empty");
      paths.push(from === pathStart ? json.slice(pathStart, i) : out + json.slice(from, i));
      out = "";
      from = pathStart = segStart = i + 1;
      continue;
    }
    // "_", any other ASCII character, or the first byte of a character that is not ASCII.
    throw jsonPathError(json, pathStart, segStart, invalidCharacter(json, i));
  }
  if (n === segStart) throw jsonPathError(json, pathStart, segStart, "is empty");
  paths.push(from === pathStart ? json.slice(pathStart) : out + json.slice(from));
  return { $typeName: fieldMaskType, paths };
}

/**
 * Encodes a FieldMask (or its list of proto paths) as its JSON form: the paths in lower-camel form, joined by
 * commas.
 *
 * @throws {WktJsonError} rule `json-type` if a path is not a string; `mask-path` for a path whose lower-camel
 *   form would not decode to the same path (an upper-case letter; `_` before a digit, before `_`, or at the end
 *   of a segment; a character other than `a-z`, `0-9`, `_`, `.`; an empty path or segment; a segment starting
 *   with a digit).
 * @example
 * fieldMaskToJson(["user.display_name", "photo"]); //=> "user.displayName,photo"
 * fieldMaskToJson(["foo_3_bar"]); // throws WktJsonError (rule "mask-path")
 */
export function fieldMaskToJson(mask: FieldMask | readonly string[]): string {
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
 * @throws {WktJsonError} rule `json-type` if a path is not a string.
 * @example
 * fieldMaskFromPaths(["config.url"]); //=> { $typeName: "google.protobuf.FieldMask", paths: ["config.url"] }
 */
export function fieldMaskFromPaths(paths: readonly string[]): FieldMask {
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
