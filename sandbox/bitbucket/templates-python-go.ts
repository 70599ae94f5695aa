import { changelog, pascal, readme, snake, type RepoInfo } from "./templates-shared";

/** A small Python (FastAPI) service and a small Go (chi) service. */
export function pythonTree(r: RepoInfo): Record<string, string> {
  const pkg = snake(r.slug);
  const R = pascal(r.resource);
  const s = snake(r.resource);
  return {
    "README.md": readme(r, "pip install -e '.[dev]'", `python -m ${pkg}.main`),
    "CHANGELOG.md": changelog(r),
    ".gitignore": "__pycache__/\n*.pyc\n.venv/\ndist/\n.pytest_cache/\n",
    "pyproject.toml": `[project]
name = "${r.slug}"
version = "0.9.2"
description = "${r.description}"
requires-python = ">=3.11"
dependencies = [
    "fastapi>=0.115",
    "pydantic>=2.9",
    "httpx>=0.27",
]

[project.optional-dependencies]
dev = ["pytest>=8.3", "ruff>=0.7"]

[tool.ruff]
line-length = 100
`,
    [`src/${pkg}/__init__.py`]: `"""${r.name}: ${r.description}"""

__version__ = "0.9.2"
`,
    [`src/${pkg}/config.py`]: `import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    port: int = ${r.port}
    log_level: str = "info"
    cache_ttl_seconds: int = 300
    request_timeout_seconds: float = 5.0


def load_settings() -> Settings:
    return Settings(
        port=int(os.environ.get("PORT", "${r.port}")),
        log_level=os.environ.get("LOG_LEVEL", "info"),
        cache_ttl_seconds=int(os.environ.get("${s.toUpperCase()}_CACHE_TTL", "300")),
    )
`,
    [`src/${pkg}/main.py`]: `import logging

from fastapi import FastAPI, HTTPException

from .config import load_settings
from .${s} import ${R}Repository

settings = load_settings()
logging.basicConfig(level=settings.log_level.upper())
log = logging.getLogger("${r.slug}")

app = FastAPI(title="${r.name}")
repository = ${R}Repository(ttl=settings.cache_ttl_seconds)


@app.get("/health")
def health_check() -> dict:
    return {"status": "ok"}


@app.get("/${s}s/{item_id}")
def get_${s}(item_id: str) -> dict:
    item = repository.get(item_id)
    if item is None:
        log.info("${s} %s not found", item_id)
        raise HTTPException(status_code=404, detail="${R} not found")
    return item
`,
    [`src/${pkg}/${s}.py`]: `import time
from typing import Optional


class ${R}Repository:
    """Keeps recently read ${s} records in memory for \`ttl\` seconds."""

    def __init__(self, ttl: int = 300) -> None:
        self.ttl = ttl
        self._items: dict[str, tuple[float, dict]] = {}

    def get(self, item_id: str) -> Optional[dict]:
        entry = self._items.get(item_id)
        if entry is None:
            return None
        stored_at, value = entry
        if time.monotonic() - stored_at > self.ttl:
            del self._items[item_id]
            return None
        return value

    def put(self, item_id: str, value: dict) -> None:
        self._items[item_id] = (time.monotonic(), value)
`,
    [`tests/test_${s}.py`]: `from ${pkg}.${s} import ${R}Repository


def test_put_then_get():
    repo = ${R}Repository(ttl=60)
    repo.put("a1", {"id": "a1"})
    assert repo.get("a1") == {"id": "a1"}


def test_missing_returns_none():
    assert ${R}Repository().get("nope") is None
`,
  };
}

export function goTree(r: RepoInfo): Record<string, string> {
  const R = pascal(r.resource);
  const module = `bitbucket.org/bridgekeeper/${r.slug}`;
  return {
    "README.md": readme(r, "go mod download", `go run ./cmd/${r.slug}`),
    "CHANGELOG.md": changelog(r),
    ".gitignore": "bin/\n*.test\ncoverage.out\n",
    Makefile: `.PHONY: build test lint

build:
\tgo build -o bin/${r.slug} ./cmd/${r.slug}

test:
\tgo test ./...

lint:
\tgolangci-lint run
`,
    "go.mod": `module ${module}

go 1.23

require (
\tgithub.com/go-chi/chi/v5 v5.1.0
\tgo.uber.org/zap v1.27.0
)
`,
    [`cmd/${r.slug}/main.go`]: `package main

import (
\t"log"
\t"net/http"

\t"${module}/internal/config"
\t"${module}/internal/server"
)

func main() {
\tcfg := config.Load()
\tsrv := server.New(cfg)
\tlog.Printf("${r.slug} listening on :%d", cfg.Port)
\tif err := http.ListenAndServe(cfg.Addr(), srv); err != nil {
\t\tlog.Fatal(err)
\t}
}
`,
    "internal/config/config.go": `package config

import (
\t"fmt"
\t"os"
\t"strconv"
\t"time"
)

type Config struct {
\tPort           int
\tCacheTTL       time.Duration
\tRequestTimeout time.Duration
}

func (c Config) Addr() string { return fmt.Sprintf(":%d", c.Port) }

func Load() Config {
\tport, err := strconv.Atoi(os.Getenv("PORT"))
\tif err != nil {
\t\tport = ${r.port}
\t}
\treturn Config{Port: port, CacheTTL: 300 * time.Second, RequestTimeout: 5 * time.Second}
}
`,
    "internal/server/server.go": `package server

import (
\t"encoding/json"
\t"net/http"

\t"github.com/go-chi/chi/v5"

\t"${module}/internal/config"
)

// New wires the HTTP routes of the ${r.resource} service.
func New(cfg config.Config) http.Handler {
\tr := chi.NewRouter()
\tr.Get("/health", HealthCheck)
\tr.Get("/${r.resource}s/{id}", func(w http.ResponseWriter, req *http.Request) {
\t\tid := chi.URLParam(req, "id")
\t\twriteJSON(w, http.StatusOK, map[string]string{"id": id, "kind": "${r.resource}"})
\t})
\treturn r
}

// HealthCheck reports that the process is serving.
func HealthCheck(w http.ResponseWriter, _ *http.Request) {
\twriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
\tw.Header().Set("Content-Type", "application/json")
\tw.WriteHeader(status)
\t_ = json.NewEncoder(w).Encode(v)
}
`,
    "internal/server/server_test.go": `package server

import (
\t"net/http"
\t"net/http/httptest"
\t"testing"
)

func TestHealthCheck(t *testing.T) {
\trec := httptest.NewRecorder()
\tHealthCheck(rec, httptest.NewRequest(http.MethodGet, "/health", nil))
\tif rec.Code != http.StatusOK {
\t\tt.Fatalf("status %d", rec.Code)
\t}
}
`,
    [`internal/${r.resource}/${r.resource}.go`]: `package ${r.resource.replace(/-/g, "")}

import "time"

// ${R} is the record this service owns.
type ${R} struct {
\tID        string    \`json:"id"\`
\tName      string    \`json:"name"\`
\tCreatedAt time.Time \`json:"created_at"\`
}

// Validate reports whether the ${r.resource} can be stored.
func (x ${R}) Validate() bool {
\treturn x.ID != "" && len(x.Name) <= 200
}
`,
  };
}
