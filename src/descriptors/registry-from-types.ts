/**
 * A `@bufbuild/protobuf` registry from `google.protobuf.Type` and `Enum` messages: the inverse of
 * typesFromDescriptors, for the JSON codec to read and write messages known only as Types (fetched by type URL in
 * type-resolver.ts). One function per phase: the given types as nodes, placed under the types their names nest
 * in, built into descriptor protos (descriptor-protos.ts), grouped into files in import order, and handed to
 * protobuf-es in one set.
 *
 * Spec, rule 2: "Any.type_url with scheme http, https or none: no scheme means https; the last path segment is
 * the fully qualified type name; an HTTP GET on the URL must yield the binary type descriptor or an error;
 * lookups may be cached or precompiled, so binary compatibility of types must be preserved."
 *
 * @module
 */
import { create, createFileRegistry, type DescFile, type FileRegistry, type Registry } from "@bufbuild/protobuf";
import {
  Edition,
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  MessageOptionsSchema,
  Syntax,
  type DescriptorProto,
  type Enum,
  type EnumDescriptorProto,
  type Field,
  type FileDescriptorProto,
  type Type,
} from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { enumTypeName, typeTypeName } from "../internal/names.js";
import { isDigit } from "../internal/scan.js";
import { registryNestingMax } from "../limits.js";
import { enumJsonNameClash } from "../wkt/enum.js";
import { typeUrlParse, wktRedefinition } from "../wkt/registry.js";
import { builtins } from "./builtins.js";
import {
  enumProto,
  mergeFeatures,
  messageProto,
  noNames,
  type BuildContext,
  type FileSyntax,
  type Node,
} from "./descriptor-protos.js";
import { movedError } from "./moved-error.js";
import { optionsFromList } from "./option-list.js";

/** Options of {@link registryFromTypes}. */
export interface RegistryFromTypesOptions {
  /**
   * Types the given ones may reference without describing them, and extensions that name custom options
   * (without the extension, a custom option is left out). The well-known types and descriptor.proto's
   * messages are always known.
   */
  registry?: Registry;
}

/** Message and enum types as {@link typesFromDescriptors} returns them and {@link registryFromTypes} takes them. */
export interface TypeSet {
  readonly types?: readonly Type[];
  readonly enums?: readonly Enum[];
}

/** The roots that go into one file: same source file (when known), package and syntax. */
interface Group {
  readonly pkg: string;
  readonly syntax: FileSyntax;
  readonly sourceFile: string;
  readonly roots: Node[];
  fileName: string;
}

/** A reference from a field to a type: a node we build, or a type some existing file defines. */
type Target = { readonly node: Node } | { readonly file: DescFile };

