// The flow-builder service (../shared/spec/consumers.md, section 1), end to end on realistic payloads: a Flow
// as GET /v2/Flows/{sid} returns it, its free-form `definition` through google.protobuf.Struct and back, the
// editor's "add a widget and connect it", the form-encoded POST that saves it (as a schema-aware update of the
// stored Flow with flow.proto, and as a FieldMask update on plain JSON), the timestamps, and read masks over
// flows and states.
import { fileURLToPath } from "node:url";
import { StructSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  fieldMaskFromPatch,
  fromJsonString,
  isWktJsonError,
  jsonMerge,
  jsonOmit,
  jsonPatch,
  jsonProject,
  jsonProjectEach,
  structFromJson,
  structToJson,
  timestampCompare,
  timestampFromJson,
  timestampToJson,
  toJsonString,
  type WktJsonError,
  timestampFromJsonNullable,
  timestampToJsonNullable,
} from "../../src/index.js";
import { catchWkt } from "../helpers.js";
import { compileProto } from "../patch/registry.js";

const FlowSchema = compileProto(fileURLToPath(new URL(".", import.meta.url)), "flow.proto").getMessage(
  "studio.v2.Flow",
)!;

type Json = Record<string, unknown>;

const FLOW_SID = "FW9d816f0b90d2a10b913868462e339d29";
const ACCOUNT_SID = "ACe7c7a3f1ba5b5b8f6e2f8b9a0c4d2e11";

/** GET /v2/Flows/{sid}: a published flow with a trigger and widgets the library has never heard of. */
const flowText = `{
  "sid": "${FLOW_SID}",
  "account_sid": "${ACCOUNT_SID}",
  "friendly_name": "Appointment reminders",
  "status": "published",
  "revision": 3,
  "date_created": "2017-11-06T12:00:00Z",
  "date_updated": null,
  "commit_message": null,
  "errors": [],
  "valid": true,
  "url": "https://studio.example.com/v2/Flows/${FLOW_SID}",
  "links": { "revisions": "https://studio.example.com/v2/Flows/${FLOW_SID}/Revisions" },
  "definition": {
    "description": "Reminds patients of their appointment and records the answer",
    "flags": { "allow_concurrent_calls": true },
    "initial_state": "Trigger",
    "states": [
      {
        "name": "Trigger",
        "type": "trigger",
        "transitions": [
          { "event": "incomingMessage" },
          { "event": "incomingCall" },
          { "event": "incomingRequest", "next": "collect_answer" }
        ],
        "properties": { "offset": { "x": 0, "y": 0 } }
      },
      {
        "name": "collect_answer",
        "type": "gather-input-on-call",
        "transitions": [
          { "event": "keypress", "next": "route_answer" },
          { "event": "speech" },
          { "event": "timeout" }
        ],
        "properties": {
          "offset": { "x": 250.5, "y": -120 },
          "voice": "alice",
          "speech_timeout": "auto",
          "loop": 1,
          "finish_on_key": "#",
          "say": "Press 1 to confirm, 2 to cancel.",
          "language": "en-US",
          "hints": ["confirm", "cancel"],
          "stop_gather": true,
          "profanity_filter": "true",
          "timeout": 5,
          "number_of_digits": 1,
          "speech_model": null,
          "gather_language": "en"
        }
      },
      {
        "name": "route_answer",
        "type": "x-custom-widget",
        "transitions": [{ "event": "match", "next": null }],
        "properties": {
          "offset": { "x": 500, "y": 1e-7 },
          "matrix": [[1, 2.5, -3], [], [null, [true, false]]],
          "weights": { "confirm": 0.75, "cancel": 2.5e-3, "unknown": -1.5e-300 },
          "retries": 9007199254740991,
          "note": "Ünïcödé, emoji 📅, quotes \\" and a tab\\t",
          "options": {}
        }
      }
    ]
  }
}`;

const flow = JSON.parse(flowText) as Json;

