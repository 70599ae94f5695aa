import { randomUUID } from "node:crypto";
import type { z } from "zod";
import {
  AI_PROVIDER_MESSAGES,
  type AiProviderCreateSchema,
  type AiProviderKind,
  type AiProviderTestResult,
  type AiProviderUpdateSchema,
} from "../../../contract/ai-providers";
import type { ProviderTarget } from "../../ai/provider-model";
import type { AiProviderRow } from "../../db/schema";
import { AppError } from "../../lib/app-error";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { secretHint, type SecretBox } from "../../lib/secret-box";
import type { HostPolicy } from "../../upstream/host-policy";
import type { Repos, Transact } from "../../repos";
import type { Actor, AuditService } from "../audit/audit.service";

type AiProviderCreate = z.output<typeof AiProviderCreateSchema>;
type AiProviderUpdate = z.output<typeof AiProviderUpdateSchema>;

/** What a call to a provider needs, its key opened: for the chat (and the Test action) only. */
export interface ResolvedAiProvider extends ProviderTarget {
  id: string;
  name: string;
  isActive: boolean;
}

export type AiProvidersService = ReturnType<typeof createAiProvidersService>;

/**
 * The secret box purpose of a provider's key: a sealed key opens only as that provider's, so a
 * value copied into another row (another base URL) does not open.
 */
export const aiProviderKeyPurpose = (id: string): string => `ai-provider-key:${id}`;

export const AI_PROVIDER_NOT_FOUND = "AI provider not found";
export const AI_PROVIDER_INACTIVE = "This AI provider is inactive. Activate it on the AI Providers screen, or choose another.";
/** docs/decisions.md#write-only-secrets: a write-only key is never sent somewhere its owner did not send it. */
export const AI_PROVIDER_KEY_AGAIN = "Enter the API key again: the stored one is not sent to a changed provider or base URL";

/** What the audit trail keeps of a provider: no key, not even its hint. */
const snapshot = (p: AiProviderRow) => ({
  name: p.name,
  provider: p.provider,
  model: p.model,
  baseUrl: p.baseUrl,
  isActive: p.isActive,
  hasKey: p.keySealed !== null,
});

const COMPATIBLE: AiProviderKind = "openai-compatible";

const invalid = (field: string, message: string) => new AppError("validation_failed", message, { fields: { [field]: message } });

/**
 * AI providers (spec §2 AI Providers, §5; docs/decisions.md#secrets-at-rest, #write-only-secrets): their keys sealed at rest and write-only,
 * each change and its audit row in one transaction. `resolveForCall` is where the chat gets a
 * provider with its key opened; the Test action is the only other place a key is opened.
 */