/**
 * Builds a `@bufbuild/protobuf` registry from `Type` and `Enum` messages (the inverse of
 * {@link typesFromDescriptors}), through one `FileDescriptorProto` per source file, so that the JSON codec can
 * read and write messages known only as Types. Types whose names nest (`pkg.Msg.Entry` in `pkg.Msg`) become
 * nested types; the syntax, edition and inherited features of each Type carry over, so presence, packing,
 * delimited encoding and open or closed enums are as the original schema had them. Time and stack are linear
 * in the input and bounded whatever its shape: package chains, import cycles and types nested thousands deep
 * (nesting deeper than {@link registryNestingMax} is rebuilt as a message at the top of a file whose package is
 * the enclosing type's name; the type names stay the same).
 *
 * The names of a Type's fields are checked as protoc checks them, and stricter where JSON or protobuf-es needs
 * it: no two fields may share a proto name, a JSON name, or a default (lowerCamelCase) JSON name (protoc only
 * warns about the last in proto2, but protobuf-es gives both fields one property); a JSON name may not be
 * another field's proto name (a reader accepts both names, so it could not tell the fields apart); and no field
 * may be called `@type` in JSON (the type URL's member when the message is in an Any). The names of an Enum's
 * values too: a name or custom JSON name may stand for one number only.
 *
 * @throws {WktJsonError} rule `unknown-type` for a referenced type that is neither given nor known (the error
 *   names its type URL; path `$.types[i].fields[j].typeUrl`), `type-url` for a malformed type URL or type name,
 *   a duplicate type, or a type that redefines a well-known type with a form of its own (Struct, Timestamp, a
 *   wrapper, ...: path `$.types[i].name`; one the same field for field is accepted), `enum` for an unknown kind, cardinality or syntax, `range` for a field number or
 *   `oneof_index` out of range (rule 10), `duplicate-field` for a JSON name that clashes as said above (reported at
 *   the later field of the two: path `$.types[i].fields[j].jsonName`, or `.name` when its proto name is the
 *   earlier field's JSON name), `enum` for an enum whose values' JSON names clash as protoc checks them (a
 *   custom JSON name that is another value's name or custom JSON name, or two values of one name; path
 *   `$.enums[i].enumvalue[k]`, the later value), `syntax` for an unknown edition or types that do not form valid
 *   descriptors (types of different packages that reference each other in a cycle among them), `binary` for
 *   an option value that does not decode.
 * @example
 * const registry = registryFromTypes(typesFromDescriptors(TestAllTypesProto3));
 * const schema = registry.getMessage("protobuf_test_messages.proto3.TestAllTypesProto3")!;
 * toJson(schema, fromJson(schema, { optionalInt32: 1 }, { registry }), { registry }); //=> { optionalInt32: 1 }
 */
export function registryFromTypes(set: TypeSet, options?: RegistryFromTypesOptions): FileRegistry {
  const known = options?.registry;
  const nodes = collectNodes(set);
  linkParents(nodes.order, nodes.byName);
  const roots = placeNodes(nodes.order, known);
  const { protos, refs } = buildProtos(roots, nodes.byName, known);
  const groups = fileGroups(roots, refs);
  const external = referencedFiles(refs);
  nameFiles(groups, external);
  const registry = fileRegistry(external, groups, protos, refs);
  checkBuilt(registry, nodes.order);
  return registry;
}

/** The given types and enums by full name, in input order. */
interface Nodes {
  readonly byName: Map<string, Node>;
  readonly order: Node[];
}

/** A node for every Type and Enum given, its full name checked and unique. */
function collectNodes(set: TypeSet): Nodes {
  const byName = new Map<string, Node>();
  const order: Node[] = [];
  const add = (node: Node) => {
    checkFullName(node.name, `${node.path}.name`, node.kind === "message" ? typeTypeName : enumTypeName);
    if (byName.has(node.name)) {
      throw new WktJsonError(
        "type-url",
        `${node.path}.name`,
        node.kind === "message" ? typeTypeName : enumTypeName,
        `${node.name} is given twice`,
      );
    }
    byName.set(node.name, node);
    order.push(node);
  };
  (set.types ?? []).forEach((type, i) => {
    const path = `$.types[${i}]`;
    const syntax = fileSyntaxOf(type.syntax, type.edition, path, typeTypeName);
    const mapEntry = type.options.some((o) => o.name === "map_entry");
    add({
      kind: "message",
      name: type.name,
      path,
      type,
      syntax,
      mapEntry,
      children: [],
      level: 0,
      pkg: "",
      fileSyntax: syntax,
    });
  });
  (set.enums ?? []).forEach((e, i) => {
    const path = `$.enums[${i}]`;
    const syntax = fileSyntaxOf(e.syntax, e.edition, path, enumTypeName);
    add({
      kind: "enum",
      name: e.name,
      path,
      enum: e,
      syntax,
      mapEntry: false,
      children: [],
      level: 0,
      pkg: "",
      fileSyntax: syntax,
    });
  });
  return { byName, order };
}

/** Sets each node's parent (the given message its name is nested in) or, for a node without one, its package. */
function linkParents(order: readonly Node[], byName: ReadonlyMap<string, Node>): void {
  for (const node of order) {
    const dot = node.name.lastIndexOf(".");
    const outer = dot < 0 ? "" : node.name.slice(0, dot);
    const parent = byName.get(outer);
    if (parent?.kind === "enum") {
      throw new WktJsonError(
        "type-url",
        `${node.path}.name`,
        node.kind === "message" ? typeTypeName : enumTypeName,
        `${node.name} would be nested in the enum ${outer}`,
      );
    }
    if (parent !== undefined) node.parent = parent;
    else node.pkg = outer;
  }
}

