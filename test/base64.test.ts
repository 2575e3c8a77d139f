import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64Decode, base64Encode } from "../src/internal/base64.js";

const bytes = (...b: number[]) => new Uint8Array(b);

describe("base64Encode", () => {
  // RFC 4648 §10 test vectors, and the characters that differ between the two alphabets.
  it.each<[Uint8Array, string]>([
    [bytes(), ""],
    [new TextEncoder().encode("f"), "Zg=="],
    [new TextEncoder().encode("fo"), "Zm8="],
    [new TextEncoder().encode("foo"), "Zm9v"],
    [new TextEncoder().encode("foob"), "Zm9vYg=="],
    [new TextEncoder().encode("fooba"), "Zm9vYmE="],
    [new TextEncoder().encode("foobar"), "Zm9vYmFy"],
    [bytes(0xfb, 0xff), "+/8="], // standard alphabet, never "-_"
    [bytes(0, 0, 0), "AAAA"],
    [bytes(255, 255, 255), "////"],
  ])("encodes %o as %o", (input, text) => {
    expect(base64Encode(input)).toBe(text);
  });

  it("is Node's standard base64 with padding, also across its chunk boundary", () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ minLength: 12_000, maxLength: 13_000 })), (b) => {
        expect(base64Encode(b)).toBe(Buffer.from(b).toString("base64"));
      }),
      { numRuns: 200 },
    );
  });
});

describe("base64Decode", () => {
  it.each<[string, number[]]>([
    ["", []],
    ["Zg==", [0x66]], // standard, padded
    ["Zg", [0x66]], // without padding
    ["Zm8=", [0x66, 0x6f]],
    ["Zm8", [0x66, 0x6f]],
    ["Zm9v", [0x66, 0x6f, 0x6f]],
    ["+/8=", [0xfb, 0xff]], // standard alphabet
    ["-_8=", [0xfb, 0xff]], // URL-safe alphabet, padded
    ["-_8", [0xfb, 0xff]], // URL-safe, without padding
    ["AAAA", [0, 0, 0]],
  ])("decodes %o", (text, expected) => {
    expect(base64Decode(text)).toEqual(new Uint8Array(expected));
  });

  it.each([
    "A", // a dangling single character cannot hold a byte
    "AAAAA",
    "A=",
    "A==",
    "A===",
    "=",
    "==",
    "====",
    "Zg=", // padding present must complete the group of four
    "Zg===",
    "Zm8==",
    "Z===",
    "Zg==Zg==", // inner padding
    "Z=g=",
    "AB=C",
    "Zm 9v", // white space is not skipped
    " Zm9v",
    "Zm9v\n",
    "Zm9v\t",
    "Zm9*",
    "Zm9.",
    "Zm9v!",
    "Zm9é",
    "Zm9\u0000",
    "Zm9\ud800",
  ])("rejects %o", (text) => {
    expect(base64Decode(text)).toBeUndefined();
  });

  it("reads back what it writes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        expect(base64Decode(base64Encode(b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it("reads the URL-safe form, with or without padding, as the same bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), fc.boolean(), (b, urlSafe, padded) => {
        let text = Buffer.from(b).toString(urlSafe ? "base64url" : "base64");
        text = padded ? text.padEnd(Math.ceil(text.length / 4) * 4, "=") : text.replace(/=+$/, "");
        expect(base64Decode(text)).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it("accepts only texts Node decodes to the same bytes", () => {
    // Node's decoder is lenient (it skips what it does not know), so it is an oracle only for what we accept.
    const alphabet = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_= .");
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 12 }), (text) => {
        const decoded = base64Decode(text);
        if (decoded !== undefined) expect(decoded).toEqual(new Uint8Array(Buffer.from(text, "base64")));
      }),
      { numRuns: 1000 },
    );
  });
});
