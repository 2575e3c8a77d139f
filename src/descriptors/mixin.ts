/**
 * Mixins: an API that includes another redeclares its methods and inherits their documentation, options and
 * HTTP paths.
 *
 * Spec, rule 4: "Mixin: the including API must redeclare all methods of the included API. An empty (after comment
 * and whitespace stripping) documentation string is inherited. Each unset service-config annotation (http,
 * visibility) is inherited. An inherited http path has its version prefix replaced by the including API's
 * version, plus the root path when `root` is non-empty."
 *
 * @module
 */
import type { Api, Method, Option } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { apiTypeName, mixinTypeName } from "../internal/names.js";
import { apiVersion, packageSuffix, versionSegmentMajor, type ApiNameAndVersion } from "./api-version.js";

/**
 * The options a redeclared method inherits when it does not set them (rule 4): the service-config annotations
 * http and visibility, by the full names of their extensions.
 *
 * @example
 * mixinInheritedOptionNames; //=> ["google.api.http", "google.api.method_visibility"]
 */
export const mixinInheritedOptionNames: readonly string[] = ["google.api.http", "google.api.method_visibility"];

/** The type name a type URL ends in, without checking it. */
function urlTypeName(url: string): string {
  return url.slice(url.lastIndexOf("/") + 1);
}

function sameMethod(a: Method, b: Method): boolean {
  return (
    a.name === b.name &&
    urlTypeName(a.requestTypeUrl) === urlTypeName(b.requestTypeUrl) &&
    urlTypeName(a.responseTypeUrl) === urlTypeName(b.responseTypeUrl) &&
    a.requestStreaming === b.requestStreaming &&
    a.responseStreaming === b.responseStreaming
  );
}

/**
 * Returns the methods of the included API that the including API does not redeclare (rule 4: "the including
 * API must redeclare all methods of the included API"): same name, same request and response types (compared
 * by type name, so the type URLs' hosts may differ) and same streaming. Empty when the mixin is complete.
 *
 * @example
 * mixinCheck(storage, accessControl).map((m) => m.name); //=> ["GetAcl"]
 * mixinCheck(accessControl, accessControl); //=> []
 */
export function mixinCheck(including: Api, included: Api): Method[] {
  return included.methods.filter((m) => !including.methods.some((o) => sameMethod(o, m)));
}

/**
 * Throws unless the including API redeclares every method of the included one; see {@link mixinCheck}.
 *
 * @throws {WktJsonError} rule `mixin`, path `$.methods[i]` of the first missing method in the included API.
 * @example
 * mixinAssert(storage, accessControl); // throws WktJsonError (rule "mixin", jsonPath "$.methods[0]")
 */
export function mixinAssert(including: Api, included: Api): void {
  const missing = mixinCheck(including, included);
  const first = missing[0];
  if (first === undefined) return;
  const i = included.methods.indexOf(first);
  const names = missing.map((m) => m.name).join(", ");
  throw new WktJsonError(
    "mixin",
    `$.methods[${i}]`,
    apiTypeName,
    `${including.name} includes ${included.name} but does not redeclare ${missing.length === 1 ? "its method" : `${missing.length} of its methods`} ${names} with the same request and response types`,
  );
}

/** The version path segment of an API: its package suffix (`v2`, `v1beta1`), else `v<major>`. */
function versionPathSegment(api: ApiNameAndVersion): string {
  const { major } = apiVersion(api);
  const suffix = packageSuffix(api.name);
  return versionSegmentMajor(suffix) >= 0 ? suffix : `v${major}`;
}

/**
 * Rewrites the HTTP path of a method inherited through a mixin (rule 4): the version prefix is replaced by the
 * including API's version, followed by `root` when non-empty. `includingVersion` is a version path segment
 * (`"v2"`, `"v1beta1"`) or the including Api, whose package suffix (or major version) is used. A path without
 * a version prefix has nothing replaced and gets only the root.
 *
 * @throws {WktJsonError} rule `mixin` for a path that does not start with `/` or a version that is not a
 *   `v<major>` segment; `api-version` for an including Api that breaks rule 3.
 * @example
 * mixinHttpPath("/v1/{resource=**}:getAcl", "v2", "acls"); //=> "/v2/acls/{resource=**}:getAcl"
 * mixinHttpPath("/v1/{resource=**}:getAcl", { name: "google.storage.v2.Storage", version: "" }); //=> "/v2/{resource=**}:getAcl"
 */
export function mixinHttpPath(path: string, includingVersion: string | ApiNameAndVersion, root: string = ""): string {
  if (path.charCodeAt(0) !== 47 /* / */) {
    throw new WktJsonError("mixin", "$", mixinTypeName, `HTTP path ${JSON.stringify(path)} does not start with "/"`);
  }
  const version = typeof includingVersion === "string" ? includingVersion : versionPathSegment(includingVersion);
  if (versionSegmentMajor(version) < 0) {
    throw new WktJsonError(
      "mixin",
      "$",
      mixinTypeName,
      `${JSON.stringify(version)} is not a version path segment such as "v2" or "v1beta1"`,
    );
  }
  let start = 0;
  let end = root.length;
  while (start < end && root.charCodeAt(start) === 47) start++;
  while (end > start && root.charCodeAt(end - 1) === 47) end--;
  const rootPart = start < end ? "/" + root.slice(start, end) : "";
  let firstEnd = path.indexOf("/", 1);
  if (firstEnd < 0) firstEnd = path.length;
  if (versionSegmentMajor(path.slice(1, firstEnd)) < 0) return rootPart + path;
  return `/${version}${rootPart}${path.slice(firstEnd)}`;
}

/**
 * Returns the documentation of a redeclared method (rule 4): its own, unless that is empty after removing
 * comments (`(-- internal comment --)`) and whitespace, in which case the inherited one.
 *
 * @example
 * mixinInheritDoc("  (-- TODO: document --)\n", "Get the underlying ACL object."); //=> "Get the underlying ACL object."
 * mixinInheritDoc("Gets the ACL.", "Get the underlying ACL object."); //=> "Gets the ACL."
 */
export function mixinInheritDoc(own: string, inherited: string): string {
  let text = "";
  let i = 0;
  for (;;) {
    const open = own.indexOf("(--", i);
    const close = open < 0 ? -1 : own.indexOf("--)", open + 3);
    if (close < 0) {
      text += own.slice(i); // an unterminated "(--" is text
      break;
    }
    text += own.slice(i, open);
    i = close + 3;
  }
  return text.trim() === "" ? inherited : own;
}

/**
 * Returns a redeclared method's options with the service-config annotations it does not set taken from the
 * included method (rule 4): `google.api.http` and `google.api.method_visibility` unless `names` says otherwise.
 * Rewrite an inherited http rule's path with {@link mixinHttpPath}.
 *
 * @example
 * mixinInheritOptions([], accessControlGetAcl.options).map((o) => o.name); //=> ["google.api.http"]
 */
export function mixinInheritOptions(
  own: readonly Option[],
  inherited: readonly Option[],
  names: readonly string[] = mixinInheritedOptionNames,
): Option[] {
  const set = new Set(own.map((o) => o.name));
  return [...own, ...inherited.filter((o) => names.includes(o.name) && !set.has(o.name))];
}
