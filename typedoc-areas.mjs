// @ts-check
// A TypeDoc plugin (typedoc.json: "plugin") that lays the API reference out by area: one page per area
// (Timestamp, Duration, FieldMask, ...) holding the public exports of its source files, with the overviews of
// those files (their `@module` comments) at the top of the page.
//
// Why a plugin: the package has one entry point, src/index.ts, a barrel with no text of its own; documented as
// the entry point it gives one page of every export and none of the module overviews. Documented from the source
// files instead (typedoc.json's entryPoints), each file is a module with its overview, but names the barrel does
// not export show up too, and areas span several files. This plugin, after conversion:
//
// - merges the modules of each area of the `areas` option into one, named after the area, its overview the
//   files' overviews in the order listed, and orders the areas as listed;
// - removes every function, variable and class that src/index.ts does not export (helpers the modules share);
//   an interface or type alias it does not export stays, as long as a documented signature may name it, and is
//   listed at info level so that the barrel can be completed;
// - warns about a source file in no area, an area file that is not an entry point, and an export of
//   src/index.ts that no area documents: with treatWarningsAsErrors, `npm run docs` fails until typedoc.json
//   says where a new file or export belongs;
// - points `{@link name}` at the documented export of that name wherever TypeDoc's own lookup would miss it:
//   the overviews name exports of other files (and module-local copies such as `const { durationSecondsMax } =
//   limits`), which one page per file cannot resolve. A link to a name the barrel does not export becomes code.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Converter, ParameterType, ReflectionKind } from "typedoc";

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.options.addDeclaration({
    name: "areas",
    help: "Areas of the API reference: { [area name]: source files, in page order }.",
    type: ParameterType.Mixed,
    defaultValue: {},
  });
  app.options.addDeclaration({
    name: "areasBarrel",
    help: "The module whose exports are the public API (default src/index.ts).",
    type: ParameterType.Path,
    defaultValue: "src/index.ts",
  });
  /** Names of the functions, variables and classes removed as not public. */
  const removed = new Set();
  // Before TypeDoc's own resolve-begin work (grouping, @mergeModuleWith, link resolution come later).
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => organize(app, context, removed), 20_000);
  // Before TypeDoc's link resolution (LinkResolverPlugin, priority -300).
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => relink(context.project, removed), -200);
}

/**
 * @param {import("typedoc").Application} app
 * @param {import("typedoc").Context} context
 * @param {Set<string>} removed
 */
function organize(app, context, removed) {
  const logger = app.logger;
  const project = context.project;
  const areas = /** @type {Record<string, string[]>} */ (app.options.getValue("areas"));
  const barrelPath = resolve(/** @type {string} */ (app.options.getValue("areasBarrel")));

  /** File → area, and file → position in its area. */
  const areaOf = new Map();
  const order = new Map();
  for (const [area, files] of Object.entries(areas)) {
    files.forEach((f, i) => {
      areaOf.set(resolve(f), area);
      order.set(resolve(f), i);
    });
  }

  // The public API: what the barrel exports, as (declaring file, name) of the aliased declaration.
  const program = context.programs.find((p) => p.getSourceFile(barrelPath) !== undefined);
  if (program === undefined) {
    logger.warn(`typedoc-areas: ${barrelPath} is in no program of this conversion`);
    return;
  }
  const checker = program.getTypeChecker();
  const barrelSymbol = checker.getSymbolAtLocation(
    /** @type {import("typescript").SourceFile} */ (program.getSourceFile(barrelPath)),
  );
  /** @type {Set<string>} */
  const publicKeys = new Set();
  /** @type {Map<string, string>} */
  const publicNames = new Map();
  for (const exported of barrelSymbol === undefined ? [] : checker.getExportsOfModule(barrelSymbol)) {
    const key = keyOf(checker, exported);
    if (key !== undefined) {
      publicKeys.add(key);
      publicNames.set(key, exported.name);
    }
  }

  /** Modules by file, and the file of each. */
  const modules = /** @type {import("typedoc").DeclarationReflection[]} */ (
    project.getChildrenByKind(ReflectionKind.Module)
  );
  /** @type {Map<import("typedoc").DeclarationReflection, string>} */
  const fileOf = new Map();
  for (const mod of modules) {
    const decl = context.getSymbolFromReflection(mod)?.declarations?.[0];
    if (decl === undefined) continue;
    fileOf.set(mod, resolve(decl.getSourceFile().fileName));
  }
  for (const file of areaOf.keys()) {
    if ([...fileOf.values()].includes(file)) continue;
    // A file that does not exist (yet, or any more) is harmless; one that exists should be documented.
    if (existsSync(file)) logger.warn(`typedoc-areas: ${file} is listed in "areas" but is not an entry point`);
    else logger.info(`typedoc-areas: ${file}, listed in "areas", does not exist`);
  }

  // The barrel, converted last, holds references to what the other modules document, and the declarations of
  // what only it exports (types re-exported from @bufbuild/protobuf): only these stay.
  for (const mod of modules) {
    if (fileOf.get(mod) !== barrelPath) continue;
    for (const child of [...(mod.children ?? [])])
      if (child.kindOf(ReflectionKind.Reference)) project.removeReflection(child);
  }

  // Keep what the barrel exports; drop other values (shared helpers); keep other types, and say so.
  /** @type {Set<string>} */
  const documented = new Set();
  /** @type {string[]} */
  const unexportedTypes = [];
  for (const mod of modules) {
    for (const child of [...(mod.children ?? [])]) {
      const symbol = context.getSymbolFromReflection(child);
      const key = symbol === undefined ? undefined : keyOf(checker, symbol);
      if (key !== undefined && publicKeys.has(key)) {
        documented.add(key);
        continue;
      }
      if (child.kindOf(ReflectionKind.Interface | ReflectionKind.TypeAlias)) {
        // @internal ones go later, with excludeInternal.
        if (child.comment?.hasModifier("@internal") !== true) unexportedTypes.push(child.name);
        continue;
      }
      removed.add(child.name);
      project.removeReflection(child);
    }
  }
  if (unexportedTypes.length > 0) {
    logger.info(`typedoc-areas: documented, but not exported by ${barrelPath}: ${unexportedTypes.join(", ")}`);
  }
  for (const key of publicKeys) {
    const [file] = key.split("#");
    if (!documented.has(key)) {
      logger.warn(
        `typedoc-areas: ${publicNames.get(key)}, exported by ${barrelPath} from ${file}, is on no page of "areas"`,
      );
    }
  }

  // One module per area: the first file's, renamed, with the others' children and overviews.
  /** @type {Map<string, import("typedoc").DeclarationReflection[]>} */
  const byArea = new Map();
  for (const mod of modules) {
    const file = fileOf.get(mod);
    const area = file === undefined ? undefined : areaOf.get(file);
    if (area === undefined) {
      logger.warn(
        `typedoc-areas: the module ${mod.name} (${file ?? "no file"}) is in no area of typedoc.json's "areas"`,
      );
      continue;
    }
    const list = byArea.get(area) ?? [];
    list.push(mod);
    byArea.set(area, list);
  }
  /** @type {import("typedoc").DeclarationReflection[]} */
  const pages = [];
  for (const area of Object.keys(areas)) {
    const list = (byArea.get(area) ?? []).sort(
      (a, b) => (order.get(fileOf.get(a)) ?? 0) - (order.get(fileOf.get(b)) ?? 0),
    );
    const [target, ...rest] = list;
    if (target === undefined) continue;
    target.name = area;
    for (const mod of rest) {
      if (mod.comment !== undefined && mod.comment.summary.length > 0) {
        if (target.comment === undefined) target.comment = mod.comment.clone();
        else target.comment.summary.push({ kind: "text", text: "\n\n" }, ...mod.comment.summary);
      }
      project.mergeReflections(mod, target);
    }
    pages.push(target);
  }
  // Areas in the order typedoc.json lists them (with sortEntryPoints: false, TypeDoc keeps this order). The
  // navigation reads childrenIncludingDocuments, the index children: both are reordered.
  /** @param {any[] | undefined} list */
  const reorder = (list) =>
    list === undefined
      ? undefined
      : [...pages.filter((p) => list.includes(p)), ...list.filter((c) => !pages.includes(c))];
  project.children = reorder(project.children);
  project.childrenIncludingDocuments = reorder(project.childrenIncludingDocuments);
}

