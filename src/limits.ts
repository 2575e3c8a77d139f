/**
 * Every bound of the specification, stated once. Error messages are built from these constants, so a message
 * can never drift from the rule it reports.
 *
 * @module
 */

/**
 * Timestamp.seconds of 0001-01-01T00:00:00Z, the first instant a Timestamp may hold.
 * Spec: "Timestamp.seconds: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z inclusive".
 */
export const timestampSecondsMin = -62_135_596_800;

/** Timestamp.seconds of 9999-12-31T23:59:59Z, the last second a Timestamp may hold. */
export const timestampSecondsMax = 253_402_300_799;

/** Spec: "Timestamp.nanos: 0 to 999,999,999 inclusive". Negative seconds keep non-negative nanos. */
export const timestampNanosMin = 0;

/** The largest Timestamp.nanos. */
export const timestampNanosMax = 999_999_999;

/** Spec: "Duration.seconds: -315,576,000,000 to +315,576,000,000 inclusive" (about 10,000 years). */
export const durationSecondsMax = 315_576_000_000;

/** The smallest Duration.seconds. */
export const durationSecondsMin = -315_576_000_000;

/** Spec: "Duration.nanos: -999,999,999 to +999,999,999 inclusive". */
export const durationNanosMax = 999_999_999;

/** The smallest Duration.nanos. */
export const durationNanosMin = -999_999_999;

/** Nanoseconds in a second. */
export const nanosPerSecond = 1_000_000_000;

/** Most fraction digits a Timestamp or Duration string may carry (nanosecond resolution). */
export const fractionDigitsMax = 9;

/** Default nesting limit of the JSON codec: messages, Struct/Value/ListValue and Any all count. */
export const defaultMaxDepth = 100;

/** int64 range. */
export const int64Min = -(2n ** 63n);
/** int64 range. */
export const int64Max = 2n ** 63n - 1n;
/** uint64 range. */
export const uint64Max = 2n ** 64n - 1n;

/** Formats a bound for an error message: `315,576,000,000`. */
export function formatBound(n: number | bigint): string {
  const s = String(n < 0 ? -n : n);
  let out = "";
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && (s.length - i) % 3 === 0) out += ",";
    out += s[i];
  }
  return n < 0 ? "-" + out : out;
}

/** Timestamp.seconds bound {@link timestampSecondsMin} as JSON text. */
export const timestampTextMin = "0001-01-01T00:00:00Z";

/** The last Timestamp ({@link timestampSecondsMax} with {@link timestampNanosMax}) as JSON text. */
export const timestampTextMax = "9999-12-31T23:59:59.999999999Z";

/** Largest hour of a Timestamp string's UTC offset (`+23:59`): RFC 3339 `time-numoffset` uses `time-hour`. */
export const utcOffsetHoursMax = 23;

/** Largest minute of a Timestamp string's UTC offset. */
export const utcOffsetMinutesMax = 59;

/** The longest Duration ({@link durationSecondsMax} with {@link durationNanosMax}) as JSON text. */
export const durationTextMax = "315576000000.999999999s";

/** Default `timeoutMs` of `createTypeResolver`: milliseconds one request may take, body included. */
export const defaultTypeResolverTimeoutMs = 5_000;

/** Default `maxBodyBytes` of `createTypeResolver`: 1 MiB, far above any real Type (a few KB). */
export const defaultTypeResolverMaxBodyBytes = 1_048_576;

/** Default `maxCacheEntries` of `createTypeResolver`: fetched Types and Enums its LRU cache keeps. */
export const defaultTypeResolverMaxCacheEntries = 1_000;

/** Default `maxConcurrent` of `createTypeResolver`: requests of one resolver in flight at once. */
export const defaultTypeResolverMaxConcurrent = 8;

/** Default `maxTypes` of `createTypeResolver`: types one resolution may fetch. */
export const defaultTypeResolverMaxTypes = 1_000;

/**
 * Default `--max-length` of the `wkt-json` command: the most bytes it reads from stdin (64 MiB). It stops
 * reading past it and exits 1 with rule `size`, so that no input can make it buffer without bound.
 */
export const cliMaxLengthDefault = 67_108_864; // 64 * 1024 * 1024: a literal, which a bundler can drop unused

/**
 * Default `--max-values` of the `wkt-json` command, for any input: the most values it may hold, counted by a
 * scan of the bytes before anything is decoded (in JSON, objects, arrays, strings including member names,
 * numbers, `true`/`false`/`null`; in binary, messages, map entries, field occurrences and packed elements,
 * an Any's value and extensions included), with {@link cliMaxValuesPerByte} more per byte of input, as the
 * library's decoder earns its budget from the length of its input. The scan bounds what the decoder's first
 * step builds before its own budget applies (`JSON.parse`'s tree, `fromBinary`'s message): up to ~60 bytes a
 * value in JSON, ~200 in binary (an empty message per 3 bytes).
 */
export const cliMaxValuesDefault = 2_000_000;

