/**
 * Every type URL a message, or a proto3 JSON document, needs that the registry lacks, all at once: a service
 * resolves them (createTypeResolver, or its own store) before it decodes or encodes, instead of meeting them one
 * `unknown-type` error at a time (protobuf #23579, protobuf-es #989, connect-es #1192). The registry this module
 * reads is the one the codec takes (`registry` option): "an HTTP GET on the URL must yield the binary type
 * descriptor or an error" (spec rule 2) is the resolver's job; this is what to ask it for.
 *
 * The walk finds every Any the codec would meet: in fields at every depth (lists, maps, oneofs), and inside every
 * Any whose type the registry has (its bytes decoded, or its JSON read, as that type), including the raw form of
 * `unresolvedAny: "raw"`. An Any whose type is missing is listed, and not looked into (nothing can read it). Each
 * URL once, in the order first met (depth first, fields in declaration order for a message, members in the
 * JSON's order for a document). Not listed: an empty Any, a malformed type URL, bytes or JSON the type cannot
 * read (decoding reports these), Anys inside extensions.
 *
 * Bounded: the walk goes `maxDepth` levels deep, counting as the codec counts (each message and each Any one
 * level), and beyond it throws rule `depth` (decoding would too); each object, array and message is walked once
 * per type, so a value that shares parts of itself (or holds a cycle) takes time linear in its size.
 *
 * @module
 */
import type { DescMessage, JsonValue, MessageShape, Registry } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";
import { maxDepthError } from "../internal/depth-error.js";
import { anyTypeName } from "../internal/names.js";
import { scalarFromJson } from "../internal/scalar.js";
import { wktFromBinaryLean } from "../internal/wkt-binary.js";
import { anyFormValue, anyJsonForm, anyJsonHead } from "../wkt/any-json-form.js";
import { fieldGet, fieldsByJsonKey, planOf, type FieldAccess, type Msg } from "../wkt/field-access.js";
import { checkRegistry, checkSchema } from "../wkt/registry.js";
import { anyRawValueKey, holdsAny, isAnyRawForm, typeUrlLookup } from "./any-fallback.js";
import { isStackOverflow, stackOverflowAsDepth } from "./depth-errors.js";
import { depthOption } from "./read-context.js";

/** Options of {@link missingTypeUrls} and {@link missingTypeUrlsFromJson}. */
export interface MissingTypeUrlsOptions {
  /** The registry the codec will be given; the well-known types are always known. */
  registry?: Registry | undefined;
  /** Nesting limit, as the codec's (each message and Any one level). Default 100. */
  maxDepth?: number | undefined;
  /** protobuf-es's name for {@link MissingTypeUrlsOptions.maxDepth}; give either (both only if equal). */
  recursionLimit?: number | undefined;
}

/**
 * Lists the type URLs of the Anys in `message` (at every depth, and inside the Anys the registry resolves) whose
 * types the registry lacks: each once, in the order met. Empty when `toJson` with this registry meets no
 * `unknown-type`.
 *
 * @throws {WktJsonError} rule `depth` for a message nested beyond `maxDepth`; `json-type` for a `schema` that is
 *   not a message descriptor or a `registry` that is not a Registry; `range` for a bad `maxDepth`.
 * @example
 * const type = create(TypeSchema, {
 *   options: [
 *     { name: "a", value: anyPack(DurationSchema, create(DurationSchema)) },
 *     { name: "b", value: create(AnySchema, { typeUrl: "example.com/acme.v1.Flow" }) },
 *   ],
 * });
 * missingTypeUrls(TypeSchema, type); //=> ["example.com/acme.v1.Flow"]
 */
export function missingTypeUrls<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  options?: MissingTypeUrlsOptions,
): string[] {
  const walk = new Walk(checkSchema(schema), options);
  return walk.run(() => walk.message(schema, message, walk.maxDepth));
}

/**
 * Lists the type URLs of the Anys in a proto3 JSON value (what `JSON.parse` returns) for `schema` whose types the
 * registry lacks, as {@link missingTypeUrls} does for a message: every `"@type"` the decoder would look up, in
 * fields at every depth and inside the Anys the registry resolves (their JSON, or the bytes of the raw form).
 * Members that name no field, and values of the wrong shape, are passed over: decoding reports them.
 *
 * @throws {WktJsonError} as {@link missingTypeUrls}.
 * @example
 * missingTypeUrlsFromJson(TypeSchema, {
 *   options: [
 *     { name: "a", value: { "@type": "example.com/acme.v1.Flow", steps: [] } },
 *     { name: "b", value: { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1s" } },
 *     { name: "c", value: { "@type": "example.com/acme.v1.Flow" } },
 *   ],
 * }); //=> ["example.com/acme.v1.Flow"]
 */
export function missingTypeUrlsFromJson(
  schema: DescMessage,
  json: JsonValue,
  options?: MissingTypeUrlsOptions,
): string[] {
  const walk = new Walk(checkSchema(schema), options);
  return walk.run(() => walk.json(schema, json, walk.maxDepth));
}

/** One listing: the URLs found, and what was walked already (by type). */
class Walk {
  readonly maxDepth: number;
  private readonly registry: Registry | undefined;
  private readonly found = new Set<string>();
  private readonly seen = new Map<DescMessage, Set<unknown>>();

  constructor(
    private readonly schema: DescMessage,
    options: MissingTypeUrlsOptions | undefined,
  ) {
    this.registry = checkRegistry(options?.registry);
    this.maxDepth = depthOption(options);
  }

