import { Router } from "express";
import { PERMISSION_CATALOGUE, permissionKey } from "../../../contract/permissions";
import { RoleCreateSchema, RoleUpdateSchema } from "../../../contract/users";
import type { RolesService } from "../../modules/roles/roles.service";
import { toRoleDto } from "../../modules/users/users.presenter";
import { actorOf } from "../actor";
import { can } from "../middleware/access";
import { uuidParam } from "../params";
import { parseInput } from "../validate";

const DESCRIPTIONS = new Map<string, string>(PERMISSION_CATALOGUE.map((p) => [permissionKey(p), p.description]));

export function rolesRoutes(deps: { roles: RolesService }): Router {
  const { roles } = deps;
  const router = Router();

  router.get("/roles", can("roles.read"), async (_req, res) => {
    res.json((await roles.list()).map(toRoleDto));
  });

  /** The catalogue the roles editor chooses from. */
  router.get("/permissions", can("roles.read"), async (_req, res) => {
    const all = await roles.catalogue();
    res.json(
      all.map((p) => ({ id: p.id, resource: p.resource, action: p.action, description: DESCRIPTIONS.get(permissionKey(p)) ?? null })),
    );
  });

  router.post("/roles", can("roles.write"), async (req, res) => {
    res.status(201).json(toRoleDto(await roles.create(parseInput(RoleCreateSchema, req.body), actorOf(req))));
  });

  router.put("/roles/:id", can("roles.write"), async (req, res) => {
    const id = uuidParam(req.params.id, "Role");
    res.json(toRoleDto(await roles.update(id, parseInput(RoleUpdateSchema, req.body), actorOf(req))));
  });

  router.delete("/roles/:id", can("roles.write"), async (req, res) => {
    await roles.delete(uuidParam(req.params.id, "Role"), actorOf(req));
    res.status(204).end();
  });

  return router;
}
