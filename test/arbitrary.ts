// fast-check arbitraries of valid protobuf-es messages, for the codec's property tests.
//
// `arbMessage(desc)` builds random messages of ANY message descriptor from its reflection, in exactly the local
// representation protobuf-es uses (every message goes through `create(desc, init)`):
//
// - scalars over their full range: int32/uint32 extremes, 64-bit extremes as bigint (or a decimal string for
//   `jstype = JS_STRING`), floats with NaN, ±Infinity and -0 (float values are float32-exact, as the binary
//   codec would leave them), strings of any well-formed UTF-16 (astral code points included), bytes;
// - enums: declared numbers; for open enums now and then an undeclared int32;
// - repeated fields, maps with every key type (keys are the object keys protobuf-es uses: canonical decimals,
//   "true"/"false", any string including "__proto__"), oneofs (none or one member);
// - explicit presence (proto2, editions, proto3 `optional`): the field is absent, or set (an own property),
//   possibly to its default value;
// - nested messages up to `maxDepth` levels;
// - well-known types: singular wrapper fields outside a oneof hold the bare scalar (or are unset), Struct fields
//   outside Value hold a plain JSON object, Value/ListValue/Struct inside Value are messages, Timestamp and
//   Duration within their documented ranges, FieldMask paths that survive the lower-camel round trip, Any
//   holding a packed random message of one of `anyTypes`.

import { create, ScalarType, toBinary, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";
import {
  BoolValueSchema,
  BytesValueSchema,
  DoubleValueSchema,
  DurationSchema,
  EmptySchema,
  FieldMaskSchema,
  FloatValueSchema,
  Int32ValueSchema,
  Int64ValueSchema,
  isWrapperDesc,
  ListValueSchema,
  StringValueSchema,
  StructSchema,
  TimestampSchema,
  UInt32ValueSchema,
  UInt64ValueSchema,
  ValueSchema,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";

/** Options of {@link arbMessage}. */
export interface ArbMessageOptions {
  /** Message nesting levels, the root included; at the last level message fields stay unset. Default 3. */
  maxDepth?: number;
  /** Chance that a field (or a oneof) is set. Default 0.2. */
  setChance?: number;
  /** Most items of a repeated field and most entries of a map. Default 3. */
  maxItems?: number;
  /**
   * Message types an Any may hold; each must be resolvable by the codecs under test (well-known types always
   * are; others through the `registry` option). Default: some well-known types and the root descriptor.
   */
  anyTypes?: readonly DescMessage[];
  /**
   * Allow -0 in float and double fields and in JSON numbers. Default true. JSON text has no way to write -0
   * through `JSON.stringify`, so a text round trip needs it off.
   */
  negativeZero?: boolean;
}

type Opts = Required<ArbMessageOptions>;

/** A random valid message of `desc`, as protobuf-es represents it. */
export function arbMessage(desc: DescMessage, options?: ArbMessageOptions): fc.Arbitrary<Record<string, unknown>> {
  const opts: Opts = {
    maxDepth: options?.maxDepth ?? 3,
    setChance: options?.setChance ?? 0.2,
    maxItems: options?.maxItems ?? 3,
    anyTypes: options?.anyTypes ?? [
      TimestampSchema,
      DurationSchema,
      FieldMaskSchema,
      EmptySchema,
      StructSchema,
      ValueSchema,
      ListValueSchema,
      Int64ValueSchema,
      BytesValueSchema,
      DoubleValueSchema,
      desc,
    ],
    negativeZero: options?.negativeZero ?? true,
  };
  return new Builder(opts).message(desc, opts.maxDepth);
}

// ---------------------------------------------------------------------------------------------------------

const int32Min = -2147483648;
const int32Max = 2147483647;
const uint32Max = 4294967295;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

const timestampSecondsMin = -62_135_596_800n;
const timestampSecondsMax = 253_402_300_799n;
const durationSecondsMax = 315_576_000_000n;
const nanosMax = 999_999_999;

/** Integers biased to both ends of the range and to 0. */
function arbInt(min: number, max: number): fc.Arbitrary<number> {
  const edges = [min, max, 0, 1, -1].filter((v) => v >= min && v <= max);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...edges), weight: 1 },
    { arbitrary: fc.integer({ min, max }), weight: 4 },
  );
}

function arbBigInt(min: bigint, max: bigint): fc.Arbitrary<bigint> {
  const edges = [min, max, 0n, 1n, -1n, 2n ** 53n, -(2n ** 53n) - 1n].filter((v) => v >= min && v <= max);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...edges), weight: 1 },
    { arbitrary: fc.bigInt({ min, max }), weight: 4 },
  );
}

