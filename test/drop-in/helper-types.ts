// Type-level proof that protobuf-es's well-known-type helpers switch with their import, checked by `npm run
// typecheck` (not run): each of @bufbuild/protobuf/wkt's helper functions, every overload, is assignable from
// wkt-json's function of the same name, and code written against protobuf-es's signatures compiles unchanged.

import { create, type Message, type Registry } from "@bufbuild/protobuf";
import * as pe from "@bufbuild/protobuf/wkt";
import {
  AnySchema,
  DurationSchema,
  TimestampSchema,
  type Any,
  type Duration,
  type Timestamp,
} from "@bufbuild/protobuf/wkt";
import * as ours from "../../src/index.js";

// Each name, with protobuf-es's type (all overloads of anyPack, anyIs and anyUnpack).
export const timestampNow: typeof pe.timestampNow = ours.timestampNow;
export const timestampFromDate: typeof pe.timestampFromDate = ours.timestampFromDate;
export const timestampDate: typeof pe.timestampDate = ours.timestampDate;
export const timestampFromMs: typeof pe.timestampFromMs = ours.timestampFromMs;
export const timestampMs: typeof pe.timestampMs = ours.timestampMs;
export const durationFromMs: typeof pe.durationFromMs = ours.durationFromMs;
export const durationMs: typeof pe.durationMs = ours.durationMs;
export const anyPack: typeof pe.anyPack = ours.anyPack;
export const anyIs: typeof pe.anyIs = ours.anyIs;
export const anyUnpack: typeof pe.anyUnpack = ours.anyUnpack;
export const anyUnpackTo: typeof pe.anyUnpackTo = ours.anyUnpackTo;

// Calls as protobuf-es's users write them, with the result types they expect.
declare const registry: Registry;
declare const ts: Timestamp;
declare const any: Any;
export const now: Timestamp = ours.timestampNow();
export const date: Date = ours.timestampDate(ts);
export const ms: number = ours.timestampMs(ours.timestampFromDate(new Date()));
export const d: Duration = ours.durationFromMs(1500);
export const dMs: number = ours.durationMs(d);
export const packed: Any = ours.anyPack(TimestampSchema, ts);
const into = create(AnySchema);
// @ts-expect-error protobuf-es's second form returns void, as ours does
export const packedInto: Any = ours.anyPack(DurationSchema, d, into);
export const unpacked: Message | undefined = ours.anyUnpack(any, registry);
export const unpackedTs: Timestamp | undefined = ours.anyUnpack(any, TimestampSchema);
// @ts-expect-error the result may be undefined, as with protobuf-es
export const unpackedTsDefinite: Timestamp = ours.anyUnpack(any, TimestampSchema);
export const is: boolean = ours.anyIs(any, TimestampSchema) || ours.anyIs(any, "google.protobuf.Timestamp");
export const unpackedTo: Duration | undefined = ours.anyUnpackTo(any, DurationSchema, create(DurationSchema));
