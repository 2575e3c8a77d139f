/**
 * From an error to the HTTP response: the body of a 400 for a {@link WktJsonError}, the issues of
 * `validateJson`/`validateJsonString`, or a Standard Schema failure result, in the two forms APIs use.
 *
 * - RFC 9457 (Problem Details for HTTP APIs), `application/problem+json`: "type", "title", "status", "detail"
 *   (§3.1), and one extension member, `violations` (§3.2: "Problem type definitions MAY extend the problem
 *   details object with additional members"; names of three characters or more, letters first), each
 *   violation the rule broken, the path as the client wrote it (our `jsonPath`) and the message.
 *   `type` is "about:blank" unless the service gives its own: §4.2.1, "the problem has no additional semantics
 *   beyond that of the HTTP status code", and then "title SHOULD be the same as the recommended HTTP status
 *   phrase" ("Bad Request"). A type URI names a problem type the API documents (§3.1.1: when dereferenced it
 *   should "provide human-readable documentation for the problem type"); that is the service's to coin, not
 *   a library's, so it is an option. The list is `violations`, not the `errors` of the RFC's example (§3),
 *   whose members are `detail` and a JSON Pointer `pointer`: a member of the same name with other members
 *   would look like that example and not be it; `violations` is also the word of AIP-193 (`fieldViolations`).
 * - AIP-193's `google.rpc.BadRequest` (error_details.proto), in its JSON form as a `google.rpc.Status` detail:
 *   one `FieldViolation` per issue, `field` "a path that leads to a field in the request body ... a sequence of
 *   dot-separated identifiers", with indexes in brackets, and in JSON the JSON names (`emailAddresses[2].type[1]`):
 *   our `jsonPath` without its `$.`. `description` is the message, `reason` the rule as error_details.proto
 *   asks ("a constant value that identifies the proximate cause ... UPPER_SNAKE_CASE": `JSON_TYPE`). No
 *   `localizedMessage`: the messages are in English, not localized.
 *
 * Only the client's problems become a 400: anything else given (another error, our error about the options a
 * program passed) is thrown again as it is, so that it reaches the service's handler for server errors.
 *
 * The body is bounded by the input: a path of more than 1,000 code units (a key of a
 * megabyte, a list nested 100 deep) is shown shortened around `…`, keeping its first and innermost segments,
 * in `path`, `field` and the message alike, so that a thousand issues under one long key do not make a
 * response of a thousand copies of it (their `jsonPath` shares the key in memory; JSON text cannot).
 *
 * @module
 */
import { isWktJsonError, WktJsonError, type WktJsonIssue, type WktRule } from "./errors.js";
import { shortPathOfKeys } from "./short-path.js";

/** The media type of an RFC 9457 problem details body in JSON. */
export const problemJsonContentType = "application/problem+json";

/** One problem of a request, in a {@link ProblemDetails} body. */
export interface ProblemViolation {
  /** The rule broken (see {@link WktRule}), for code to switch on. */
  readonly rule: WktRule;
  /** Where, as the client wrote the document: `$.items[2].createTime`. */
  readonly path: string;
  /** For people: `${typeName} at ${path}: ${detail}`. */
  readonly message: string;
}

/** An RFC 9457 problem details object for a request the client must fix (see {@link problemDetails}). */
export interface ProblemDetails {
  /** A URI naming the problem type; "about:blank" by default (no semantics beyond the status). */
  readonly type: string;
  /** A short summary of the problem type: "Bad Request" by default. */
  readonly title: string;
  /** The HTTP status code: 400. */
  readonly status: 400;
  /** This occurrence, for people: the message of the one violation, or how many there are and the first. */
  readonly detail: string;
  /** A URI naming this occurrence, when given in the options. */
  readonly instance?: string;
  /** Every problem found, in order. */
  readonly violations: readonly ProblemViolation[];
}

/** Options of {@link problemDetails}: the members RFC 9457 leaves to the API. */
export interface ProblemDetailsOptions {
  /** The problem type URI (RFC 9457 §3.1.1), documented by the service. Default "about:blank". */
  type?: string | undefined;
  /** The title of that type. Default "Bad Request", the status phrase ("about:blank" asks for it). */
  title?: string | undefined;
  /** A URI of this occurrence (RFC 9457 §3.1.5), such as the request's path. */
  instance?: string | undefined;
}

/** One `google.rpc.BadRequest.FieldViolation`, in its proto3 JSON form. */
export interface BadRequestFieldViolation {
  /** The path to the field, JSON names and indexes: `items[2].createTime`; "" for the body as a whole. */
  readonly field: string;
  /** Why it is bad, for people (the issue's message). */
  readonly description: string;
  /** The rule, in UPPER_SNAKE_CASE as error_details.proto asks: `JSON_TYPE`, `NOT_FINITE`. */
  readonly reason: string;
}

/** `google.rpc.BadRequest` in its proto3 JSON form, as an entry of `google.rpc.Status.details` (an Any). */
export interface BadRequest {
  readonly "@type": "type.googleapis.com/google.rpc.BadRequest";
  readonly fieldViolations: readonly BadRequestFieldViolation[];
}