/** Any well-formed string: mostly short ASCII, sometimes any code point (surrogate pairs included). */
export const arbString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 8 }), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 6 }), weight: 2 },
  { arbitrary: fc.constantFrom("", "__proto__", "constructor", "a b", "😀", "\u0000", '"\\'), weight: 1 },
);

/** Keys of a map<string, _> or a Struct. */
const arbStringKey: fc.Arbitrary<string> = arbString;

function noNegativeZero(opts: Opts, arb: fc.Arbitrary<number>): fc.Arbitrary<number> {
  return opts.negativeZero ? arb : arb.map((v) => (Object.is(v, -0) ? 0 : v));
}

/** Sets `obj[key]` as an own data property, also for `__proto__`. */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** An object from entries with unique keys, built without ever touching a prototype. */
function arbRecord<V>(
  key: fc.Arbitrary<string>,
  value: fc.Arbitrary<V>,
  maxKeys: number,
): fc.Arbitrary<Record<string, V>> {
  return fc.uniqueArray(fc.tuple(key, value), { maxLength: maxKeys, selector: (e) => e[0] }).map((entries) => {
    const obj: Record<string, V> = {};
    for (const [k, v] of entries) setOwn(obj, k, v);
    return obj;
  });
}

/** A finite JSON number, as Struct and Value hold it. */
function arbJsonNumber(opts: Opts): fc.Arbitrary<number> {
  return noNegativeZero(
    opts,
    fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(0, -0, 1.5, 1e300, 5e-324),
    ),
  );
}

class Builder {
  private readonly cache = new Map<DescMessage, Map<number, fc.Arbitrary<Record<string, unknown>>>>();
  private jsonCache = new Map<number, fc.Arbitrary<unknown>>();

  constructor(private readonly opts: Opts) {}

  /** A message of `desc` with up to `depth` levels of messages (depth >= 1). */
  message(desc: DescMessage, depth: number): fc.Arbitrary<Record<string, unknown>> {
    let byDepth = this.cache.get(desc);
    if (byDepth === undefined) this.cache.set(desc, (byDepth = new Map()));
    let arb = byDepth.get(depth);
    if (arb === undefined) {
      // Lazy, so that recursive types do not recurse while building arbitraries.
      arb = fc.constant(null).chain(() => this.compileMessage(desc, depth));
      byDepth.set(depth, arb);
    }
    return arb;
  }

