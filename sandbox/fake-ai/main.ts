// The fake AI providers on their own (`npx tsx sandbox/fake-ai/main.ts`, or dist/sandbox/fake-ai/main.js
// after the build): the browser tests and the demo point an AI provider at it. Smart mode only:
// no script, so every question gets the keyword-driven answer of smart-responder.ts.
import { startFakeAi } from "./fake-ai.server";

const port = Number(process.env.FAKE_AI_PORT ?? 5102);
// Any key is accepted unless one is named: a demo's provider form may hold whatever was typed.
const apiKey = process.env.FAKE_AI_API_KEY || null;
const fake = await startFakeAi({ port, host: "127.0.0.1", apiKey });
const { openai, anthropic, google, compat } = fake.baseUrls;
process.stdout.write(
  [
    `Fake AI providers listening on ${fake.url} (${apiKey ? "one API key accepted" : "any API key accepted"})`,
    `  OpenAI-compatible base URL: ${compat}`,
    `  OpenAI (Responses API): ${openai}   Anthropic: ${anthropic}   Google: ${google}`,
    `  Health: ${fake.url}/health`,
    "",
  ].join("\n"),
);
const stop = () => {
  fake.close().then(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
