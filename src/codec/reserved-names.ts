/**
 * Reserved field names as JSON keys, for the readers' `ignoreReservedNames` option. protobuf.dev, proto3 and
 * editions, "Reserved Field Names": "Reserved names affect only the protoc compiler behavior and not runtime
 * behavior, with one exception: TextProto implementations may discard unknown fields (without raising an error
 * like with other unknown fields) with reserved names at parse time (only the C++ and Go implementations do so
 * today). Runtime JSON parsing is not affected by reserved names." So the option is off by default; with it, a
 * member named by a reserved name is skipped as the text format skips it, and every other unknown member is
 * still refused (protobuf #26123, golang/protobuf #1606: removing a field and reserving its name breaks every
 * JSON client that still sends it, and `ignoreUnknownFields` would hide every other mistake too).
 *
 * A reserved name is matched as the proto name (`old_field`) and as the JSON name protoc would have given the
 * field (`oldField`, protoCamelCase): a reader accepts both names of a field. A custom `json_name` the removed
 * field had is not in the descriptor, so it cannot be matched.
 *
 * @module
 * @internal
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { protoCamelCase } from "@bufbuild/protobuf/reflect";

const reservedKeysOf = new WeakMap<DescMessage, ReadonlySet<string> | null>();

/**
 * @internal The JSON keys that name a reserved field name of `desc` (`DescriptorProto.reserved_name`, as written
 * and in lowerCamelCase), or undefined when it reserves none; worked out once per type. A key that names a field
 * is the field's, whatever this set holds (the readers look fields up first).
 *
 * @example
 * reservedKeys(TestAllTypesProto3); //=> new Set(["reserved_field", "reservedField"])
 */
export function reservedKeys(desc: DescMessage): ReadonlySet<string> | undefined {
  let keys = reservedKeysOf.get(desc);
  if (keys === undefined) {
    const names: unknown = (desc.proto as { reservedName?: unknown } | undefined)?.reservedName;
    const set = new Set<string>();
    if (Array.isArray(names)) {
      for (const name of names) {
        if (typeof name !== "string" || name === "") continue;
        set.add(name);
        set.add(protoCamelCase(name));
      }
    }
    keys = set.size === 0 ? null : set;
    reservedKeysOf.set(desc, keys);
  }
  return keys ?? undefined;
}