/**
 * Places each node under its parent or at the top of a file, reads a message's options and features on the way,
 * and returns the roots. Iterative (names can nest thousands deep), and linear: each node is placed once, after
 * its parent.
 */
function placeNodes(order: readonly Node[], known: Registry | undefined): Node[] {
  const pending: Node[] = [];
  for (const start of order) {
    for (let n: Node | undefined = start; n !== undefined && n.root === undefined; n = n.parent) pending.push(n);
    while (pending.length > 0) {
      const node = pending.pop() as Node;
      const parent = node.parent;
      if (node.type !== undefined) {
        node.options = optionsFromList(MessageOptionsSchema, node.type.options, `${node.path}.options`, {
          typeName: typeTypeName,
          registry: known,
        });
        node.features = mergeFeatures(parent?.features, node.options?.features);
      }
      if (parent === undefined) {
        node.root = node;
        continue;
      }
      const level = parent.level + 1;
      // protobuf-es builds nested descriptors recursively: nesting is cut every registryNestingMax levels (a
      // map entry stays with its map field's message, up to twice that).
      if (level > registryNestingMax && (!node.mapEntry || level > 2 * registryNestingMax)) {
        node.root = node;
        node.pkg = parent.name;
      } else {
        node.root = parent.root as Node;
        node.level = level;
      }
      node.fileSyntax = parent.fileSyntax;
    }
  }
  const roots: Node[] = [];
  for (const node of order) {
    if (node.root === node) roots.push(node);
    else (node.parent as Node).children.push(node);
  }
  return roots;
}

/** The descriptor protos of the roots (each holding its nested types), and what each root's fields reference. */
interface BuiltProtos {
  readonly protos: Map<Node, DescriptorProto | EnumDescriptorProto>;
  readonly refs: Map<Node, Target[]>;
}

/** Descriptor protos, one tree per root, and what each root's fields reference. */
function buildProtos(
  roots: readonly Node[],
  byName: ReadonlyMap<string, Node>,
  known: Registry | undefined,
): BuiltProtos {
  const refs = new Map<Node, Target[]>();
  const ctx: BuildContext = { known, resolveRef: refResolver(byName, known, refs) };
  const protos = new Map<Node, DescriptorProto | EnumDescriptorProto>();
  const stack: Node[] = [];
  for (const root of roots) {
    refs.set(root, []);
    if (root.kind === "enum") {
      protos.set(root, enumProto(root, known));
      continue;
    }
    // Pre-order, without recursion: a message's proto is made before its children's, which it then holds.
    stack.push(root);
    while (stack.length > 0) {
      const node = stack.pop() as Node;
      const parent = node === root ? undefined : (node.parent as Node);
      if (node.kind === "enum") {
        (parent?.proto as DescriptorProto).enumType.push(enumProto(node, known));
        continue;
      }
      const proto = messageProto(node, root.fileSyntax, node === root && root.parent !== undefined, ctx);
      node.proto = proto;
      if (parent !== undefined) (parent.proto as DescriptorProto).nestedType.push(proto);
      else protos.set(root, proto);
      for (let c = node.children.length - 1; c >= 0; c--) stack.push(node.children[c] as Node);
    }
  }
  return { protos, refs };
}

/**
 * The resolver of a field's type URL: a given node or a type of `known` or the built-ins, of the kind the field
 * wants; each target is recorded in `refs` under the root of the referring node.
 */
