/**
 * Every message, warning and error the provider builds names a command, an option or a
 * choice through `Secrecy` (provider/schema/secrecy.ts), or by id or position (issue 50):
 * a name formatted raw into text (`${c.name}`, `"... " + String(x["name"])`) would print
 * a name the program marked secret. The few raw ones left are listed here with why each
 * can hold no value at a secret path; a new one fails until it goes through `Secrecy` or
 * is listed with its reason.
 */
import { parse } from "./structure";
import { rawNames, rawNamesInProvider } from "./messageSecrecy";

/** `file: expression` of each raw name allowed, and why it holds no secret. */
const ALLOWED: Readonly<Record<string, string>> = {
  // The command a permissions entry names is the program's plain value in both doors (the
  // plugin refuses a secret one: plugin/commandSet.ts `plain`; the SDK's type is a plain
  // string), and one naming a definition whose name is secret fails the set
  // (definitionProblems): no message quotes a value at a secret path through it.
  "provider/resources/commandSetPlan.ts: p.command":
    "a permissions entry's command is a plain value of the program",
  // A key of the deployment's memory (`replacing`), never shown.
  "provider/resources/scopeLimits.ts: command.name": "a map key, not a message",
  // Keys of the deployment's memory and of a set of live identities, never shown.
  "provider/resources/commandLifecycle.ts: c.name": "a map key, not a message",
  "provider/resources/scopeBudget.ts: c.name": "a set key, not a message",
  "provider/resources/scopeBudget.ts: a.name": "a set key, not a message",
  // The error class's own name, not a command's.
  "provider/resources/engineErrors.ts: this.name": "the class name of ProviderFailure",
};

const withoutLine = (finding: string): string => finding.replace(/:\d+:/, ":");

test("the provider formats no command, option or choice name into a message without Secrecy", () => {
  const raw = rawNamesInProvider().filter((f) => ALLOWED[withoutLine(f)] === undefined);
  expect(raw).toEqual([]);
});

test("every allowed raw name is still there (the list stays true)", () => {
  const found = new Set(rawNamesInProvider().map(withoutLine));
  expect(Object.keys(ALLOWED).filter((k) => !found.has(k))).toEqual([]);
});

describe("how a raw name is found", () => {
  const found = (text: string): string[] => rawNames(parse("x.ts", text)).map((e) => e.getText());

  test("in a template string, joined to a string, through String(), by property or by key", () => {
    expect(
      found(`
const a = \`the command "\${c.name}" (id \${c.id})\`;
const b = "answered without the command " + String(e.intended["name"]);
const d = \`permissions of '\${p.command}'\`;
const k = \`commands[\${c.key}]\`;`),
    ).toEqual(["c.name", 'String(e.intended["name"])', "p.command", "c.key"]);
  });

  test("not through Secrecy's quote or text, nor where no text is built", () => {
    expect(
      found(`
const a = \`the command \${secrecy.quote(c.name, ["name"])}\`;
const b = secrecy.text(\`'\${def["name"]}'\`, [i, "name"]);
const same = a.name === b.name;
const n = c.name;`),
    ).toEqual([]);
  });
});
