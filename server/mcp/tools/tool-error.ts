/**
 * A failure a tool explains itself (an unknown transition name, nothing to change): it becomes a
 * tool result with `isError` and this sentence, which says what to do instead.
 */
export class ToolError extends Error {
  override name = "ToolError";
  /**
   * Set when the failure, though handled, means something went wrong that should not have (a
   * search answered outside the client's allow-list): callTool also logs it as a warning.
   */
  readonly warning: { event: string; details: Record<string, unknown> } | undefined;
  constructor(message: string, warning?: { event: string; details: Record<string, unknown> }) {
    super(message);
    this.warning = warning;
  }
}
