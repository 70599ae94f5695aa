import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ADMIN, apiClient, createUserWithRoles, expectFullWidth, expectNoSidewaysScroll, expectToast, signIn, unique } from "./helpers";

/** User Management (spec section 2, 5 and 8) against the real server. */

const usersHeading = (page: Page) => page.getByRole("heading", { level: 2, name: /^Users(?: \([\d,]+\))?$/ });
const rowOf = (page: Page, username: string) => page.getByRole("row").filter({ has: page.getByText(username, { exact: true }) });

async function openUsers(page: Page): Promise<void> {
  await page.goto("/users");
  await signIn(page, ADMIN, { phone: (page.viewportSize()?.width ?? 1280) < 768 });
  await expect(page.getByRole("heading", { level: 1, name: "User Management" })).toBeVisible();
  await expect(usersHeading(page)).toHaveText(/Users \(\d+\)/);
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByPlaceholder("Search users by email, username, or name...").fill(text);
}

async function rowAction(page: Page, username: string, item: string): Promise<void> {
  await page.getByRole("button", { name: `Actions for ${username}` }).click();
  await page.getByRole("menuitem", { name: item }).click();
  await expect(page.getByRole("menu")).toBeHidden();
}

test("create (with validation), search, edit, roles, deactivate, activate and delete a user", async ({ page }) => {
  const username = unique("e2e");
  await openUsers(page);

  // Create: first an invalid submit shows the spec's messages under the fields.
  await page.getByRole("button", { name: "Add User" }).click();
  const create = page.getByRole("dialog", { name: "Create New User" });
  await expect(create).toBeVisible();
  await create.getByLabel("Email").fill("not-an-email");
  await create.getByLabel("Username").fill("ab");
  await create.getByLabel("Password", { exact: true }).fill("123");
  await create.getByLabel("Confirm Password").fill("456");
  await create.getByRole("button", { name: "Create User" }).click();
  await expect(create.getByText("Please enter a valid email address")).toBeVisible();
  await expect(create.getByText("Username must be at least 3 characters")).toBeVisible();
  await expect(create.getByText("Password must be at least 6 characters")).toBeVisible();
  await expect(create.getByText("Passwords don't match")).toBeVisible();
  await expect(create.getByRole("switch", { name: "Active User" })).toBeChecked();

  await create.getByLabel("First Name").fill("Ada");
  await create.getByLabel("Last Name").fill("Lovelace");
  await create.getByLabel("Email").fill(`${username}@example.com`);
  await create.getByLabel("Username").fill(username);
  await create.getByLabel("Password", { exact: true }).fill("secret-123");
  await create.getByLabel("Confirm Password").fill("secret-123");
  await create.getByRole("button", { name: "Create User" }).click();
  await expectToast(page, "User created successfully");
  await expect(create).toBeHidden();

  // Search narrows the count to the one new user (by username, email and full name).
  await search(page, username.toUpperCase());
  await expect(usersHeading(page)).toHaveText("Users (1)");
  const row = rowOf(page, username);
  await expect(row).toContainText("Ada Lovelace");
  await expect(row).toContainText(`${username}@example.com`);
  await expect(row).toContainText("No roles assigned");
  await expect(row).toContainText("Active");
  await expect(row).toContainText("Never");
  await search(page, `${username}@EXAMPLE`);
  await expect(usersHeading(page)).toHaveText("Users (1)");
  await search(page, `${username}-nobody`);
  await expect(usersHeading(page)).toHaveText("Users (0)");
  await expect(page.getByText("No users match your search")).toBeVisible();
  await search(page, username);

  // Edit: a blank new password keeps the current one; mismatching confirmation is refused.
  await rowAction(page, username, "Edit User");
  const edit = page.getByRole("dialog", { name: "Edit User" });
  await expect(edit.getByLabel("Username")).toHaveValue(username);
  await expect(edit.getByText("Change Password (optional)")).toBeVisible();
  await expect(edit.getByText("Leave blank to keep current password")).toBeVisible();
  await edit.getByLabel("Last Name").fill("Byron");
  await edit.getByLabel("New Password", { exact: true }).fill("another-secret");
  await edit.getByRole("button", { name: "Update User" }).click();
  await expect(edit.getByText("Passwords don't match")).toBeVisible();
  await edit.getByLabel("New Password", { exact: true }).fill("");
  await edit.getByRole("button", { name: "Update User" }).click();
  await expectToast(page, "User updated successfully");
  await expect(edit).toBeHidden();
  await expect(row).toContainText("Ada Byron");
  // Focus went back to the row's menu button.
  await expect(page.getByRole("button", { name: `Actions for ${username}` })).toBeFocused();

  // Manage roles: the selection starts from the current roles; Save is enabled only on a change.
  await rowAction(page, username, "Manage Roles");
  const roles = page.getByRole("dialog", { name: "Manage User Roles" });
  await expect(roles.getByText(`Assign Roles to ${username}`)).toBeVisible();
  await expect(roles.getByText("0 role(s) selected")).toBeVisible();
  await expect(roles.getByRole("button", { name: "Save Changes" })).toBeDisabled();
  await roles.getByRole("checkbox", { name: "viewer", exact: true }).check();
  await expect(roles.getByText("1 role(s) selected")).toBeVisible();
  await roles.getByRole("button", { name: "Save Changes" }).click();
  await expectToast(page, "User roles updated successfully");
  await expect(roles).toBeHidden();
  await expect(row.getByText("viewer", { exact: true })).toBeVisible();
  await expect(row).not.toContainText("No roles assigned");
  // Reopened, the role is marked Current and Save is disabled again.
  await rowAction(page, username, "Manage Roles");
  await expect(roles.getByRole("checkbox", { name: "viewer", exact: true })).toBeChecked();
  await expect(roles.getByRole("listitem").filter({ hasText: "viewer" }).getByText("Current")).toBeVisible();
  await expect(roles.getByRole("button", { name: "Save Changes" })).toBeDisabled();
  await roles.getByRole("button", { name: "Cancel" }).click();
  await expect(roles).toBeHidden();

  // Deactivate, then activate again.
  await rowAction(page, username, "Deactivate");
  await expectToast(page, "User status updated successfully");
  await expect(row.getByText("Inactive", { exact: true })).toBeVisible();
  await rowAction(page, username, "Activate");
  await expect(row.getByText("Active", { exact: true })).toBeVisible();
  await expectToast(page, "User status updated successfully");

  // Delete through the confirmation dialog.
  await rowAction(page, username, "Delete User");
  const confirm = page.getByRole("alertdialog", { name: "Delete User" });
  await expect(confirm).toContainText(`Are you sure you want to delete ${username}? This action cannot be undone.`);
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expectToast(page, "User deleted successfully");
  await expect(confirm).toBeHidden();
  await expect(usersHeading(page)).toHaveText("Users (0)");
});

