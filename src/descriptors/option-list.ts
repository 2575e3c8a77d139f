/**
 * Options messages (MessageOptions, FieldOptions, ...) to `google.protobuf.Option` entries and back, as C++
 * `ConvertDescriptorToType` writes them: in field-number order, one per element of a repeated option; built-in
 * options under their short name, custom options under their full name; the value an Any holding the option's
 * message, a wrapper for a scalar (by C++ type), an Int32Value for an enum. A custom option no visible
 * extension names is left out both ways: it cannot be named.
 *
 * @module
 * @internal
 */
import {
  clone,
  create,
  createRegistry,
  fromBinary,
  getExtension,
  isFieldSet,
  merge,
  ScalarType,
  setExtension,
  toBinary,
  type DescExtension,
  type DescField,
  type DescFile,
  type DescMessage,
  type Registry,
} from "@bufbuild/protobuf";
import { nestedTypes } from "@bufbuild/protobuf/reflect";
import {
  BoolValueSchema,
  BytesValueSchema,
  DoubleValueSchema,
  FeatureSetSchema,
  FloatValueSchema,
  Int32ValueSchema,
  Int64ValueSchema,
  OptionSchema,
  StringValueSchema,
  UInt32ValueSchema,
  UInt64ValueSchema,
  type Any,
  type FeatureSet,
  type Option,
} from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { anyPack } from "../wkt/any.js";
import { typeUrlParse } from "../wkt/registry.js";
import { movedError } from "./moved-error.js";

export type ExtensionFinder = (extendee: DescMessage, number: number) => DescExtension | undefined;
export type OptionsMessage = { $typeName: string; $unknown?: Array<{ no: number }>; features?: FeatureSet } & Record<
  string,
  unknown
>;

const visibleExtensionsCache = new WeakMap<DescFile, Registry>();

/** The extensions a file can use: its own and those of every file it imports, transitively. */
function visibleExtensions(file: DescFile): Registry {
  let reg = visibleExtensionsCache.get(file);
  if (reg === undefined) {
    const exts: DescExtension[] = [];
    const seen = new Set<DescFile>();
    const files = [file];
    for (let i = 0; i < files.length; i++) {
      const f = files[i] as DescFile;
      if (seen.has(f)) continue;
      seen.add(f);
      for (const t of nestedTypes(f)) if (t.kind === "extension") exts.push(t);
      files.push(...f.dependencies);
    }
    reg = createRegistry(...exts);
    visibleExtensionsCache.set(file, reg);
  }
  return reg;
}

export function extensionFinder(file: DescFile, registry: Registry | undefined): ExtensionFinder {
  const visible = visibleExtensions(file);
  return (extendee, no) => visible.getExtensionFor(extendee, no) ?? registry?.getExtensionFor(extendee, no);
}

/** Copies `own` options with the features inherited from the file and enclosing messages merged in (C++ does so). */
export function withInheritedFeatures<T extends object>(
  schema: DescMessage,
  own: T | undefined,
  file: DescFile,
  parents: readonly DescMessage[],
): T | undefined {
  const inherited = create(FeatureSetSchema);
  const sources = [file.proto.options?.features, ...parents.map((p) => p.proto.options?.features)];
  for (const s of sources) if (s !== undefined) merge(FeatureSetSchema, inherited, clone(FeatureSetSchema, s));
  if (toBinary(FeatureSetSchema, inherited).length === 0) return own;
  const out = (own === undefined ? create(schema) : clone(schema, own as never)) as unknown as OptionsMessage;
  if (out.features !== undefined) merge(FeatureSetSchema, inherited, out.features);
  out.features = inherited;
  return out as unknown as T;
}

/** Every set option as `Option` entries, in field-number order, one per element of a repeated option. */
export function optionList(schema: DescMessage, options: object | undefined, find: ExtensionFinder): Option[] {
  if (options === undefined) return [];
  const msg = options as OptionsMessage;
  const entries: Array<[number, Option[]]> = [];
  for (const field of schema.fields) {
    if (!isFieldSet(msg as never, field)) continue;
    entries.push([field.number, optionEntries(field, field.name, msg[field.localName])]);
  }
  const seen = new Set<number>();
  for (const u of msg.$unknown ?? []) {
    if (seen.has(u.no)) continue;
    seen.add(u.no);
    const ext = find(schema, u.no);
    if (ext === undefined) continue; // a custom option no visible extension names: it cannot be written
    entries.push([u.no, optionEntries(ext, ext.typeName, getExtension(msg as never, ext))]);
  }
  entries.sort((a, b) => a[0] - b[0]);
  return entries.flatMap((e) => e[1]);
}

function optionEntries(field: DescField | DescExtension, name: string, value: unknown): Option[] {
  const kind = valueKind(field);
  if (kind === undefined) return [];
  const values = field.fieldKind === "list" ? (value as unknown[]) : [value];
  return values.map((v) => create(OptionSchema, { name, value: packOptionValue(kind, v) }));
}

type ValueKind = { kind: "message"; message: DescMessage } | { kind: "enum" } | { kind: "scalar"; scalar: ScalarType };

