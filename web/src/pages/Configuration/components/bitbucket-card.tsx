import { GitBranch } from "lucide-react";
import type { z } from "zod";
import { bitbucketConfigFormSchema, type BitbucketConfigDto, type BitbucketConfigForm } from "@contract/integrations";
import { useBitbucketConfig, useSaveBitbucketConfig, useTestBitbucket } from "@/api/integrations";
import { useBitbucketStatus } from "@/api/stats";
import { BitbucketReach } from "@/components/integration-reach";
import { useCan } from "@/hooks/use-permission";
import { IntegrationConfigCard, type IntegrationSpec } from "./integration-form";

/** Who the stored configuration connects as, from the status list (refetched after a test). */
function StoredBitbucketReach() {
  const canRead = useCan("stats.read");
  const status = useBitbucketStatus({ enabled: canRead });
  return <BitbucketReach status={status.data} />;
}

const BITBUCKET: IntegrationSpec<BitbucketConfigDto, z.input<ReturnType<typeof bitbucketConfigFormSchema>>, BitbucketConfigForm> = {
  id: "bitbucket",
  icon: GitBranch,
  title: "Bitbucket Integration",
  description: "Bitbucket Cloud: the workspace whose repositories the MCP tools read.",
  formLabel: "Bitbucket configuration",
  fields: [
    { name: "workspace", label: "Workspace", placeholder: "your-workspace" },
    { name: "username", label: "Username", autoComplete: "username" },
  ],
  secret: {
    name: "appPassword",
    label: "App password",
    hintKey: "appPasswordHint",
    storedNoun: "An app password",
    // Bitbucket retired app passwords in 2026: an Atlassian API token with Bitbucket scopes takes their place.
    howTo:
      "Bitbucket replaced app passwords with API tokens: create an Atlassian API token with Bitbucket scopes (repositories and pull requests) and enter your Atlassian email as the username. An existing app password also works.",
  },
  activeDescription: "Bitbucket tools are offered and status is checked.",
  schema: bitbucketConfigFormSchema,
  useConfig: useBitbucketConfig,
  useSave: useSaveBitbucketConfig,
  useTest: useTestBitbucket,
  Reach: StoredBitbucketReach,
  footer: (stored) =>
    stored?.apiUrl ? (
      <p className="min-w-0">
        API URL <code className="wrap-anywhere font-mono text-foreground">{stored.apiUrl}</code> (BITBUCKET_API_URL on the server)
      </p>
    ) : undefined,
};

/** Bitbucket Integration (spec sections 2, 3 and 5): Bitbucket Cloud. */
export function BitbucketCard({ canWrite }: { canWrite: boolean }) {
  return <IntegrationConfigCard spec={BITBUCKET} canWrite={canWrite} />;
}
