/**
 * Path templates of google/api/http.proto:
 *
 * ```
 * Template = "/" Segments [ Verb ] ;
 * Segments = Segment { "/" Segment } ;
 * Segment  = "*" | "**" | LITERAL | Variable ;
 * Variable = "{" FieldPath [ "=" Segments ] "}" ;
 * FieldPath = IDENT { "." IDENT } ;
 * Verb     = ":" LITERAL ;
 * ```
 *
 * "The syntax `*` matches a single URL path segment. The syntax `**` matches zero or more URL path segments,
 * which must be the last part of the URL path except the `Verb`. The syntax `Variable` matches part of the URL
 * path as specified by its template. A variable template must not contain other variables. If a variable
 * matches a single path segment, its template may be omitted, e.g. `{var}` is equivalent to `{var=*}`."
 *
 * A template is parsed once (a scan of its characters) into segments; matching a path and expanding one are
 * each a pass over the segments. A `*` matches a segment that is not empty. Decoding of what a variable
 * captures follows http.proto (see percent.ts); a literal is compared with the path's segment decoded.
 *
 * @module
 * @internal
 */
import { WktJsonError } from "../errors.js";
import { httpRuleTypeName } from "./http-rule.js";
import { percentDecode, percentDecodeKeepSlash, percentEncode, percentEncodeKeepSlash } from "./percent.js";

/** A literal segment (its text decoded), `*`, or `**`. */
export type TemplateSegment = string | typeof STAR | typeof STARS;
export const STAR: unique symbol = Symbol("*");
export const STARS: unique symbol = Symbol("**");

/** A `{field.path=...}` of a template: the segments it spans, `[start, end)`. */
export interface TemplateVariable {
  /** The field path as written, split at the dots. */
  readonly fieldPath: readonly string[];
  readonly start: number;
  readonly end: number;
  /** More than one segment, or `**`: http.proto's "multiple path segments" (`%2F` stays encoded). */
  readonly multi: boolean;
  /** `{name}`, as errors name the variable. */
  readonly label: string;
}

export interface PathTemplate {
  readonly text: string;
  readonly segments: readonly TemplateSegment[];
  readonly variables: readonly TemplateVariable[];
  readonly verb: string | undefined;
}

/** The longest template parsed, in UTF-16 code units: templates are written by people, in .proto files. */
export const templateLengthMax = 4096;

/**
 * Parses a path template. `where` is the rule's member holding it (`$.get`), where errors are reported.
 *
 * @throws {WktJsonError} rule `syntax` (type google.api.HttpRule) for a template outside the grammar.
 */
export function parseTemplate(text: string, where: string): PathTemplate {
  const fail = (at: number, why: string): never => {
    throw new WktJsonError(
      "syntax",
      where,
      httpRuleTypeName,
      `path template ${JSON.stringify(text)}: ${why} at offset ${at} (google/api/http.proto's grammar)`,
    );
  };
  if (typeof text !== "string") fail(0, "not a string");
  if (text.length > templateLengthMax) fail(templateLengthMax, `longer than ${templateLengthMax} characters`);
  if (text.charCodeAt(0) !== 47) fail(0, `does not start with "/"`);
  const segments: TemplateSegment[] = [];
  const variables: TemplateVariable[] = [];
  let verb: string | undefined;
  let i = 1;
  let inVariable: { fieldPath: string[]; start: number; label: string } | undefined;
  if (text.length === 1) return { text, segments, variables, verb };
  const literalEnd = (from: number): number => {
    let j = from;
    while (j < text.length) {
      const c = text[j]!;
      if (c === "/" || c === ":" || c === "{" || c === "}" || c === "=" || c === "*") break;
      j++;
    }
    return j;
  };
  for (;;) {
    // One segment at i.
    const c = text[i];
    if (c === "{") {
      if (inVariable !== undefined) fail(i, "a variable inside a variable");
      const nameEnd = literalEnd(i + 1);
      const name = text.slice(i + 1, nameEnd);
      const fieldPath = name.split(".");
      // Each name is resolved against the request message (compiled-rule.ts), which refuses one naming no field.
      if (fieldPath.some((n) => n === "")) fail(i + 1, `${JSON.stringify(name)} is not a field path`);
      const label = `{${name}}`;
      if (variables.some((v) => v.label === label)) fail(i, `${label} twice`);
      if (text[nameEnd] === "}") {
        variables.push({ fieldPath, start: segments.length, end: segments.length + 1, multi: false, label });
        segments.push(STAR);
        i = nameEnd + 1;
      } else if (text[nameEnd] === "=") {
        inVariable = { fieldPath, start: segments.length, label };
        i = nameEnd + 1;
        continue;
      } else fail(nameEnd, `expected "=" or "}"`);
    } else if (c === "*") {
      if (text[i + 1] === "*") {
        segments.push(STARS);
        i += 2;
      } else {
        segments.push(STAR);
        i += 1;
      }
    } else {
      const end = literalEnd(i);
      if (end === i) fail(i, "an empty segment");
      const literal = percentDecode(text.slice(i, end));
      if (literal === undefined) fail(i, "a malformed percent-encoding");
      segments.push(literal!);
      i = end;
    }
    // After the segment: "}" closes a variable, then "/", ":" or the end.
    if (text[i] === "}") {
      if (inVariable === undefined) fail(i, `a "}" without its "{"`);
      const { fieldPath, start, label } = inVariable!;
      const end = segments.length;
      const multi = end - start > 1 || segments[start] === STARS;
      variables.push({ fieldPath, start, end, multi, label });
      inVariable = undefined;
      i++;
    }
    if (i === text.length) break;
    if (text[i] === "/") {
      i++;
      continue;
    }
    if (text[i] === ":" && inVariable === undefined) {
      const end = literalEnd(i + 1);
      if (end === i + 1 || end !== text.length) fail(i + 1, "a verb that is not one literal at the end");
      verb = text.slice(i + 1);
      break;
    }
    fail(i, `unexpected ${JSON.stringify(text[i])}`);
  }
  if (inVariable !== undefined) fail(text.length, `${inVariable.label} is not closed`);
  const stars = segments.indexOf(STARS);
  if (stars >= 0 && stars !== segments.length - 1) fail(0, `"**" is not the last segment`);
  return { text, segments, variables, verb };
}

