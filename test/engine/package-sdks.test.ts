/**
 * The committed SDKs (sdks/nodejs, sdks/python, sdks/go) are what the real CLI's
 * `pulumi package gen-sdk` generates from the package schema as the generator writes it
 * now, with no diagnostics. Needs the CLI and its language hosts (`npm run setup`); the
 * generated code depends on the hosts' version, so they are the setup's, never others.
 * No file is ignored: two runs of gen-sdk write the same bytes. (Generating one SDK takes
 * under a second.)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  brokenImports,
  genSdk,
  listFiles,
  renderSchemaFile,
  SDK_LANGUAGES,
  SDKS_DIR,
} from "../../scripts/generate-package";
import { requireToolchain } from "../../scripts/toolchain";

jest.setTimeout(120_000);

const tc = requireToolchain();
let out = "";
let schemaFile = "";

beforeAll(async () => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), "package-sdks-"));
  schemaFile = path.join(out, "schema.json");
  fs.writeFileSync(schemaFile, await renderSchemaFile());
});

afterAll(() => {
  if (out !== "") fs.rmSync(out, { recursive: true, force: true });
});

it.each(SDK_LANGUAGES)(
  "sdks/%s is what gen-sdk generates from the schema now, without diagnostics",
  async (language) => {
    const result = await genSdk(tc, schemaFile, language, path.join(out, "sdks"));
    expect(result.messages).toBe("");
    const fresh = path.join(out, "sdks", language);
    const committed = path.join(SDKS_DIR, language);
    // A language host built with Go 1.26 writes imports of files that do not exist.
    expect(brokenImports(language, fresh)).toEqual([]);
    const files = listFiles(fresh);
    expect(files.length).toBeGreaterThan(5);
    expect(listFiles(committed)).toEqual(files);
    const stale = files.filter(
      (f) => !fs.readFileSync(path.join(fresh, f)).equals(fs.readFileSync(path.join(committed, f))),
    );
    // Stale: run `npm run generate` and commit sdks/.
    expect(stale).toEqual([]);
  },
);
