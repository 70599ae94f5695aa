import { z } from "zod";
import type { CallToolResult, Tool } from "@modelcontextprotocol/server";
import type { Logger } from "../../lib/logger";
import { isUpstreamError, SERVICE_NAMES, type UpstreamError } from "../../upstream/errors";
import { clip } from "./format";
import { enforceReaches } from "./governance";
import { ToolError, type ToolContext, type ToolSpec } from "./tool";

const definitions = new WeakMap<ToolSpec, Tool>();

/** JSON Schema of a zod schema as MCP wants it: an object schema, without the `$schema` key, compacted (an output schema to its outline). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Tool["inputSchema"] {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  const compacted = compact({ ...rest, type: "object" }, io) as Tool["inputSchema"];
  return io === "output" ? outline(compacted) : compacted;
}

/** A property's JSON type(s) alone: `{type}`, or a union's branches' types. */
function typeOnly(schema: unknown): Record<string, unknown> {
  const { type, anyOf } = (schema ?? {}) as { type?: unknown; anyOf?: unknown[] };
  if (type !== undefined) return { type };
  return Array.isArray(anyOf) ? { anyOf: anyOf.map(typeOnly) } : {};
}

/**
 * An output schema as tools/list gives it: each field of the answer by name with its JSON type,
 * and no deeper (issue 26 item 9: the default tools/list is held to 16,000 characters, and the
 * output schemas were a third of it). What an array's items or a nested object hold is what the
 * text answer shows; a model reads that text, and the structured answer still conforms to this
 * outline (every field it has is named, with its type).
 */
function outline(schema: Tool["inputSchema"]): Tool["inputSchema"] {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  return {
    type: "object",
    properties: Object.fromEntries(Object.keys(properties).map((name) => [name, typeOnly(properties[name])])),
  } as Tool["inputSchema"];
}

/**
 * tools/list is read into a model's context on every conversation, so its schemas carry only what
 * informs a call (issue 11: the catalogue's size is a figure; issue 26 item 9: the default
 * tools/list at most 16,000 characters, tools.size.test.ts). Dropped everywhere: the safe-integer
 * bounds zod adds to every `.int()`, which say nothing. Dropped from input schemas: `pattern`
 * (identifier syntax such as an issue key's: the server still checks it and names what is wrong,
 * with an example), `minLength: 1`, `minimum` 0 or 1, every `maxLength` and `maxItems`, and the
 * bounds no real call comes near (`maximum` of a million and more): the server still enforces each
 * and its message names the limit; `additionalProperties: {}` (any value, as without it) an empty
 * default ("" or []), which is what leaving the argument out means, and a number's default (a page
 * size or a limit: the answer says when there is more, and `maximum` says how far it goes). Dropped from output
 * schemas: `required` and `additionalProperties: false`, which restate every property name, and
 * descriptions (the text answer shows what each field holds); the looser schema still names each
 * field and its type, and every answer still conforms to it.
 * Also dropped: `propertyNames: {type: "string"}` (object keys are strings anyway).
 */
const isPlainString = (value: unknown): boolean => JSON.stringify(value) === '{"type":"string"}';
const isEmpty = (value: unknown): boolean => JSON.stringify(value) === "{}";

function compact(node: unknown, io: "input" | "output"): unknown {
  if (Array.isArray(node)) return node.map((item) => compact(item, io));
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === "minimum" && value === Number.MIN_SAFE_INTEGER) || (key === "maximum" && value === Number.MAX_SAFE_INTEGER)) continue;
    if (io === "output" && (key === "required" || key === "description" || (key === "additionalProperties" && value === false))) continue;
    if (
      io === "input" &&
      (key === "pattern" ||
        (key === "minLength" && value === 1) ||
        (key === "minimum" && (value === 0 || value === 1)) ||
        key === "maxLength" ||
        key === "maxItems" ||
        (key === "additionalProperties" && isEmpty(value)) ||
        (key === "default" && (value === "" || typeof value === "number" || JSON.stringify(value) === "[]")) ||
        (key === "maximum" && (value as number) >= 1_000_000))
    )
      continue;
    if (key === "propertyNames") {
      // JSON object keys are strings anyway; a key pattern (input) is checked on the server.
      const rest = compact(value, io);
      if (!isPlainString(rest)) out[key] = rest;
      continue;
    }
    // Property names are data, not keywords: only their schemas are compacted.
    out[key] =
      key === "properties" && value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, compact(io === "output" ? nonNull(schema) : schema, io)]))
        : compact(value, io);
  }
  return out;
}

/**
 * An output property's schema without its `null` branch: structuredContent leaves out a property
 * whose value is null (withoutNulls), and no output schema requires any property, so "absent"
 * says what null said in fewer characters (about 90 nullable fields in the default set).
 */
