/**
 * The value writers of list and map fields (proto3 JSON: "repeated: JSON array", "map<K,V>: JSON object, all keys
 * are converted to strings"), built from the writers of one item or value (to-json-fields.ts compiles those, so
 * that this module needs no message writer). Each writes the field as the value writer and the text writer of
 * its plan ({@link FieldPlan}); a map's keys are checked to be what a reader accepts, in canonical form.
 *
 * @module
 * @internal
 */
import { ScalarType, type DescField, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { byNameStore, setOwnByName } from "../internal/json-value.js";
import { int32KeyValue, isCanonicalIntegerKey, mapKeyFromJson } from "../internal/scalar.js";
import { isWellFormed } from "../internal/utf16.js";
import { errorAtPath } from "../path.js";
import { hasEnumerable, takeKeys, type ValueTextWriter, type ValueWriter } from "./to-json-plan.js";
import { compileScalarRaw, rawString } from "./to-json-scalar.js";

/** The value writer of a list field, from that of one item. */
export function listWriter(field: DescField & { fieldKind: "list" }, writeItem: ValueWriter): ValueWriter {
  return (items, ctx) => {
    const list = items as unknown[];
    const arr: JsonValue[] = new Array(list.length);
    let i = 0;
    try {
      for (; i < list.length; i++) arr[i] = writeItem(list[i], ctx);
    } catch (e) {
      throw errorAtPath(e, i);
    }
    return arr;
  };
}

/**
 * The text writer of a list field, from that of one item: the text of what {@link listWriter}'s writer returns.
 * Apart from the value writer, so that a bundle that writes no text (toJson alone) does without it.
 */
export function listTextWriter(field: DescField & { fieldKind: "list" }, itemText: ValueTextWriter): ValueTextWriter {
  // Items always printed as JSON strings (strings, 64-bit integers, bytes) are written without their quotes,
  // which go into the separators (`","`) and the closing `"]`: pieces fewer to join (see FieldPlan.raw).
  const itemRaw = field.listKind === "scalar" ? compileScalarRaw(field.scalar) : undefined;
  return (items, ctx) => {
    const list = items as unknown[];
    if (list.length === 0) return "[]";
    let i = 0;
    if (itemRaw !== undefined) {
      let text = "";
      try {
        for (; i < list.length; i++) text += (i === 0 ? '["' : '","') + itemRaw(list[i]);
      } catch (e) {
        throw errorAtPath(e, i);
      }
      return text + '"]';
    }
    let out = "[";
    try {
      out += itemText(list[0], ctx);
      for (i = 1; i < list.length; i++) out += "," + itemText(list[i], ctx);
    } catch (e) {
      throw errorAtPath(e, i);
    }
    return out + "]";
  };
}

/**
 * The value writer of a map field, from that of one value. It writes nothing (undefined) for a map with no
 * enumerable property, own or inherited (for...in), unless alwaysEmitImplicit.
 */
export function mapWriter(field: DescField & { fieldKind: "map" }, writeValue: ValueWriter): ValueWriter {
  return mapValueWriter(mapKeys(field), writeValue);
}

/**
 * The text writer of a map field, from that of one value: the text of what {@link mapWriter}'s writer returns
 * ("" for nothing). Apart from the value writer, so that a bundle that writes no text does without it.
 */
export function mapTextWriter(field: DescField & { fieldKind: "map" }, valueText: ValueTextWriter): ValueTextWriter {
  // Values always printed as JSON strings (strings, 64-bit integers, bytes) are written without their quotes,
  // which go into what follows them, as for raw fields (see FieldPlan.raw): pieces fewer to join.
  const valueRaw = field.mapKind === "scalar" ? compileScalarRaw(field.scalar) : undefined;
  return mapKeysTextWriter(mapKeys(field), valueText, valueRaw);
}

/**
 * How the keys of a map field are checked: the key must be what a reader accepts, in its canonical form ("1",
 * not "01"; "true", not "yes"), else `badKey`'s error.
 */
interface MapKeys {
  readonly keyIsCanonical: (key: string) => boolean;
  /** A key of a 32-bit type, checked by int32KeyValue, which gives its value (NaN when not canonical). */
  readonly int32Keys: boolean;
  readonly unsignedKeys: boolean;
  /**
   * String keys; canonical keys of other types are digits, "-", "true" or "false": nothing to escape, and none
   * of the names byNameStore tells.
   */
  readonly stringKeys: boolean;
  readonly badKey: (key: string) => WktJsonError;
}

/** The key rules of a map field, by its key type. */
function mapKeys(field: DescField & { fieldKind: "map" }): MapKeys {
  const parentName = field.parent.typeName;
  const keyType = field.mapKey;
  const keyTypeName = ScalarType[keyType]!.toLowerCase();
  const unsignedKeys = keyType === ScalarType.UINT32 || keyType === ScalarType.FIXED32;
  return {
    keyIsCanonical: compileMapKeyCheck(keyType),
    int32Keys:
      unsignedKeys || keyType === ScalarType.INT32 || keyType === ScalarType.SINT32 || keyType === ScalarType.SFIXED32,
    unsignedKeys,
    stringKeys: keyType === ScalarType.STRING,
    badKey: (key) =>
      new WktJsonError(
        "syntax",
        "$",
        parentName,
        `map key ${JSON.stringify(key)} is not a ${keyTypeName} in canonical form`,
      ),
  };
}

/** The value writer of a map field: an object of the values' JSON by key. */
function mapValueWriter(mapKeys: MapKeys, writeValue: ValueWriter): ValueWriter {
  // Taken apart here, so that the writer reads its own constants, as when it was written in one function.
  const { keyIsCanonical, int32Keys, unsignedKeys, stringKeys, badKey } = mapKeys;
  return ((value, ctx) => {
    const record = value as Record<string | number, unknown>;
    const keys = takeKeys(record);
    if (keys.length === 0 && !ctx.alwaysEmitImplicit && !hasEnumerable(record)) return undefined;
    const obj: Record<string | number, JsonValue> = {};
    let key = "";
    try {
      // The key must be what a reader accepts, in its canonical form ("1", not "01"; "true", not "yes").
      if (int32Keys) {
        for (let i = 0; i < keys.length; i++) {
          key = keys[i]!;
          const n = int32KeyValue(key, unsignedKeys);
          if (n !== n) throw badKey(key);
          // A key from 0 to 2^32 - 2 is an array index, which V8 keeps as an element: read and written by
          // number, V8 takes it without converting the string (a call into its runtime for each access).
          if (n >= 0 && n < 4294967295) obj[n] = writeValue(record[n], ctx);
          else obj[key] = writeValue(record[key], ctx);
        }
      } else if (stringKeys) {
        for (let i = 0; i < keys.length; i++) {
          key = keys[i]!;
          if (!isWellFormed(key)) throw badKey(key);
          const json = writeValue(record[key], ctx);
          if (byNameStore(key)) setOwnByName(obj, key, json);
          else obj[key] = json;
        }
      } else {
        for (let i = 0; i < keys.length; i++) {
          key = keys[i]!;
          if (!keyIsCanonical(key)) throw badKey(key);
          obj[key] = writeValue(record[key], ctx);
        }
      }
    } catch (e) {
      throw errorAtPath(e, key);
    }
    return obj as JsonObject;
  }) as ValueWriter;
}

/**
 * The text writer of a map field. Object.keys lists integer-like keys first, ascending, then the others in
 * insertion order: the order in which JSON.stringify prints the object {@link mapValueWriter}'s writer builds.
 */
function mapKeysTextWriter(
  mapKeys: MapKeys,
  valueText: ValueTextWriter,
  valueRaw: ((value: unknown) => string) | undefined,
): ValueTextWriter {
  const { keyIsCanonical, int32Keys, unsignedKeys, stringKeys, badKey } = mapKeys;
  return (value, ctx) => {
    const record = value as Record<string | number, unknown>;
    const keys = takeKeys(record);
    if (keys.length === 0) return ctx.alwaysEmitImplicit || hasEnumerable(record) ? "{}" : "";
    // The first member opens the object (V8 joins "" and a string without making a node).
    let out = "";
    let key = "";
    try {
      for (let i = 0; i < keys.length; i++) {
        key = keys[i]!;
        let v: unknown;
        if (int32Keys) {
          // As in mapValueWriter: an array index read by number.
          const n = int32KeyValue(key, unsignedKeys);
          if (n !== n) throw badKey(key);
          v = n >= 0 && n < 4294967295 ? record[n] : record[key];
        } else {
          if (!keyIsCanonical(key)) throw badKey(key);
          v = record[key];
        }
        const k = stringKeys ? rawString(key) : key;
        if (valueRaw !== undefined) out += (i === 0 ? '{"' : '","') + k + '":"' + valueRaw(v);
        else out += (i === 0 ? '{"' : ',"') + k + '":' + valueText(v, ctx);
      }
    } catch (e) {
      throw errorAtPath(e, key);
    }
    return out + (valueRaw !== undefined ? '"}' : "}");
  };
}

/**
 * Tells whether a map key (protobuf-es keeps them as object keys) is what a reader accepts, in canonical form:
 * "1", not "01" or "1e0"; "true", not "yes"; a string without lone surrogates.
 */
function compileMapKeyCheck(keyType: ScalarType): (key: string) => boolean {
  switch (keyType) {
    case ScalarType.STRING:
      return isWellFormed;
    case ScalarType.BOOL:
      return (key) => key === "true" || key === "false";
    // The 32-bit integer types take the default's way: their writers check keys with int32KeyValue instead.
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return (key) => isCanonicalIntegerKey(keyType, key);
    default: {
      return (key) => {
        try {
          return mapKeyFromJson(keyType, key) === key;
        } catch {
          return false;
        }
      };
    }
  }
}
