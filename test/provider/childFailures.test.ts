/**
 * The plugin's link from a failed child to its set's Construct (provider/plugin/childFailures.ts):
 * the child's URN as the engine builds it, and a failure told only to the watch that holds
 * that URN, after the failing call's own answer (the next turn of the event loop).
 */
import { ChildFailures, childUrn } from "../../provider/plugin/childFailures";

const SET = "urn:pulumi:dev::bot::discord-commands:index:CommandSet::mods";

test("a child's URN: the parent's qualified type, $, its own type, its name", () => {
  expect(childUrn(SET, "discord-commands:index:ScopeCommands", "mods-global")).toBe(
    "urn:pulumi:dev::bot::discord-commands:index:CommandSet$discord-commands:index:ScopeCommands::mods-global",
  );
  // Under a component of the user's: the whole chain of types is kept.
  const nested = "urn:pulumi:dev::bot::acme:index:Bot$discord-commands:index:CommandSet::mods";
  expect(childUrn(nested, "discord-commands:index:ScopeCommands", "a::b")).toBe(
    "urn:pulumi:dev::bot::acme:index:Bot$discord-commands:index:CommandSet$discord-commands:index:ScopeCommands::a::b",
  );
  expect(childUrn("not a urn", "t", "n")).toBe("");
});

test("a failure reaches the watch of that URN only, after the current turn, and none once stopped", async () => {
  const failures = new ChildFailures();
  const mine = failures.watch();
  mine.add("urn:a");
  mine.add("urn:b");
  const other = failures.watch();
  other.add("urn:c");
  const seen: string[] = [];
  void mine.failed.then((urn) => seen.push(`mine ${urn}`));
  void other.failed.then((urn) => seen.push(`other ${urn}`));

  failures.report("urn:b");
  seen.push("reported");
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  expect(seen).toEqual(["reported", "mine urn:b"]);

  other.stop();
  failures.report("urn:c");
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  expect(seen).toEqual(["reported", "mine urn:b"]);
  mine.stop();
});
