/**
 * Every toast the console shows, in one place: the specification's sentences (section 8) word for
 * word, and the few beyond it. Screens and tests read them from here.
 */
export const TOASTS = {
  users: {
    created: "User created successfully",
    updated: "User updated successfully",
    statusUpdated: "User status updated successfully",
    deleted: "User deleted successfully",
    rolesUpdated: "User roles updated successfully",
  },
  roles: {
    created: "Role created successfully",
    updated: "Role updated successfully",
    deleted: "Role deleted successfully",
  },
  oauthClients: {
    createdTitle: "Client created",
    created: "OAuth client has been created successfully.",
    deletedTitle: "Client deleted",
    deleted: "OAuth client has been deleted successfully.",
    copiedTitle: "Copied",
    copied: (what: string) => `${what} copied to clipboard.`,
    copyFailed: (what: string) => `Could not copy the ${what} to the clipboard. Select it and copy it by hand.`,
    activated: (name: string) => ({ title: "Client activated", description: `${name} can obtain tokens again.` }),
    deactivated: (name: string) => ({ title: "Client deactivated", description: `${name} gets no tokens and its tokens no longer work.` }),
    secretRegenerated: (name: string) => ({
      title: "Secret regenerated",
      description: `${name} has a new client secret; the old one no longer works.`,
    }),
    policySaved: (name: string) => ({ title: "Policy saved", description: `${name}'s tools follow the new policy from its next request.` }),
  },
  config: {
    savedTitle: "Configuration saved",
    atlassianSaved: "Atlassian configuration has been updated successfully.",
    bitbucketSaved: "Bitbucket configuration has been updated successfully.",
    testCompleted: "Connection test completed",
    atlassianTestFailed: "Connection test failed",
    bitbucketTestFailed: "Bitbucket connection test failed",
  },
  /** Spec section 8, word for word: the failure is the title, the server's reason its description. */
  aiProviders: {
    created: "AI provider created successfully",
    updated: "AI provider updated successfully",
    deleted: "AI provider deleted successfully",
    statusUpdated: "AI provider status updated",
    createFailed: "Failed to create AI provider",
    updateFailed: "Failed to update AI provider",
    deleteFailed: "Failed to delete AI provider",
    statusFailed: "Failed to update AI provider status",
  },
  session: {
    logoutFailedTitle: "Logout failed",
    logoutFailed: "The server did not end the session. Try again.",
  },
  connections: {
    endedTitle: "Connection ended",
    ended: (clientId: string) => `The stream of ${clientId} was closed.`,
  },
  logs: {
    exportFailedTitle: "Export failed",
  },
  /** Spec §8, the chat's toasts (and §5's "Configuration Required", kept in CHAT_TEXT). */
  chat: {
    sendFailed: "Failed to send message",
    generatedTitle: "System Message Generated",
    generated: "AI has created an optimized system message for your selected data sources",
    generationFailedTitle: "Generation Failed",
    generationFailed: "Failed to generate system message. Please try again.",
    appliedTitle: "Configuration Applied",
    applied: "Chat settings have been updated",
    renamed: "Conversation renamed",
    deleted: "Conversation deleted",
  },
  /** Spec section 8: every failure is a destructive toast titled "Error" with the server's message. */
  errorTitle: "Error",
} as const;
