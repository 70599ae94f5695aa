import { useEffect } from "react";

/** Sets the browser tab's title: "Users · Bridgekeeper", or just "Bridgekeeper". */
export function useDocumentTitle(pageTitle?: string): void {
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · Bridgekeeper` : "Bridgekeeper";
  }, [pageTitle]);
}
