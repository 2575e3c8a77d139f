/**
 * The one FieldMask path parser: the paths of a mask read into segments, and segments written back as
 * canonical text.
 *
 * field_mask.proto: "paths: "f.a" paths: "f.b.d" — Here `f` represents a field in some root message, `a` and
 * `b` fields in the message found in `f`, and `d` a field found in the message in `f.b`." Rule 7 (wkt.md): "A
 * repeated field is allowed only at the last position of a path."
 *
 * AIP-161 extends the syntax, and this parser reads it:
 *
 * ```
 * path    = segment *("." segment)
 * segment = ident | integer | "*" | quoted
 * ident   = (ALPHA / "_") *(ALPHA / DIGIT / "_")      a field name, or a map key / property name
 * integer = ["-"] 1*DIGIT                            an integer map key; never a list index
 * quoted  = "`" *(any character but "`" / "``") "`"   any other key; "``" stands for one backtick
 * ```
 *
 * "Field masks must not permit accessing a particular element of a repeated field by index" (AIP-161): the
 * parser accepts an integer segment (it may be an integer map key), and the schema or the data rejects it where
 * it meets a list. `*` stands for every entry of a map or element of a list ("authors.*.given_name"), and the
 * lone path `*` for everything (AIP-134, AIP-157). Backtick escaping follows LUCI's mask package: "``" inside
 * backticks is one backtick. A quoted key that is itself an identifier or an integer means the same as the
 * bare one (`` `env` `` is `env`), so every path has one canonical text: bare where the syntax allows, quoted
 * otherwise.
 *
 * Strict proto mode (rule 7, the message functions' default) allows identifiers only, plus the lone `*`.
 *
 * The trie the paths are gathered in is mask-trie.ts.
 *
 * @internal
 * @module
 */
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "./describe.js";
import { fieldMaskTypeName } from "./names.js";
import { isDigit } from "./scan.js";
import { defaultMaxDepth } from "../limits.js";

/** The wildcard segment `*` (a quoted `` `*` `` is the literal key "*", a string). */
export const WILD: unique symbol = /* @__PURE__ */ Symbol("*");

/** One parsed segment: a field name or key (decoded), or the wildcard. */
export type Segment = string | typeof WILD;

/** A FieldMask message or its list of paths. */
export type FieldMaskLike = FieldMask | readonly string[];

/** Most segments in one path: as deep as the codec nests messages. */
export const maxSegments = defaultMaxDepth;

/** Reads the paths of a FieldMask or array argument; `json-type` if it is neither or a path is not a string. */
export function maskPaths(mask: unknown, what = "mask"): readonly string[] {
  const paths: unknown = Array.isArray(mask)
    ? mask
    : typeof mask === "object" && mask !== null
      ? (mask as { paths?: unknown }).paths
      : undefined;
  if (!Array.isArray(paths)) {
    throw new WktJsonError(
      "json-type",
      "$",
      fieldMaskTypeName,
      `${what}: expected a FieldMask or an array of paths, got ${describe(mask)}`,
    );
  }
  for (let k = 0; k < paths.length; k++) {
    if (typeof paths[k] !== "string") {
      throw new WktJsonError(
        "json-type",
        "$",
        fieldMaskTypeName,
        `${what}: path ${k} is ${describe(paths[k])}, not a string`,
      );
    }
  }
  return paths as readonly string[];
}

/** Makes a FieldMask message; `paths` is owned by the result. */
export function makeMask(paths: string[]): FieldMask {
  return { $typeName: fieldMaskTypeName, paths };
}

/**
 * A `mask-path` error for `path`: `path "a.b": segment "b" <what>`. A path whose FieldMask JSON form differs
 * from it (`author.nick_name`, `author.nickName`) is quoted in both forms, the one the client wrote first: the
 * JSON form with `written` (see {@link writtenPath}), `path "author.nickName" (proto name "author.nick_name"):
 * segment "nickName"`; else the proto form, `path "author.nick_name" (JSON form "author.nickName"): segment
 * "nick_name"`. `index` is the segment's position in the path.
 */