function refResolver(
  byName: ReadonlyMap<string, Node>,
  known: Registry | undefined,
  refs: ReadonlyMap<Node, Target[]>,
): BuildContext["resolveRef"] {
  const enumNameSets = new WeakMap<object, ReadonlySet<string>>();
  const enumNames = (key: object, names: () => string[]): ReadonlySet<string> => {
    let s = enumNameSets.get(key);
    if (s === undefined) enumNameSets.set(key, (s = new Set(names())));
    return s;
  };
  return (from, field, path, want) => {
    let name: string;
    try {
      name = typeUrlParse(field.typeUrl).typeName;
    } catch (e) {
      throw movedError(e, path, typeTypeName);
    }
    const node = byName.get(name);
    let target: Target;
    let enumValues: () => ReadonlySet<string> = noNames;
    if (node !== undefined) {
      if (node.kind !== want) throw kindMismatch(field, path, node.kind, name, want);
      target = { node: node.root as Node };
      const e = node.enum;
      if (e !== undefined) enumValues = () => enumNames(e, () => e.enumvalue.map((v) => v.name));
    } else {
      const desc = known?.get(name) ?? builtins().get(name);
      if (desc === undefined) {
        throw new WktJsonError(
          "unknown-type",
          path,
          typeTypeName,
          `${JSON.stringify(field.typeUrl)} names a type that is not among the given ${want === "enum" ? "enums" : "types"} (pass it, or a registry that has it)`,
        );
      }
      if (desc.kind !== "message" && desc.kind !== "enum") {
        throw new WktJsonError(
          "unknown-type",
          path,
          typeTypeName,
          `${JSON.stringify(field.typeUrl)} names the ${desc.kind} ${name}, which is no ${want}`,
        );
      }
      if (desc.kind !== want) throw kindMismatch(field, path, desc.kind, name, want);
      const redefined = wktRedefinition(desc);
      if (redefined !== undefined) {
        throw new WktJsonError(
          "type-url",
          path,
          typeTypeName,
          `${JSON.stringify(field.typeUrl)} names ${name} of the registry given, which redefines the built-in well-known type: ${redefined}`,
        );
      }
      target = { file: desc.file };
      if (desc.kind === "enum") enumValues = () => enumNames(desc, () => desc.values.map((v) => v.name));
    }
    refs.get(from.root as Node)?.push(target);
    return { typeName: "." + name, mapEntry: node?.mapEntry === true, enumValues };
  };
}

/** The error of a field whose type URL names a type of the other kind (a message for an enum field, or the reverse). */
function kindMismatch(field: Field, path: string, kind: string, name: string, want: string): WktJsonError {
  return new WktJsonError(
    "unknown-type",
    path,
    typeTypeName,
    `${JSON.stringify(field.typeUrl)} names the ${kind} ${name}, but the field is of ${want} kind`,
  );
}

/**
 * The roots grouped into files, each after the files it references: one file per source file, package and
 * syntax, or, where crafted Types make a cycle between source files (protoc never makes one), one per package
 * and syntax, which removes cycles between files of one package.
 */
function fileGroups(roots: readonly Node[], refs: ReadonlyMap<Node, readonly Target[]>): Group[] {
  const groups = groupRoots(roots, refs, true) ?? groupRoots(roots, refs, false);
  if (groups === undefined) {
    throw new WktJsonError(
      "syntax",
      "$",
      typeTypeName,
      "the types reference each other across packages in a cycle, which descriptors cannot express",
    );
  }
  return groups;
}

/**
 * The existing files referenced and the files they import, each after its imports; protobuf-es builds the whole
 * set in one pass, so that no chain of imports is followed recursively.
 */
function referencedFiles(refs: ReadonlyMap<Node, readonly Target[]>): DescFile[] {
  const external = new Set<string>();
  const ordered: DescFile[] = [];
  const visiting: Array<{ file: DescFile; next: number }> = [];
  for (const targets of refs.values()) {
    for (const t of targets) {
      if (!("file" in t) || external.has(t.file.proto.name)) continue;
      external.add(t.file.proto.name);
      visiting.push({ file: t.file, next: 0 });
      while (visiting.length > 0) {
        const top = visiting[visiting.length - 1] as { file: DescFile; next: number };
        const dep = top.file.dependencies[top.next++];
        if (dep === undefined) {
          visiting.pop();
          ordered.push(top.file);
        } else if (!external.has(dep.proto.name)) {
          external.add(dep.proto.name);
          visiting.push({ file: dep, next: 0 });
        }
      }
    }
  }
  return ordered;
}

