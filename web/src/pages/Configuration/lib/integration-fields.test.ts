import { describe, expect, it } from "vitest";
import {
  atlassianConfigFormSchema,
  bitbucketConfigFormSchema,
  cloudUrlForDataCenter,
  INTEGRATION_MESSAGES,
  type AtlassianConfigDto,
  type BitbucketConfigDto,
} from "@contract/integrations";
import { ATLASSIAN_BLANKS, atlassianValues, atlassianView, type AtlassianFormValues } from "./atlassian-fields";
import { BITBUCKET_BLANKS, bitbucketValues, bitbucketView, type BitbucketFormValues } from "./bitbucket-fields";
import { shownDeployment, withHiddenBlank, type FormView } from "./integration-fields";

const atlassianStored = (over: Partial<AtlassianConfigDto> = {}): AtlassianConfigDto => ({
  configured: true,
  deploymentChoice: "auto",
  deployment: "cloud",
  instanceUrl: "https://acme.atlassian.net",
  confluenceUrl: "",
  authMethod: "basic",
  confluenceTokenHint: null,
  email: "ops@acme.com",
  isActive: true,
  apiTokenHint: "abcd",
  updatedAt: "2026-11-25T12:00:00.000Z",
  ...over,
});

const bitbucketStored = (over: Partial<BitbucketConfigDto> = {}): BitbucketConfigDto => ({
  configured: true,
  deploymentChoice: "auto",
  deployment: "cloud",
  baseUrl: "",
  authMethod: "basic",
  workspace: "acme",
  username: "ops",
  isActive: true,
  appPasswordHint: "wxyz",
  apiUrl: "https://api.bitbucket.org/2.0",
  updatedAt: "2026-11-25T12:00:00.000Z",
  ...over,
});

const atlassian = (over: Partial<AtlassianFormValues> = {}): AtlassianFormValues => ({ ...atlassianValues(null), ...over });
const bitbucket = (over: Partial<BitbucketFormValues> = {}): BitbucketFormValues => ({ ...bitbucketValues(null), ...over });
/** What a view shows: "label (name)" per field, then the secret's label. */
const shows = (view: FormView<string>) => [...view.fields.map((f) => `${f.label} (${f.name})`), `secret: ${view.secret.label}`];

describe("a new form", () => {
  it("starts on Detect automatically, Basic and Active, everything blank", () => {
    expect(atlassianValues(null)).toEqual({
      deployment: "auto",
      instanceUrl: "",
      confluenceUrl: "",
      authMethod: "basic",
      email: "",
      apiToken: "",
      confluenceToken: "",
      isActive: true,
    });
    expect(bitbucketValues(undefined)).toEqual({
      deployment: "auto",
      baseUrl: "",
      workspace: "",
      authMethod: "basic",
      username: "",
      appPassword: "",
      isActive: true,
    });
  });

  it("shows today's Cloud fields and texts, saying it looks like Cloud", () => {
    const a = atlassianView(atlassian());
    expect(shows(a)).toEqual(["Instance URL (instanceUrl)", "Email or username (email)", "secret: API token"]);
    expect(a.secret).toEqual({
      label: "API token",
      storedNoun: "A token",
      howTo: "Create one in your Atlassian account: Security, API tokens.",
    });
    expect(a.shown).toEqual({ deployment: "cloud", note: "Looks like Cloud: the test will confirm it." });
    const b = bitbucketView(bitbucket());
    expect(shows(b)).toEqual(["Workspace (workspace)", "Username (username)", "secret: App password"]);
    expect(b.secret.storedNoun).toBe("An app password");
  });
});

describe("a stored config", () => {
  it("fills the form, its secret blank, its choice as stored", () => {
    const stored = atlassianStored({ deploymentChoice: "datacenter", deployment: "datacenter", confluenceUrl: "https://wiki.acme.com" });
    expect(atlassianValues(stored)).toMatchObject({ deployment: "datacenter", confluenceUrl: "https://wiki.acme.com", apiToken: "" });
    expect(atlassianValues(atlassianStored({ isActive: false })).isActive).toBe(false);
    expect(bitbucketValues(bitbucketStored({ authMethod: "token", deployment: "datacenter" }))).toMatchObject({ authMethod: "token" });
  });
});