export function maskPathError(
  path: string,
  segment: Segment | undefined,
  what: string,
  written?: boolean,
  index?: number,
): WktJsonError {
  let shown = JSON.stringify(path);
  const camel = jsonFormOf(path);
  if (camel !== undefined && written === true) {
    shown = `${JSON.stringify(camel)} (proto name ${shown})`;
    if (index !== undefined && typeof segment === "string") segment = camel.split(".")[index] ?? segment;
  } else if (camel !== undefined) {
    shown = `${shown} (JSON form ${JSON.stringify(camel)})`;
  }
  const seg = segment === undefined ? "" : `segment ${segment === WILD ? '"*"' : JSON.stringify(segment)} `;
  return new WktJsonError("mask-path", "$", fieldMaskTypeName, `path ${shown}: ${seg}${what}`);
}

/**
 * The FieldMask JSON form of a proto path when it differs from it and decodes back to it (`author.nick_name`:
 * `author.nickName`), else undefined. Called on an error only.
 */
function jsonFormOf(path: string): string | undefined {
  if (path.length > 200) return undefined; // a message quotes a long path once
  if (!/^[a-z][a-z0-9]*(_[a-z][a-z0-9]*)*(\.[a-z][a-z0-9]*(_[a-z][a-z0-9]*)*)*$/.test(path)) return undefined;
  const camel = path.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return camel === path ? undefined : camel;
}

/**
 * The paths `fieldMaskFromJson` (or the codec) decoded last, and the JSON text they came from: two stores per
 * decode (a WeakMap of every decoded mask cost more than the decode), enough for the usual order, a query
 * parameter decoded and then used. An error about one of these paths then quotes the JSON form first.
 */
let lastPaths: readonly string[] | undefined;

/** Remembers that `paths` were decoded from FieldMask JSON. @internal */
export function noteJsonText(paths: readonly string[]): void {
  lastPaths = paths;
}

/**
 * Whether the paths were decoded from the FieldMask JSON form (the last decoded, see {@link noteJsonText}): then
 * the client wrote each path in its JSON form. Called on an error only.
 */
export function writtenPath(paths: readonly string[]): boolean {
  return paths === lastPaths;
}

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c);
}

/** 1 for an identifier, 2 for an integer, 0 for neither; over `s[from, to)`. */
function bareKind(s: string, from: number, to: number): 0 | 1 | 2 {
  if (from >= to) return 0;
  const c0 = s.charCodeAt(from);
  if (isIdentStart(c0)) {
    for (let i = from + 1; i < to; i++) if (!isIdentPart(s.charCodeAt(i))) return 0;
    return 1;
  }
  let i = from;
  if (c0 === 45) i++; // "-"
  if (i >= to) return 0;
  for (; i < to; i++) if (!isDigit(s.charCodeAt(i))) return 0;
  return 2;
}

/** Whether `s` is an integer segment (`-?[0-9]+`). */
export function isIntegerText(s: string): boolean {
  return bareKind(s, 0, s.length) === 2;
}

/**
 * Whether `p` is a valid path made of identifier and integer segments only (no backticks, no `*`): then its
 * text is already canonical and a plain string sort orders it as the trie would. Allocates nothing.
 */
export function isSimplePath(p: string): boolean {
  const n = p.length;
  if (n === 0) return false;
  let segs = 1;
  let i = 0;
  for (;;) {
    let c = p.charCodeAt(i);
    const kind = c < 128 ? charClass[c]! : 0;
    if (kind === identStart) {
      for (i++; i < n; i++) {
        c = p.charCodeAt(i);
        if (c === 46) break;
        if (c >= 128 || charClass[c] === 0) return false;
      }
    } else {
      if (c === 45) i++; // "-"
      const digits = i;
      for (; i < n; i++) {
        c = p.charCodeAt(i);
        if (c === 46) break;
        if (c >= 128 || charClass[c] !== digit) return false;
      }
      if (i === digits) return false;
    }
    if (i === n) return true;
    if (++i === n || ++segs > maxSegments) return false; // a trailing "." or too many segments
  }
}