/**
 * Resolves `{@link name}` and `{@link name.member}` to the documented export `name` where TypeDoc's lookup
 * would not: no symbol, or a symbol with no reflection. A link to a removed name becomes inline code.
 *
 * @param {import("typedoc").ProjectReflection} project
 * @param {Set<string>} removed
 */
function relink(project, removed) {
  /** @type {Map<string, import("typedoc").Reflection>} */
  const byName = new Map();
  for (const mod of project.getChildrenByKind(ReflectionKind.Module)) {
    for (const child of mod.children ?? []) byName.set(child.name, child);
  }
  /** @param {import("typedoc").CommentDisplayPart[]} parts */
  const fix = (parts) => {
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      if (part === undefined || part.kind !== "inline-tag" || !["@link", "@linkcode", "@linkplain"].includes(part.tag))
        continue;
      const target = part.target;
      if (typeof target === "string" || (target !== undefined && !("qualifiedName" in target))) continue; // a URL or a reflection
      if (target !== undefined && project.getReflectionsFromSymbolId(target).length > 0) continue;
      const text = part.text.trim();
      const m = /^([A-Za-z_$][\w$]*)((?:\.[A-Za-z_$][\w$]*)*)(.*)$/s.exec(text);
      if (m === null) continue;
      const [, name, members, rest] = m;
      /** @type {import("typedoc").Reflection | undefined} */
      let found = byName.get(/** @type {string} */ (name));
      for (const member of (members ?? "").split(".").slice(1)) {
        found = found?.isDeclaration() ? found.getChildByName(member) : undefined;
      }
      if (found !== undefined) {
        part.target = found;
        const caption = (rest ?? "").replace(/^\s*\|?\s*/, "");
        if (caption === "" && part.tsLinkText === undefined) part.tsLinkText = text;
      } else if (removed.has(/** @type {string} */ (name)) && members === "") {
        parts[i] = { kind: "code", text: "`" + text + "`" };
      }
    }
  };
  for (const refl of [project, ...Object.values(project.reflections)]) {
    if (refl.comment !== undefined) {
      fix(refl.comment.summary);
      for (const tag of refl.comment.blockTags) fix(tag.content);
    }
    if ((refl.isDeclaration() || refl.isProject()) && refl.readme !== undefined) fix(refl.readme);
  }
}

/**
 * The declaring file and name of what a symbol stands for (through re-exports and aliases).
 *
 * @param {import("typescript").TypeChecker} checker
 * @param {import("typescript").Symbol} symbol
 */
function keyOf(checker, symbol) {
  let s = symbol;
  // ts.SymbolFlags.Alias is 2097152.
  if ((s.flags & 2097152) !== 0) s = checker.getAliasedSymbol(s);
  const decl = s.declarations?.[0];
  if (decl === undefined) return undefined;
  return `${resolve(decl.getSourceFile().fileName)}#${s.name}`;
}