function valueKind(field: DescField | DescExtension): ValueKind | undefined {
  switch (field.fieldKind) {
    case "message":
      return { kind: "message", message: field.message };
    case "enum":
      return { kind: "enum" };
    case "scalar":
      return { kind: "scalar", scalar: field.scalar };
    case "list":
      if (field.listKind === "message") return { kind: "message", message: field.message };
      if (field.listKind === "enum") return { kind: "enum" };
      return { kind: "scalar", scalar: field.scalar };
    default:
      return undefined; // options have no map fields
  }
}

function packOptionValue(kind: ValueKind, value: unknown): Any {
  switch (kind.kind) {
    case "message":
      return anyPack(kind.message, value as never);
    case "enum":
      return anyPack(Int32ValueSchema, create(Int32ValueSchema, { value: value as number }));
    case "scalar": {
      const wrapper = wrapperOfScalar[kind.scalar];
      const v = wrapper === Int64ValueSchema || wrapper === UInt64ValueSchema ? BigInt(value as bigint) : value;
      return anyPack(wrapper, create(wrapper, { value: v } as never) as never);
    }
  }
}

/** The wrapper C++ packs an option scalar in: by C++ type, so sint32 and sfixed32 are Int32Value. */
const wrapperOfScalar: Record<ScalarType, DescMessage> = {
  [ScalarType.DOUBLE]: DoubleValueSchema,
  [ScalarType.FLOAT]: FloatValueSchema,
  [ScalarType.INT64]: Int64ValueSchema,
  [ScalarType.SINT64]: Int64ValueSchema,
  [ScalarType.SFIXED64]: Int64ValueSchema,
  [ScalarType.UINT64]: UInt64ValueSchema,
  [ScalarType.FIXED64]: UInt64ValueSchema,
  [ScalarType.INT32]: Int32ValueSchema,
  [ScalarType.SINT32]: Int32ValueSchema,
  [ScalarType.SFIXED32]: Int32ValueSchema,
  [ScalarType.UINT32]: UInt32ValueSchema,
  [ScalarType.FIXED32]: UInt32ValueSchema,
  [ScalarType.BOOL]: BoolValueSchema,
  [ScalarType.STRING]: StringValueSchema,
  [ScalarType.BYTES]: BytesValueSchema,
};

/** What {@link optionsFromList} reports errors under, and the registry that names custom options. */
export interface OptionContext {
  readonly typeName: string;
  readonly registry: Registry | undefined;
}

/** The options message the `Option` entries describe; custom options no extension names are left out. */
export function optionsFromList(
  schema: DescMessage,
  list: readonly Option[],
  path: string,
  ctx: OptionContext,
): OptionsMessage | undefined {
  if (list.length === 0) return undefined;
  const out = create(schema) as unknown as OptionsMessage;
  // The elements of each repeated custom option, set once at the end: getExtension and setExtension decode and
  // encode all elements, so setting them one by one is quadratic.
  const extLists = new Map<DescExtension, unknown[]>();
  list.forEach((opt, k) => {
    const at = `${path}[${k}]`;
    const builtin = opt.name.includes(".") ? undefined : schema.fields.find((f) => f.name === opt.name);
    if (builtin !== undefined) {
      const kind = valueKind(builtin);
      if (kind === undefined) return;
      const value = unpackOptionValue(kind, opt.value, `${at}.value`, ctx);
      if (builtin.fieldKind === "list") {
        const list = (out[builtin.localName] ??= []) as unknown[];
        list.push(value);
      } else if (kind.kind === "message" && out[builtin.localName] !== undefined) {
        merge(kind.message, out[builtin.localName] as never, value as never);
      } else {
        out[builtin.localName] = value;
      }
      return;
    }
    const ext = ctx.registry?.getExtension(opt.name);
    if (ext === undefined || ext.extendee.typeName !== schema.typeName) return; // unknown custom option
    const kind = valueKind(ext);
    if (kind === undefined) return;
    const value = unpackOptionValue(kind, opt.value, `${at}.value`, ctx);
    if (ext.fieldKind === "list") {
      let values = extLists.get(ext);
      if (values === undefined) extLists.set(ext, (values = []));
      values.push(value);
    } else {
      setExtension(out as never, ext, value as never);
    }
  });
  for (const [ext, values] of extLists) setExtension(out as never, ext, values as never);
  return out;
}

function unpackOptionValue(kind: ValueKind, any: Any | undefined, path: string, ctx: OptionContext): unknown {
  const expected =
    kind.kind === "message" ? kind.message : kind.kind === "enum" ? Int32ValueSchema : wrapperOfScalar[kind.scalar];
  if (any === undefined) {
    throw new WktJsonError(
      "type-url",
      path,
      ctx.typeName,
      `the option has no value (expected an Any holding ${expected.typeName})`,
    );
  }
  let name: string;
  try {
    name = typeUrlParse(any.typeUrl).typeName;
  } catch (e) {
    throw movedError(e, path + ".typeUrl", ctx.typeName);
  }
  if (name !== expected.typeName) {
    throw new WktJsonError(
      "type-url",
      path,
      ctx.typeName,
      `the option's value is a ${name}, expected a ${expected.typeName}`,
    );
  }
  let message: Record<string, unknown>;
  try {
    message = fromBinary(expected, any.value) as unknown as Record<string, unknown>;
  } catch (e) {
    throw new WktJsonError(
      "binary",
      path,
      ctx.typeName,
      `the option's value is not a serialized ${expected.typeName}`,
      { cause: e },
    );
  }
  return kind.kind === "message" ? message : message["value"];
}
