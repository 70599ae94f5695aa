import { GitBranch } from "lucide-react";
import { bitbucketConfigFormSchema, type BitbucketConfigDto, type BitbucketConfigForm, type Deployment } from "@contract/integrations";
import { useBitbucketConfig, useSaveBitbucketConfig, useTestBitbucket } from "@/api/integrations";
import { useBitbucketStatus } from "@/api/stats";
import { BitbucketReach } from "@/components/integration-reach";
import { useCan } from "@/hooks/use-permission";
import { BITBUCKET_BLANKS, bitbucketValues, bitbucketView, type BitbucketFormValues } from "../lib/bitbucket-fields";
import { IntegrationConfigCard, type IntegrationSpec } from "./integration-form";

/** Who the stored configuration connects as, from the status list (refetched after a test). */
function StoredBitbucketReach() {
  const canRead = useCan("stats.read");
  const status = useBitbucketStatus({ enabled: canRead });
  return <BitbucketReach status={status.data} />;
}

/** The deployment the last connection test found (Bitbucket's product), from the same status list. */
function useDetectedBitbucket(): Deployment | null {
  const canRead = useCan("stats.read");
  const status = useBitbucketStatus({ enabled: canRead });
  return status.data?.product?.deployment ?? null;
}

const BITBUCKET: IntegrationSpec<BitbucketConfigDto, BitbucketFormValues, BitbucketConfigForm> = {
  id: "bitbucket",
  icon: GitBranch,
  title: "Bitbucket Integration",
  description: "Bitbucket Cloud: the workspace whose repositories the MCP tools read.",
  formLabel: "Bitbucket configuration",
  values: bitbucketValues,
  view: bitbucketView,
  useDetected: useDetectedBitbucket,
  blanks: BITBUCKET_BLANKS,
  secret: { name: "appPassword", hintKey: "appPasswordHint" },
  activeDescription: "Bitbucket tools are offered and status is checked.",
  schema: bitbucketConfigFormSchema,
  useConfig: useBitbucketConfig,
  useSave: useSaveBitbucketConfig,
  useTest: useTestBitbucket,
  Reach: StoredBitbucketReach,
  // Cloud's API URL is the server's; on Data Center calls go to the base URL in the form.
  footer: (stored) =>
    stored?.apiUrl && stored.deployment === "cloud" ? (
      <p className="min-w-0">
        API URL <code className="wrap-anywhere font-mono text-foreground">{stored.apiUrl}</code> (BITBUCKET_API_URL on the server)
      </p>
    ) : undefined,
};

/** Bitbucket Integration (spec sections 2, 3 and 5): Bitbucket Cloud or Data Center (issue 28). */
export function BitbucketCard({ canWrite }: { canWrite: boolean }) {
  return <IntegrationConfigCard spec={BITBUCKET} canWrite={canWrite} />;
}
