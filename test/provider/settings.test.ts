/** The provider reads its settings in `configure`: stack config first, then the environment. */
import { readSettings } from "../../provider/resources/settings";

const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

test("stack config wins over the environment; unset keys fall back to it", () => {
  const s = readSettings(config({ "discord:apiUrl": "http://from-config" }), {
    DISCORD_API_URL: "http://from-env",
    DISCORD_APPLICATION_ID: "1300000000000000001",
  });
  expect(s.client.apiUrl).toBe("http://from-config");
  expect(s.applicationId).toBe("1300000000000000001");
});

test("the scope-list reuse window: 10 s unless configured; a bad value is a clear error", () => {
  expect(readSettings(config({}), {}).readCacheMs).toBe(10_000);
  expect(readSettings(config({ "discord:readCacheMs": "0" }), {}).readCacheMs).toBe(0);
  expect(readSettings(undefined, { DISCORD_READ_CACHE_MS: "2500" }).readCacheMs).toBe(2500);
  expect(() => readSettings(config({ "discord:readCacheMs": "soon" }), {})).toThrow(
    'discord:readCacheMs must be a number of milliseconds >= 0, not "soon"',
  );
});

test("the write mode: per-command unless configured; an unknown mode is a clear error", () => {
  expect(readSettings(config({}), {}).writeMode).toBe("per-command");
  expect(readSettings(config({ "discord:writeMode": "bulk" }), {}).writeMode).toBe("bulk");
  expect(readSettings(undefined, { DISCORD_WRITE_MODE: "bulk" }).writeMode).toBe("bulk");
  expect(
    readSettings(config({ "discord:writeMode": "per-command" }), { DISCORD_WRITE_MODE: "bulk" })
      .writeMode,
  ).toBe("per-command");
  expect(() => readSettings(config({ "discord:writeMode": "batch" }), {})).toThrow(
    'discord:writeMode (or DISCORD_WRITE_MODE) must be one of per-command, bulk, not "batch"',
  );
});

test("the bulk batching window: 200 ms unless configured", () => {
  expect(readSettings(config({}), {}).bulkWindowMs).toBe(200);
  expect(readSettings(undefined, { DISCORD_BULK_WINDOW_MS: "20" }).bulkWindowMs).toBe(20);
  expect(() => readSettings(config({ "discord:bulkWindowMs": "-1" }), {})).toThrow(
    'discord:bulkWindowMs must be a number of milliseconds >= 0, not "-1"',
  );
});
