import { create, createFileRegistry, type DescMessage } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { FileDescriptorSetSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { dictObjectCost, fastObjectCost } from "../src/internal/budget.js";
import {
  zeroMessage,
  zeroMessageAt,
  zeroMessageCost,
  zeroMessageWith,
  zeroShapeRoot,
  zeroShapeStep,
} from "../src/codec/zero-message.js";
import { TestAllTypesProto2, testRegistry } from "./conformance-registry.js";

// The shapes are cached per type, at most 64 lists each: a private copy of TestAllTypesProto3's descriptors, so
// that what other test files cache for the shared one (in a worker that runs several files) cannot fill them.
const TestAllTypesProto3 = createFileRegistry(
  create(FileDescriptorSetSchema, { file: [...testRegistry.files].map((f) => f.proto) }),
).getMessage("protobuf_test_messages.proto3.TestAllTypesProto3")!;

// The JSON reader starts every message of few fields from zeroMessage instead of create(): whatever it
// returns must be what create() returns, member for member and in the same order, and share nothing mutable.

const messages: DescMessage[] = [];
for (const t of testRegistry) if (t.kind === "message") messages.push(t);

describe("zeroMessage", () => {
  it("covers the conformance types", () => {
    expect(messages.length).toBeGreaterThan(50);
  });

  it.each(messages.map((m) => [m.typeName, m] as const))(
    "%s: equals create(), in member order and prototype",
    (_, desc) => {
      const made = zeroMessage(desc);
      const expected = create(desc);
      expect(made).toStrictEqual(expected);
      expect(Object.keys(made)).toEqual(Object.keys(expected));
      expect(Object.getPrototypeOf(made)).toBe(Object.getPrototypeOf(expected));
      for (const k of Object.keys(made)) {
        expect(Object.getOwnPropertyDescriptor(made, k)).toMatchObject({
          writable: true,
          enumerable: true,
          configurable: true,
        });
      }
    },
  );

  it("gives each message its own lists, maps and oneof holders, and leaves the template alone", () => {
    const a = zeroMessage(TestAllTypesProto3) as Record<string, unknown> & {
      repeatedInt32: number[];
      mapStringString: Record<string, string>;
      oneofField: { case: unknown; value?: unknown };
    };
    const b = zeroMessage(TestAllTypesProto3) as typeof a;
    expect(a.repeatedInt32).not.toBe(b.repeatedInt32);
    expect(a.mapStringString).not.toBe(b.mapStringString);
    expect(a.oneofField).not.toBe(b.oneofField);
    a.repeatedInt32.push(1);
    a.mapStringString.k = "v";
    a.oneofField.case = "oneofUint32";
    a.optionalInt32 = 7;
    expect(zeroMessage(TestAllTypesProto3)).toStrictEqual(create(TestAllTypesProto3));
  });

  it("with added members: create()'s members, then those, each own and undefined, in the order given", () => {
    const added = ["optionalTimestamp", "optionalNestedMessage"];
    const made = zeroMessageWith(TestAllTypesProto3, added)!;
    const zero = create(TestAllTypesProto3) as Record<string, unknown>;
    expect(Object.keys(made)).toEqual([...Object.keys(zero), ...added]);
    for (const k of added)
      expect(Object.getOwnPropertyDescriptor(made, k)).toEqual({
        value: undefined,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    for (const k of added) delete made[k];
    expect(made).toStrictEqual(zero);
    // Another list is another base; the first one is unchanged by what its copies went through.
    expect(Object.keys(zeroMessageWith(TestAllTypesProto3, ["optionalNestedMessage"])!).at(-1)).toBe(
      "optionalNestedMessage",
    );
    expect(Object.keys(zeroMessageWith(TestAllTypesProto3, added)!)).toEqual([...Object.keys(zero), ...added]);
  });

  it("with added members: nothing for a type with a prototype chain, or a member named twice", () => {
    expect(zeroMessageWith(TestAllTypesProto2, ["optionalNestedMessage"])).toBeUndefined();
    expect(zeroMessageWith(TestAllTypesProto3, ["optionalNestedMessage", "optionalNestedMessage"])).toBeUndefined();
    // 125 members and 3 more: past what JSON.parse keeps in fast mode (a copy of a dictionary is slow).
    expect(
      zeroMessageWith(TestAllTypesProto3, ["optionalNestedMessage", "optionalForeignMessage", "optionalTimestamp"]),
    ).toBeUndefined();
    expect(zeroMessageWith(TestAllTypesProto3, ["optionalNestedMessage", "optionalForeignMessage"])).toBeDefined();
  });
});

describe("zeroShapeStep", () => {
  const indexOf = (desc: DescMessage, name: string) => desc.fields.findIndex((f) => f.localName === name);

  it("walks to one list per order of members, and makes its base once", () => {
    const root = zeroShapeRoot(TestAllTypesProto3)!;
    const a = indexOf(TestAllTypesProto3, "optionalNestedMessage");
    const b = indexOf(TestAllTypesProto3, "optionalTimestamp");
    const ab = zeroShapeStep(zeroShapeStep(root, a, "optionalNestedMessage")!, b, "optionalTimestamp")!;
    expect(ab.added).toEqual(["optionalNestedMessage", "optionalTimestamp"]);
    expect(zeroShapeStep(zeroShapeStep(root, a, "optionalNestedMessage")!, b, "optionalTimestamp")).toBe(ab);
    const ba = zeroShapeStep(zeroShapeStep(root, b, "optionalTimestamp")!, a, "optionalNestedMessage")!;
    expect(ba).not.toBe(ab);
    const m = zeroMessageAt(ab)!;
    expect(Object.keys(m).slice(-2)).toEqual(["optionalNestedMessage", "optionalTimestamp"]);
    expect(zeroMessageAt(ab)).not.toBe(m);
    expect(Object.keys(zeroMessageAt(ba)!).slice(-2)).toEqual(["optionalTimestamp", "optionalNestedMessage"]);
  });

  it("keeps at most 64 lists per type, so that a client's orders of keys cannot grow memory", () => {
    // A type of its own for this test: the lists of the others are shared with the rest of the suite.
    const desc = testRegistry.getMessage("protobuf_test_messages.proto3.TestAllTypesProto3.NestedMessage")!;
    const root = zeroShapeRoot(desc)!;
    const i = indexOf(desc, "corecursive");
    let made = 0;
    let shape: ReturnType<typeof zeroShapeStep> = root;
    // "corecursive" again and again: every step is a new list (its base would hold a name twice).
    while (shape !== undefined && made < 200) {
      shape = zeroShapeStep(shape, i, "corecursive");
      if (shape !== undefined) made++;
    }
    expect(made).toBeLessThanOrEqual(64);
    expect(zeroMessageAt(zeroShapeStep(root, i, "corecursive")!)).toBeDefined();
    expect(zeroMessageAt(zeroShapeStep(zeroShapeStep(root, i, "corecursive")!, i, "corecursive")!)).toBeUndefined();
  });
});

describe("zeroMessageCost", () => {
  // Units of 8 bytes (internal/budget.ts); the memory each really takes is in test/hostile/memory.test.ts.
  it("a copied zero message: its members in fast mode, its lists, maps and oneof holders; more made by create()", () => {
    const keys = Object.keys(create(TestAllTypesProto3)).length;
    const t = TestAllTypesProto3;
    const lists = t.fields.filter((f) => f.fieldKind === "list").length;
    const maps = t.fields.filter((f) => f.fieldKind === "map").length;
    expect([keys, lists, maps, t.oneofs.length]).toEqual([125, 65, 19, 1]);
    expect(zeroMessageCost(t)).toEqual({
      enter: fastObjectCost(125) + 4 * 65 + 7 * 19 + 4,
      upgrade: dictObjectCost(125) - fastObjectCost(125),
    });
    expect(zeroMessageCost(TimestampSchema)).toEqual({ enter: 7, upgrade: 3 });
  });

  it("a type left to create() (proto2 keeps defaults on a prototype) costs its dictionary, with nothing more", () => {
    const own = Object.keys(create(TestAllTypesProto2)).length;
    expect(zeroMessageCost(TestAllTypesProto2).upgrade).toBe(0);
    expect(zeroMessageCost(TestAllTypesProto2).enter).toBeGreaterThanOrEqual(dictObjectCost(own));
  });

  it("counts only the members create() gives: unset message fields and explicit presence are none", () => {
    for (const desc of messages) {
      const members = Object.keys(create(desc)).length;
      const { enter } = zeroMessageCost(desc);
      expect(enter).toBeGreaterThanOrEqual(fastObjectCost(members));
      expect(enter).toBeLessThanOrEqual(dictObjectCost(members) + 7 * desc.fields.length + 4 * desc.oneofs.length);
    }
  });
});
