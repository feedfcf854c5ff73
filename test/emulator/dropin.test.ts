/**
 * The emulator as a drop-in for the real service: the fields the spec's table leaves
 * blank are accepted, kept or ignored as the service does (emulator/README.md, "Fields
 * the spec leaves blank"), ignored ones named in `X-Emulator-Warning` and the request
 * log; responses carry the service's shapes (null localizations, canonical permission
 * bits, sets without duplicates, derived dm_permission), one rate-limit bucket per route
 * and method, and every response of every command route type-checks against
 * discord-api-types' result type for that route (compiled with TypeScript).
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import type { RouteName } from "../../provider/routes";
import type { Api } from "./helpers";
import { arr, rec, slash, start, str } from "./helpers";
import type { RunningEmulator } from "../../emulator";
import { startEmulator } from "../../emulator";

let emu: RunningEmulator;
let api: Api;

beforeEach(async () => {
  ({ emu, api } = await start());
});
afterEach(() => emu.close());

const WARNING = "x-emulator-warning";

describe("fields the spec leaves blank", () => {
  test("guild bulk: nsfw is kept, with no warning (slash-create sends it every time)", async () => {
    const r = await api.put(`${api.guild}/commands`, [
      slash("adult", { nsfw: true }),
      slash("plain", { nsfw: false }),
    ]);
    expect(r.status).toBe(200);
    expect(arr(r.body).map((c) => rec(c)["nsfw"])).toEqual([true, false]);
    expect(r.headers.get(WARNING)).toBeNull();
    expect(emu.requestLog()[0]?.warning).toBeUndefined();
  });

  test.each(["create", "edit"] as const)(
    "guild %s: contexts, integration_types, dm_permission accepted, ignored and named",
    async (mode) => {
      const extra = { contexts: [0, 1], integration_types: [0], dm_permission: false };
      let r;
      if (mode === "create") r = await api.post(`${api.guild}/commands`, slash("g", extra));
      else {
        const id = str(rec((await api.post(`${api.guild}/commands`, slash("g"))).body)["id"]);
        r = await api.patch(`${api.guild}/commands/${id}`, extra);
      }
      expect(r.status).toBe(mode === "create" ? 201 : 200);
      const c = rec(r.body);
      for (const field of Object.keys(extra)) expect(c).not.toHaveProperty(field);
      const warning = r.headers.get(WARNING) ?? "";
      expect(warning).toMatch(/^ignored fields: dm_permission, integration_types, contexts\b/);
      expect(emu.requestLog().at(-1)?.warning).toBe(warning);
    },
  );

  test("guild create: a wrong value in an ignored field is still rejected", async () => {
    const r = await api.post(`${api.guild}/commands`, slash("g", { contexts: [7] }));
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('"contexts"');
  });

  test("edit: type is ignored (discord.js edit() sends it), named; a bad type is a 400", async () => {
    const id = str(rec((await api.post(`${api.app}/commands`, slash("t"))).body)["id"]);
    const r = await api.patch(`${api.app}/commands/${id}`, { type: 2, description: "New" });
    expect(r.status).toBe(200);
    expect(rec(r.body)).toMatchObject({ type: 1, description: "New" });
    expect(r.headers.get(WARNING)).toMatch(/^ignored fields: type\b/);
    const bad = await api.patch(`${api.app}/commands/${id}`, { type: 9 });
    expect(bad.status).toBe(400);
  });

  test("guild bulk: global-only fields are dropped and named by index", async () => {
    const r = await api.put(`${api.guild}/commands`, [
      slash("a"),
      slash("b", { contexts: [0], integration_types: [0] }),
    ]);
    expect(r.status).toBe(200);
    expect(r.headers.get(WARNING)).toMatch(/^ignored fields: 1\.integration_types, 1\.contexts\b/);
  });

  test("what the service rejects stays rejected: nsfw on a USER command is fine, options are not", async () => {
    const r = await api.put(`${api.guild}/commands`, [
      { type: 2, name: "Menu", options: [{ type: 3, name: "x", description: "y" }] },
    ]);
    expect(r.status).toBe(400);
  });

  test("no warning when nothing is ignored", async () => {
    const r = await api.post(`${api.app}/commands`, slash("clean", { contexts: [0] }));
    expect(r.status).toBe(201);
    expect(r.headers.get(WARNING)).toBeNull();
  });
});

describe("response shapes", () => {
  test("permission bits canonical, sets sorted (a repeated value refused), dm_permission derived from contexts", async () => {
    await emu.close();
    ({ emu, api } = await start({
      config: {
        applications: [
          {
            id: emu.applicationId,
            botToken: emu.botToken,
            clientSecret: emu.clientSecret,
            installationContexts: [0, 1],
          },
        ],
      },
    }));
    const r = await api.post(
      `${api.app}/commands`,
      slash("shape", {
        default_member_permissions: "0032",
        integration_types: [1],
        contexts: [2, 0],
      }),
    );
    expect(r.status).toBe(201);
    expect(rec(r.body)).toMatchObject({
      default_member_permissions: "32",
      integration_types: [1],
      contexts: [0, 2],
      dm_permission: false,
    });
    const id = str(rec(r.body)["id"]);
    const dm = await api.patch(`${api.app}/commands/${id}`, { contexts: [1] });
    expect(rec(dm.body)["dm_permission"]).toBe(true);
    const cleared = await api.patch(`${api.app}/commands/${id}`, {
      contexts: null,
      dm_permission: false,
    });
    expect(rec(cleared.body)).toMatchObject({ contexts: null, dm_permission: false });
    // The service's contract (OpenAPI `uniqueItems`) refuses a set with a repeated value.
    const dup = await api.post(`${api.app}/commands`, slash("dup", { contexts: [2, 0, 0] }));
    expect(dup.status).toBe(400);
    expect(rec(rec(rec(dup.body)["errors"])["contexts"])["2"]).toBeDefined();
  });

  test("null localizations on full responses; absent on localized lists", async () => {
    const body = slash("loc", {
      options: [
        {
          type: 3,
          name: "o",
          description: "O",
          choices: [{ name: "c", value: "c" }],
        },
      ],
    });
    const created = rec((await api.post(`${api.app}/commands`, body)).body);
    const id = str(created["id"]);
    const full = rec(arr((await api.get(`${api.app}/commands?with_localizations=true`)).body)[0]);
    const single = rec((await api.get(`${api.app}/commands/${id}`)).body);
    for (const c of [created, full, single]) {
      expect(c["name_localizations"]).toBeNull();
      const option = rec(arr(c["options"])[0]);
      expect(option["description_localizations"]).toBeNull();
      expect(rec(arr(option["choices"])[0])["name_localizations"]).toBeNull();
    }
    const localized = rec(arr((await api.get(`${api.app}/commands`)).body)[0]);
    expect(localized).not.toHaveProperty("name_localizations");
  });

  test("list GET and bulk PUT of a scope are separate buckets", async () => {
    await emu.close();
    ({ emu, api } = await start({
      rateLimits: {
        global: { limit: 50, windowMs: 1000 },
        routeDefault: { limit: 2, windowMs: 60_000 },
        routes: {},
        invalidRequests: { limit: 10000, windowMs: 600000, banMs: 600000 },
      },
    }));
    const list1 = await api.get(`${api.app}/commands`);
    await api.get(`${api.app}/commands`);
    expect((await api.get(`${api.app}/commands`)).status).toBe(429);
    const put = await api.put(`${api.app}/commands`, [slash("a")]);
    expect(put.status).toBe(200);
    expect(put.headers.get("x-ratelimit-bucket")).not.toBe(list1.headers.get("x-ratelimit-bucket"));
    expect(put.headers.get("x-ratelimit-remaining")).toBe("1");
  });

  test("the health endpoint answers with the control API off, and is not logged", async () => {
    await emu.close();
    ({ emu, api } = await start({ control: false }));
    const health = await fetch(`${emu.url}/__emulator/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    expect((await fetch(`${emu.url}/__emulator/info`)).status).toBe(404);
    expect(emu.requestLog().filter((e) => e.path.endsWith("/health"))).toEqual([]);
  });
});

/** discord-api-types' result type of each command route. */
const RESULT_TYPES: Partial<Record<RouteName, string>> = {
  listGlobalCommands: "RESTGetAPIApplicationCommandsResult",
  createGlobalCommand: "RESTPostAPIApplicationCommandsResult",
  getGlobalCommand: "RESTGetAPIApplicationCommandResult",
  editGlobalCommand: "RESTPatchAPIApplicationCommandResult",
  bulkOverwriteGlobalCommands: "RESTPutAPIApplicationCommandsResult",
  listGuildCommands: "RESTGetAPIApplicationGuildCommandsResult",
  createGuildCommand: "RESTPostAPIApplicationGuildCommandsResult",
  getGuildCommand: "RESTGetAPIApplicationGuildCommandResult",
  editGuildCommand: "RESTPatchAPIApplicationGuildCommandResult",
  bulkOverwriteGuildCommands: "RESTPutAPIApplicationGuildCommandsResult",
  listGuildCommandPermissions: "RESTGetAPIGuildApplicationCommandsPermissionsResult",
  getCommandPermissions: "RESTGetAPIApplicationCommandPermissionsResult",
  editCommandPermissions: "RESTPutAPIApplicationCommandPermissionsResult",
};