export function createAiProvidersService(deps: {
  repos: Repos;
  transact: Transact;
  secretBox: SecretBox;
  audit: AuditService;
  clock: Clock;
  log: Logger;
  /** The upstream host rules, for an OpenAI-compatible base URL at save time (the provider fetch checks every connection again). */
  hostPolicy: HostPolicy;
  /** The Test action's one small call (server/ai/provider-check.ts over the provider fetch). */
  check: (target: ProviderTarget) => Promise<AiProviderTestResult>;
}) {
  const { repos, transact, secretBox, audit, clock } = deps;

  async function requireRow(r: Repos, id: string, lock = false): Promise<AiProviderRow> {
    const row = lock ? await r.aiProvidersRepo.lockById(id) : await r.aiProvidersRepo.findById(id);
    if (!row) throw new AppError("not_found", AI_PROVIDER_NOT_FOUND);
    return row;
  }

  /** Checked here for a clear answer under the field; the provider fetch checks every connection again (DNS can change). */
  async function assertHostAllowed(baseUrl: string | null): Promise<void> {
    if (!baseUrl) return;
    const problem = await deps.hostPolicy.problem(new URL(baseUrl).hostname);
    if (problem) throw invalid("baseUrl", problem);
  }

  function seal(id: string, apiKey: string): { keySealed: string; keyHint: string } {
    return { keySealed: secretBox.seal(apiKey, aiProviderKeyPurpose(id)), keyHint: secretHint(apiKey) };
  }

  function target(row: AiProviderRow): ResolvedAiProvider {
    let apiKey: string | null = null;
    if (row.keySealed) {
      try {
        apiKey = secretBox.open(row.keySealed, aiProviderKeyPurpose(row.id));
      } catch {
        // The secret key changed (SECRET_KEY, the key file) or the row was tampered with.
        throw new AppError(
          "conflict",
          "The stored API key of this AI provider cannot be opened with the server's secret key. Enter the key again.",
        );
      }
    }
    return {
      id: row.id,
      name: row.name,
      provider: row.provider as AiProviderKind,
      model: row.model,
      baseUrl: row.baseUrl,
      apiKey,
      isActive: row.isActive,
    };
  }

  return {
    /** Every provider, newest first (rows: the presenter leaves the sealed key behind). */
    list: (): Promise<AiProviderRow[]> => repos.aiProvidersRepo.list(),

    /** The providers the chat may use, oldest first (spec §4: the first active one is auto-selected). */
    listActive: (): Promise<AiProviderRow[]> => repos.aiProvidersRepo.listActive(),

    get: (id: string): Promise<AiProviderRow> => requireRow(repos, id),

    async create(input: AiProviderCreate, actor: Actor): Promise<AiProviderRow> {
      const baseUrl = input.provider === COMPATIBLE ? input.baseUrl || null : null;
      await assertHostAllowed(baseUrl);
      // The id is chosen here so that the key is sealed for this row alone.
      const id = randomUUID();
      const key = input.apiKey ? seal(id, input.apiKey) : { keySealed: null, keyHint: null };
      return transact(async (r) => {
        const now = clock.now();
        const row = await r.aiProvidersRepo.insert({
          id,
          name: input.name,
          provider: input.provider,
          model: input.model,
          baseUrl,
          ...key,
          isActive: input.isActive,
          createdBy: actor.userId,
          createdAt: now,
          updatedAt: now,
        });
        await audit.record(
          actor,
          { action: "ai-provider.created", targetType: "ai-provider", targetId: id, details: { after: snapshot(row) } },
          r.auditRepo,
        );
        return row;
      });
    },

    /**
     * The form's fields or only isActive (spec §7). A blank key keeps the stored one (docs/decisions.md#write-only-secrets), unless
     * the provider or its base URL changes: then the stored key is not carried to the new place
     * (the hosted kinds ask for it again; an OpenAI-compatible server, which may need none, goes
     * without).
     */
    async update(id: string, input: AiProviderUpdate, actor: Actor): Promise<AiProviderRow> {
      // The host is checked before the transaction (a DNS lookup holds no lock).
      if (input.baseUrl) await assertHostAllowed(input.baseUrl);
      return transact(async (r) => {
        const before = await requireRow(r, id, true);
        const provider = input.provider ?? (before.provider as AiProviderKind);
        if (provider !== COMPATIBLE && input.baseUrl) throw invalid("baseUrl", AI_PROVIDER_MESSAGES.baseUrlNotAllowed);
        const baseUrl = provider !== COMPATIBLE ? null : input.baseUrl !== undefined ? input.baseUrl || null : before.baseUrl;
        if (provider === COMPATIBLE && !baseUrl) throw invalid("baseUrl", AI_PROVIDER_MESSAGES.baseUrlRequired);

        let key: { keySealed: string | null; keyHint: string | null } = { keySealed: before.keySealed, keyHint: before.keyHint };
        const moved = provider !== before.provider || baseUrl !== before.baseUrl;
        if (input.apiKey) key = seal(id, input.apiKey);
        else if (moved && before.keySealed) {
          if (provider !== COMPATIBLE) throw invalid("apiKey", AI_PROVIDER_KEY_AGAIN);
          key = { keySealed: null, keyHint: null };
        }
        if (provider !== COMPATIBLE && !key.keySealed) throw invalid("apiKey", AI_PROVIDER_MESSAGES.apiKey);

        const after = (await r.aiProvidersRepo.update(id, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.model !== undefined ? { model: input.model } : {}),
          ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
          provider,
          baseUrl,
          ...key,
          updatedAt: clock.now(),
        }))!;
        const keyChanged = key.keySealed !== before.keySealed;
        await audit.record(
          actor,
          {
            action: "ai-provider.updated",
            targetType: "ai-provider",
            targetId: id,
            details: { before: snapshot(before), after: snapshot(after), ...(keyChanged ? { keyChanged: true } : {}) },
          },
          r.auditRepo,
        );
        return after;
      });
    },

    async delete(id: string, actor: Actor): Promise<void> {
      await transact(async (r) => {
        const gone = await r.aiProvidersRepo.delete(id);
        if (!gone) throw new AppError("not_found", AI_PROVIDER_NOT_FOUND);
        // Conversations that used it keep their messages (their provider_id becomes null).
        await audit.record(
          actor,
          { action: "ai-provider.deleted", targetType: "ai-provider", targetId: id, details: { before: snapshot(gone) } },
          r.auditRepo,
        );
      });
    },

    /**
     * For the chat: the provider with its key opened, or not_found, or provider_inactive (409)
     * for one that is switched off. Open the key here, just before the call, and nowhere else.
     */
    async resolveForCall(id: string): Promise<ResolvedAiProvider> {
      const row = await requireRow(repos, id);
      if (!row.isActive) throw new AppError("provider_inactive", AI_PROVIDER_INACTIVE);
      return target(row);
    },

    /**
     * The Test action (beyond the spec): a one-token call with the stored key, active or not (a
     * provider is worth testing before it is switched on). Never throws for the provider's
     * failure: the answer says why. Audited, as every use of a stored key by hand is.
     */
    async test(id: string, actor: Actor): Promise<AiProviderTestResult> {
      const resolved = target(await requireRow(repos, id));
      const result = await deps.check(resolved);
      deps.log.info({ aiProviderId: id, provider: resolved.provider, ok: result.ok, latencyMs: result.latencyMs }, "AI provider tested");
      await audit.record(actor, {
        action: "ai-provider.tested",
        outcome: result.ok ? "success" : "failure",
        targetType: "ai-provider",
        targetId: id,
        details: { provider: resolved.provider, model: resolved.model, ...(result.error ? { error: result.error } : {}) },
      });
      return result;
    },
  };
}