  private compileMessage(desc: DescMessage, depth: number): fc.Arbitrary<Record<string, unknown>> {
    switch (desc.typeName) {
      case "google.protobuf.Timestamp":
        return fc
          .record({ seconds: arbBigInt(timestampSecondsMin, timestampSecondsMax), nanos: arbNanos(0) })
          .map((init) => create(desc, init) as Record<string, unknown>);
      case "google.protobuf.Duration":
        return arbBigInt(-durationSecondsMax, durationSecondsMax)
          .chain((seconds) =>
            fc.record({ seconds: fc.constant(seconds), nanos: arbNanos(seconds > 0n ? 0 : seconds < 0n ? -1 : 2) }),
          )
          .map((init) => create(desc, init) as Record<string, unknown>);
      case "google.protobuf.FieldMask":
        return fc
          .array(arbFieldMaskPath, { maxLength: this.opts.maxItems })
          .map((paths) => create(desc, { paths }) as Record<string, unknown>);
      case "google.protobuf.Value":
        return this.value(desc, depth);
      case "google.protobuf.Any":
        return this.any(desc, depth);
    }
    const members: Record<string, fc.Arbitrary<unknown>> = {};
    const skip = fc.constant(undefined);
    const weightSet = Math.max(1, Math.round(this.opts.setChance * 100));
    const weightSkip = Math.max(1, 100 - weightSet);
    const maybe = (arb: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
      fc.oneof({ arbitrary: skip, weight: weightSkip }, { arbitrary: arb, weight: weightSet });
    for (const member of desc.members) {
      if (member.kind === "oneof") {
        const cases = member.fields
          .map((f) => {
            const v = this.singular(f, depth, true);
            return v === undefined ? undefined : v.map((value) => ({ case: f.localName, value }));
          })
          .filter((a): a is fc.Arbitrary<{ case: string; value: unknown }> => a !== undefined);
        if (cases.length > 0) members[member.localName] = maybe(fc.oneof(...cases));
        continue;
      }
      const arb = this.field(member, depth);
      if (arb !== undefined) members[member.localName] = maybe(arb);
    }
    return fc.record(members).map((init) => {
      const clean: Record<string, unknown> = {};
      for (const k of Object.keys(init)) if (init[k] !== undefined) clean[k] = init[k];
      return create(desc, clean) as Record<string, unknown>;
    });
  }

  /** A field's value in its local representation, or undefined if it cannot be set at this depth. */
  private field(field: DescField, depth: number): fc.Arbitrary<unknown> | undefined {
    const n = this.opts.maxItems;
    switch (field.fieldKind) {
      case "list": {
        const item =
          field.listKind === "scalar"
            ? this.scalar(field.scalar, field.longAsString)
            : field.listKind === "enum"
              ? this.enumValue(field.enum)
              : this.messageValue(field.message, field.parent, depth);
        if (item === undefined) return undefined;
        return fc.array(item, { minLength: 1, maxLength: n });
      }
      case "map": {
        const value =
          field.mapKind === "scalar"
            ? this.scalar(field.scalar, false)
            : field.mapKind === "enum"
              ? this.enumValue(field.enum)
              : this.messageValue(field.message, field.parent, depth);
        if (value === undefined) return undefined;
        return arbRecord(mapKey(field.mapKey), value, n).filter((r) => Object.keys(r).length > 0);
      }
      default:
        return this.singular(field, depth, field.oneof !== undefined);
    }
  }

  private singular(field: DescField, depth: number, inOneof: boolean): fc.Arbitrary<unknown> | undefined {
    switch (field.fieldKind) {
      case "scalar":
        return this.scalar(field.scalar, field.longAsString);
      case "enum":
        return this.enumValue(field.enum);
      case "message":
        if (!inOneof && isWrapperDesc(field.message)) {
          // protobuf-es unboxes singular wrapper fields outside a oneof: the bare scalar.
          const f = field.message.fields[0]!;
          return this.scalar(f.scalar!, false);
        }
        return this.messageValue(field.message, field.parent, depth);
      default:
        return undefined;
    }
  }

  /** A message-typed value (field, list item, map value) in its local representation. */
  private messageValue(message: DescMessage, parent: DescMessage, depth: number): fc.Arbitrary<unknown> | undefined {
    if (message.typeName === "google.protobuf.Struct" && parent.typeName !== "google.protobuf.Value") {
      // protobuf-es keeps Struct fields outside Value as plain JSON objects.
      return this.jsonObject(3);
    }
    if (depth <= 1) return undefined;
    return this.message(message, depth - 1);
  }

  scalar(t: ScalarType, longAsString: boolean): fc.Arbitrary<unknown> {
    const s = (a: fc.Arbitrary<bigint>) => (longAsString ? a.map((v) => v.toString()) : a);
    switch (t) {
      case ScalarType.INT32:
      case ScalarType.SINT32:
      case ScalarType.SFIXED32:
        return arbInt(int32Min, int32Max);
      case ScalarType.UINT32:
      case ScalarType.FIXED32:
        return arbInt(0, uint32Max);
      case ScalarType.INT64:
      case ScalarType.SINT64:
      case ScalarType.SFIXED64:
        return s(arbBigInt(int64Min, int64Max));
      case ScalarType.UINT64:
      case ScalarType.FIXED64:
        return s(arbBigInt(0n, uint64Max));
      case ScalarType.FLOAT:
        // fc.float() gives float32-exact values, with NaN, ±Infinity and -0.
        return noNegativeZero(
          this.opts,
          fc.oneof(
            fc.float(),
            fc.constantFrom(NaN, Infinity, -Infinity, -0, 3.4028234663852886e38, 1.401298464324817e-45),
          ),
        );
      case ScalarType.DOUBLE:
        return noNegativeZero(
          this.opts,
          fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, -0, Number.MAX_VALUE, 5e-324)),
        );
      case ScalarType.BOOL:
        return fc.boolean();
      case ScalarType.STRING:
        return arbString;
      case ScalarType.BYTES:
        return fc.uint8Array({ maxLength: 10 });
    }
  }

  private enumValue(desc: DescEnum): fc.Arbitrary<number> {
    const declared = fc.constantFrom(...desc.values.map((v) => v.number));
    if (!desc.open || desc.typeName === "google.protobuf.NullValue") return declared;
    return fc.oneof({ arbitrary: declared, weight: 5 }, { arbitrary: arbInt(int32Min, int32Max), weight: 1 });
  }

  /** A google.protobuf.Value with one variant set; nested Struct/ListValue as messages. */
  private value(desc: DescMessage, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const structDesc = desc.fields.find((f) => f.localName === "structValue")!.message!;
    const listDesc = desc.fields.find((f) => f.localName === "listValue")!.message!;
    const kinds: fc.Arbitrary<{ case: string; value: unknown }>[] = [
      fc.constant({ case: "nullValue", value: 0 }),
      arbJsonNumber(this.opts).map((value) => ({ case: "numberValue", value })),
      arbString.map((value) => ({ case: "stringValue", value })),
      fc.boolean().map((value) => ({ case: "boolValue", value })),
    ];
    if (depth > 1) {
      kinds.push(this.message(structDesc, depth - 1).map((value) => ({ case: "structValue", value })));
      kinds.push(this.message(listDesc, depth - 1).map((value) => ({ case: "listValue", value })));
    }
    return fc.oneof(...kinds).map((kind) => create(desc, { kind } as never) as Record<string, unknown>);
  }

  /** An Any: empty, or a packed random message of one of `anyTypes`, under the default or a custom prefix. */
  private any(desc: DescMessage, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const empty = fc.constant(create(desc) as Record<string, unknown>);
    if (depth <= 1 || this.opts.anyTypes.length === 0) return empty;
    const prefix = fc.constantFrom(
      "type.googleapis.com/",
      "type.googleapis.com/",
      "https://example.com/types/",
      "http://x/",
    );
    const packed = fc
      .constantFrom(...this.opts.anyTypes)
      .chain((inner) => fc.tuple(fc.constant(inner), this.message(inner, depth - 1), prefix))
      .map(
        ([inner, msg, p]) =>
          create(desc, { typeUrl: p + inner.typeName, value: toBinary(inner, msg as never) } as never) as Record<
            string,
            unknown
          >,
      );
    return fc.oneof({ arbitrary: empty, weight: 1 }, { arbitrary: packed, weight: 6 });
  }

  /** A plain JSON object (Struct fields outside Value) of at most `depth` levels. */
  private jsonObject(depth: number): fc.Arbitrary<Record<string, unknown>> {
    return arbRecord(arbStringKey, this.json(depth - 1), this.opts.maxItems);
  }

  private json(depth: number): fc.Arbitrary<unknown> {
    let arb = this.jsonCache.get(depth);
    if (arb !== undefined) return arb;
    const leaves: fc.Arbitrary<unknown>[] = [fc.constant(null), fc.boolean(), arbJsonNumber(this.opts), arbString];
    if (depth > 0) {
      leaves.push(this.jsonObject(depth));
      leaves.push(fc.array(this.json(depth - 1), { maxLength: this.opts.maxItems }));
    }
    arb = fc.oneof(...leaves);
    this.jsonCache.set(depth, arb);
    return arb;
  }
}

