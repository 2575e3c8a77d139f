/**
 * FieldMask paths checked against a schema: every segment names a field of the message reached so far.
 *
 * google/protobuf/field_mask.proto: "The implementation of any API method which has a FieldMask type field in
 * the request should verify the included field paths, and return an `INVALID_ARGUMENT` error if any path is
 * unmappable." Rule 7 (wkt.md): "A repeated field is allowed only at the last position of a path." That is the
 * default (strict proto paths); with `{ aip161: true }` the AIP-161 syntax is accepted too: a map key or `*`
 * after a map field, `*` after a repeated field, then the fields of the value when it is a message.
 *
 * @module
 */
import { ScalarType, type DescMessage } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { atMaskPath, maskPathOf, type MaskPathOption } from "../internal/mask-base.js";
import {
  isIntegerText,
  maskPathError as pathError,
  maskPaths,
  parsePath,
  WILD,
  writtenPath,
  type FieldMaskLike,
  type Segment,
} from "../internal/mask-path.js";
import { isStar, LEAF, trieOf, type Node } from "../internal/mask-trie.js";
import { charge, earn, workMeter, type WorkMeter } from "../internal/meter.js";
import { fieldMaskTypeName } from "../internal/names.js";
import { int64Max, int64Min, uint64Max } from "../limits.js";
import { planOf, type FieldAccess, type MessagePlan } from "./field-access.js";

/** Options of {@link fieldMaskCheck} and {@link fieldMaskIsValid}. */
export interface FieldMaskCheckOptions extends MaskPathOption {
  /**
   * Accept the AIP-161 syntax: map keys (`labels.env`, `` labels.`team name` ``, `ratings.42`) and `*` for every
   * entry of a map or element of a repeated field (`authors.*.given_name`). Default false: strict proto paths
   * (rule 7), field names only, a repeated or map field only in the last position.
   */
  aip161?: boolean;
}

/**
 * Checks that every path of a mask names fields of `schema`: each segment a field (by proto name) of the
 * message reached so far, descending only through singular message fields, a repeated or map field only in the
 * last position (rule 7). With `aip161`, a map field may be followed by a key or `*` and a repeated field by
 * `*`, and then by the fields of the value when it is a message. The lone path `*` (AIP-134, AIP-157: every
 * field) is valid, and so is the empty mask. A path decoded from the JSON form (`fieldMaskFromJson`) is quoted
 * as the client wrote it (`assignee.nickName`), with its proto name beside it.
 *
 * @throws {WktJsonError} rule `mask-path` naming the first offending path and segment; `json-type` if `mask` is
 *   not a FieldMask or an array of strings; at `$`, or at `options.maskPath` when given (rule `range` for a
 *   `maskPath` that is not a string starting with `$`).
 * @example
 * fieldMaskCheck(TestAllTypesProto3Schema, ["optional_nested_message.a", "repeated_int32"]); //=> undefined
 * fieldMaskCheck(TestAllTypesProto3Schema, ["repeated_nested_message.a"]); // throws WktJsonError (rule "mask-path")
 * fieldMaskCheck(TestAllTypesProto3Schema, fieldMaskFromJson("optionalNestedMessage.b"), { maskPath: "$.readMask" });
 * // throws WktJsonError (rule "mask-path", jsonPath "$.readMask"): path "optionalNestedMessage.b" (proto name "optional_nested_message.b") ...
 */
export function fieldMaskCheck(schema: DescMessage, mask: FieldMaskLike, options?: FieldMaskCheckOptions): void {
  const base = maskPathOf(options);
  atMaskPath(base, () => checkedPaths(schema, mask, options?.aip161 === true, undefined, workMeter(fieldMaskTypeName)));
}

/**
 * Tells whether every path of a mask names fields of `schema`; see {@link fieldMaskCheck} for the rules.
 *
 * @throws {WktJsonError} rule `json-type` if `mask` is not a FieldMask or an array of strings, at `$` or at
 *   `options.maskPath`.
 * @example
 * fieldMaskIsValid(TestAllTypesProto3Schema, ["optional_int32"]); //=> true
 * fieldMaskIsValid(TestAllTypesProto3Schema, ["no_such_field"]); //=> false
 */
export function fieldMaskIsValid(schema: DescMessage, mask: FieldMaskLike, options?: FieldMaskCheckOptions): boolean {
  const paths = atMaskPath(maskPathOf(options), () => maskPaths(mask));
  try {
    checkedPaths(schema, paths, options?.aip161 === true, undefined, workMeter(fieldMaskTypeName));
    return true;
  } catch (e) {
    if (e instanceof WktJsonError && e.rule === "mask-path") return false;
    throw e;
  }
}

/**
 * Parses and checks every path of `mask` against `schema`; map keys come back canonical (`007` → `"7"` for an
 * integer key). With `m`, the code units of the paths are earned on it and one step per segment charged (pass
 * the same meter to {@link trieOf} and the walks after it).
 *
 * @internal
 * @example
 * const m = workMeter(fieldMaskTypeName);
 * const trie = trieOf(checkedPaths(schema, mask, aip161, "mask", m), m);
 */
export function checkedPaths(
  schema: DescMessage,
  mask: unknown,
  aip161: boolean,
  what?: string,
  m?: WorkMeter,
): Segment[][] {
  const paths = maskPaths(mask, what);
  const out: Segment[][] = [];
  const root = planOf(schema);
  for (let k = 0; k < paths.length; k++) {
    const p = paths[k]!;
    const segs = parsePath(p, aip161);
    if (m !== undefined) {
      earn(m, p.length);
      charge(m, segs.length);
    }
    out.push(checkPath(root, p, segs, aip161, paths));
  }
  return out;
}