/**
 * Returns the RFC 9457 problem details body of a 400 for our error, the issues of `validateJson` (or
 * `validateJsonString`), or a Standard Schema failure result (`{ issues }`): `type`, `title`, `status`,
 * `detail`, and `violations`, each `{ rule, path, message }` with the path as the client wrote it. Send it with
 * the content type {@link problemJsonContentType}.
 *
 * @throws anything that is not the client's problem, as it is: another error or value thrown, and our error
 *   about the options a program passed (type name `options`), so that it reaches the handler of server errors;
 *   a `TypeError` for an empty list of issues or a list of something else (a Standard Schema success result
 *   has no issues: it is thrown as it is); {@link WktJsonError} rule `range` for a `type`, `title` or
 *   `instance` option that is not a string.
 * @example
 * app.post("/books", async (c) => {
 *   try {
 *     const book = fromJsonString(BookSchema, await c.req.text());
 *     // ...
 *   } catch (e) {
 *     const body = problemDetails(e); // throws again anything not ours
 *     return new Response(JSON.stringify(body), { status: 400, headers: { "content-type": problemJsonContentType } });
 *   }
 * });
 * problemDetails(catchWkt(() => fromJson(BookSchema, { title: 1 })));
 * //=> { type: "about:blank", title: "Bad Request", status: 400, detail: "string at $.title: ...",
 * //     violations: [{ rule: "json-type", path: "$.title", message: "string at $.title: ..." }] }
 */
export function problemDetails(errorOrIssues: unknown, options?: ProblemDetailsOptions): ProblemDetails {
  for (const name of ["type", "title", "instance"] as const) {
    const v = options?.[name] as unknown;
    if (v !== undefined && typeof v !== "string") {
      throw new WktJsonError(
        "range",
        "$",
        "options",
        `${name} must be a string, got ${v === null ? "null" : typeof v}`,
      );
    }
  }
  const issues = clientIssues(errorOrIssues, "problemDetails");
  const shown = shownIssues(issues);
  const first = shown[0]!.message;
  const body: { -readonly [K in keyof ProblemDetails]: ProblemDetails[K] } = {
    type: options?.type ?? "about:blank",
    title: options?.title ?? "Bad Request",
    status: 400,
    detail: issues.length === 1 ? first : `${issues.length} problems; the first: ${first}`,
    violations: issues.map((i, k) => ({ rule: i.rule, path: shown[k]!.path, message: shown[k]!.message })),
  };
  if (options?.instance !== undefined) body.instance = options.instance;
  return body;
}

/**
 * Returns AIP-193's `google.rpc.BadRequest` (its proto3 JSON form, with `@type`, for the `details` of a
 * `google.rpc.Status`) for what {@link problemDetails} takes: one field violation per issue, `field` the path
 * in JSON names (`items[2].createTime`), `description` the message, `reason` the rule in UPPER_SNAKE_CASE.
 * AIP-193 also asks for a `google.rpc.ErrorInfo` in the same `details`, with the service's own domain.
 *
 * @throws as {@link problemDetails}: anything that is not the client's problem, as it is.
 * @example
 * badRequest(validateJson(BookSchema, { title: 1, tags: [2] }));
 * //=> { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [
 * //     { field: "title", description: "string at $.title: ...", reason: "JSON_TYPE" },
 * //     { field: "tags[0]", description: "string at $.tags[0]: ...", reason: "JSON_TYPE" }] }
 */
export function badRequest(errorOrIssues: unknown): BadRequest {
  const issues = clientIssues(errorOrIssues, "badRequest");
  const shown = shownIssues(issues);
  return {
    "@type": "type.googleapis.com/google.rpc.BadRequest",
    fieldViolations: issues.map((i, k) => ({
      field: fieldOf(shown[k]!.path),
      description: shown[k]!.message,
      reason: i.rule.toUpperCase().replace(/-/g, "_"),
    })),
  };
}

/** Longest path a problem body shows whole, in UTF-16 code units; a longer one is shortened around `…`. */
const pathShownInBody = 1000;

/** Each issue's path and message as a body shows them: whole, or with the path shortened (see the module). */
function shownIssues(issues: readonly WktJsonIssue[]): { path: string; message: string }[] {
  const format = new Map<string, string>(); // each long key formatted once, for all the issues
  return issues.map((i) => {
    const path = shortPathOfKeys(i.path, format, pathShownInBody);
    // A path shown whole is the issue's own; else the message is rebuilt around the shortened one.
    return path === undefined
      ? { path: i.jsonPath, message: i.message }
      : { path, message: `${i.typeName} at ${path}: ${i.detail}` };
  });
}

/** The client's issues in `x`; anything else thrown again (see {@link problemDetails}). */
function clientIssues(x: unknown, fn: string): readonly WktJsonIssue[] {
  if (isWktJsonError(x)) {
    // An option a program passed is the program's problem: a server error, not a 400.
    if (x.typeName === "options") throw x;
    return [x];
  }
  const list = Array.isArray(x) ? (x as unknown[]) : x instanceof Error ? undefined : issuesMember(x);
  // Another error, or any other value thrown: as it is.
  if (list === undefined) throw x;
  if (list.length > 0 && list.every(isIssue)) return list;
  throw new TypeError(
    `${fn}: expected a WktJsonError, the issues of validateJson, or a Standard Schema failure result, got ` +
      (list.length === 0 ? "no issues" : "a list of something else"),
  );
}

/** The `issues` of a Standard Schema result, if `x` is one with issues. */
function issuesMember(x: unknown): unknown[] | undefined {
  if (typeof x !== "object" || x === null) return undefined;
  const issues = (x as { issues?: unknown }).issues;
  return Array.isArray(issues) ? (issues as unknown[]) : undefined;
}

function isIssue(x: unknown): x is WktJsonIssue {
  if (typeof x !== "object" || x === null) return false;
  const i = x as Partial<Record<keyof WktJsonIssue, unknown>>;
  return typeof i.rule === "string" && typeof i.jsonPath === "string" && typeof i.message === "string";
}

/** A FieldViolation's `field`: the JSON path without its root, `items[2].createTime`; "" for the root. */
function fieldOf(jsonPath: string): string {
  return jsonPath.charCodeAt(1) === 46 ? jsonPath.slice(2) : jsonPath.slice(1);
}
