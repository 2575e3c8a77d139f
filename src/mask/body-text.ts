/**
 * Request bodies as text (the body as it arrived), for the text entry points of PATCH and create: the text is
 * parsed once by the decoder's own parser (every digit of a 64-bit integer kept, a repeated key refused as
 * `duplicate-field`), the body's decoder reads that value (errors with line and column), and the errors the
 * walks after the decoder raise (field behaviour, a body member a mask cannot name) get the line and column of
 * the member their path names, or of the object that would hold it (the object that lacks a REQUIRED member).
 *
 * A value from `JSON.parse` has already lost what these keep: `9007199254740993` is read as ...992, and of two
 * `"title"` members only the second is left, with nothing to tell that there was a first.
 *
 * @internal
 * @module
 */
import type { DescMessage, JsonValue, MessageShape } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { parseTextValue } from "../codec/from-json.js";
import type { JsonReadOptions } from "../codec/read-context.js";
import { jsonPathSegments, locateJsonPaths } from "../codec/json-text.js";
import { fieldMaskTypeName } from "../internal/names.js";
import { optionsTypeName } from "../internal/options.js";
import { atBody, type Opts } from "./patch-options.js";

/** A request body parsed from its text: the value, and the decoder of it (and of copies of it) for `run`. */
export interface BodyText {
  readonly value: JsonValue;
  readonly decode: (schema: DescMessage, body: JsonValue, o: Opts) => MessageShape<DescMessage>;
  /**
   * Gives an error of the body that has no position the line and column of its path in the text: of the member
   * the path names, else of the nearest value above it. Called on errors about the body only (see `atBody`);
   * errors at the body's root keep no position.
   */
  readonly locate: (e: unknown) => unknown;
}

/**
 * Parses a request body's text once, with the options of the call (its `maxLength` too): the parser's errors
 * (rule `json-type` if `text` is not a string), under the body's base path `base`.
 */
export function bodyText(text: string, options: Partial<JsonReadOptions> | undefined, base: string): BodyText {
  const parsed = atBody(base, () => parseTextValue(text, options));
  return {
    value: parsed.value,
    decode: (schema, body, o) => parsed.decode(schema, body, o.read) as MessageShape<DescMessage>,
    locate: (e) => located(e, text),
  };
}

function located(e: unknown, text: string): unknown {
  if (!(e instanceof WktJsonError) || e.line !== undefined) return e;
  if (e.typeName === fieldMaskTypeName || e.typeName === optionsTypeName) return e;
  const segs = jsonPathSegments(e.jsonPath);
  if (segs === undefined || segs.length === 0) return e;
  // The member, else the nearest value of the body above it: the object that would hold it (a REQUIRED member
  // missing, a parent sent null), or further up where the update removed more (a map entry left out, whose
  // immutable field the error names, points at the map).
  const prefixes: (string | number)[][] = [];
  for (let n = segs.length; n >= 0; n--) prefixes.push(segs.slice(0, n));
  let at: ReturnType<typeof locateJsonPaths>[number];
  for (const found of locateJsonPaths(text, prefixes)) if ((at = found) !== undefined) break;
  if (at !== undefined) {
    e.line = at.line;
    e.column = at.column;
  }
  return e;
}