describe("Data Center fields", () => {
  it("Atlassian: Jira's and Confluence's base URLs and the sign-in; a token needs no username", () => {
    const token = atlassianView(atlassian({ deployment: "datacenter", authMethod: "token" }));
    expect(token.shown).toEqual({ deployment: "datacenter", note: null });
    expect(shows(token)).toEqual([
      "Jira base URL (instanceUrl)",
      "Confluence base URL (confluenceUrl)",
      "Sign in with (authMethod)",
      "secret: Personal access token",
    ]);
    expect(token.fields[0]).toMatchObject({ type: "url", placeholder: "https://jira.example.com" });
    expect(token.fields[2]).toMatchObject({
      kind: "choice",
      options: [
        { value: "token", label: "Personal access token" },
        { value: "basic", label: "Username and password" },
      ],
    });
    expect(token.secret.howTo).toContain("Profile → Personal Access Tokens");

    const basic = atlassianView(atlassian({ deployment: "datacenter", authMethod: "basic" }));
    expect(shows(basic)).toEqual([
      "Jira base URL (instanceUrl)",
      "Confluence base URL (confluenceUrl)",
      "Sign in with (authMethod)",
      "Username (email)",
      "secret: Password",
    ]);
    expect(basic.secret.storedNoun).toBe("A password");
  });

  it("Bitbucket: its base URL, the default project and the sign-in", () => {
    const token = bitbucketView(bitbucket({ deployment: "datacenter", authMethod: "token" }));
    expect(shows(token)).toEqual([
      "Bitbucket base URL (baseUrl)",
      "Default project (workspace)",
      "Sign in with (authMethod)",
      "secret: Access token",
    ]);
    expect(token.fields[1]).toMatchObject({ placeholder: "PLAT" });
    expect(shows(bitbucketView(bitbucket({ deployment: "datacenter" })))).toEqual([
      "Bitbucket base URL (baseUrl)",
      "Default project (workspace)",
      "Sign in with (authMethod)",
      "Username (username)",
      "secret: Password",
    ]);
  });

  it("Cloud chosen shows Cloud's fields whatever else was typed", () => {
    const view = atlassianView(atlassian({ deployment: "cloud", confluenceUrl: "https://wiki.acme.com", authMethod: "token" }));
    expect(shows(view)).toEqual(["Instance URL (instanceUrl)", "Email or username (email)", "secret: API token"]);
    expect(view.shown.note).toBeNull();
  });
});

describe("Detect automatically", () => {
  it("shows what the entries point to, as the server guesses it", () => {
    expect(atlassianView(atlassian({ confluenceUrl: "https://wiki.acme.com" })).shown).toEqual({
      deployment: "datacenter",
      note: "Looks like Data Center: the test will confirm it.",
    });
    expect(atlassianView(atlassian({ authMethod: "token" })).shown.deployment).toBe("datacenter");
    // An Atlassian Cloud address is Cloud, whatever else.
    expect(
      atlassianView(atlassian({ instanceUrl: "https://acme.atlassian.net", confluenceUrl: "https://wiki.acme.com" })).shown.deployment,
    ).toBe("cloud");
    expect(bitbucketView(bitbucket({ baseUrl: "https://git.acme.com" })).shown.deployment).toBe("datacenter");
    expect(bitbucketView(bitbucket({ baseUrl: "https://bitbucket.org" })).shown.deployment).toBe("cloud");
  });

  it("shows the deployment the last test detected while the entries are the stored ones", () => {
    // Saved as a guess of Cloud; the test found Jira Data Center.
    const stored = atlassianStored({ instanceUrl: "https://jira.acme.com", email: "ops", deployment: "datacenter" });
    const view = atlassianView(atlassianValues(stored), stored);
    expect(view.shown).toEqual({ deployment: "datacenter", note: "Detected by the last connection test: Data Center." });
    expect(shows(view)).toContain("Username (email)");
    // A trailing slash is the same address.
    expect(atlassianView({ ...atlassianValues(stored), instanceUrl: "https://jira.acme.com/" }, stored).shown.deployment).toBe(
      "datacenter",
    );
    // Another address is guessed afresh.
    expect(atlassianView({ ...atlassianValues(stored), instanceUrl: "https://acme.atlassian.net" }, stored).shown.deployment).toBe("cloud");
  });

  it("says the last test confirmed the guess when its product is of the stored deployment", () => {
    const stored = atlassianStored();
    expect(atlassianView(atlassianValues(stored), stored, "cloud").shown).toEqual({
      deployment: "cloud",
      note: "Detected by the last connection test: Cloud.",
    });
    // Not yet tested, or tested before a change of the entries: still a guess.
    expect(atlassianView(atlassianValues(stored), stored, null).shown.note).toBe("Looks like Cloud: the test will confirm it.");
    expect(atlassianView({ ...atlassianValues(stored), email: "other" }, stored, "cloud").shown.note).toBe(
      "Detected by the last connection test: Cloud.",
    );
    expect(atlassianView({ ...atlassianValues(stored), confluenceUrl: "https://wiki.acme.com" }, stored, "cloud").shown.note).toBe(
      "Looks like Cloud: the test will confirm it.",
    );
    const bb = bitbucketStored({ baseUrl: "https://git.acme.com", deployment: "datacenter" });
    expect(bitbucketView(bitbucketValues(bb), bb, "datacenter").shown).toEqual({
      deployment: "datacenter",
      note: "Detected by the last connection test: Data Center.",
    });
  });

  it("does not claim a detection for a deployment that was chosen", () => {
    const stored = atlassianStored({ instanceUrl: "https://jira.acme.com", deploymentChoice: "datacenter", deployment: "datacenter" });
    expect(atlassianView({ ...atlassianValues(stored), deployment: "auto" }, stored).shown).toEqual({
      deployment: "cloud",
      note: "Looks like Cloud: the test will confirm it.",
    });
    expect(shownDeployment("bitbucket", { choice: "auto", authMethod: "basic" }, null).deployment).toBe("cloud");
  });
});