  run(walk: () => void): string[] {
    try {
      walk();
    } catch (e) {
      throw stackOverflowAsDepth(e, this.schema.typeName, this.maxDepth);
    }
    return [...this.found];
  }

  /** Whether `value` was walked as (or as a list or map of) `desc` before; marks it walked. */
  private once(desc: DescMessage, value: unknown): boolean {
    let set = this.seen.get(desc);
    if (set === undefined) this.seen.set(desc, (set = new Set()));
    if (set.has(value)) return true;
    set.add(value);
    return false;
  }

  /** One level of nesting, as the codec counts it; rule `depth` beyond maxDepth. */
  private enter(desc: DescMessage, depthLeft: number): void {
    if (depthLeft <= 0) throw maxDepthError(desc.typeName, this.maxDepth);
  }

  /** The type a URL names, or undefined (listed) when the registry lacks it, or null for a malformed URL. */
  private lookup(url: unknown): DescMessage | undefined | null {
    if (typeof url !== "string" || url === "") return null;
    let desc: DescMessage | undefined;
    try {
      desc = typeUrlLookup(url, this.registry, "skip");
    } catch (e) {
      if (isStackOverflow(e)) throw e;
      return null;
    }
    if (desc === undefined) this.found.add(url);
    return desc;
  }

  /** The fields of `desc` that can hold an Any, with the type of their values. */
  private static fields(desc: DescMessage): ReadonlySet<FieldAccess> {
    let fields = anyFields.get(desc);
    if (fields === undefined) {
      fields = new Set(
        planOf(desc).fields.filter((fp) => {
          const inner = fp.message;
          return inner !== undefined && fp.box === 0 && (inner.typeName === anyTypeName || holdsAny(inner));
        }),
      );
      anyFields.set(desc, fields);
    }
    return fields;
  }

  /** A message of `desc` (protobuf-es's representation). */
  message(desc: DescMessage, m: unknown, depthLeft: number): void {
    if (typeof m !== "object" || m === null || this.once(desc, m)) return;
    this.enter(desc, depthLeft);
    if (desc.typeName === anyTypeName) {
      const inner = this.lookup((m as Msg)["typeUrl"]);
      const bytes = (m as Msg)["value"];
      if (inner != null && bytes instanceof Uint8Array) this.bytes(inner, bytes, depthLeft - 1);
      return;
    }
    for (const fp of Walk.fields(desc)) {
      const v = fieldGet(fp, m as Msg);
      if (v === undefined || v === null) continue;
      const inner = fp.message!;
      if (fp.kind === "list" || fp.kind === "map") {
        if (typeof v !== "object" || this.once(inner, v)) continue;
        for (const item of Object.values(v as object)) this.message(inner, item, depthLeft - 1);
      } else {
        this.message(inner, v, depthLeft - 1);
      }
    }
  }

  /** The bytes of an Any of `desc`, decoded and walked when the type can hold an Any. */
  private bytes(desc: DescMessage, bytes: Uint8Array, depthLeft: number): void {
    if (desc.typeName !== anyTypeName && !holdsAny(desc)) return;
    let inner: unknown;
    try {
      inner = wktFromBinaryLean(desc, bytes);
    } catch (e) {
      // Not a serialized message of the type: decoding reports it. A stack overflow is not that (run's error).
      if (isStackOverflow(e)) throw e;
      return;
    }
    this.message(desc, inner, depthLeft);
  }

  /** A JSON value read as a message of `desc`. */
  json(desc: DescMessage, json: unknown, depthLeft: number): void {
    if (typeof json !== "object" || json === null || Array.isArray(json) || this.once(desc, json)) return;
    this.enter(desc, depthLeft);
    if (desc.typeName === anyTypeName) {
      this.anyJson(json as Record<string, unknown>, depthLeft);
      return;
    }
    const fields = Walk.fields(desc);
    if (fields.size === 0) return;
    const byKey = fieldsByJsonKey(planOf(desc));
    for (const key of Object.keys(json)) {
      const fp = byKey.get(key);
      if (fp === undefined || !fields.has(fp)) continue;
      const v = (json as Record<string, unknown>)[key];
      if (typeof v !== "object" || v === null) continue;
      const inner = fp.message!;
      if (fp.kind === "list" || fp.kind === "map") {
        if (Array.isArray(v) !== (fp.kind === "list") || this.once(inner, v)) continue;
        for (const item of Object.values(v)) this.json(inner, item, depthLeft - 1);
      } else {
        this.json(inner, v, depthLeft - 1);
      }
    }
  }

  /** An Any's JSON object (its level entered): listed, or its content walked as its type. */
  private anyJson(obj: Record<string, unknown>, depthLeft: number): void {
    const keys = anyJsonHead(obj);
    if (typeof keys === "number") return;
    const desc = this.lookup(obj["@type"]);
    if (desc == null) return;
    if (isAnyRawForm(obj, keys, desc)) {
      let bytes: unknown;
      try {
        bytes = scalarFromJson(ScalarType.BYTES, obj[anyRawValueKey], false);
      } catch (e) {
        if (isStackOverflow(e)) throw e;
        return;
      }
      this.bytes(desc, bytes as Uint8Array, depthLeft - 1);
      return;
    }
    // The value form: only Any itself can hold an Any among the types that have it. The members form: the
    // embedded message's members beside "@type" (which names no field).
    if (anyJsonForm(desc, obj, keys.length) === anyFormValue) this.json(desc, obj["value"], depthLeft - 1);
    else this.json(desc, obj, depthLeft - 1);
  }
}

const anyFields = new WeakMap<DescMessage, ReadonlySet<FieldAccess>>();
