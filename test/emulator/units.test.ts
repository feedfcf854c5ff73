/** Small units of the emulator: snowflakes, locales, and a read-then-write round trip. */
import { parseAcceptLanguage, normalizeLocale, localizedValue } from "../../emulator/localize";
import { SnowflakeGenerator } from "../../emulator/snowflake";
import { snowflakeTime } from "../../provider/schema";
import type { RunningEmulator } from "../../emulator";
import type { Api } from "./helpers";
import { rec, slash, start } from "./helpers";

test("snowflakes are time-based and strictly increase within one millisecond", () => {
  let now = 1_700_000_000_000;
  const gen = new SnowflakeGenerator(() => now);
  const a = gen.next();
  const b = gen.next();
  expect(BigInt(b)).toBe(BigInt(a) + 1n);
  expect(snowflakeTime(a)).toBe(now);
  expect(BigInt(a)).toBe((BigInt(now) - 1420070400000n) << 22n);
  now -= 5000; // the clock going backwards never reuses ids
  expect(BigInt(gen.next()) > BigInt(b)).toBe(true);
});

test("locales: tags, Accept-Language q-values and fallbacks", () => {
  expect(normalizeLocale("FR-ca")).toBe("fr");
  expect(normalizeLocale("en")).toBe("en-US");
  expect(normalizeLocale("es-419")).toBe("es-419");
  expect(normalizeLocale("xx")).toBeUndefined();
  expect(parseAcceptLanguage("xx, de;q=0.2, ja;q=0.8")).toBe("ja");
  expect(parseAcceptLanguage("*")).toBeUndefined();
  expect(localizedValue({ "en-GB": "colour" }, "en-US")).toBe("colour");
  expect(localizedValue({ "es-ES": "hola" }, "es-419")).toBe("hola");
  expect(localizedValue({ "es-419": "hola" }, "es-ES")).toBeUndefined();
  expect(localizedValue({ fr: "x" }, undefined)).toBeUndefined();
});

describe("round trip", () => {
  let emu: RunningEmulator;
  let api: Api;
  beforeAll(async () => {
    ({ emu, api } = await start());
  });
  afterAll(async () => {
    await emu.close();
  });

  test("posting back what a GET returned is an upsert that keeps the version", async () => {
    const created = rec(
      (
        await api.post(
          `${api.app}/commands`,
          slash("echo", {
            name_localizations: { fr: "écho" },
            options: [{ type: 4, name: "n", description: "N", min_value: 0, choices: undefined }],
          }),
        )
      ).body,
    );
    const { id: _id, application_id: _a, version: _v, ...body } = created;
    const again = await api.post(`${api.app}/commands`, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created);
  });

  test("malformed percent-encodings are 404 on the API and 400 on the control API", async () => {
    expect((await api.get(`/applications/%E0%A4%A/commands`)).status).toBe(404);
    expect((await api.call("DELETE", "/__emulator/commands/%E0%A4%A")).status).toBe(400);
    expect(emu.counters().internalErrors).toBe(0);
  });
});