describe("flow definitions through google.protobuf.Struct", () => {
  it("decodes the definition and encodes it back with nothing lost", () => {
    const definition = structFromJson(flow.definition);
    const back = structToJson(definition);
    expect(back).toEqual(flow.definition);
    // What a client would notice: the same JSON text, member order included.
    expect(JSON.stringify(back)).toBe(JSON.stringify(flow.definition));
    // Unknown widget types and properties are just JSON: reachable through the Struct.
    const route = definition.fields.states!.kind;
    expect(route.case).toBe("listValue");
  });

  it("reads the definition straight from JSON text, and writes the same text", () => {
    const definitionText = JSON.stringify(flow.definition);
    const definition = fromJsonString(StructSchema, definitionText);
    expect(toJsonString(StructSchema, definition)).toBe(definitionText);
  });

  it("reads date_created and date_updated as Timestamps; null stays 'never updated'", () => {
    const created = timestampFromJson(flow.date_created);
    const updated = timestampFromJsonNullable(flow.date_updated, { path: "$.date_updated" });
    expect(timestampToJson(created)).toBe("2017-11-06T12:00:00Z");
    expect(updated).toBeUndefined();
    expect(timestampToJsonNullable(updated)).toBeNull(); // written back as the API writes it

    const edited = { ...flow, date_updated: "2017-11-06T12:30:00Z" };
    const editedAt = timestampFromJsonNullable(edited.date_updated, { path: "$.date_updated" });
    expect(timestampCompare(editedAt!, created)).toBe(1);
    expect(timestampToJsonNullable(editedAt)).toBe("2017-11-06T12:30:00Z");
  });
});

