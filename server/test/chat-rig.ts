/**
 * The chat's tests: the app with both integrations on the sandbox (the MCP rig), a fake AI
 * provider server speaking the four wire formats, and one provider of each kind pointed at it.
 */
import { afterAll, beforeAll } from "vitest";
import type { AiProvider, AiProviderKind } from "../../contract/ai-providers";
import type { ChatStreamEvent } from "../../contract/chat";
import type { AppConfig } from "../container";
import { startMcpRig, type McpRig } from "../mcp/mcp.test-rig";
import { startFakeAi, type FakeAi } from "../../sandbox/fake-ai/fake-ai.server";
import type { TestClient } from "./http-client";
import type { Sandbox } from "../../sandbox/server";

export const PROVIDER_KEY = "sk-test-chat-4f9a2c7e1b";

export interface ChatRig {
  rig: McpRig;
  fake: FakeAi;
  /** One active provider per kind, by kind. */
  providers: Record<AiProviderKind, AiProvider>;
}

export async function startChatRig(config: Partial<AppConfig> | ((sandbox: Sandbox) => Partial<AppConfig>) = {}): Promise<ChatRig> {
  const fake = await startFakeAi({ apiKey: PROVIDER_KEY });
  const rig = await startMcpRig((sandbox) => ({
    aiBaseUrls: { openai: fake.baseUrls.openai, anthropic: fake.baseUrls.anthropic, google: fake.baseUrls.google },
    AI_TIMEOUT_MS: 4_000,
    ...(typeof config === "function" ? config(sandbox) : config),
  }));
  const models: Record<AiProviderKind, string> = {
    openai: "gpt-4o",
    anthropic: "claude-sonnet-5-5",
    google: "gemini-1.5-pro",
    "openai-compatible": "llama3.1",
  };
  const providers = {} as Record<AiProviderKind, AiProvider>;
  for (const kind of Object.keys(models) as AiProviderKind[]) {
    const res = await rig.admin.post<AiProvider>("/api/ai-providers", {
      name: `Fake ${kind}`,
      provider: kind,
      model: models[kind],
      apiKey: PROVIDER_KEY,
      ...(kind === "openai-compatible" ? { baseUrl: fake.baseUrls.compat } : {}),
      isActive: true,
    });
    if (res.status !== 201) throw new Error(`provider ${kind}: ${res.status} ${res.text}`);
    providers[kind] = res.body;
  }
  return { rig, fake, providers };
}

/** A chat rig for the tests of one file. */
export function chatRigForFile(use: (chat: ChatRig) => void, config: Partial<AppConfig> = {}): void {
  let chat: ChatRig | undefined;
  beforeAll(async () => {
    chat = await startChatRig(config);
    use(chat);
  });
  afterAll(async () => {
    await chat?.fake.close();
    await chat?.rig.t.close();
    await chat?.rig.sandbox.close();
  });
}

/** POST /api/chat/send in SSE mode: the events, in order, read until the stream ends (or `until` says stop, then the request is aborted). */
export async function sendStreaming(
  client: TestClient,
  body: unknown,
  until?: (event: ChatStreamEvent) => boolean,
): Promise<{ status: number; events: ChatStreamEvent[]; text: string }> {
  const controller = new AbortController();
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream",
    cookie: client.cookieHeader(),
  };
  const res = await fetch(new URL("/api/chat/send", client.baseUrl), {
    method: "POST",
    headers,
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream"))
    return { status: res.status, events: [], text: await res.text() };
  const events: ChatStreamEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split("\n").find((l) => l.startsWith("data: "));
        if (!data) continue;
        const event = JSON.parse(data.slice(6)) as ChatStreamEvent;
        events.push(event);
        if (until?.(event)) {
          controller.abort();
          return { status: res.status, events, text: "" };
        }
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  }
  return { status: res.status, events, text: "" };
}
