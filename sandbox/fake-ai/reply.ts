import { countInputTokens, splitPieces, truncateToTokens, words } from "./tokens";
import type { FakeTurn, ParsedRequest, Reply } from "./types";

export type AnswerTurn = Extract<FakeTurn, { text: string }> | Extract<FakeTurn, { toolCalls: unknown }>;

export const isAnswer = (turn: FakeTurn): turn is AnswerTurn => "text" in turn || "toolCalls" in turn;

/**
 * Decides the reply to a turn, the same for every format: the text cut to the output bound the
 * client asked for (a real model stops there too, saying so in its finish reason), its streamed
 * pieces, and usage counted the fake's way (tokens.ts), so a test can predict it.
 */
export function buildReply(turn: AnswerTurn, request: ParsedRequest): Reply {
  const calls = "toolCalls" in turn ? turn.toolCalls : [];
  const bounded =
    calls.length > 0
      ? { text: turn.text ?? "", truncated: false }
      : truncateToTokens(turn.text ?? "", request.conversation.maxOutputTokens);
  const chunks = "chunks" in turn ? turn.chunks : undefined;
  const callTokens = calls.reduce((sum, c) => sum + countInputTokens(c.name + JSON.stringify(c.args)), 0);
  return {
    model: request.model,
    text: bounded.text,
    pieces: splitPieces(bounded.text, chunks),
    toolCalls: calls,
    finish: calls.length > 0 ? "tool-calls" : bounded.truncated ? "length" : "stop",
    usage: {
      inputTokens: countInputTokens(JSON.stringify(request.conversation)),
      outputTokens: Math.max(1, words(bounded.text).length + callTokens),
    },
  };
}
