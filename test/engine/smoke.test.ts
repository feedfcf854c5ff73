/**
 * Smoke test of the engine harness: a trivial dynamic resource driven through the real
 * `pulumi` CLI (program folder + language host) and through the Automation API.
 * `up` creates it, a second `preview` reports no change, a changed input is updated or
 * replaced as the provider's `diff` says, and `destroy` removes it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { inlineStack, PulumiProgram, scratchDir } from "../../scripts/pulumiProgram";

jest.setTimeout(300_000);

/** A program whose dynamic resource writes `<store>/<key>.txt` and logs each operation. */
function program(store: string, key: string, text: string): string {
  return `
import * as pulumi from "@pulumi/pulumi";

interface NoteInputs { store: string; key: string; text: string }

const provider: pulumi.dynamic.ResourceProvider = {
  async diff(_id: string, olds: NoteInputs, news: NoteInputs) {
    const replaces = olds.key !== news.key ? ["key"] : [];
    return { changes: olds.key !== news.key || olds.text !== news.text, replaces };
  },
  async create(inputs: NoteInputs) {
    const fs = require("fs");
    fs.writeFileSync(inputs.store + "/" + inputs.key + ".txt", inputs.text);
    fs.appendFileSync(inputs.store + "/log", "create " + inputs.key + "\\n");
    return { id: inputs.key, outs: inputs };
  },
  async update(_id: string, _olds: NoteInputs, news: NoteInputs) {
    const fs = require("fs");
    fs.writeFileSync(news.store + "/" + news.key + ".txt", news.text);
    fs.appendFileSync(news.store + "/log", "update " + news.key + "\\n");
    return { outs: news };
  },
  async delete(id: string, olds: NoteInputs) {
    const fs = require("fs");
    fs.rmSync(olds.store + "/" + id + ".txt", { force: true });
    fs.appendFileSync(olds.store + "/log", "delete " + id + "\\n");
  },
};

class Note extends pulumi.dynamic.Resource {
  declare readonly text: pulumi.Output<string>;
  constructor(name: string, args: NoteInputs) {
    super(provider, name, { text: undefined, ...args }, undefined, "Note");
  }
}

const note = new Note("note", { store: ${JSON.stringify(store)}, key: ${JSON.stringify(key)}, text: ${JSON.stringify(text)} });
export const id = note.id;
export const text = note.text;
`;
}

describe("the engine harness drives a dynamic resource through the real CLI", () => {
  let prog: PulumiProgram;
  let store: string;

  beforeAll(async () => {
    store = scratchDir("smoke-store");
    prog = new PulumiProgram("smoke", { "index.ts": program(store, "alpha", "one") });
    await prog.stack("dev");
  });
  afterAll(() => {
    prog.cleanup();
    fs.rmSync(store, { recursive: true, force: true });
  });

  const log = (): string[] => fs.readFileSync(path.join(store, "log"), "utf8").trim().split("\n");

  test("up creates the resource", async () => {
    const res = await prog.up();
    expect(res.stdout).toMatch(/\+ .*created/);
    expect(fs.readFileSync(path.join(store, "alpha.txt"), "utf8")).toBe("one");
    expect(log()).toEqual(["create alpha"]);
    expect(await prog.outputs()).toEqual({ id: "alpha", text: "one" });
  });

  test("a second preview reports no change", async () => {
    const summary = await prog.previewSummary();
    expect(summary).toEqual({ same: 2 });
  });

  test("a changed input the diff calls an update is updated in place", async () => {
    prog.write({ "index.ts": program(store, "alpha", "two") });
    expect(await prog.previewSummary()).toEqual({ same: 1, update: 1 });
    await prog.up();
    expect(fs.readFileSync(path.join(store, "alpha.txt"), "utf8")).toBe("two");
    expect(log()).toEqual(["create alpha", "update alpha"]);
  });

  test("a changed input the diff calls a replacement is created before the old one is deleted", async () => {
    prog.write({ "index.ts": program(store, "beta", "two") });
    expect(await prog.previewSummary()).toEqual({ same: 1, replace: 1 });
    await prog.up();
    expect(log()).toEqual(["create alpha", "update alpha", "create beta", "delete alpha"]);
    expect(fs.existsSync(path.join(store, "alpha.txt"))).toBe(false);
    expect(await prog.outputs()).toEqual({ id: "beta", text: "two" });
  });

  test("destroy removes it", async () => {
    await prog.destroy();
    expect(fs.existsSync(path.join(store, "beta.txt"))).toBe(false);
    expect(log().at(-1)).toBe("delete beta");
    const state = JSON.parse(fs.readFileSync(prog.stateFile("dev"), "utf8")) as {
      checkpoint: { latest: { resources?: unknown[] } };
    };
    expect(state.checkpoint.latest.resources ?? []).toHaveLength(0);
  });
});

describe("the Automation API runs an inline program offline", () => {
  test("up, no-change preview and destroy of an inline program", async () => {
    const { stack, cleanup } = await inlineStack("smoke-inline", "dev", async () => {
      const pulumi = await import("@pulumi/pulumi");
      class Answer extends pulumi.dynamic.Resource {}
      const random = new Answer(
        {
          async create() {
            return { id: "fixed", outs: { value: 42 } };
          },
        },
        "answer",
        { value: undefined },
      );
      return { value: random.id };
    });
    try {
      const up = await stack.up({ onOutput: (s) => process.stdout.write(s) });
      expect(up.summary.result).toBe("succeeded");
      expect(up.outputs["value"]?.value).toBe("fixed");
      const preview = await stack.preview();
      expect(preview.changeSummary).toEqual({ same: 2 });
      const destroyed = await stack.destroy({ onOutput: (s) => process.stdout.write(s) });
      expect(destroyed.summary.result).toBe("succeeded");
    } finally {
      cleanup();
    }
  });
});