/**
 * Values of `--max-values`'s default per byte of input (see {@link cliMaxValuesDefault}). Real exports hold 0.1
 * to 0.15 values a byte (rows of named members, floats): the 17.9 MB Struct export of 222,222 rows (2.44
 * million values, 0.14 a byte; 3.79 million allowed) decodes, and so do exports of that density up to 55 MB.
 * What it bounds is the costliest input the default lets through: at the 64 MiB of `--max-length`, 8.7 million
 * values (`{}` items padded to 10 bytes), which the decoder's own budget then refuses. 0.25 let 18.8 million
 * through, over 3 GB of memory.
 */
export const cliMaxValuesPerByte = 0.1;

/**
 * Deepest nesting of message types that `registryFromTypes` rebuilds as nested descriptors (protoc's parser
 * allows 32 levels). protobuf-es builds nested descriptors recursively, so a type nested deeper is rebuilt as a
 * message at the top of a file whose package is the name of the type that encloses it, with the features it
 * inherits copied into its options: its name, fields and JSON form stay the same, and no input nests deep
 * enough to exhaust the stack.
 */
export const registryNestingMax = 100;

/**
 * Formerly the longest member name shown whole in a path of the collect-all validator's issues; longer names
 * were cut to this many code units followed by `…`, which named no key of the input.
 *
 * @deprecated Unused since issue 26: an issue's path names every key whole. Each issue holds its path as the
 *   input's own key strings (shared, not copied) and formats its path string only when it is read, so a
 *   megabyte key above a thousand issues costs no more than the key.
 */
export const issuePathKeyMax = 100;

/**
 * Formerly the longest path of an issue of the collect-all validator, in UTF-16 code units; a longer path kept
 * its innermost segments after `$…`.
 *
 * @deprecated Unused since issue 26: an issue's path is whole however deep (its segments are the input's keys,
 *   shared, and its string is formatted only when read; the depth is bounded by `maxDepth`).
 */
export const issuePathMax = 10_000;

/**
 * Default memory budget (`maxValues`) of the decoder (`fromJson`, `fromJsonString`, `validateJson*`,
 * `anyFromJson`, `standardSchema`), in units of 8 bytes: what any call may allocate for its result, whatever
 * its input (32 MB), so that every small body of wide messages decodes (a message of 280 fields costs about
 * 12 KB, the 125 of TestAllTypesProto3 with their lists and maps about 4 KB). The call earns
 * {@link defaultMaxValuesPerCodeUnit} more per code unit of its input's JSON text.
 */
export const defaultMaxValues = 4_000_000;

/**
 * Units of 8 bytes (48 bytes) the default budget of the decoder earns per UTF-16 code unit of the input's JSON
 * text, counted from the JSON value as it is read (a member its key's length plus 5, a string its length plus
 * 2, a list element 2, a number 1: never more than the text), so that a text and its parsed value get the same
 * budget. Set by the real payloads that need most: an embeddings batch of a million doubles as
 * google.protobuf.Values (99 MB for 2 code units of credit each) and one-digit numbers in a ListValue (about
 * 100 bytes for `1,`, up to 8 MB of them). With {@link defaultMaxValues}, a call's result holds at most 32 MB
 * plus 48 bytes per code unit of input (README, Hostile input, with the peak memory measured for the worst
 * shapes).
 */
export const defaultMaxValuesPerCodeUnit = 6;

/**
 * The least default budget of a call, whatever its input: {@link defaultMaxValues}, which every call now gets,
 * from a text or a JS value alike.
 *
 * @deprecated Use {@link defaultMaxValues}.
 */
export const defaultMaxValuesTextMin = defaultMaxValues;

/**
 * Default `maxPaths` of the FieldMask functions whose result can hold more paths than their input
 * (`fieldMaskIntersect`: up to |a| × |b| paths; `fieldMaskSubtract` with a schema, which spells out the
 * remaining fields; `fieldMaskFromPatch`, one path per key of the body): beyond it they throw rule `size`.
 */
export const defaultMaskMaxPaths = 10_000;

/**
 * Steps of work any call on client input may take, whatever its size (the work meter, README "Hostile input"):
 * every loop whose trip count a client controls (mask parsing, normalizing and algebra, projection, omission,
 * merge, the implied masks of PATCH, the command line's pre-scan) charges one meter per call, which starts
 * here and earns {@link workStepsPerCodeUnit} more per UTF-16 code unit of input read; past it, rule `size`.
 * A step is a trie node built or visited, a pair of a node and a `*` pattern that generalizes it, a value
 * copied, a code unit of a result path written.
 */
export const workStepsBase = 250_000;

/** Steps of work a call earns per UTF-16 code unit of client input it reads (see {@link workStepsBase}). */
export const workStepsPerCodeUnit = 16;

/**
 * The work budget of `fieldMaskIntersect` and `fieldMaskSubtract` per path before the work meter replaced it
 * (see {@link workStepsBase}); nothing reads it now.
 *
 * @deprecated The FieldMask functions run on the work meter: {@link workStepsBase} and
 * {@link workStepsPerCodeUnit}. `maxPaths` bounds only the size of a result.
 */
export const maskStepsPerPath = 100;

/**
 * Default `maxLength` of `fieldMaskFromPatch`: the most UTF-16 code units its paths may hold together (1 MiB).
 * A path repeats the keys above it, so a long key over many nested keys would otherwise make a mask far
 * larger than the body (one 100 KB key over 10,000 keys: a gigabyte).
 */
export const defaultPatchMaskMaxLength = 1_048_576;
