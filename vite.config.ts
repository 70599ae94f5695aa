import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The console is built into dist/web and served by the Node server from the same origin as the API.
export default defineConfig({
  root: fromRoot("./web"),
  publicDir: fromRoot("./web/public"),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      "@contract": fromRoot("./contract"),
      "@": fromRoot("./web/src"),
    },
  },
  build: {
    outDir: fromRoot("./dist/web"),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
});