function nonNull(schema: unknown): unknown {
  if (!schema || typeof schema !== "object") return schema;
  const { type, anyOf, ...rest } = schema as { type?: unknown; anyOf?: unknown[] } & Record<string, unknown>;
  if (Array.isArray(type) && type.includes("null")) {
    const types = type.filter((t) => t !== "null");
    return { type: types.length === 1 ? types[0] : types, ...rest };
  }
  if (Array.isArray(anyOf) && anyOf.some((branch) => JSON.stringify(branch) === '{"type":"null"}')) {
    const others = anyOf.filter((branch) => JSON.stringify(branch) !== '{"type":"null"}');
    return others.length === 1 ? { ...(others[0] as object), ...rest } : { anyOf: others, ...rest };
  }
  return schema;
}

/** A tool's structured result as sent: properties whose value is null are left out (see nonNull). */
export function withoutNulls(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(withoutNulls);
  // Keys and a plain loop: every tool answer passes here, and Object.entries allocates a pair per property.
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const item = (value as Record<string, unknown>)[keys[i]!];
    if (item !== null) out[keys[i]!] = withoutNulls(item);
  }
  return out;
}

/**
 * The annotations a client needs, without what MCP already assumes when a hint is absent
 * (openWorldHint true, idempotentHint false, and destructiveHint/idempotentHint mean nothing for a
 * tool that only reads) and without a second copy of the title (the tool's own `title` carries it).
 */
function listedAnnotations({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint }: ToolSpec["annotations"]): Tool["annotations"] {
  return {
    readOnlyHint,
    ...(readOnlyHint ? {} : { destructiveHint }),
    ...(!readOnlyHint && idempotentHint ? { idempotentHint } : {}),
    ...(openWorldHint ? {} : { openWorldHint }),
  };
}

/**
 * The MCP `Tool` of a spec, for tools/list: computed once per spec, then reused (it never changes).
 * Without `title`: MCP's title is for a client's screens only (a client shows the name without
 * one), and the default tools/list is held to 16,000 characters (issue 26 item 9), which the
 * descriptions a model reads need more; the console still shows each tool's title (policy options).
 */
export function toolDefinition(spec: ToolSpec): Tool {
  let tool = definitions.get(spec);
  if (!tool) {
    tool = {
      name: spec.name,
      description: spec.description,
      inputSchema: jsonSchema(spec.input, "input"),
      outputSchema: jsonSchema(spec.output, "output") as Tool["outputSchema"],
      annotations: listedAnnotations(spec.annotations),
    };
    definitions.set(spec, tool);
  }
  return tool;
}

const failure = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });

/**
 * The most text one answer may put into a model's context. Tools bound their own answers (page
 * sizes, maxLines, maxLength) well below it; this is the backstop, and says how to get less.
 */
export const MAX_ANSWER_CHARS = 60_000;

function bounded(text: string): string {
  if (text.length <= MAX_ANSWER_CHARS) return text;
  const { text: cut } = clip(text, MAX_ANSWER_CHARS);
  return `${cut}\n[The answer was cut at ${MAX_ANSWER_CHARS} characters: ask for less (a smaller page, fewer fields or lines) to see the rest.]`;
}

/** At most this many problems or unknown names are listed: a call with thousands of bad keys gets a short answer (and a short audit row). */
const MAX_LISTED = 10;

/** `items` joined, at most MAX_LISTED of them, and how many more there were. */
function listed(items: string[], separator: string): string {
  const more = items.length - MAX_LISTED;
  return items.slice(0, MAX_LISTED).join(separator) + (more > 0 ? `${separator}and ${more} more` : "");
}

/** One sentence per bad field, naming it (each part of its path cut) and what is allowed. */
function argumentProblems(error: z.ZodError): string {
  const lines = error.issues.map(
    (issue) =>
      `${issue.path.length ? issue.path.map((part) => clip(String(part), 40).text).join(".") : "arguments"}: ${clip(issue.message, 300).text}`,
  );
  return `Invalid arguments. ${listed(lines, "; ")}. Fix these and call the tool again.`;
}

/**
 * An argument the tool does not take is named, not silently dropped: a model that passes, say,
 * `workspace` to a tool that reads it from `repository` would otherwise act on the wrong object.
 */
function unknownArguments(spec: ToolSpec, rawArgs: unknown): string | null {
  if (!(spec.input instanceof z.ZodObject) || rawArgs === null || typeof rawArgs !== "object" || Array.isArray(rawArgs)) return null;
  const known = Object.keys(spec.input.shape);
  const extra = Object.keys(rawArgs).filter((key) => !known.includes(key));
  if (extra.length === 0) return null;
  const list = listed(
    extra.map((key) => `'${clip(key, 40).text}'`),
    ", ",
  );
  return `Invalid arguments. ${spec.name} does not take ${list}; its arguments are ${known.join(", ") || "none"}. Fix these and call the tool again.`;
}

/**
 * What the service itself said, as an upstream error's message carries it after the service's
 * name and the status ("Jira found nothing there (404): Issue does not exist."): the sentence
 * below names the service and the status itself, so only these words are added, once, without
 * their closing full stop. Empty when the service said nothing.
 */
export function upstreamWords(err: UpstreamError): string {
  const prefix = new RegExp(`^${SERVICE_NAMES[err.service]} [^:()]*\\(${err.status ?? "\\d{3}"}\\)(?::\\s*|$)`);
  return err.message.replace(prefix, "").replace(/[\s.]+$/, "");
}

