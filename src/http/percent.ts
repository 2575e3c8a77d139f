/**
 * Percent-encoding of the URL parts of an HTTP request, as google/api/http.proto says for path variables:
 *
 * "If a variable contains exactly one path segment, such as `"{var}"` or `"{var=*}"`, when such a variable is
 * expanded into a URL path on the client side, all characters except `[-_.~0-9a-zA-Z]` are percent-encoded. The
 * server side does the reverse decoding." "If a variable contains multiple path segments, such as
 * `"{var=foo/*}"` or `"{var=**}"`, when such a variable is expanded into a URL path on the client side, all
 * characters except `[-_.~/0-9a-zA-Z]` are percent-encoded. The server side does the reverse decoding, except
 * "%2F" and "%2f" are left unchanged."
 *
 * Query parameters are read as application/x-www-form-urlencoded (WHATWG URL: `+` is a space, then
 * percent-decoding), as `URLSearchParams` and Go's `url.ParseQuery` (grpc-gateway) read them, and written with
 * every character outside `[-_.~0-9a-zA-Z]` encoded, so that a `+` (a Timestamp's offset) stays a `+`.
 *
 * Decoding never throws: malformed escapes (`%zz`, bytes that are not UTF-8) give `undefined`, and the caller
 * reports them with the parameter's name.
 *
 * @module
 * @internal
 */

/** The characters that `encodeURIComponent` leaves as they are but http.proto's sets encode. */
const extraReserved = /[!'()*]/g;

function escapeExtra(c: string): string {
  return "%" + c.charCodeAt(0).toString(16).toUpperCase();
}

/**
 * Encodes every character except `[-_.~0-9a-zA-Z]` (a single-segment path variable, a query parameter's name
 * or value). The text must be well-formed UTF-16 (the JSON writer has checked it).
 *
 * @internal
 */
export function percentEncode(text: string): string {
  if (isUnreserved(text, false)) return text;
  return encodeURIComponent(text).replace(extraReserved, escapeExtra);
}

/** Encodes every character except `[-_.~/0-9a-zA-Z]` (a multi-segment path variable). @internal */
export function percentEncodeKeepSlash(text: string): string {
  if (isUnreserved(text, true)) return text;
  let out = "";
  let start = 0;
  for (let i = text.indexOf("/"); i >= 0; i = text.indexOf("/", start)) {
    out += percentEncode(text.slice(start, i)) + "/";
    start = i + 1;
  }
  return out + percentEncode(text.slice(start));
}

function isUnreserved(text: string, slash: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const ok =
      (c >= 48 && c <= 57) ||
      (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) ||
      c === 45 ||
      c === 46 ||
      c === 95 ||
      c === 126 ||
      (slash && c === 47);
    if (!ok) return false;
  }
  return true;
}

/** Decodes every escape, `%2F` included; `undefined` for a malformed one. @internal */
export function percentDecode(text: string): string | undefined {
  if (text.indexOf("%") < 0) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Decodes every escape except `%2F` and `%2f`, which stay as they are; `undefined` for a malformed one. @internal */
export function percentDecodeKeepSlash(text: string): string | undefined {
  if (text.indexOf("%") < 0) return text;
  let out = "";
  let start = 0;
  for (let i = text.indexOf("%"); i >= 0 && i + 2 < text.length; i = text.indexOf("%", i + 1)) {
    if (text.charCodeAt(i + 1) !== 50 /* 2 */ || (text.charCodeAt(i + 2) | 32) !== 102 /* f */) continue;
    const piece = percentDecode(text.slice(start, i));
    if (piece === undefined) return undefined;
    out += piece + text.slice(i, i + 3);
    start = i + 3;
  }
  const rest = percentDecode(text.slice(start));
  return rest === undefined ? undefined : out + rest;
}

/** Decodes a form-encoded query component: `+` is a space, then every escape. @internal */
export function formDecode(text: string): string | undefined {
  return percentDecode(text.indexOf("+") < 0 ? text : text.replace(/\+/g, " "));
}