const digit = 1;
const identStart = 2;
/** ASCII character classes: 1 for a digit, 2 for a letter or "_" (a digit is also an identifier part). */
const charClass = /* @__PURE__ */ (() => {
  const t = new Uint8Array(128);
  for (let c = 48; c <= 57; c++) t[c] = digit;
  for (let c = 65; c <= 90; c++) t[c] = identStart;
  for (let c = 97; c <= 122; c++) t[c] = identStart;
  t[95] = identStart;
  return t;
})();

/**
 * Parses one path into segments.
 *
 * `aip161` false (strict proto, rule 7): identifiers only, or the lone `*`. True: the whole grammar above.
 */
export function parsePath(p: string, aip161: boolean): Segment[] {
  const n = p.length;
  if (n === 0) throw maskPathError(p, undefined, "is empty");
  if (n === 1 && p.charCodeAt(0) === 42) return [WILD];
  const segs: Segment[] = [];
  let i = 0;
  for (;;) {
    if (segs.length >= maxSegments) {
      throw maskPathError(p, undefined, `has more than ${maxSegments} segments`);
    }
    const c = i < n ? p.charCodeAt(i) : -1;
    if (c === 96) {
      // "`": a quoted key, "``" inside stands for one backtick.
      let text = "";
      let from = i + 1;
      let j = from;
      for (;;) {
        if (j >= n) throw maskPathError(p, p.slice(i), "has no closing backtick");
        if (p.charCodeAt(j) === 96) {
          if (j + 1 < n && p.charCodeAt(j + 1) === 96) {
            text += p.slice(from, j + 1);
            j += 2;
            from = j;
            continue;
          }
          break;
        }
        j++;
      }
      text += p.slice(from, j);
      if (!aip161)
        throw maskPathError(p, text, "is quoted; map keys in paths need the AIP-161 syntax ({ aip161: true })");
      segs.push(text);
      i = j + 1;
      if (i < n && p.charCodeAt(i) !== 46) {
        throw maskPathError(p, text, "is followed by a character other than '.' after its closing backtick");
      }
    } else {
      let j = i;
      while (j < n && p.charCodeAt(j) !== 46) j++;
      if (j === i) throw maskPathError(p, undefined, "has an empty segment");
      if (j === i + 1 && c === 42) {
        if (!aip161)
          throw maskPathError(p, WILD, "is a wildcard; `*` inside a path needs the AIP-161 syntax ({ aip161: true })");
        segs.push(WILD);
      } else {
        const kind = bareKind(p, i, j);
        const text = p.slice(i, j);
        if (kind === 0) {
          let k = i;
          while (k < j && isIdentPart(p.charCodeAt(k))) k++;
          if (k === j) throw maskPathError(p, text, "starts with a digit; quote a key like this with backticks");
          const bad = String.fromCodePoint(p.codePointAt(k)!);
          throw maskPathError(
            p,
            text,
            `holds the character ${JSON.stringify(bad)}; quote a key like this with backticks`,
          );
        }
        if (kind === 2 && !aip161) {
          throw maskPathError(
            p,
            text,
            "is a number: a list index is never allowed, and map keys in paths need the AIP-161 syntax ({ aip161: true })",
          );
        }
        segs.push(text);
      }
      i = j;
    }
    if (i >= n) return segs;
    i++; // "."
    if (i >= n) throw maskPathError(p, undefined, "ends with '.'");
  }
}

/** The canonical text of one segment: bare where the grammar allows, else quoted. */
export function formatSegment(s: Segment): string {
  if (s === WILD) return "*";
  if (bareKind(s, 0, s.length) !== 0) return s;
  let out = "`";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) === 96) {
      out += s.slice(from, i + 1) + "`";
      from = i + 1;
    }
  }
  return out + s.slice(from) + "`";
}

/** The canonical text of a path. */
export function formatPath(segs: readonly Segment[]): string {
  let out = "";
  for (let i = 0; i < segs.length; i++) out += (i > 0 ? "." : "") + formatSegment(segs[i]!);
  return out;
}