/**
 * What a model should know about an upstream failure, and what to try next. Every sentence names
 * the service; none carries credentials (UpstreamError never holds them).
 */
export function upstreamSentence(err: UpstreamError): string {
  const name = SERVICE_NAMES[err.service];
  const said = upstreamWords(err);
  switch (err.kind) {
    case "not_configured":
      return `${err.message}. An administrator must configure it on Bridgekeeper's Configuration screen; this tool cannot be used until then.`;
    case "identity":
      return err.message;
    case "unauthorized":
      if (err.details.relinkAt)
        return `${name} refused your linked account (401). Link it again at ${err.details.relinkAt}, then try again; retrying as it is will not help.`;
      return `${name} refused Bridgekeeper's stored credentials (401). An administrator must update the token on the Configuration screen; retrying will not help.`;
    case "forbidden":
      if (err.details.relinkAt)
        return `${name} denied access (403): your account may not see this. Try something else, or ask for access in ${name}.${said ? ` (${said}.)` : ""}`;
      return `${name} denied access (403): the account Bridgekeeper uses may not see this. Try something else, or ask an administrator for access.${said ? ` (${said}.)` : ""}`;
    case "not_found":
      return `${name} found nothing there (404). Check the key or id (search for it first), then try again.${said ? ` (${said}.)` : ""}`;
    case "rate_limited":
      return `${name} is rate limiting requests (429)${err.details.retryAfterSeconds === undefined ? "" : `; wait ${err.details.retryAfterSeconds} s`} before trying again, and make fewer calls.`;
    case "circuit_open":
      return `${name} failed several times in a row, so calls are paused${err.details.retryAfterSeconds === undefined ? "" : ` for up to ${err.details.retryAfterSeconds} s`}. Try again later.`;
    case "timeout":
      return `${name} did not answer in time. Try again later, or narrow the request (fewer results, a tighter query).`;
    case "unreachable":
      return `${name} cannot be reached from Bridgekeeper right now. Try again later.`;
    case "server_error":
      return `${name} failed with an internal error (${err.status ?? "5xx"}). Try again later.`;
    case "too_large":
      return `${name}'s answer was too large to pass on. Ask for less (a smaller page size or fewer fields).`;
    case "bad_request":
      if (err.status === 410) return `${name} no longer offers this API (410 Gone). Use another tool for this.`;
      return `${name} refused the request as invalid (${err.status ?? 400})${said ? `: ${said}` : ""}. Fix the arguments (for example the JQL or CQL syntax) and try again.`;
    case "conflict":
      return `${name} reported a conflict (409)${said ? `: ${said}` : ""}. Read the current state again, then retry.`;
    case "host_not_allowed":
      return `${name}'s configured address is not allowed by this server's network rules. An administrator must fix the integration's URL.`;
    case "invalid_response":
    default:
      return `${name} answered in a way Bridgekeeper could not read: ${said || err.message}. Try again later.`;
  }
}

/**
 * A tool call is two steps, and every failure in either becomes a tool result with `isError: true`
 * and a sentence a model can act on (MCP 2025-11-25 Server/Tools "Error Handling": input
 * validation and execution errors are tool results, not protocol errors); neither throws.
 *
 * The first: the arguments against the tool's input schema (an argument it does not take is
 * refused too). A refusal is the tool result to answer with; the tool-call audit records such a
 * call without its arguments (they are whatever a client made up, of any size).
 */
export function checkArguments(spec: ToolSpec, rawArgs: unknown): { ok: true; args: unknown } | { ok: false; refusal: CallToolResult } {
  const unknown = unknownArguments(spec, rawArgs);
  if (unknown) return { ok: false, refusal: failure(unknown) };
  const parsed = spec.input.safeParse(rawArgs ?? {});
  if (!parsed.success) return { ok: false, refusal: failure(argumentProblems(parsed.error)) };
  return { ok: true, args: parsed.data };
}

/**
 * The second step: holds what the tool reaches to the client's allow-lists (governance.ts), then
 * runs the tool on arguments checkArguments accepted (its `args`). `who` (the
 * client, the request) goes on the lines it logs, so they meet the call's audit row.
 */
export async function runTool(
  spec: ToolSpec,
  args: unknown,
  ctx: ToolContext,
  log?: Logger,
  who: Record<string, unknown> = {},
): Promise<CallToolResult> {
  try {
    await enforceReaches(spec, args, ctx);
    const { structured, text } = await spec.run(args, ctx);
    return { content: [{ type: "text", text: bounded(text) }], structuredContent: withoutNulls(structured) as Record<string, unknown> };
  } catch (err) {
    if (isUpstreamError(err)) return failure(upstreamSentence(err));
    if (err instanceof ToolError) {
      // Nested: a detail named like a base field (`service`) must not write that field twice.
      if (err.warning) log?.warn({ ...who, tool: spec.name, details: err.warning.details }, err.warning.event);
      return failure(err.message);
    }
    log?.error({ ...who, err, tool: spec.name }, "a tool failed unexpectedly");
    return failure(`The ${spec.name} tool failed unexpectedly. Try again; if it keeps failing, tell an administrator.`);
  }
}
