import { Workflow } from "lucide-react";
import { atlassianConfigFormSchema, type AtlassianConfigDto, type AtlassianConfigForm, type Deployment } from "@contract/integrations";
import { useAtlassianConfig, useSaveAtlassianConfig, useTestAtlassian } from "@/api/integrations";
import { useAtlassianStatus } from "@/api/stats";
import { AtlassianReach } from "@/components/integration-reach";
import { useCan } from "@/hooks/use-permission";
import { ATLASSIAN_BLANKS, atlassianValues, atlassianView, type AtlassianFormValues } from "../lib/atlassian-fields";
import { IntegrationConfigCard, type IntegrationSpec } from "./integration-form";

/** Who the stored configuration connects as, from the admin pages' status list (refetched after a test). */
function StoredAtlassianReach() {
  const canRead = useCan("stats.read");
  const status = useAtlassianStatus({ admin: true, enabled: canRead });
  return <AtlassianReach status={status.data} />;
}

/** The deployment the last connection test found (Jira's product), from the same status list. */
function useDetectedAtlassian(): Deployment | null {
  const canRead = useCan("stats.read");
  const status = useAtlassianStatus({ admin: true, enabled: canRead });
  return status.data?.jiraProduct?.deployment ?? null;
}

const ATLASSIAN: IntegrationSpec<AtlassianConfigDto, AtlassianFormValues, AtlassianConfigForm> = {
  id: "atlassian",
  icon: Workflow,
  title: "Atlassian Integration",
  description: "Jira and Confluence Cloud: the site the MCP tools and the proxy call.",
  formLabel: "Atlassian configuration",
  values: atlassianValues,
  view: atlassianView,
  useDetected: useDetectedAtlassian,
  blanks: ATLASSIAN_BLANKS,
  secret: { name: "apiToken", hintKey: "apiTokenHint" },
  activeDescription: "Jira and Confluence tools are offered and status is checked.",
  schema: atlassianConfigFormSchema,
  useConfig: useAtlassianConfig,
  useSave: useSaveAtlassianConfig,
  useTest: useTestAtlassian,
  Reach: StoredAtlassianReach,
};

/** Atlassian Integration (spec sections 2, 3 and 5): Jira and Confluence, Cloud or Data Center (issue 28). */
export function AtlassianCard({ canWrite }: { canWrite: boolean }) {
  return <IntegrationConfigCard spec={ATLASSIAN} canWrite={canWrite} />;
}