/**
 * What a path matched: each variable's value, decoded, or `undefined` for one whose percent-encoding is
 * malformed; `undefined` when the path does not match. `path` is the URL's path, without its query.
 */
export function matchTemplate(t: PathTemplate, path: string): (string | undefined)[] | undefined {
  let p = path;
  if (t.verb !== undefined) {
    if (!p.endsWith(":" + t.verb)) return undefined;
    p = p.slice(0, p.length - t.verb.length - 1);
  }
  if (p.charCodeAt(0) !== 47) return undefined;
  const n = t.segments.length;
  if (n === 0) return p === "/" ? [] : undefined;
  const raw = p.slice(1).split("/");
  const tail = t.segments[n - 1] === STARS;
  if (tail ? raw.length < n - 1 : raw.length !== n) return undefined;
  for (let k = 0; k < n; k++) {
    const s = t.segments[k]!;
    if (s === STARS) break;
    const seg = raw[k]!;
    if (s === STAR) {
      if (seg.length === 0) return undefined;
    } else if (percentDecode(seg) !== s) return undefined;
  }
  return t.variables.map((v) => {
    const end = v.end === n && tail ? raw.length : v.end;
    const text = raw.slice(v.start, end).join("/");
    return v.multi ? percentDecodeKeepSlash(text) : percentDecode(text);
  });
}

/** Why a value does not fit its variable: its segments are not those of the variable's template. */
export function variableMismatch(t: PathTemplate, v: TemplateVariable, value: string): string | undefined {
  const pattern = t.segments.slice(v.start, v.end);
  const pieces = v.multi ? value.split("/") : [value];
  const tail = pattern[pattern.length - 1] === STARS;
  const fits =
    (tail ? pieces.length >= pattern.length - 1 : pieces.length === pattern.length) &&
    pattern.every((s, k) => s === STARS || (s === STAR ? pieces[k]!.length > 0 : pieces[k] === s));
  if (fits) return undefined;
  return `${JSON.stringify(value)} does not match ${v.label}'s pattern ${patternText(pattern)}`;
}

function patternText(pattern: readonly TemplateSegment[]): string {
  return pattern.map((s) => (s === STAR ? "*" : s === STARS ? "**" : s)).join("/");
}

/**
 * The path of a template with each variable's value (checked with {@link variableMismatch} by the caller),
 * percent-encoded as http.proto says; `undefined` when the template has a wildcard outside its variables,
 * which no value fills.
 */
export function expandTemplate(t: PathTemplate, values: readonly string[]): string | undefined {
  let out = "";
  let k = 0;
  while (k < t.segments.length) {
    const vi = t.variables.findIndex((v) => v.start === k);
    if (vi >= 0) {
      const v = t.variables[vi]!;
      out += "/" + (v.multi ? percentEncodeKeepSlash(values[vi]!) : percentEncode(values[vi]!));
      k = v.end;
      continue;
    }
    const s = t.segments[k]!;
    if (typeof s !== "string") return undefined;
    out += "/" + percentEncode(s);
    k++;
  }
  if (out === "") out = "/";
  return t.verb === undefined ? out : out + ":" + t.verb;
}
