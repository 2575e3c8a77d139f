import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { base64Decode, base64DecodePortable, base64Encode, base64EncodePortable } from "../src/internal/base64.js";

// Every case runs on the exported codec (with Node's Buffer behind it for long inputs) and on the portable
// path alone, which is what browsers and other runtimes get.
const encoders = [
  ["base64Encode", base64Encode],
  ["base64EncodePortable", base64EncodePortable],
] as const;
const decoders = [
  ["base64Decode", base64Decode],
  ["base64DecodePortable", base64DecodePortable],
] as const;

const bytes = (...b: number[]) => new Uint8Array(b);

describe.each(encoders)("%s", (_, base64Encode) => {
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

  it("is Node's standard base64 with padding, at every size class", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 40 }),
          fc.uint8Array({ minLength: 40, maxLength: 400 }),
          fc.uint8Array({ minLength: 12_000, maxLength: 13_000 }),
        ),
        (b) => {
          expect(base64Encode(b)).toBe(Buffer.from(b).toString("base64"));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe.each(decoders)("%s", (_, base64Decode) => {
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
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ minLength: 64, maxLength: 600 })), (b) => {
        expect(base64Decode(base64Encode(b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it("reads the URL-safe form, with or without padding, as the same bytes", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ minLength: 64, maxLength: 600 })),
        fc.boolean(),
        fc.boolean(),
        (b, urlSafe, padded) => {
          let text = Buffer.from(b).toString(urlSafe ? "base64url" : "base64");
          text = padded ? text.padEnd(Math.ceil(text.length / 4) * 4, "=") : text.replace(/=+$/, "");
          expect(base64Decode(text)).toEqual(b);
        },
      ),
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
  // Long texts take the other paths (typed arrays; Node's decoder behind a round-trip check): the same rules.
  it.each([
    [
      "a character above U+00FF whose low byte is a base64 letter",
      (t: string) => t.slice(0, 200) + "\u0141" + t.slice(201),
    ],
    ["a space", (t: string) => t.slice(0, 200) + " " + t.slice(201)],
    ["inner padding", (t: string) => t.slice(0, 200) + "=" + t.slice(201)],
    ["a line break at the end", (t: string) => t + "\n"],
    ["a lone surrogate", (t: string) => t.slice(0, 300) + "\ud800" + t.slice(301)],
    ["a dangling character", (t: string) => t + "A"],
  ])("rejects a long text with %s", (_, spoil) => {
    const text = Buffer.from(new Uint8Array(600).map((_, i) => (i * 37) & 255)).toString("base64");
    expect(base64Decode(text)).toEqual(new Uint8Array(600).map((_, i) => (i * 37) & 255));
    expect(base64Decode(spoil(text))).toBeUndefined();
  });

  it("reads non-canonical trailing bits as the short decoder does, at any length", () => {
    // "QUI=" and "QUJ=" both read as "AB": the unused low bits of the last character are ignored.
    for (const n of [0, 50, 300]) {
      const head = "QUJD".repeat(n);
      expect(base64Decode(head + "QUI=")).toEqual(base64Decode(head + "QUJ="));
    }
  });
});

describe("the portable decoder on long texts", () => {
  it("reads every length from 90 to 200 bytes, padded or not, standard or URL-safe", () => {
    for (let n = 90; n <= 200; n++) {
      const b = new Uint8Array(n).map((_, i) => (i * 151 + n) & 255);
      for (const text of [Buffer.from(b).toString("base64"), Buffer.from(b).toString("base64url")]) {
        expect(base64DecodePortable(text)).toEqual(b);
        expect(base64DecodePortable(text.replace(/=+$/, ""))).toEqual(b);
      }
    }
  });

  it("refuses a character outside both alphabets at each position of the first groups and of the last", () => {
    const b = new Uint8Array(150).map((_, i) => (i * 29) & 255);
    const text = Buffer.from(b).toString("base64");
    for (const i of [
      ...Array.from({ length: 40 }, (_, k) => k),
      ...Array.from({ length: 8 }, (_, k) => text.length - 8 + k),
    ]) {
      if (text[i] === "=") continue;
      // "=" as the last character is padding that completes the text: a shorter, valid one.
      for (const c of ["*", " ", "\u0141", "\u00c1", ...(i < text.length - 1 ? ["="] : [])]) {
        expect(base64DecodePortable(text.slice(0, i) + c + text.slice(i + 1))).toBeUndefined();
      }
    }
  });
});

