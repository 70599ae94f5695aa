import { expect, test } from "@playwright/test";
import { NAV_ITEMS } from "../contract/navigation";
import { ADMIN, expectNoSidewaysScroll, signIn } from "./helpers";

/** The page title each sidebar entry leads to (spec section 2). */
const TITLES: Record<string, string> = {
  "/": "Server Dashboard",
  "/chat": "AI Chat Assistant",
  "/ai-providers": "AI Providers",
  "/users": "User Management",
  "/oauth-clients": "OAuth Clients",
  "/api-endpoints": "API Endpoints",
  "/sse-connections": "SSE Connections",
  "/logs": "Request Logs",
  "/configuration": "Configuration",
};

test("an unauthenticated visitor sees the login page on every path", async ({ page }) => {
  for (const path of ["/", "/users", "/login", "/no-such-page"]) {
    await page.goto(path);
    await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
    await expect(page.getByLabel("Username")).toBeVisible();
  }
});

test("signs in and lands on the dashboard", async ({ page }) => {
  await page.goto("/login");
  await signIn(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: "Server Dashboard" })).toBeVisible();
});

test("a wrong password shows the server's message and keeps the form usable", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill("definitely-wrong");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("alert")).toContainText("Invalid credentials");
  await expect(page.getByLabel("Username")).toBeEnabled();
});

test("empty fields show the validation messages", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Username is required")).toBeVisible();
  await expect(page.getByText("Password is required")).toBeVisible();
});

test("every sidebar entry opens its page and is highlighted", async ({ page }) => {
  await page.goto("/");
  await signIn(page);
  const nav = page.getByRole("navigation");
  await expect(nav.getByRole("link")).toHaveText(
    NAV_ITEMS.map((i) => i.label),
    { useInnerText: true },
  );
  for (const item of NAV_ITEMS) {
    await nav.getByRole("link", { name: item.label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${item.path === "/" ? "/" : item.path}$`));
    await expect(page.getByRole("heading", { level: 1, name: TITLES[item.path]! })).toBeVisible();
    await expect(nav.getByRole("link", { name: item.label, exact: true })).toHaveAttribute("aria-current", "page");
  }
});

test("a deep link survives sign-in", async ({ page }) => {
  await page.goto("/logs");
  await signIn(page);
  await expect(page).toHaveURL(/\/logs$/);
  await expect(page.getByRole("heading", { level: 1, name: "Request Logs" })).toBeVisible();
});

test("any other path shows 404 Page Not Found", async ({ page }) => {
  await page.goto("/");
  await signIn(page);
  await page.goto("/definitely/not/here");
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
});

test("logout ends the session and lands on /login", async ({ page }) => {
  await page.goto("/");
  await signIn(page);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
  // The server forgot the session too: reloading does not sign back in.
  await page.reload();
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
  const session = await page.request.get("/api/session");
  expect(session.status()).toBe(401);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the sidebar hides behind a toggle with an overlay and closes when a link is chosen", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("Username").fill(ADMIN.username);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    const toggle = page.getByRole("button", { name: "Open navigation" });
    await expect(toggle).toBeVisible();
    const nav = page.getByRole("navigation");
    await expect(nav.getByRole("link", { name: "Users", exact: true })).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    // Open: a modal drawer over a dimmed overlay (the page behind leaves the accessibility tree).
    await toggle.click();
    const drawer = page.getByRole("dialog");
    await expect(drawer).toBeVisible();
    await expect(page.locator("[data-testid=mobile-nav-overlay]")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await toggle.click();
    await nav.getByRole("link", { name: "Users", exact: true }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByRole("heading", { level: 1, name: "User Management" })).toBeVisible();
    await expect(drawer).toBeHidden();
    // Nothing scrolls sideways at phone width.
    await expectNoSidewaysScroll(page);
  });
});

test("the sidebar stays full height and in place on a page taller than the window", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 480 });
  await page.goto("/configuration");
  await signIn(page);
  await expect(page.getByRole("heading", { level: 1, name: "Configuration" })).toBeVisible();
  // Once the forms have loaded (the skeletons are shorter).
  await expect
    .poll(() => page.evaluate<number>("document.documentElement.scrollHeight - window.innerHeight"), {
      message: "the page is taller than the window",
    })
    .toBeGreaterThan(200);
  await page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)");
  await expect.poll(() => page.evaluate<number>("window.scrollY")).toBeGreaterThan(200);
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  // The column covers the window from top to bottom, and its content (Logout at the foot) is in view.
  await expect(async () => {
    const box = await sidebar.boundingBox();
    expect(box, "the sidebar is laid out").not.toBeNull();
    expect(box!.y).toBeLessThanOrEqual(0);
    expect(box!.y + box!.height).toBeGreaterThanOrEqual(479);
  }).toPass();
  await expect(sidebar.getByRole("link", { name: "Dashboard", exact: true })).toBeInViewport();
  await expect(sidebar.getByRole("button", { name: "Logout" })).toBeInViewport();
});