/** Gives each group a unique file name, distinct from those of the files referenced. */
function nameFiles(groups: readonly Group[], external: readonly DescFile[]): void {
  const used = new Set(external.map((f) => f.proto.name));
  const nextSuffix = new Map<string, number>();
  for (const g of groups) {
    const base =
      g.sourceFile !== "" ? g.sourceFile : `${g.pkg === "" ? "" : g.pkg.replaceAll(".", "/") + "/"}types.proto`;
    let name = base;
    let n = nextSuffix.get(base) ?? 2;
    while (used.has(name)) name = `${base}~${n++}`;
    nextSuffix.set(base, n);
    used.add(name);
    g.fileName = name;
  }
}

/** The registry of the referenced files and one FileDescriptorProto per group, importing what its roots reference. */
function fileRegistry(
  external: readonly DescFile[],
  groups: readonly Group[],
  protos: ReadonlyMap<Node, DescriptorProto | EnumDescriptorProto>,
  refs: ReadonlyMap<Node, readonly Target[]>,
): FileRegistry {
  const groupOf = new Map<Node, Group>();
  for (const g of groups) for (const r of g.roots) groupOf.set(r, g);
  const files: FileDescriptorProto[] = external.map((f) => f.proto);
  for (const g of groups) {
    const deps = new Set<string>();
    for (const r of g.roots) {
      for (const t of refs.get(r) ?? []) {
        const dep = "file" in t ? t.file.proto.name : groupOf.get(t.node)?.fileName;
        if (dep !== undefined && dep !== g.fileName) deps.add(dep);
      }
    }
    const messageType: DescriptorProto[] = [];
    const enumType: EnumDescriptorProto[] = [];
    for (const r of g.roots) {
      if (r.kind === "message") messageType.push(protos.get(r) as DescriptorProto);
      else enumType.push(protos.get(r) as EnumDescriptorProto);
    }
    const file: FileDescriptorProto = create(FileDescriptorProtoSchema, {
      name: g.fileName,
      package: g.pkg,
      syntax: g.syntax.syntax,
      dependency: [...deps],
      messageType,
      enumType,
    });
    if (g.syntax.syntax === "editions") file.edition = g.syntax.edition;
    files.push(file);
  }
  try {
    return createFileRegistry(create(FileDescriptorSetSchema, { file: files }));
  } catch (e) {
    throw new WktJsonError(
      "syntax",
      "$",
      typeTypeName,
      `the types do not form valid descriptors: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
}

/**
 * Checks the descriptors built, which read options as the codec does. Refuses an enum whose values' JSON names
 * clash, as protoc does (see enumJsonNameClash): a custom JSON name (the option `(pb.enumvalue.json)`) that is
 * another value's name or custom JSON name, or two values of one name. Refuses a type that redefines one of
 * the well-known types with a form of their own (a `google.protobuf.Struct` of other fields): the codec
 * would read and write it as the built-in; one the same field for field is accepted.
 */
function checkBuilt(registry: FileRegistry, order: readonly Node[]): void {
  for (const node of order) {
    const desc = node.kind === "enum" ? registry.getEnum(node.name) : registry.getMessage(node.name);
    if (desc === undefined) continue;
    const typeName = node.kind === "enum" ? enumTypeName : typeTypeName;
    const redefined = wktRedefinition(desc);
    if (redefined !== undefined) {
      throw new WktJsonError(
        "type-url",
        `${node.path}.name`,
        typeName,
        `${node.name} is a well-known type, built in, and this one differs: ${redefined}`,
      );
    }
    const clash = desc.kind === "enum" ? enumJsonNameClash(desc) : undefined;
    if (clash !== undefined) {
      throw new WktJsonError(
        "enum",
        `${node.path}.enumvalue[${clash.index}]`,
        typeName,
        `the JSON names of ${node.name} clash: ${clash.detail}`,
      );
    }
  }
}

/** Groups roots into files, in an order where each file comes after the files it references; undefined on a cycle. */
function groupRoots(
  roots: readonly Node[],
  refs: ReadonlyMap<Node, readonly Target[]>,
  bySourceFile: boolean,
): Group[] | undefined {
  const byKey = new Map<string, Group>();
  const groupOf = new Map<Node, Group>();
  for (const r of roots) {
    const sourceFile = bySourceFile ? ((r.type ?? r.enum)?.sourceContext?.fileName ?? "") : "";
    const key = `${sourceFile}\u0000${r.pkg}\u0000${r.fileSyntax.syntax}\u0000${r.fileSyntax.edition}`;
    let g = byKey.get(key);
    if (g === undefined) {
      g = { pkg: r.pkg, syntax: r.fileSyntax, sourceFile, roots: [], fileName: "" };
      byKey.set(key, g);
    }
    g.roots.push(r);
    groupOf.set(r, g);
  }
  // The groups each group references, then a depth-first walk with an explicit stack (a chain of packages can
  // be as long as the input).
  const depsOf = new Map<Group, Group[]>();
  for (const g of byKey.values()) {
    const deps = new Set<Group>();
    for (const r of g.roots) {
      for (const t of refs.get(r) ?? []) {
        if (!("node" in t)) continue;
        const dep = groupOf.get(t.node);
        if (dep !== undefined && dep !== g) deps.add(dep);
      }
    }
    depsOf.set(g, [...deps]);
  }
  const ordered: Group[] = [];
  const state = new Map<Group, 1 | 2>(); // 1: on the stack, 2: done
  const stack: Array<{ group: Group; next: number }> = [];
  for (const start of byKey.values()) {
    if (state.has(start)) continue;
    state.set(start, 1);
    stack.push({ group: start, next: 0 });
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { group: Group; next: number };
      const dep = (depsOf.get(top.group) as Group[])[top.next++];
      if (dep === undefined) {
        stack.pop();
        state.set(top.group, 2);
        ordered.push(top.group);
        continue;
      }
      const s = state.get(dep);
      if (s === 1) return undefined;
      if (s === undefined) {
        state.set(dep, 1);
        stack.push({ group: dep, next: 0 });
      }
    }
  }
  return ordered;
}

function fileSyntaxOf(syntax: Syntax, edition: string, path: string, typeName: string): FileSyntax {
  switch (syntax) {
    case Syntax.PROTO2:
      return { syntax: "proto2", edition: Edition.EDITION_PROTO2 };
    case Syntax.PROTO3:
      return { syntax: "proto3", edition: Edition.EDITION_PROTO3 };
    case Syntax.EDITIONS: {
      const name = edition.startsWith("EDITION_") ? edition : `EDITION_${edition}`;
      const value = (Edition as unknown as Record<string, number | undefined>)[name];
      if (value === undefined || value < Edition.EDITION_2023 || value > Edition.EDITION_MAX - 1) {
        throw new WktJsonError(
          "syntax",
          `${path}.edition`,
          typeName,
          `edition ${JSON.stringify(edition)} is not an edition such as "2023"`,
        );
      }
      return { syntax: "editions", edition: value as Edition };
    }
    default:
      throw new WktJsonError(
        "enum",
        `${path}.syntax`,
        typeName,
        `syntax ${syntax as number} is not SYNTAX_PROTO2, SYNTAX_PROTO3 or SYNTAX_EDITIONS`,
      );
  }
}

/** `ident(.ident)*`, each identifier of letters, digits and `_` not starting with a digit. */
function checkFullName(name: string, path: string, typeName: string): void {
  let start = true;
  let ok = name.length > 0;
  for (let i = 0; ok && i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 46) {
      ok = !start;
      start = true;
      continue;
    }
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    ok = letter || (!start && isDigit(c));
    start = false;
  }
  if (!ok || start)
    throw new WktJsonError("type-url", path, typeName, `${JSON.stringify(name)} is not a fully-qualified type name`);
}
