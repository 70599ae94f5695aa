import type { AiProvidersService } from "./ai-providers.service";

const SYSTEM = { userId: null, username: "demo-mode", ip: null };
export const DEMO_PROVIDER_NAME = "Demo assistant (offline)";

/**
 * `npm run demo`: an OpenAI-compatible provider pointed at the local fake model server, so the
 * chat answers (with real tool calls against the sandbox) without a provider account. Added once:
 * a provider by that name is kept as the user left it.
 */
export async function configureDemoAi(aiProviders: AiProvidersService, fakeAiUrl: string): Promise<void> {
  const existing = await aiProviders.list();
  if (existing.some((p) => p.name === DEMO_PROVIDER_NAME)) return;
  await aiProviders.create(
    {
      name: DEMO_PROVIDER_NAME,
      provider: "openai-compatible",
      model: "demo-model",
      apiKey: "",
      baseUrl: `${fakeAiUrl}/compat/v1`,
      isActive: true,
    },
    SYSTEM,
  );
}