describe("editing a flow", () => {
  /** The editor's "add a say-play widget and connect it to the trigger's incomingCall". */
  function addGreeting(definition: Json): Json {
    const greeting = {
      name: "say_greeting",
      type: "say-play",
      transitions: [{ event: "audioComplete" }],
      properties: { offset: { x: 0, y: 200 }, loop: 1, say: "Hello! This is your appointment reminder." },
    };
    // Appending to `states`, as protobuf's FieldMaskUtil.merge does for a repeated field (a PATCH's default
    // replaces it); everything else is kept.
    const edited = jsonMerge(definition, { states: [greeting] }, ["states"], { replaceRepeatedFields: false });
    const trigger = (edited.states as Json[]).find((s) => s.type === "trigger")!;
    (trigger.transitions as Json[]).find((t) => t.event === "incomingCall")!.next = greeting.name;
    return edited;
  }

  it("adds a say-play state and connects the trigger's incomingCall transition, leaving the rest as it was", () => {
    const definition = structToJson(structFromJson(flow.definition));
    const edited = addGreeting(definition);
    const states = edited.states as Json[];
    expect(states.map((s) => s.name)).toEqual(["Trigger", "collect_answer", "route_answer", "say_greeting"]);
    expect((states[0]!.transitions as Json[])[1]).toEqual({ event: "incomingCall", next: "say_greeting" });
    expect(jsonOmit(edited, ["states"])).toEqual(jsonOmit(flow.definition as Json, ["states"]));
    expect(states.slice(1, 3)).toEqual(((flow.definition as Json).states as Json[]).slice(1));
    expect(flow.definition).toEqual(JSON.parse(flowText).definition); // the stored flow is untouched
  });

  it("saves it with the form-encoded POST, and the service applies it as a FieldMask update", () => {
    const edited = addGreeting(structToJson(structFromJson(flow.definition)));
    // Client: POST /v2/Flows/{sid}, form-encoded.
    const form = new URLSearchParams({
      CommitMessage: "Greet callers first",
      Definition: toJsonString(StructSchema, structFromJson(edited)),
      Status: "published",
    });

    // Service: the Definition must be a JSON object (a Struct); the update changes only what was sent, and
    // replaces the definition as a whole (it is not merged into the old one).
    const definition = structToJson(fromJsonString(StructSchema, form.get("Definition")!));
    const update = { commit_message: form.get("CommitMessage"), definition, status: form.get("Status") };
    const saved = jsonMerge(flow, update, fieldMaskFromPatch(update), {
      replaceMessageFields: true,
      replaceRepeatedFields: true,
    });

    expect(saved.definition).toEqual(edited);
    expect(saved.commit_message).toBe("Greet callers first");
    expect(jsonOmit(saved, ["definition", "commit_message"])).toEqual(jsonOmit(flow, ["definition", "commit_message"]));
    // FieldMaskUtil's merge would have appended the states to the old ones: the reason for replacing.
    const merged = jsonMerge(flow, update, fieldMaskFromPatch(update), { replaceRepeatedFields: false });
    expect(((merged.definition as Json).states as Json[]).length).toBe(7);
  });

  /**
   * Service: POST /v2/Flows/{sid} as an update of the stored Flow (flow.proto). The form's fields become the
   * body; Definition is JSON text that must hold an object (a Struct, replaced as a whole: it is one field of
   * the Flow). What the client may not set (revision, date_updated, sid, ...) is the service's.
   */
  function saveFlow(stored: Json, form: URLSearchParams): Json {
    const body: Json = {};
    if (form.has("CommitMessage")) body.commit_message = form.get("CommitMessage");
    if (form.has("Status")) body.status = form.get("Status");
    if (form.has("Definition")) body.definition = structToJson(fromJsonString(StructSchema, form.get("Definition")!));
    const saved = jsonPatch(FlowSchema, stored as never, body as never, { useProtoFieldName: true });
    return { ...saved, revision: (stored.revision as number) + 1, date_updated: "2017-11-07T09:00:00Z" };
  }

  it("saves it as a schema-aware update of the stored Flow: the definition replaced, the rest kept", () => {
    const edited = addGreeting(structToJson(structFromJson(flow.definition)));
    const form = new URLSearchParams({
      CommitMessage: "Greet callers first",
      Definition: JSON.stringify(edited),
      Status: "published",
    });
    const saved = saveFlow(flow, form);
    expect(saved.definition).toEqual(edited);
    expect(((saved.definition as Json).states as Json[]).length).toBe(4); // replaced, not appended to
    expect(saved).toMatchObject({
      sid: FLOW_SID,
      account_sid: ACCOUNT_SID,
      friendly_name: "Appointment reminders",
      commit_message: "Greet callers first",
      revision: 4,
      date_created: "2017-11-06T12:00:00Z",
      date_updated: "2017-11-07T09:00:00Z",
      valid: true,
    });
    // A commit message alone changes nothing else.
    expect(saveFlow(flow, new URLSearchParams({ CommitMessage: "typo" })).definition).toEqual(flow.definition);
  });

  it("a definition that is no JSON object, or a flow without one, is refused", () => {
    expect(catchWkt(() => saveFlow(flow, new URLSearchParams({ Definition: "[1, 2]" })))).toMatchObject({
      rule: "json-type",
      jsonPath: "$",
    });
    // Definition is REQUIRED: an update may not clear it.
    expect(
      catchWkt(() => jsonPatch(FlowSchema, flow as never, { definition: null }, { useProtoFieldName: true })),
    ).toMatchObject({ rule: "field-behavior", jsonPath: "$.definition" });
    // The sid names the flow: a body may repeat it, not change it.
    expect(catchWkt(() => jsonPatch(FlowSchema, flow as never, { sid: "FW0" }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.sid",
    });
  });

  it.each([
    ["[1, 2]", "json-type", "$"],
    ['"{\\"states\\": []}"', "json-type", "$"], // a JSON string holding JSON, not an object
    ["null", "json-type", "$"],
    ["{ states: [] }", "syntax", "$"],
    ['{"states": [', "syntax", "$.states[0]"],
    ["", "syntax", "$"],
  ])("rejects a Definition that is not a JSON object: %j (%s at %s)", (text, rule, path) => {
    let error: WktJsonError | undefined;
    try {
      fromJsonString(StructSchema, text);
    } catch (e) {
      if (isWktJsonError(e)) error = e;
    }
    expect(error).toMatchObject({ rule, jsonPath: path });
  });
});

describe("read masks over flows", () => {
  const flows = [
    flow,
    { ...flow, sid: "FW00000000000000000000000000000001", friendly_name: "Surveys", status: "draft", revision: 1 },
  ];

  it("projects a list page onto the columns it shows", () => {
    expect(jsonProjectEach(flows, ["sid", "friendly_name", "status", "date_updated"])).toEqual([
      { sid: FLOW_SID, friendly_name: "Appointment reminders", status: "published", date_updated: null },
      { sid: "FW00000000000000000000000000000001", friendly_name: "Surveys", status: "draft", date_updated: null },
    ]);
  });

  it("projects the states of a definition onto their names and types (AIP-161 wildcard)", () => {
    expect(
      jsonProject(flow, ["definition.states.*.name", "definition.states.*.type", "definition.initial_state"]),
    ).toEqual({
      definition: {
        initial_state: "Trigger",
        states: [
          { name: "Trigger", type: "trigger" },
          { name: "collect_answer", type: "gather-input-on-call" },
          { name: "route_answer", type: "x-custom-widget" },
        ],
      },
    });
    // The offsets only, as the canvas needs them.
    const offsets = jsonProject(flow, ["definition.states.*.properties.offset"]);
    expect((offsets.definition as Json).states).toEqual([
      { properties: { offset: { x: 0, y: 0 } } },
      { properties: { offset: { x: 250.5, y: -120 } } },
      { properties: { offset: { x: 500, y: 1e-7 } } },
    ]);
  });
});
