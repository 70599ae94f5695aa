import { BrainCircuit } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

/** AI Providers (AiProviders). The screen's body arrives with a later release; until then it says so plainly. */
export default function AiProvidersPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="AI Providers" description="Connect the OpenAI, Anthropic and Google models that power the chat assistant" />
      <EmptyState
        icon={BrainCircuit}
        title="This screen arrives with a later release."
        description="It will let you add, edit, activate and remove AI providers and choose their models."
      />
    </div>
  );
}
