import { Router, type Request, type Response } from "express";
import { ChatSendSchema, ConversationRenameSchema, GenerateSystemMessageSchema, type ChatStreamEvent } from "../../../contract/chat";
import { sseFrame } from "../../mcp/live-streams";
import { toChatMessage, toChatProvider, toConversation } from "../../modules/chat/chat.presenter";
import type { ChatService, ChatUser } from "../../modules/chat/chat.service";
import { signedIn } from "../middleware/access";
import { uuidParam } from "../params";
import { parseInput } from "../validate";

const chatUser = (req: Request): ChatUser => ({ id: req.session!.user.id, permissions: req.session!.permissions });

/** Aborted when the client goes away before the answer is complete: Stop, a closed tab. */
function abortOnClose(req: Request, res: Response): AbortSignal {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  req.on("aborted", () => controller.abort());
  return controller.signal;
}

/** docs/decisions.md#roles-and-permissions: any signed-in active user may chat; conversations are their own (docs/decisions.md#chat-conversations). */
export function chatRoutes(deps: { chat: ChatService }): Router {
  const { chat } = deps;
  const router = Router();

  router.get("/chat/providers", signedIn, async (_req, res) => {
    res.json((await chat.listProviders()).map(toChatProvider));
  });

  /**
   * Spec §7: the answer is the assistant message (plus its conversation id, docs/decisions.md#chat-conversations). With
   * `Accept: text/event-stream` the same turn streams as events (contract/chat.ts ChatStreamEvent).
   */
  router.post("/chat/send", signedIn, async (req, res) => {
    const input = parseInput(ChatSendSchema, req.body);
    const signal = abortOnClose(req, res);
    const streaming = (req.headers.accept ?? "").includes("text/event-stream");
    if (!streaming) {
      res.json(await chat.reply(input, chatUser(req), { requestId: String(req.id), signal }));
      return;
    }

    let opened = false;
    const emit = (event: ChatStreamEvent) => {
      if (!opened) {
        res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
        res.flushHeaders();
        req.socket.setNoDelay(true);
        opened = true;
      }
      if (!res.writableEnded) res.write(sseFrame(event.type, event));
    };
    try {
      const { reply, outcome } = await chat.send(input, chatUser(req), { requestId: String(req.id), signal, onEvent: emit });
      if (reply) emit({ type: "done", message: reply });
      if (outcome.failure) emit({ type: "error", code: outcome.failure.code, message: outcome.failure.message });
    } catch (err) {
      // Before the stream opened (an unknown provider, another user's conversation): the house error body.
      if (!opened) throw err;
      req.log.error({ err }, "a chat turn failed after its stream opened");
      emit({ type: "error", code: "internal", message: "The reply failed unexpectedly. Try again." });
    }
    res.end();
  });

  router.post("/chat/generate-system-message", signedIn, async (req, res) => {
    const input = parseInput(GenerateSystemMessageSchema, req.body);
    res.json({ systemMessage: await chat.generateSystemMessage(input, abortOnClose(req, res)) });
  });

  router.get("/chat/conversations", signedIn, async (req, res) => {
    res.json((await chat.listConversations(chatUser(req).id)).map(toConversation));
  });

  router.get("/chat/conversations/:id", signedIn, async (req, res) => {
    const { conversation, messages } = await chat.conversation(uuidParam(req.params.id, "Conversation"), chatUser(req).id);
    res.json({ ...toConversation(conversation), messages: messages.map(toChatMessage) });
  });

  router.patch("/chat/conversations/:id", signedIn, async (req, res) => {
    const id = uuidParam(req.params.id, "Conversation");
    const { title } = parseInput(ConversationRenameSchema, req.body);
    res.json(toConversation(await chat.rename(id, chatUser(req).id, title)));
  });

  router.delete("/chat/conversations/:id", signedIn, async (req, res) => {
    await chat.remove(uuidParam(req.params.id, "Conversation"), chatUser(req).id);
    res.status(204).end();
  });

  return router;
}