/**
 * The trie of a mask checked against `schema`. The lone `*` becomes the whole message. With `m`, as
 * {@link checkedPaths}, and the trie's building and normalizing charged to it too; without, a meter of its own.
 *
 * @internal
 */
export function checkedTrie(schema: DescMessage, mask: unknown, aip161: boolean, what?: string, m?: WorkMeter): Node {
  m ??= workMeter(fieldMaskTypeName);
  const trie = trieOf(checkedPaths(schema, mask, aip161, what, m), m);
  return isStar(trie) ? LEAF : trie;
}

function checkPath(
  root: MessagePlan,
  path: string,
  segs: Segment[],
  aip161: boolean,
  paths: readonly string[],
): Segment[] {
  if (segs.length === 1 && segs[0] === WILD) return segs;
  // The error for segment i, quoting the path as the client wrote it when it came from the JSON form.
  const maskPathError = (_: string, s: Segment, what: string): WktJsonError =>
    pathError(path, s, what, writtenPath(paths), segs.indexOf(s));
  let plan: MessagePlan | undefined = root;
  let coll: FieldAccess | undefined; // the repeated or map field whose entry comes next
  let scalarOf: FieldAccess | undefined; // the field whose scalar value (or element) we stand on
  const out: Segment[] = new Array(segs.length);
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    if (plan !== undefined) {
      if (s === WILD) {
        throw maskPathError(
          path,
          s,
          `cannot stand for the fields of ${plan.desc.typeName}: \`*\` is every entry of a map or element of a repeated field`,
        );
      }
      const fp = plan.byName.get(s);
      if (fp === undefined) {
        // A JSON name written into a list of proto paths (`["assignee.nickName"]`): say which field it names.
        const byJson = plan.fields.find((f) => f.field.jsonName === s && f.name !== s);
        const hint =
          byJson === undefined
            ? ""
            : `; it is the JSON name of the field ${byJson.name}: a mask's paths are proto names, and ` +
              `fieldMaskFromJson decodes the JSON form`;
        throw maskPathError(path, s, `names no field of ${plan.desc.typeName}${hint}`);
      }
      out[i] = s;
      plan = undefined;
      if (fp.kind === "message") plan = planOf(fp.message!);
      else if (fp.kind === "list" || fp.kind === "map") {
        if (!aip161 && i + 1 < segs.length) {
          throw maskPathError(
            path,
            s,
            `is a ${fp.kind === "map" ? "map" : "repeated"} field; a repeated or map field is allowed only in the last position of a path`,
          );
        }
        coll = fp;
      } else scalarOf = fp;
      continue;
    }
    if (coll !== undefined) {
      const fp = coll;
      coll = undefined;
      if (fp.kind === "list") {
        if (s !== WILD) {
          throw maskPathError(
            path,
            s,
            isIntegerText(s)
              ? `addresses an element of the repeated field "${fp.name}" by position, which a mask may not (AIP-161); use "*" for every element`
              : `follows the repeated field "${fp.name}", whose elements have no names; use "*" for every element, then a field of the element`,
          );
        }
        out[i] = WILD;
      } else if (s === WILD) {
        out[i] = WILD;
      } else {
        const key = mapKeyOf(fp.mapKey!, s);
        if (key === undefined) {
          throw maskPathError(
            path,
            s,
            `is not a key of the map field "${fp.name}" (map<${ScalarType[fp.mapKey!].toLowerCase()}, ...>)`,
          );
        }
        out[i] = key;
      }
      if (fp.message !== undefined) plan = planOf(fp.message);
      else scalarOf = fp;
      continue;
    }
    const f = scalarOf!;
    const what = f.kind === "list" || f.kind === "map" ? `the values of "${f.name}" are` : `"${f.name}" is`;
    throw maskPathError(
      path,
      s,
      `is below a scalar: ${what} ${f.field.enum !== undefined ? "an enum" : "scalar"}, without fields`,
    );
  }
  return out;
}

/** The protobuf-es map key (the object key) for a path segment, or undefined if the key type cannot hold it. */
function mapKeyOf(type: ScalarType, s: string): string | undefined {
  switch (type) {
    case ScalarType.STRING:
      return s;
    case ScalarType.BOOL:
      return s === "true" || s === "false" ? s : undefined;
    default: {
      if (!isIntegerText(s)) return undefined;
      // Past 20 significant digits no integer key type holds it: refused before BigInt, whose parse of a long
      // text is more than linear (100,000 digits: 9 ms; 1,000,000: 170 ms).
      let i = s.charCodeAt(0) === 45 ? 1 : 0;
      while (i < s.length - 1 && s.charCodeAt(i) === 48) i++;
      if (s.length - i > 20) return undefined;
      const v = BigInt(s);
      let min: bigint;
      let max: bigint;
      switch (type) {
        case ScalarType.INT32:
        case ScalarType.SINT32:
        case ScalarType.SFIXED32:
          min = -(2n ** 31n);
          max = 2n ** 31n - 1n;
          break;
        case ScalarType.UINT32:
        case ScalarType.FIXED32:
          min = 0n;
          max = 2n ** 32n - 1n;
          break;
        case ScalarType.UINT64:
        case ScalarType.FIXED64:
          min = 0n;
          max = uint64Max;
          break;
        default:
          min = int64Min;
          max = int64Max;
      }
      return v >= min && v <= max ? v.toString() : undefined;
    }
  }
}
