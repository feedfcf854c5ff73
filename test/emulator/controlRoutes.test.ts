/**
 * The control API is one table (emulator/controlRoutes.ts `CONTROL_ROUTES`): every row is
 * found by its own method and path (no row shadows another), and the docs' lists follow it:
 * emulator/README.md names every route as `METHOD \`/__emulator/path\`` and no other,
 * docs/emulator.md names every route's path. A route missing from the docs fails here,
 * saying what to add where.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CONTROL_ROUTES, findControlRoute } from "../../emulator/controlRoutes";

const ROOT = path.join(__dirname, "..", "..");
const README = fs.readFileSync(path.join(ROOT, "emulator", "README.md"), "utf8");
const USER_DOC = fs.readFileSync(path.join(ROOT, "docs", "emulator.md"), "utf8");
const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

test("each route is found by its own method and path, once", () => {
  expect(new Set(CONTROL_ROUTES.map(key)).size).toBe(CONTROL_ROUTES.length);
  for (const route of CONTROL_ROUTES) {
    const concrete = route.path.replace(/\{[^}]+\}/g, "1300000000000000001");
    expect(findControlRoute(route.method, concrete)?.route).toBe(route);
    expect(route.does.length).toBeGreaterThan(5);
  }
});

test("emulator/README.md lists every route", () => {
  const missing = CONTROL_ROUTES.filter(
    (r) => !README.includes(`${r.method} \`/__emulator${r.path}`),
  );
  expect(
    missing.map(
      (r) =>
        `emulator/README.md: add a row "| ${r.method} \`/__emulator${r.path}\` | ${r.does} |" (Control API, or Interactions)`,
    ),
  ).toEqual([]);
});

test("emulator/README.md lists no route the table lacks", () => {
  const named = [...README.matchAll(/\b(GET|PUT|POST|PATCH|DELETE) `\/__emulator(\/[^`?]*)/g)];
  const known = new Set([...CONTROL_ROUTES.map(key), "GET /health"]);
  const unknown = named.map((m) => `${m[1]} ${m[2]}`).filter((k) => !known.has(k));
  expect(
    unknown.map((k) => `emulator/README.md names ${k}, which emulator/controlRoutes.ts lacks`),
  ).toEqual([]);
});

test("docs/emulator.md names every route's path", () => {
  const missing = CONTROL_ROUTES.filter((r) => !USER_DOC.includes(r.path.slice(1)));
  expect(
    missing.map(
      (r) =>
        `docs/emulator.md: name \`${r.path.slice(1)}\` (${r.method}: ${r.does}) with the control API`,
    ),
  ).toEqual([]);
});
