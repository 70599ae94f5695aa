import { Bot, Database, History, Settings2 } from "lucide-react";
import { useState } from "react";
import { useMyAccounts } from "@/api/accounts";
import { CHAT_TEXT, DATA_SOURCE_KEYS } from "@contract/chat";
import { TOASTS } from "@contract/messages";
import { useChatProviders } from "@/api/chat";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { useReturnFocus } from "@/hooks/use-return-focus";
import { toast } from "@/hooks/use-toast";
import { CHAT_INPUT_ID, ChatComposer } from "./components/chat-composer";
import { ChatConfigDialog } from "./components/chat-config-dialog";
import { AccountLinkWarnings } from "./components/account-link-warnings";
import { ChatEmptyState } from "./components/chat-empty-state";
import { ConversationList } from "./components/conversation-list";
import { MessageList } from "./components/message-list";
import { sourcesBadgeText } from "./lib/chat-format";
import { useChatSession, type ChatConfig } from "./use-chat-session";

/** Spec §9: all three data sources and an empty system message; the provider is chosen on load (§4). */
const DEFAULT_CONFIG: ChatConfig = { providerId: null, sources: [...DATA_SOURCE_KEYS], systemMessage: "" };

/**
 * AI Chat Assistant (spec §2, §4, §5, §8; docs/decisions.md#chat-conversations; issue 13): a
 * conversation with the assistant over the enterprise data, streamed as it is written, with the
 * user's conversation list beside it.
 */
export default function ChatPage() {
  const providers = useChatProviders();
  const [config, setConfig] = useState<ChatConfig>(DEFAULT_CONFIG);
  const [configOpen, setConfigOpen] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const chat = useChatSession();
  // Where an integration answers as each person, the chat uses the signed-in person's own link (issue 27).
  const myAccounts = useMyAccounts();
  // When the opener is gone (the empty state's "Set up configuration" once the chat is ready),
  // focus goes to the message box.
  const configFocus = useReturnFocus(() => document.getElementById(CHAT_INPUT_ID));
  const openConfig = () => {
    configFocus.remember();
    setConfigOpen(true);
  };

  const active = providers.data ?? [];
  // Spec §4: the first active provider is used while none is chosen (or the chosen one is no
  // longer active).
  const provider = active.find((p) => p.id === config.providerId) ?? active[0] ?? null;
  const inUse: ChatConfig = { ...config, providerId: provider?.id ?? null };

  const ready = provider !== null && config.sources.length > 0;
  const openConversation = (id: string) => {
    setListOpen(false);
    void chat.open(id).then((detail) => {
      // The conversation goes on with the provider it was held with, when that one is still active.
      const held = detail?.providerId;
      if (held && held !== inUse.providerId && active.some((p) => p.id === held)) setConfig((c) => ({ ...c, providerId: held }));
    });
  };
  const newChat = () => {
    setListOpen(false);
    chat.newChat();
  };

  const list = (
    <ConversationList
      activeId={chat.sessionId}
      onOpen={openConversation}
      onNew={newChat}
      onDeleted={(id) => id === chat.sessionId && chat.newChat()}
      className="h-full"
    />
  );

  return (
    <div className="flex h-[calc(100dvh-6.5rem)] min-h-[30rem] flex-col gap-4 sm:h-[calc(100dvh-7.5rem)] md:h-[calc(100dvh-4rem)]">
      <PageHeader
        title={CHAT_TEXT.title}
        description={CHAT_TEXT.subtitle}
        actions={
          <>
            {providers.isLoading ? (
              <Skeleton className="h-6 w-40" />
            ) : (
              <div className="flex flex-wrap items-center gap-2" aria-label="Chat settings in use">
                <Badge variant={provider ? "secondary" : "warning"}>
                  <Bot aria-hidden="true" />
                  {provider ? provider.name : "No provider"}
                </Badge>
                <Badge variant={config.sources.length > 0 ? "secondary" : "warning"}>
                  <Database aria-hidden="true" />
                  {sourcesBadgeText(config.sources.length)}
                </Badge>
              </div>
            )}
            <Button
              variant="outline"
              className="lg:hidden"
              onClick={() => setListOpen((o) => !o)}
              aria-expanded={listOpen}
              aria-controls="chat-conversations-phone"
            >
              <History aria-hidden="true" />
              Conversations
            </Button>
            <Button variant="outline" onClick={openConfig}>
              <Settings2 aria-hidden="true" />
              {CHAT_TEXT.configure}
            </Button>
          </>
        }
      />

      <AccountLinkWarnings my={myAccounts.data} sources={config.sources} />

      <div className="flex min-h-0 flex-1 gap-4">
        <Card className="hidden w-72 shrink-0 overflow-hidden p-0 lg:flex lg:flex-col">{list}</Card>
        <div className="relative flex min-h-0 min-w-0 flex-1 flex-col">
          {listOpen && (
            <Card
              id="chat-conversations-phone"
              className="absolute inset-x-0 top-0 z-20 max-h-[70%] overflow-hidden p-0 shadow-lg lg:hidden"
              onKeyDown={(event) => {
                // Escape closes the list, as it would a menu; menus and dialogs inside handle their own.
                if (event.key === "Escape" && !event.defaultPrevented) setListOpen(false);
              }}
            >
              {list}
            </Card>
          )}
          <Card className="flex min-h-0 flex-1 flex-col overflow-hidden p-0">
            {chat.opening ? (
              <div className="flex-1 space-y-4 p-5" aria-label="Loading the conversation">
                <Skeleton className="ml-auto h-10 w-2/3" />
                <Skeleton className="h-24 w-3/4" />
              </div>
            ) : (
              <MessageList
                messages={chat.messages}
                draft={chat.draft}
                empty={
                  <ChatEmptyState
                    providers={providers}
                    provider={provider}
                    ready={ready}
                    onSetUp={openConfig}
                    onAsk={(text) => void chat.send(text, inUse)}
                  />
                }
              />
            )}
            <ChatComposer disabled={!ready} awaiting={chat.awaiting} onSend={(text) => void chat.send(text, inUse)} onStop={chat.stop} />
          </Card>
        </div>
      </div>

      <ChatConfigDialog
        open={configOpen}
        onOpenChange={setConfigOpen}
        providers={active}
        config={inUse}
        onCloseAutoFocus={configFocus.onCloseAutoFocus}
        onApply={(next) => {
          setConfig(next);
          setConfigOpen(false);
          toast({ title: TOASTS.chat.appliedTitle, description: TOASTS.chat.applied });
        }}
      />
    </div>
  );
}
