import { byDeployment } from "./deployment";
import type { TargetProvider, UpstreamHttp } from "./http";
import { createConfluenceCloudClient } from "./confluence-cloud.client";
import { createConfluenceDataCenterClient } from "./confluence-dc.client";
export { confluenceNextUrl } from "./confluence-cloud.client";

export interface ConfluenceSpace {
  id: string | number;
  key: string;
  name: string;
}

export interface ConfluencePage {
  id: string;
  title: string;
  spaceId?: string;
  parentId?: string | null;
  status?: string;
  version?: { number: number };
  body?: { storage?: { value: string; representation: string } };
}

/** A v2 listing page: its items and the upstream cursor of the next page (null on the last). */
export interface CursorPage<T> {
  results: T[];
  nextCursor: string | null;
}

export interface ConfluenceVersion {
  number: number;
  authorId?: string;
  createdAt?: string;
  message?: string;
  minorEdit?: boolean;
}

export interface ConfluenceComment {
  id: string;
  status?: string;
  pageId?: string;
  parentCommentId?: string;
  version?: ConfluenceVersion;
  body?: { storage?: { value: string } };
  resolutionStatus?: string;
  properties?: { inlineMarkerRef?: string; inlineOriginalSelection?: string };
  _links?: { webui?: string };
}

export interface ConfluenceAttachment {
  id: string;
  title: string;
  mediaType?: string;
  fileSize?: number;
  comment?: string;
  createdAt?: string;
  pageId?: string;
  webuiLink?: string;
  downloadLink?: string;
  version?: ConfluenceVersion;
  _links?: { webui?: string; download?: string };
}

export type CommentKind = "footer" | "inline";

export interface Links {
  _links?: { next?: string; base?: string };
}

/** Confluence's one client: the Cloud shape, or the Data Center one, as the call's target says. */
export function createConfluenceClient(http: UpstreamHttp, target: TargetProvider): ConfluenceClient {
  const cloud = createConfluenceCloudClient(http, target);
  return byDeployment<ConfluenceClient>(
    target,
    { cloud, datacenter: createConfluenceDataCenterClient(http, target) },
    { spaces: true, pagesInSpace: true, ancestors: true, children: true, searchAll: true, descendants: true, commentReplies: true },
  );
}

export type ConfluenceClient = ReturnType<typeof createConfluenceCloudClient>;