/** Nanos: `sign` 0 for 0..max, -1 for -max..0, 2 for either. */
function arbNanos(sign: 0 | -1 | 2): fc.Arbitrary<number> {
  const min = sign === 0 ? 0 : -nanosMax;
  const max = sign === -1 ? 0 : nanosMax;
  const edges = [min, max, 0, sign === -1 ? -500_000_000 : 500_000_000, sign === -1 ? -1000 : 1000].filter(
    (v) => v >= min && v <= max,
  );
  return fc.oneof(fc.constantFrom(...edges), fc.integer({ min, max }));
}

/** A map key as protobuf-es stores it: the object key. */
function mapKey(t: ScalarType): fc.Arbitrary<string> {
  switch (t) {
    case ScalarType.BOOL:
      return fc.constantFrom("true", "false");
    case ScalarType.STRING:
      return arbStringKey;
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return arbInt(int32Min, int32Max).map(String);
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return arbInt(0, uint32Max).map(String);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return arbBigInt(int64Min, int64Max).map(String);
    default:
      return arbBigInt(0n, uint64Max).map(String);
  }
}

/**
 * A FieldMask path whose lower-camel JSON form maps back to it: segments of lower-case words joined by single
 * underscores, each word starting with a letter (`foo_bar2.baz`); sometimes a leading `_` (`_foo` ↔ `Foo`).
 */
export const arbFieldMaskPath: fc.Arbitrary<string> = (() => {
  const word = fc
    .tuple(
      fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz"),
      fc.string({ unit: fc.constantFrom(..."abcxyz0189"), maxLength: 4 }),
    )
    .map(([a, b]) => a + b);
  const segment = fc
    .tuple(fc.boolean(), fc.array(word, { minLength: 1, maxLength: 3 }))
    .map(([lead, words]) => (lead ? "_" : "") + words.join("_"));
  return fc.array(segment, { minLength: 1, maxLength: 3 }).map((segs) => segs.join("."));
})();

/** The nine wrapper schemas of @bufbuild/protobuf. */
export const wrapperSchemas = [
  DoubleValueSchema,
  FloatValueSchema,
  Int64ValueSchema,
  UInt64ValueSchema,
  Int32ValueSchema,
  UInt32ValueSchema,
  BoolValueSchema,
  StringValueSchema,
  BytesValueSchema,
] as const;