test("the server's field errors show under the fields, with an Error toast", async ({ page }) => {
  await openUsers(page);
  await page.getByRole("button", { name: "Add User" }).click();
  const create = page.getByRole("dialog", { name: "Create New User" });
  await create.getByLabel("Email").fill(`${unique("dup")}@example.com`);
  await create.getByLabel("Username").fill(ADMIN.username);
  await create.getByLabel("Password", { exact: true }).fill("secret-123");
  await create.getByLabel("Confirm Password").fill("secret-123");
  await create.getByRole("button", { name: "Create User" }).click();
  await expect(create.getByText("Username is already taken")).toBeVisible();
  await expectToast(page, "Error");
  await expect(create.getByLabel("Username")).toBeEnabled();
});

test("the signed-in administrator cannot delete or deactivate their own account from the menu", async ({ page }) => {
  await openUsers(page);
  await search(page, ADMIN.username);
  await page.getByRole("button", { name: `Actions for ${ADMIN.username}` }).click();
  await expect(page.getByRole("menuitem", { name: "Delete User" })).toBeDisabled();
  await expect(page.getByRole("menuitem", { name: "Deactivate" })).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: `Actions for ${ADMIN.username}` })).toBeFocused();
});

test("a custom role is created, edited, offered in Manage Roles and deleted; built-in roles are read-only", async ({ page }) => {
  const roleName = unique("e2e-role-");
  await openUsers(page);
  await page.getByRole("tab", { name: "Roles" }).click();
  await expect(page).toHaveURL(/\?tab=roles$/);
  const adminCard = page.getByRole("article", { name: "admin", exact: true });
  await expect(adminCard.getByText("Built-in")).toBeVisible();
  await expect(adminCard.getByRole("button")).toHaveCount(0);

  await page.getByRole("button", { name: "Add Role" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Role" });
  await dialog.getByRole("button", { name: "Create Role" }).click();
  await expect(dialog.getByText("Name is required")).toBeVisible();
  await dialog.getByLabel("Name").fill(roleName);
  await dialog.getByLabel("Description").fill("Reads users and logs");
  await dialog.getByRole("checkbox", { name: "users.read" }).check();
  await dialog.getByRole("checkbox", { name: "logs.read" }).check();
  await expect(dialog.getByText("See request logs")).toBeVisible();
  await dialog.getByRole("button", { name: "Create Role" }).click();
  await expectToast(page, "Role created successfully");
  const card = page.getByRole("article", { name: roleName });
  await expect(card).toContainText("Reads users and logs");
  await expect(card.getByText("users.read")).toBeVisible();
  await expect(card.getByText("Active", { exact: true })).toBeVisible();

  await card.getByRole("button", { name: `Edit role ${roleName}` }).click();
  const editDialog = page.getByRole("dialog", { name: "Edit Role" });
  await expect(editDialog.getByLabel("Name")).toHaveValue(roleName);
  await expect(editDialog.getByRole("checkbox", { name: "logs.read" })).toBeChecked();
  await editDialog.getByRole("switch", { name: "Active" }).click();
  await editDialog.getByRole("button", { name: "Update Role" }).click();
  await expectToast(page, "Role updated successfully");
  await expect(card.getByText("Inactive", { exact: true })).toBeVisible();

  // The new role is offered when managing a user's roles, marked Inactive.
  await page.getByRole("tab", { name: "Users" }).click();
  await search(page, ADMIN.username);
  await rowAction(page, ADMIN.username, "Manage Roles");
  const manage = page.getByRole("dialog", { name: "Manage User Roles" });
  const option = manage.getByRole("listitem").filter({ has: page.getByText(roleName, { exact: true }) });
  await expect(option).toBeVisible();
  await expect(option.getByText("Inactive")).toBeVisible();
  await expect(option.getByText("users.read")).toBeVisible();
  await manage.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("tab", { name: "Roles" }).click();
  await page.getByRole("button", { name: `Delete role ${roleName}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Role" });
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expectToast(page, "Role deleted successfully");
  await expect(page.getByRole("article", { name: roleName })).toHaveCount(0);
});

test("a viewer sees users and roles but is offered no write action, and the server refuses one", async ({ page, baseURL }) => {
  const viewer = { username: unique("viewer"), password: "viewer-secret", email: `${unique("v")}@example.com` };
  await createUserWithRoles(page, baseURL!, viewer, ["viewer"]);

  await page.goto("/users");
  await signIn(page, viewer);
  await expect(usersHeading(page)).toHaveText(/Users \(\d+\)/);
  await search(page, viewer.username);
  await expect(rowOf(page, viewer.username)).toContainText("viewer");
  await expect(page.getByRole("button", { name: "Add User" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Actions for / })).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "Actions" })).toHaveCount(0);

  await page.getByRole("tab", { name: "Roles" }).click();
  await expect(page.getByRole("article", { name: "viewer", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add Role" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^(Edit|Delete) role / })).toHaveCount(0);

  const api = apiClient(page, baseURL!);
  const refused = await api.post("/api/users", {
    email: "x@example.com",
    username: unique("nope"),
    password: "secret-123",
    isActive: true,
  });
  expect(refused.status()).toBe(403);
});

test("a user without users.read is told so instead of seeing the table", async ({ page, baseURL }) => {
  // A custom role with chat only (no permission at all) is the simplest account without users.read.
  const api = apiClient(page, baseURL!);
  expect((await api.login(ADMIN)).status()).toBe(200);
  const roleName = unique("norights-");
  expect((await api.post("/api/roles", { name: roleName, description: null, isActive: true, permissions: [] })).status()).toBe(201);
  expect((await api.logout()).status()).toBeLessThan(300);
  const user = { username: unique("plain"), password: "plain-secret", email: `${unique("p")}@example.com` };
  await createUserWithRoles(page, baseURL!, user, [roleName]);

  await page.goto("/users");
  await signIn(page, user);
  await expect(page.getByText("You do not have permission to view users.")).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("nothing scrolls sideways, not even the table's box, and dialogs take the full width", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await openUsers(page);
    await expectNoSidewaysScroll(page);
    const box = page.getByRole("region", { name: "Users table" });
    await expect
      .poll(() => box.evaluate((el) => el.scrollWidth - el.clientWidth), { message: "the table's box scrolls sideways" })
      .toBeLessThanOrEqual(0);
    await page.getByRole("button", { name: "Add User" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New User" });
    await expect(dialog).toBeVisible();
    await expectFullWidth(page, dialog);
    await expectNoSidewaysScroll(page);
  });

  test("a user is a card: each value under its column's name, the actions as buttons at its foot, in order by keyboard", async ({
    page,
    baseURL,
  }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    const user = {
      username: unique("card"),
      password: "card-secret",
      email: `${unique("card")}@example.com`,
      firstName: "Katherine",
      lastName: "Johnson",
    };
    await createUserWithRoles(page, baseURL!, user, ["viewer"]);
    await openUsers(page);
    await search(page, user.username);
    await expect(usersHeading(page)).toHaveText("Users (1)");

    // The card: the name (its title) with the email, the status beside it; the rest under captions.
    const card = rowOf(page, user.username);
    await expect(card.getByText("Katherine Johnson", { exact: true })).toBeVisible();
    await expect(card.getByText(user.email, { exact: true })).toBeVisible();
    await expect(card.getByText("Active", { exact: true })).toBeVisible();
    for (const [label, value] of [
      ["Username", user.username],
      ["Roles", "viewer"],
      ["Last Login", "Never"],
    ] as const) {
      const cell = card.getByRole("cell").filter({ has: page.getByText(label, { exact: true }) });
      const caption = cell.getByText(label, { exact: true });
      const shown = cell.getByText(value, { exact: true });
      await expect(caption).toBeVisible();
      await expect(shown).toBeVisible();
      expect((await caption.boundingBox())!.y, `"${label}" is above its value`).toBeLessThan((await shown.boundingBox())!.y);
    }
    const cardBox = (await card.boundingBox())!;
    expect(cardBox.x).toBeGreaterThanOrEqual(0);
    expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(390);
    await expectNoSidewaysScroll(page);
    // A screen reader still has the table: its column headers (only visually hidden) name the cells.
    for (const name of ["User", "Username", "Roles", "Status", "Last Login", "Actions"])
      await expect(page.getByRole("columnheader", { name, exact: true })).toHaveCount(1);

    // The actions: buttons at the card's foot (no menu), reached in the menu's order with Tab.
    await expect(page.getByRole("button", { name: `Actions for ${user.username}` })).toHaveCount(0);
    const actions = card.getByRole("group", { name: `Actions for ${user.username}` });
    await expect(actions.getByRole("button")).toHaveText(["Edit User", "Manage Roles", "Deactivate", "Delete User"]);
    const edit = actions.getByRole("button", { name: `Edit User ${user.username}` });
    await edit.focus();
    for (const name of [`Manage Roles of ${user.username}`, `Deactivate ${user.username}`, `Delete User ${user.username}`]) {
      await page.keyboard.press("Tab");
      await expect(actions.getByRole("button", { name })).toBeFocused();
    }

    // Edit opens from the card (by keyboard), full width; closing it gives focus back to its button.
    await edit.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Edit User" });
    await expect(dialog.getByLabel("Username")).toHaveValue(user.username);
    await expect(dialog.getByLabel("Email")).toHaveValue(user.email);
    await expectFullWidth(page, dialog);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(edit).toBeFocused();

    // Deactivate from the card: the badge and the button change.
    await actions.getByRole("button", { name: `Deactivate ${user.username}` }).click();
    await expectToast(page, "User status updated successfully");
    await expect(card.getByText("Inactive", { exact: true })).toBeVisible();
    await expect(actions.getByRole("button", { name: `Activate ${user.username}` })).toBeVisible();
  });

  test("the signed-in administrator's own card offers no Deactivate or Delete", async ({ page }) => {
    await openUsers(page);
    await search(page, ADMIN.username);
    const actions = page.getByRole("group", { name: `Actions for ${ADMIN.username}` });
    await expect(actions.getByRole("button", { name: `Edit User ${ADMIN.username}` })).toBeEnabled();
    await expect(actions.getByRole("button", { name: `Deactivate ${ADMIN.username}` })).toBeDisabled();
    await expect(actions.getByRole("button", { name: `Delete User ${ADMIN.username}` })).toBeDisabled();
  });
});
