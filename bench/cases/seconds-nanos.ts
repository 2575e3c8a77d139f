/**
 * Parse and format cases for the two seconds/nanos types, Timestamp and Duration: our codec beside
 * `fromJson` / `toJson` of `@bufbuild/protobuf` with the type's schema and, where generated, protobuf-ts's
 * class, on many different values per call, outputs checked equal first. Each type's file adds its floor.
 */
import { fromJson, toJson, type DescMessage } from "@bufbuild/protobuf";
import { pt, same, tsColumn } from "../check.js";
import { sink, type Case, type Target } from "../harness.js";

/** What differs between Timestamp and Duration. */
export interface SecondsNanosType<M extends { seconds: bigint; nanos: number }> {
  readonly area: "Timestamp" | "Duration";
  readonly schema: DescMessage;
  readonly fromText: (text: string) => M;
  readonly toText: (m: M) => string;
}

/** A parse case over `texts`, with the target and an optional floor. */
export function parseCase<M extends { seconds: bigint; nanos: number }>(
  t: SecondsNanosType<M>,
  name: string,
  texts: string[],
  targets: readonly Target[],
  floor?: Case["floor"],
): Case {
  for (const s of texts) same(`${t.area} parse ${s}`, t.fromText(s), fromJson(t.schema, s));
  const ts = tsColumn(
    () => {
      for (const s of texts) {
        const m = pt(t.area).fromJson(s);
        const ours = t.fromText(s);
        same(`protobuf-ts ${t.area} parse ${s}`, [ours.seconds, ours.nanos], [m.seconds, m.nanos]);
      }
    },
    () => {
      const T = pt(t.area);
      return () => {
        let r: unknown;
        for (let i = 0; i < texts.length; i++) r = T.fromJson(texts[i]!);
        sink.v = r;
      };
    },
  );
  const { fromText, schema } = t;
  return {
    area: t.area,
    name,
    ops: texts.length,
    ours: () => {
      let r: unknown;
      for (let i = 0; i < texts.length; i++) r = fromText(texts[i]!);
      sink.v = r;
    },
    es: () => {
      let r: unknown;
      for (let i = 0; i < texts.length; i++) r = fromJson(schema, texts[i]!);
      sink.v = r;
    },
    ...ts,
    ...(floor === undefined ? {} : { floor }),
    targets,
  };
}

/** A format case over `list`, with the target and an optional floor. */
export function formatCase<M extends { seconds: bigint; nanos: number }>(
  t: SecondsNanosType<M>,
  name: string,
  list: M[],
  targets: readonly Target[],
  floor?: Case["floor"],
): Case {
  for (const m of list) same(`${t.area} format ${m.seconds}/${m.nanos}`, t.toText(m), toJson(t.schema, m as never));
  const ts = tsColumn(
    () => {
      const T = pt(t.area);
      for (const m of list)
        same(`protobuf-ts ${t.area} format`, t.toText(m), T.toJson(T.create({ seconds: m.seconds, nanos: m.nanos })));
    },
    () => {
      const T = pt(t.area);
      const own = list.map((m) => T.create({ seconds: m.seconds, nanos: m.nanos }));
      return () => {
        let r: unknown;
        for (let i = 0; i < own.length; i++) r = T.toJson(own[i]);
        sink.v = r;
      };
    },
  );
  const { toText, schema } = t;
  return {
    area: t.area,
    name,
    ops: list.length,
    ours: () => {
      let r = "";
      for (let i = 0; i < list.length; i++) r = toText(list[i]!);
      sink.v = r;
    },
    es: () => {
      let r: unknown;
      for (let i = 0; i < list.length; i++) r = toJson(schema, list[i] as never);
      sink.v = r;
    },
    ...ts,
    ...(floor === undefined ? {} : { floor }),
    targets,
  };
}
