/**
 * The proto comments of messages, fields, enums and enum values, from descriptors that carry source info
 * (`FileDescriptorProto.source_code_info`: `buf build --include-source-info`, `protoc --include_source_info`;
 * protobuf-es keeps it in `desc.file.proto.sourceCodeInfo`), for `jsonSchema`'s `description`.
 *
 * descriptor.proto, SourceCodeInfo.Location: "path: Identifies which part of the FileDescriptorProto was
 * defined at this location. Each element is a field number or an index." A message at `[4, i]` (the file's
 * `message_type`, index i), nested ones at `[..., 3, j]`, its fields at `[..., 2, k]`, its enums at
 * `[..., 4, j]`, its extensions at `[..., 6, j]`; the file's enums at `[5, i]`, their values at `[..., 2, k]`;
 * the file's extensions at `[7, i]`. @bufbuild/protoplugin's getComments computes the same paths, each with an
 * `indexOf` per level and a scan of every location; this walks a file's declarations once and indexes the
 * locations once, so the comments of a whole file cost one pass.
 *
 * A comment is the location's leading comment, else its trailing one (a detached comment, separated by a blank
 * line, is not the element's); line breaks normalised to `\n`, the one space that follows `//` on each line
 * removed, and the whole trimmed. None when the file has no source info.
 *
 * @module
 * @internal
 */
import type { DescEnum, DescEnumValue, DescExtension, DescField, DescFile, DescMessage } from "@bufbuild/protobuf";

type Described = DescMessage | DescEnum | DescEnumValue | DescField | DescExtension;

/** Each file's comments, by the descriptor proto (DescriptorProto, FieldDescriptorProto, ...) they belong to. */
const byFile = new WeakMap<DescFile, Map<object, string>>();

/**
 * The comment of a descriptor, or undefined.
 *
 * @throws never
 */
export function commentOf(desc: Described): string | undefined {
  const file = desc.kind === "field" || desc.kind === "enum_value" ? desc.parent.file : desc.file;
  let comments = byFile.get(file);
  if (comments === undefined) byFile.set(file, (comments = fileComments(file)));
  return comments.get(desc.proto);
}

interface Location {
  path: number[];
  leadingComments?: string;
  trailingComments?: string;
}

interface Decl {
  field?: readonly object[];
  nestedType?: readonly Decl[];
  enumType?: readonly Decl[];
  extension?: readonly object[];
  value?: readonly object[];
}

function fileComments(file: DescFile): Map<object, string> {
  const out = new Map<object, string>();
  const locations = (file.proto.sourceCodeInfo as { location?: Location[] } | undefined)?.location;
  if (!Array.isArray(locations) || locations.length === 0) return out;
  const texts = new Map<string, string>();
  for (const l of locations) {
    const text = commentText(l.leadingComments) ?? commentText(l.trailingComments);
    if (text !== undefined && Array.isArray(l.path)) texts.set(l.path.join(","), text);
  }
  if (texts.size === 0) return out;
  // Declarations to visit, with their path; a stack, not recursion, however deep the nesting.
  const todo: [Decl, string, "message" | "enum"][] = [];
  const add = (list: readonly object[] | undefined, at: string, kind?: "message" | "enum"): void => {
    if (list === undefined) return;
    for (let i = 0; i < list.length; i++) {
      const path = `${at},${i}`;
      const text = texts.get(path);
      if (text !== undefined) out.set(list[i]!, text);
      if (kind !== undefined) todo.push([list[i] as Decl, path, kind]);
    }
  };
  add(file.proto.messageType, "4", "message");
  add(file.proto.enumType, "5", "enum");
  add(file.proto.extension, "7");
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const [decl, path, kind] = next;
    if (kind === "enum") {
      add(decl.value, `${path},2`);
      continue;
    }
    add(decl.field, `${path},2`);
    add(decl.nestedType, `${path},3`, "message");
    add(decl.enumType, `${path},4`, "enum");
    add(decl.extension, `${path},6`);
  }
  return out;
}

/** A comment as a description: lines joined with `\n`, one leading space per line removed, trimmed. */
function commentText(raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  const text = raw
    .split(/\r\n|[\r\n\u2028\u2029]/)
    .map((line) => (line.charCodeAt(0) === 32 ? line.slice(1) : line).trimEnd())
    .join("\n")
    .trim();
  return text === "" ? undefined : text;
}