describe("switching deployment", () => {
  it("keeps what was typed in the form, and sends a hidden field blank", () => {
    const typed = atlassian({
      deployment: "datacenter",
      instanceUrl: "https://jira.acme.com",
      confluenceUrl: "https://wiki.acme.com",
      authMethod: "token",
      apiToken: "pat",
    });
    // Switched to Cloud: the Confluence URL and the token sign-in are not sent, nor checked.
    const cloud = { ...typed, deployment: "cloud" as const };
    const sent = withHiddenBlank(cloud, atlassianView(cloud), ATLASSIAN_BLANKS);
    expect(sent).toEqual({ ...cloud, confluenceUrl: "", authMethod: "basic" });
    expect(cloud.confluenceUrl).toBe("https://wiki.acme.com");
    // Back on Data Center with a token: no username is sent, and Confluence's own token is.
    expect(withHiddenBlank({ ...typed, email: "ops" }, atlassianView(typed), ATLASSIAN_BLANKS).email).toBe("");
    expect(atlassianView(typed).extraSecret?.label).toBe("Confluence personal access token");
    expect(withHiddenBlank({ ...typed, confluenceToken: "conf" }, atlassianView(typed), ATLASSIAN_BLANKS).confluenceToken).toBe("conf");
    // Without Confluence, no Confluence token is asked for, nor sent.
    const noConfluence = { ...typed, confluenceUrl: "", confluenceToken: "conf" };
    expect(atlassianView(noConfluence).extraSecret).toBeUndefined();
    expect(withHiddenBlank(noConfluence, atlassianView(noConfluence), ATLASSIAN_BLANKS).confluenceToken).toBe("");

    const bb = bitbucket({ deployment: "cloud", baseUrl: "https://git.acme.com", authMethod: "token", workspace: "acme", username: "ops" });
    expect(withHiddenBlank(bb, bitbucketView(bb), BITBUCKET_BLANKS)).toEqual({ ...bb, baseUrl: "", authMethod: "basic" });
  });

  it("what is sent passes the form schema, or fails with the contract's message on a shown field", () => {
    const schema = atlassianConfigFormSchema(false);
    const dc = atlassian({ deployment: "datacenter", instanceUrl: "https://jira.acme.com", authMethod: "token", apiToken: "pat" });
    expect(schema.safeParse(withHiddenBlank(dc, atlassianView(dc), ATLASSIAN_BLANKS)).success).toBe(true);
    const cloudUrl = { ...dc, instanceUrl: "https://acme.atlassian.net" };
    const refused = schema.safeParse(withHiddenBlank(cloudUrl, atlassianView(cloudUrl), ATLASSIAN_BLANKS));
    expect(refused.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["instanceUrl", cloudUrlForDataCenter("acme.atlassian.net", "Jira")],
    ]);
    // Cloud with a token left over from Data Center: sent as Basic, so only the email is asked for.
    const cloud = { ...dc, deployment: "cloud" as const };
    const cloudSent = schema.safeParse(withHiddenBlank(cloud, atlassianView(cloud), ATLASSIAN_BLANKS));
    expect(cloudSent.error?.issues.map((i) => i.message)).toEqual([INTEGRATION_MESSAGES.email]);

    const bbSchema = bitbucketConfigFormSchema(true);
    const bb = bitbucket({ deployment: "datacenter", authMethod: "token" });
    const bbRefused = bbSchema.safeParse(withHiddenBlank(bb, bitbucketView(bb), BITBUCKET_BLANKS));
    expect(bbRefused.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["baseUrl", INTEGRATION_MESSAGES.baseUrl]]);
  });
});