describe("the native and portable decoders", () => {
  it("agree on long texts with any one character replaced", () => {
    const unit = fc.oneof(
      fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_= .\n"),
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 190, maxLength: 400 }), fc.nat(), unit, (b, at, c) => {
        const text = Buffer.from(b).toString("base64");
        const i = at % text.length;
        const spoiled = text.slice(0, i) + c + text.slice(i + 1);
        expect(base64Decode(spoiled)).toEqual(base64DecodePortable(spoiled));
      }),
      { numRuns: 500 },
    );
  });
});

describe("Node's Buffer decoder, where the runtime has no Uint8Array.fromBase64", () => {
  const hasFromBase64 = typeof (Uint8Array as unknown as { fromBase64?: unknown }).fromBase64 === "function";

  it.skipIf(hasFromBase64)("decodes long canonical texts into an array of their own", async () => {
    vi.resetModules();
    const write = vi.spyOn(Buffer.prototype, "write");
    try {
      const fresh = await import("../src/internal/base64.js");
      const b = new Uint8Array(700).map((_, i) => (i * 91) & 255);
      const decoded = fresh.base64Decode(Buffer.from(b).toString("base64"));
      expect(decoded).toEqual(b);
      expect(write).toHaveBeenCalled();
      expect(decoded!.byteOffset).toBe(0);
      expect(decoded!.buffer.byteLength).toBe(700);
    } finally {
      write.mockRestore();
      vi.resetModules();
    }
  });

  it("agrees with the portable decoder on long texts with any character outside both alphabets, at any position", () => {
    const text = Buffer.from(new Uint8Array(300).map((_, i) => (i * 53) & 255)).toString("base64");
    for (let c = 0; c < 384; c++) {
      const x = String.fromCharCode(c);
      for (const i of [0, 1, 2, 3, 201, text.length - 3, text.length - 2, text.length - 1]) {
        const spoiled = text.slice(0, i) + x + text.slice(i + 1);
        expect(base64Decode(spoiled)).toEqual(base64DecodePortable(spoiled));
      }
    }
  });
});

describe("Uint8Array.fromBase64, where the runtime has it", () => {
  // Node 26 has it; on older runtimes a stand-in with its rules (default options: skips ASCII white space,
  // standard alphabet only, padding optional but complete, unused bits ignored) checks the way it is used.
  function standIn(text: string): Uint8Array {
    const t = text.replace(/[\t\n\f\r ]/g, "");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t)) throw new SyntaxError("bad base64");
    const body = t.replace(/=+$/, "");
    const pad = t.length - body.length;
    if (body.length % 4 === 1 || (pad > 0 && (body.length + pad) % 4 !== 0)) throw new SyntaxError("bad base64");
    return new Uint8Array(Buffer.from(body, "base64"));
  }

  it("decodes exactly as the portable decoder: white space, URL-safe and mixed alphabets go to it", async () => {
    const holder = Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array };
    const native = holder.fromBase64;
    let calls = 0;
    if (native === undefined) {
      holder.fromBase64 = (text: string) => {
        calls++;
        return standIn(text);
      };
    }
    vi.resetModules();
    try {
      const fresh = await import("../src/internal/base64.js");
      const unit = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_= \n\t\r\f.");
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 190, maxLength: 400 }),
          fc.array(fc.tuple(fc.nat(), unit), { maxLength: 3 }),
          (b, edits) => {
            let text = Buffer.from(b).toString("base64");
            for (const [at, c] of edits) {
              const i = at % text.length;
              text = text.slice(0, i) + c + text.slice(i + 1);
            }
            expect(fresh.base64Decode(text)).toEqual(fresh.base64DecodePortable(text));
            // With white space instead of a character, the length stays a multiple of four: the native path.
            const spaced = text.slice(0, 100) + " " + text.slice(101);
            expect(fresh.base64Decode(spaced)).toEqual(fresh.base64DecodePortable(spaced));
          },
        ),
        { numRuns: 400 },
      );
      const text = Buffer.from(new Uint8Array(300).map((_, i) => i & 255)).toString("base64");
      expect(fresh.base64Decode(text)).toEqual(new Uint8Array(300).map((_, i) => i & 255));
      if (native === undefined) expect(calls).toBeGreaterThan(100);
    } finally {
      if (native === undefined) delete holder.fromBase64;
      vi.resetModules();
    }
  });
});
