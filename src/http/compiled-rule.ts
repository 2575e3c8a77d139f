/**
 * A google.api.HttpRule checked against its request message once: each binding's HTTP method, parsed path
 * template with its variables resolved to fields, and body. Kept per rule object and per method descriptor,
 * so that a server that decodes every request of a method parses its templates once.
 *
 * http.proto's constraints checked here: "The path variables **must not** refer to any repeated or mapped
 * field"; the body is "`*`" or "the name of the request field whose value is mapped to the HTTP request body
 * ... the referred field must be present at the top-level of the request message type"; additional bindings
 * "must not contain an `additional_bindings` field themselves (that is, the nesting may only be one level
 * deep)". A path variable here names a singular scalar or enum field (through singular message fields).
 *
 * @module
 * @internal
 */
import type { DescField, DescMessage, DescMethod, ScalarType } from "@bufbuild/protobuf";
import { hasCustomJsonRepresentation, isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { formatBound } from "../limits.js";
import { pathJoin } from "../path.js";
import { describe } from "../internal/describe.js";
import {
  durationTypeName,
  fieldMaskTypeName,
  listValueTypeName,
  structTypeName,
  timestampTypeName,
  valueTypeName,
} from "../internal/names.js";
import { fieldsByJsonKey, planOf } from "../wkt/field-access.js";
import { checkSchema } from "../wkt/registry.js";
import { httpRuleOf, httpRuleTypeName, type HttpRule } from "./http-rule.js";
import { parseTemplate, type PathTemplate, type TemplateVariable } from "./path-template.js";

/** How a field's value (a singular value, an element, a map value) is written in a URL. */
export type Leaf =
  /** A scalar, or a wrapper, written as its scalar. */
  | { readonly kind: "scalar"; readonly scalar: ScalarType }
  /** An enum, by name or number. */
  | { readonly kind: "enum" }
  /** Timestamp, Duration, FieldMask: their JSON string. */
  | { readonly kind: "string" }
  /** Struct, Value, ListValue: their JSON text. */
  | { readonly kind: "json" };

const stringForms = new Set([timestampTypeName, durationTypeName, fieldMaskTypeName]);
const jsonForms = new Set([structTypeName, valueTypeName, listValueTypeName]);

/** The URL form of a field's values, or undefined for a message type written field by field (or not at all). */
export function leafOf(field: DescField): Leaf | undefined {
  const m = field.message;
  if (m !== undefined) {
    if (isWrapperDesc(m)) return { kind: "scalar", scalar: m.fields[0]!.scalar! };
    if (stringForms.has(m.typeName)) return { kind: "string" };
    if (jsonForms.has(m.typeName)) return { kind: "json" };
    return undefined;
  }
  if (field.enum !== undefined) return { kind: "enum" };
  return { kind: "scalar", scalar: field.scalar! };
}

/**
 * A member of a JSON object built by this module or by the JSON writer, read only if it is the object's own:
 * a field whose JSON name is `constructor`, `toString` or `valueOf` is unset in it, not Object.prototype's.
 */
export function ownMember(o: unknown, key: string | number): unknown {
  return o !== null && typeof o === "object" && !Array.isArray(o) && Object.prototype.hasOwnProperty.call(o, key)
    ? (o as Record<string, unknown>)[key]
    : undefined;
}

/** Whether a dotted path may go through the field: a singular message field of a type without its own JSON form. */
export function isEnterable(field: DescField): boolean {
  return field.fieldKind === "message" && !hasCustomJsonRepresentation(field.message);
}

/** The field of a message named by a path segment: its proto name or its JSON name. */
export function fieldNamed(desc: DescMessage, name: string): DescField | undefined {
  return fieldsByJsonKey(planOf(desc)).get(name)?.field;
}

/** A path variable with the fields it names, from the request message down. */
export interface BoundVariable {
  readonly variable: TemplateVariable;
  readonly fields: readonly DescField[];
}

export interface CompiledBinding {
  /** The HTTP method, upper case; `*` (a custom kind) matches any. */
  readonly method: string;
  readonly template: PathTemplate;
  readonly variables: readonly BoundVariable[];
  /** No body, every field the path does not bind (`*`), or one top-level field. */
  readonly body: undefined | "*" | DescField;
  /** The member of the rule that holds the binding's pattern (`$.get`, `$.additionalBindings[0].post`). */
  readonly where: string;
}

export interface CompiledRule {
  readonly schema: DescMessage;
  readonly bindings: readonly CompiledBinding[];
}

/** `GET /v1/{name=shelves/*}`, as errors show a binding. */
export function bindingText(b: CompiledBinding): string {
  return `${b.method} ${b.template.text}`;
}

const byRule = new WeakMap<object, WeakMap<DescMessage, CompiledRule>>();
const byMethod = new WeakMap<DescMethod, CompiledRule>();

/**
 * The compiled rule of a method (from its google.api.http option, unless `rule` is given) or of a message
 * schema with a rule given by hand.
 *
 * @throws {WktJsonError} rule `syntax` (type google.api.HttpRule) for a rule that is not one, or does not fit
 *   the request message; `json-type` for a schema that is not a message or method descriptor.
 */
export function compiledRuleOf(target: DescMessage | DescMethod, rule: HttpRule | undefined): CompiledRule {
  if (target === null || typeof target !== "object" || (target.kind !== "message" && target.kind !== "rpc")) {
    throw new WktJsonError(
      "json-type",
      "$",
      "options",
      `expected a message or method descriptor, got ${describe(target)}`,
    );
  }
  if (target.kind === "rpc" && rule === undefined) {
    let c = byMethod.get(target);
    if (c === undefined) {
      const own = httpRuleOf(target);
      if (own === undefined) {
        throw new WktJsonError(
          "syntax",
          "$",
          httpRuleTypeName,
          `method ${target.parent.typeName}.${target.name} has no google.api.http option; give a rule`,
        );
      }
      c = compileGuarded(target.input, own);
      byMethod.set(target, c);
    }
    return c;
  }
  const schema = target.kind === "rpc" ? target.input : checkSchema(target);
  if (rule === null || typeof rule !== "object") {
    throw ruleError(
      "$",
      rule === undefined
        ? `a message schema needs the rule in the options ({ rule: { get: "/v1/{name=*}" } }), or pass the method descriptor of an rpc with a google.api.http option`
        : `expected a google.api.HttpRule (its JSON form, such as { get: "/v1/{name=*}" }), got ${describe(rule)}`,
    );
  }
  let perSchema = byRule.get(rule);
  if (perSchema === undefined) byRule.set(rule, (perSchema = new WeakMap()));
  let c = perSchema.get(schema);
  if (c === undefined) perSchema.set(schema, (c = compileGuarded(schema, rule)));
  return c;
}

/** {@link compile}, with an exception of the rule object's own (a getter, a proxy) as a rule error. */
function compileGuarded(schema: DescMessage, rule: HttpRule): CompiledRule {
  try {
    return compile(schema, rule);
  } catch (e) {
    if (e instanceof WktJsonError) throw e;
    throw ruleError("$", `the rule cannot be read (reading it threw ${e instanceof Error ? e.name : describe(e)})`);
  }
}

function ruleError(where: string, detail: string): WktJsonError {
  return new WktJsonError("syntax", where, httpRuleTypeName, detail);
}

const patterns = ["get", "put", "post", "delete", "patch", "custom"] as const;

/** The most additional bindings a rule has: rules are written by people, in .proto files. */
export const additionalBindingsMax = 1024;

function compile(schema: DescMessage, rule: HttpRule): CompiledRule {
  const bindings = [compileBinding(schema, rule, "$")];
  const more: unknown = rule.additionalBindings;
  if (more !== undefined) {
    if (!Array.isArray(more))
      throw ruleError("$.additionalBindings", `expected a list of rules, got ${describe(more)}`);
    // A list's length is the caller's to set (a sparse array of 2^32 - 1 holes): bounded before the walk.
    if (more.length > additionalBindingsMax) {
      throw ruleError(
        "$.additionalBindings",
        `more than ${formatBound(additionalBindingsMax)} additional bindings (got a list of ${formatBound(more.length)})`,
      );
    }
    more.forEach((b: unknown, k) => {
      const where = pathJoin("$", "additionalBindings", k);
      if (b === null || typeof b !== "object") throw ruleError(where, `expected a rule, got ${describe(b)}`);
      const nested = (b as HttpRule).additionalBindings;
      if (nested !== undefined && (!Array.isArray(nested) || nested.length > 0)) {
        throw ruleError(
          pathJoin(where, "additionalBindings"),
          "an additional binding has its own additional bindings (http.proto: the nesting may only be one level deep)",
        );
      }
      bindings.push(compileBinding(schema, b as HttpRule, where));
    });
  }
  return { schema, bindings };
}

function compileBinding(schema: DescMessage, rule: HttpRule, at: string): CompiledBinding {
  const given = patterns.filter((p) => rule[p] !== undefined);
  if (given.length !== 1) {
    throw ruleError(
      at,
      `a rule has exactly one of get, put, post, delete, patch, custom; got ${given.length === 0 ? "none" : given.join(", ")}`,
    );
  }
  const p = given[0]!;
  let method: string;
  let text: unknown;
  let where = pathJoin(at, p);
  if (p === "custom") {
    const custom = rule.custom as unknown;
    if (custom === null || typeof custom !== "object")
      throw ruleError(where, `expected { kind, path }, got ${describe(custom)}`);
    const { kind, path } = custom as { kind?: unknown; path?: unknown };
    if (typeof kind !== "string" || kind === "")
      throw ruleError(pathJoin(where, "kind"), `expected an HTTP method, got ${describe(kind)}`);
    method = kind.toUpperCase();
    text = path;
    where = pathJoin(where, "path");
  } else {
    method = p.toUpperCase();
    text = rule[p];
  }
  if (typeof text !== "string") throw ruleError(where, `expected a path template, got ${describe(text)}`);
  const template = parseTemplate(text, where);
  const variables = template.variables.map((v) => ({ variable: v, fields: variableFields(schema, v, where) }));
  // `{json_named}` and `{renamed}` (its JSON name) are one field: the second value would replace the first.
  const bound = new Map<string, string>();
  for (const bv of variables) {
    const path = bv.fields.map((f) => f.name).join(".");
    const other = bound.get(path);
    if (other !== undefined) {
      throw ruleError(where, `path variables ${other} and ${bv.variable.label} name the same field ${path}`);
    }
    bound.set(path, bv.variable.label);
  }
  return { method, template, variables, body: bodyOf(schema, rule.body, pathJoin(at, "body")), where };
}

function variableFields(schema: DescMessage, v: TemplateVariable, where: string): DescField[] {
  const fields: DescField[] = [];
  let desc = schema;
  v.fieldPath.forEach((name, k) => {
    const f = fieldNamed(desc, name);
    const last = k === v.fieldPath.length - 1;
    const fail = (why: string): never => {
      throw ruleError(where, `path variable ${v.label}: ${why}`);
    };
    if (f === undefined) fail(`${desc.typeName} has no field ${JSON.stringify(name)}`);
    if (!last) {
      if (!isEnterable(f!)) fail(`${f!.name} is not a singular message field to go through`);
      desc = f!.message!;
    } else if (f!.fieldKind !== "scalar" && f!.fieldKind !== "enum") {
      fail(
        `${f!.name} is a ${f!.fieldKind === "message" ? "message" : f!.fieldKind} field; a path variable names a singular scalar or enum field (http.proto: not a repeated or mapped field)`,
      );
    }
    fields.push(f!);
  });
  return fields;
}

function bodyOf(schema: DescMessage, body: unknown, where: string): undefined | "*" | DescField {
  if (body === undefined || body === "") return undefined;
  if (body === "*") return "*";
  if (typeof body !== "string") throw ruleError(where, `expected "*" or a field's name, got ${describe(body)}`);
  const f = fieldNamed(schema, body);
  if (f === undefined)
    throw ruleError(
      where,
      `${schema.typeName} has no top-level field ${JSON.stringify(body)} (http.proto: the body names a top-level field)`,
    );
  return f;
}
