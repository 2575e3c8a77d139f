/**
 * Api.version: the version of an API and the package name that must agree with it.
 *
 * Spec, rule 3: "Api.version, when set, has the form `<major>.<minor>`; a missing minor defaults to 0. When empty,
 * the major version is derived from the package name. When set, the package-name version must be consistent with
 * it. Major increments mark breaking changes, minor increments additive ones. The package name ends in
 * `v<major>`; for major 0 and 1 the suffix may be omitted. Major 0 is for experimental, non-GA APIs only."
 *
 * @module
 */
import type { Api } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { apiTypeName } from "../internal/names.js";
import { isDigit } from "../internal/scan.js";

/** The version of an API: major (breaking changes) and minor (additive ones). */
export interface ApiVersion {
  readonly major: number;
  readonly minor: number;
}

/** What {@link apiVersion} and the mixin helpers read of an Api. */
export type ApiNameAndVersion = Pick<Api, "name" | "version">;

/** Version numbers up to 9 digits: beyond an int32 there is no API. */
const versionDigitsMax = 9;

/**
 * The major version of a package segment `v<major>` with an optional lower-case release suffix (`v2`,
 * `v1beta1`, `v2alpha`, `v1p1beta1`), or -1 when the segment is not one. The major is a number without leading
 * zeros, as in a version (see {@link parseVersionText}): `v01` is not `v1`, so it is no version segment.
 * Shared with mixin.ts.
 *
 * @internal
 */
export function versionSegmentMajor(segment: string): number {
  if (segment.charCodeAt(0) !== 118 /* v */) return -1;
  const end = versionNumberEnd(segment, 1);
  if (end < 0) return -1;
  if (end < segment.length) {
    const c = segment.charCodeAt(end);
    if (!(c >= 97 && c <= 122)) return -1;
    for (let k = end + 1; k < segment.length; k++) {
      const c2 = segment.charCodeAt(k);
      if (!((c2 >= 97 && c2 <= 122) || isDigit(c2))) return -1;
    }
  }
  return Number(segment.slice(1, end));
}

/**
 * The end of the number at `start` of `s`: decimal, 1 to {@link versionDigitsMax} digits, without leading zeros
 * (semantic versioning's form, which api.proto names); -1 when there is none such.
 */
function versionNumberEnd(s: string, start: number): number {
  let i = start;
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  const digits = i - start;
  if (digits === 0 || digits > versionDigitsMax || (digits > 1 && s.charCodeAt(start) === 48)) return -1;
  return i;
}

/** The last segment of the package of an API named `pkg.Service`, or "". Shared with mixin.ts. @internal */
export function packageSuffix(apiName: string): string {
  const end = apiName.lastIndexOf(".");
  if (end < 0) return "";
  return apiName.slice(apiName.lastIndexOf(".", end - 1) + 1, end);
}

/**
 * `<major>` or `<major>.<minor>`, decimal numbers without leading zeros (semantic versioning's form, which
 * api.proto names: "01" and "1.02" are not versions); undefined otherwise.
 */
function parseVersionText(s: string): ApiVersion | undefined {
  const majorEnd = versionNumberEnd(s, 0);
  if (majorEnd < 0) return undefined;
  const major = Number(s.slice(0, majorEnd));
  if (majorEnd === s.length) return { major, minor: 0 };
  if (s.charCodeAt(majorEnd) !== 46 /* . */) return undefined;
  // -1 (no number) is not the end either.
  if (versionNumberEnd(s, majorEnd + 1) !== s.length) return undefined;
  return { major, minor: Number(s.slice(majorEnd + 1)) };
}

/**
 * Returns the version of an API (rule 3): from `version` (`<major>.<minor>`, a missing minor is 0) or, when
 * `version` is empty, the major version of the package's `v<major>` suffix (`v1beta1` and `v2alpha` count as
 * their major; no suffix means major 1).
 *
 * @throws {WktJsonError} rule `api-version` (path `$.version`) for a malformed version (`"1.x"`, `"v1"`,
 *   `"1.2.3"`, `"-1"`, `"01.0"`) or one whose major disagrees with the package: the suffix's major, or 0 or 1 without one.
 * @example
 * apiVersion({ name: "google.storage.v2.Storage", version: "" }); //=> { major: 2, minor: 0 }
 * apiVersion({ name: "google.storage.v2.Storage", version: "2.3" }); //=> { major: 2, minor: 3 }
 * apiVersion({ name: "acme.Library", version: "0.4" }); //=> { major: 0, minor: 4 }
 */
export function apiVersion(api: ApiNameAndVersion): ApiVersion {
  const suffix = packageSuffix(api.name);
  const suffixMajor = versionSegmentMajor(suffix);
  if (api.version === "") return { major: suffixMajor < 0 ? 1 : suffixMajor, minor: 0 };
  const v = parseVersionText(api.version);
  if (v === undefined) {
    throw new WktJsonError(
      "api-version",
      "$.version",
      apiTypeName,
      `${JSON.stringify(api.version)} is not of the form <major>.<minor> (numbers without leading zeros), such as "1.10"`,
    );
  }
  if (suffixMajor >= 0 && v.major !== suffixMajor) {
    throw new WktJsonError(
      "api-version",
      "$.version",
      apiTypeName,
      `version ${api.version} has major version ${v.major}, but the package of ${api.name} ends in ${suffix}`,
    );
  }
  if (suffixMajor < 0 && v.major > 1) {
    throw new WktJsonError(
      "api-version",
      "$.version",
      apiTypeName,
      `version ${api.version} has major version ${v.major}, so the package of ${api.name} must end in v${v.major} (only major versions 0 and 1 may omit the suffix)`,
    );
  }
  return v;
}

/**
 * Checks an API's version against rule 3; see {@link apiVersion}.
 *
 * @throws {WktJsonError} rule `api-version` at `$.version`.
 * @example
 * apiVersionCheck({ name: "google.storage.v2.Storage", version: "2.1" }); // passes
 * apiVersionCheck({ name: "google.storage.v2.Storage", version: "3.0" }); // throws WktJsonError (rule "api-version", jsonPath "$.version")
 */
export function apiVersionCheck(api: ApiNameAndVersion): void {
  apiVersion(api);
}

/**
 * Tells whether an API's version satisfies rule 3, without throwing.
 *
 * @example
 * apiVersionIsValid({ name: "acme.v1.Library", version: "1.x" }); //=> false
 * apiVersionIsValid({ name: "acme.v1.Library", version: "1" }); //=> true
 */
export function apiVersionIsValid(api: ApiNameAndVersion): boolean {
  try {
    apiVersion(api);
    return true;
  } catch {
    return false;
  }
}

/**
 * Tells whether a client written against version `client` can use an API at version `server`: "Major
 * increments mark breaking changes, minor increments additive ones", so the majors must be equal and the
 * server's minor at least the client's. Major 0 is experimental and promises nothing: only the same 0.x version
 * is compatible.
 *
 * @example
 * apiVersionCompatible({ major: 1, minor: 2 }, { major: 1, minor: 5 }); //=> true
 * apiVersionCompatible({ major: 1, minor: 5 }, { major: 1, minor: 2 }); //=> false
 * apiVersionCompatible({ major: 1, minor: 0 }, { major: 2, minor: 0 }); //=> false
 */
export function apiVersionCompatible(client: ApiVersion, server: ApiVersion): boolean {
  if (client.major !== server.major) return false;
  return client.major === 0 ? client.minor === server.minor : server.minor >= client.minor;
}
