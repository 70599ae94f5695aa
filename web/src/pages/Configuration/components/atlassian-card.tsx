import { Workflow } from "lucide-react";
import type { z } from "zod";
import { atlassianConfigFormSchema, type AtlassianConfigDto, type AtlassianConfigForm } from "@contract/integrations";
import { useAtlassianConfig, useSaveAtlassianConfig, useTestAtlassian } from "@/api/integrations";
import { useAtlassianStatus } from "@/api/stats";
import { AtlassianReach } from "@/components/integration-reach";
import { useCan } from "@/hooks/use-permission";
import { IntegrationConfigCard, type IntegrationSpec } from "./integration-form";

/** Who the stored configuration connects as, from the admin pages' status list (refetched after a test). */
function StoredAtlassianReach() {
  const canRead = useCan("stats.read");
  const status = useAtlassianStatus({ admin: true, enabled: canRead });
  return <AtlassianReach status={status.data} />;
}

const ATLASSIAN: IntegrationSpec<AtlassianConfigDto, z.input<ReturnType<typeof atlassianConfigFormSchema>>, AtlassianConfigForm> = {
  id: "atlassian",
  icon: Workflow,
  title: "Atlassian Integration",
  description: "Jira and Confluence Cloud: the site the MCP tools and the proxy call.",
  formLabel: "Atlassian configuration",
  fields: [
    { name: "instanceUrl", label: "Instance URL", type: "url", placeholder: "https://your-company.atlassian.net" },
    { name: "email", label: "Email or username", placeholder: "you@example.com", autoComplete: "username" },
  ],
  secret: {
    name: "apiToken",
    label: "API token",
    hintKey: "apiTokenHint",
    storedNoun: "A token",
    howTo: "Create one in your Atlassian account: Security, API tokens.",
  },
  activeDescription: "Jira and Confluence tools are offered and status is checked.",
  schema: atlassianConfigFormSchema,
  useConfig: useAtlassianConfig,
  useSave: useSaveAtlassianConfig,
  useTest: useTestAtlassian,
  Reach: StoredAtlassianReach,
};

/** Atlassian Integration (spec sections 2, 3 and 5): Jira and Confluence Cloud. */
export function AtlassianCard({ canWrite }: { canWrite: boolean }) {
  return <IntegrationConfigCard spec={ATLASSIAN} canWrite={canWrite} />;
}
