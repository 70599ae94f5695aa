import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { queryClient } from "@/api/query-client";
import { ToastHost } from "@/components/layout/toast-host";
import { initTheme } from "@/lib/theme";
import { AppRouter } from "@/router";
import "@/index.css";

initTheme();

const root = document.getElementById("root");
if (!root) throw new Error("Bridgekeeper: the #root element is missing from index.html");

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AppRouter />
      <ToastHost />
    </QueryClientProvider>
  </StrictMode>,
);