/** TypeScript's diagnostics for a source file placed in the repository (to resolve packages). */
function typeErrors(source: string): string[] {
  const dir = path.resolve(__dirname, "../../.work/tests/response-types");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `responses-${process.pid}.ts`);
  fs.writeFileSync(file, source);
  try {
    const program = ts.createProgram([file], {
      strict: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
    });
    return ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  } finally {
    fs.rmSync(file, { force: true });
  }
}

test("every command route's responses type-check against discord-api-types", async () => {
  const rich = slash("rich", {
    name_localizations: { fr: "riche" },
    default_member_permissions: "8",
    contexts: [0, 1],
    options: [
      {
        type: 2,
        name: "grp",
        description: "G",
        options: [
          {
            type: 1,
            name: "sub",
            description: "S",
            options: [
              {
                type: 4,
                name: "n",
                description: "N",
                required: true,
                min_value: 1,
                choices: [{ name: "one", value: 1, name_localizations: { fr: "un" } }],
              },
              { type: 7, name: "ch", description: "C", channel_types: [0] },
            ],
          },
        ],
      },
    ],
  });
  const calls: [RouteName, () => Promise<unknown>][] = [];
  const g = await api.post(`${api.app}/commands`, rich);
  const gid = str(rec(g.body)["id"]);
  const u = await api.post(`${api.guild}/commands`, { type: 2, name: "User Menu" });
  const uid = str(rec(u.body)["id"]);
  const bearer = { auth: `Bearer ${emu.userBearerToken}` };
  const perms = { permissions: [{ id: emu.guildId, type: 1, permission: false }] };
  calls.push(
    ["createGlobalCommand", async () => g.body],
    ["createGuildCommand", async () => u.body],
    ["listGlobalCommands", async () => (await api.get(`${api.app}/commands`)).body],
    [
      "listGlobalCommands",
      async () => (await api.get(`${api.app}/commands?with_localizations=true`)).body,
    ],
    ["getGlobalCommand", async () => (await api.get(`${api.app}/commands/${gid}`)).body],
    [
      "editGlobalCommand",
      async () => (await api.patch(`${api.app}/commands/${gid}`, { nsfw: true })).body,
    ],
    [
      "bulkOverwriteGlobalCommands",
      async () => (await api.put(`${api.app}/commands`, [rich, { type: 3, name: "Msg" }])).body,
    ],
    ["listGuildCommands", async () => (await api.get(`${api.guild}/commands`)).body],
    ["getGuildCommand", async () => (await api.get(`${api.guild}/commands/${uid}`)).body],
    [
      "editGuildCommand",
      async () => (await api.patch(`${api.guild}/commands/${uid}`, { name: "Menu" })).body,
    ],
    [
      "editCommandPermissions",
      async () => (await api.put(`${api.guild}/commands/${uid}/permissions`, perms, bearer)).body,
    ],
    [
      "getCommandPermissions",
      async () => (await api.get(`${api.guild}/commands/${uid}/permissions`)).body,
    ],
    [
      "listGuildCommandPermissions",
      async () => (await api.get(`${api.guild}/commands/permissions`)).body,
    ],
    [
      "bulkOverwriteGuildCommands",
      async () => (await api.put(`${api.guild}/commands`, [slash("g", { nsfw: true })])).body,
    ],
  );
  const lines = ['import type * as T from "discord-api-types/v10";'];
  const covered = new Set<RouteName>();
  for (const [i, [route, call]] of calls.entries()) {
    const type = RESULT_TYPES[route];
    if (type === undefined) throw new Error(`no result type for ${route}`);
    covered.add(route);
    lines.push(`export const r${i} = ${JSON.stringify(await call())} satisfies T.${type};`);
  }
  expect([...covered].sort()).toEqual(Object.keys(RESULT_TYPES).sort());
  expect(typeErrors(lines.join("\n"))).toEqual([]);
  // The check bites: a stray field or a wrong type is an error.
  expect(
    typeErrors(
      `import type * as T from "discord-api-types/v10";\nexport const x = ${JSON.stringify({
        ...rec(g.body),
        default_member_permissions: 8,
      })} satisfies T.RESTGetAPIApplicationCommandResult;`,
    ),
  ).not.toEqual([]);
}, 60_000);

test("startEmulator with a state file: the store can be saved on demand", async () => {
  const dir = fs.mkdtempSync(path.join(path.resolve(__dirname, "../../.work"), "state-"));
  try {
    const statePath = path.join(dir, "s.json");
    const other = await startEmulator({ rateLimits: false, statePath });
    fs.rmSync(statePath, { force: true });
    other.store.persist();
    expect(JSON.parse(fs.readFileSync(statePath, "utf8"))).toHaveProperty("commands");
    await other.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
