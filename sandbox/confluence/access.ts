import type { SandboxRequest } from "../core/http";
import { callerAccountId, canSeeSpace } from "../identity/caller";
import type { ConfluenceState, Content, Space } from "./types";

/**
 * What the request's caller may see (identity/caller.ts): the service account every space, a person
 * the spaces they may see. Content of any other space is, to them, content that does not exist.
 */

export const spaceVisible = (req: SandboxRequest, space: Space): boolean => canSeeSpace(req.caller, space.key);

export const contentVisible = (req: SandboxRequest, c: Content): boolean => canSeeSpace(req.caller, c.spaceKey);

/** The items the caller may see: the same array for the service account (no copy). */
export const visibleContent = (req: SandboxRequest, items: Content[]): Content[] =>
  req.caller.kind === "service" ? items : items.filter((c) => contentVisible(req, c));

export const visibleSpaces = (req: SandboxRequest, spaces: Space[]): Space[] =>
  req.caller.kind === "service" ? spaces : spaces.filter((s) => spaceVisible(req, s));

/** The account the caller's writes are by, and who "current user" is. */
export const actorId = (req: SandboxRequest, state: ConfluenceState): string => callerAccountId(req.caller, state.currentUserId);
