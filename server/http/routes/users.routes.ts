import { Router } from "express";
import { UserCreateSchema, UserRolesUpdateSchema, UserUpdateSchema } from "../../../contract/users";
import type { UsersService } from "../../modules/users/users.service";
import { toRoleSummary, toUserDto } from "../../modules/users/users.presenter";
import { actorOf } from "../actor";
import { can } from "../middleware/access";
import { uuidParam } from "../params";
import { parseInput } from "../validate";

export function usersRoutes(deps: { users: UsersService }): Router {
  const { users } = deps;
  const router = Router();

  router.get("/users", can("users.read"), async (_req, res) => {
    res.json((await users.list()).map(toUserDto));
  });

  router.post("/users", can("users.write"), async (req, res) => {
    const created = await users.create(parseInput(UserCreateSchema, req.body), actorOf(req));
    res.status(201).json(toUserDto(created));
  });

  router.get("/users/:id", can("users.read"), async (req, res) => {
    res.json(toUserDto(await users.get(uuidParam(req.params.id, "User"))));
  });

  router.put("/users/:id", can("users.write"), async (req, res) => {
    const id = uuidParam(req.params.id, "User");
    res.json(toUserDto(await users.update(id, parseInput(UserUpdateSchema, req.body), actorOf(req))));
  });

  router.delete("/users/:id", can("users.write"), async (req, res) => {
    await users.delete(uuidParam(req.params.id, "User"), actorOf(req));
    res.status(204).end();
  });

  router.get("/users/:id/roles", can("users.read"), async (req, res) => {
    res.json((await users.roles(uuidParam(req.params.id, "User"))).map(toRoleSummary));
  });

  router.put("/users/:id/roles", can("users.write"), async (req, res) => {
    const id = uuidParam(req.params.id, "User");
    const { roleIds } = parseInput(UserRolesUpdateSchema, req.body);
    res.json((await users.setRoles(id, roleIds, actorOf(req))).map(toRoleSummary));
  });

  return router;
}
