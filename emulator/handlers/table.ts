/** Which handler serves each route of provider/routes (a new route fails to compile here). */
import type { RouteName } from "../../provider/routes";
import { bulkOverwrite } from "./bulkOverwrite";
import { getCommand, listCommands } from "./commandReads";
import { createCommand, deleteCommand, editCommand } from "./commandWrites";
import type { Handler } from "./context";
import {
  oauth2Authorize,
  oauth2CurrentAuthorization,
  oauth2Token,
  oauth2TokenRevoke,
} from "./oauth";
import {
  batchEditPermissions,
  editCommandPermissions,
  getCommandPermissions,
  listGuildPermissions,
} from "./permissions";

export const ROUTE_HANDLERS: Readonly<Record<RouteName, Handler>> = {
  listGlobalCommands: (c) => listCommands(c, false),
  createGlobalCommand: (c) => createCommand(c, false),
  getGlobalCommand: (c) => getCommand(c, false),
  editGlobalCommand: (c) => editCommand(c, false),
  deleteGlobalCommand: (c) => deleteCommand(c, false),
  bulkOverwriteGlobalCommands: (c) => bulkOverwrite(c, false),
  listGuildCommands: (c) => listCommands(c, true),
  createGuildCommand: (c) => createCommand(c, true),
  getGuildCommand: (c) => getCommand(c, true),
  editGuildCommand: (c) => editCommand(c, true),
  deleteGuildCommand: (c) => deleteCommand(c, true),
  bulkOverwriteGuildCommands: (c) => bulkOverwrite(c, true),
  listGuildCommandPermissions: listGuildPermissions,
  getCommandPermissions,
  editCommandPermissions,
  batchEditCommandPermissions: batchEditPermissions,
  oauth2Token,
  oauth2TokenRevoke,
  oauth2Authorize,
  oauth2CurrentAuthorization,
};
