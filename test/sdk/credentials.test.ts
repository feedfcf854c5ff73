/** Credentials in stack config must be secrets (sdk/credentials.ts). */
import { CREDENTIAL_KEYS, plaintextCredentialKeys } from "../../sdk/credentials";

function runtime(config: Record<string, string>, secrets: string[]) {
  return {
    getConfig: (k: string) => config[k],
    isConfigSecret: (k: string) => secrets.includes(k),
  };
}

test("plain-text credentials are found, secret ones and absent ones are not", () => {
  const config = {
    "discord:botToken": "t",
    "discord:clientSecret": "s",
    "discord:apiUrl": "http://127.0.0.1:1",
  };
  expect(plaintextCredentialKeys(runtime(config, []))).toEqual([
    "discord:botToken",
    "discord:clientSecret",
  ]);
  expect(plaintextCredentialKeys(runtime(config, ["discord:botToken"]))).toEqual([
    "discord:clientSecret",
  ]);
  expect(plaintextCredentialKeys(runtime({}, []))).toEqual([]);
});

test("every credential key is checked, and a runtime that cannot tell is not blamed", () => {
  const all = Object.fromEntries(CREDENTIAL_KEYS.map((k) => [k, "x"]));
  expect(plaintextCredentialKeys(runtime(all, []))).toEqual([...CREDENTIAL_KEYS]);
  expect(plaintextCredentialKeys({ getConfig: (k) => all[k] })).toEqual([]);
});

test("the installed @pulumi/pulumi runtime still exposes isConfigSecret", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const rt = require("@pulumi/pulumi/runtime/config") as { isConfigSecret?: unknown };
  expect(typeof rt.isConfigSecret).toBe("function");
});
