import { byDeployment } from "./deployment";
import type { TargetProvider, UpstreamHttp } from "./http";
import { createJiraCloudClient } from "./jira-cloud.client";
import { createJiraDataCenterClient } from "./jira-dc.client";

export interface JiraUser {
  accountId: string;
  displayName: string;
  emailAddress?: string;
  active?: boolean;
}

export interface JiraIssue {
  id: string;
  key: string;
  self?: string;
  fields: Record<string, unknown>;
  transitions?: { id: string; name: string }[];
}

export interface JiraSearchPage {
  issues: JiraIssue[];
  nextPageToken?: string | null;
  isLast?: boolean;
}

export interface JiraComment {
  id: string;
  author?: JiraUser;
  body?: unknown;
  created?: string;
  updated?: string;
}

export interface JiraWorklog {
  id: string;
  author?: JiraUser;
  comment?: unknown;
  started?: string;
  timeSpent?: string;
  timeSpentSeconds?: number;
}

export interface JiraRemoteLink {
  id: number;
  globalId?: string;
  relationship?: string;
  application?: { name?: string; type?: string };
  object: { url: string; title: string; summary?: string };
}

export interface JiraVersion {
  id: string;
  name: string;
  description?: string;
  released?: boolean;
  archived?: boolean;
  releaseDate?: string;
  projectId?: number;
}

/** A field of a create or edit screen (createmeta, editmeta). */
export interface JiraFieldMeta {
  fieldId: string;
  key?: string;
  name: string;
  required: boolean;
  schema?: { type?: string; items?: string; system?: string; custom?: string; customId?: number };
  operations?: string[];
  allowedValues?: unknown[];
  hasDefaultValue?: boolean;
  autoCompleteUrl?: string;
}

export interface JiraBulkCreated {
  issues: { id: string; key: string; self?: string }[];
  errors: {
    status?: number;
    elementErrors?: { errorMessages?: string[]; errors?: Record<string, string> };
    failedElementNumber?: number;
  }[];
}

export interface JiraAttachment {
  id: string | number;
  filename: string;
  author?: JiraUser;
  created?: string;
  size: number;
  mimeType?: string;
  content?: string;
}

export interface JiraSprint {
  id: number;
  name: string;
  state: string;
  originBoardId?: number;
  goal?: string;
  startDate?: string;
  endDate?: string;
  completeDate?: string;
}

export interface StartAtPage {
  startAt?: number;
  maxResults?: number;
  total?: number;
  isLast?: boolean;
}

/** Jira's one client: the Cloud shape, or the Data Center one, as the call's target says. */
export function createJiraClient(http: UpstreamHttp, target: TargetProvider): JiraClient {
  return byDeployment<JiraClient>(
    target,
    { cloud: createJiraCloudClient(http, target), datacenter: createJiraDataCenterClient(http, target) },
    { searchAll: true, comments: true, projects: true, boards: true, sprints: true, sprintIssues: true },
  );
}

export type JiraClient = ReturnType<typeof createJiraCloudClient>;
