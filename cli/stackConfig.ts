/**
 * A stack's config, read and written through the `pulumi` CLI in the project's folder, as
 * a user would. A secret's value goes on stdin, never on a command line (where `ps`
 * shows it).
 */
import { spawn } from "node:child_process";

/** The project folder and the stack (undefined: the selected one). */
interface StackTarget {
  readonly cwd: string;
  readonly stack: string | undefined;
}

/** Runs `pulumi <args>` in the project folder; stdin text, if given, is written and closed. */
function pulumi(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", [...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

function stackArgs(stack: string | undefined): string[] {
  return stack === undefined ? [] : ["--stack", stack];
}

/** The stack's config, decrypted (it stays in this process; nothing of it is printed). */
export async function readStackConfig(
  target: StackTarget,
  env: NodeJS.ProcessEnv,
): Promise<Map<string, string>> {
  const res = await pulumi(
    ["config", "--json", "--show-secrets", ...stackArgs(target.stack)],
    target.cwd,
    env,
  );
  if (res.code !== 0) {
    throw new Error(
      `pulumi config failed (is ${target.cwd} a Pulumi project with a stack?):\n${res.stderr}`,
    );
  }
  const parsed: unknown = JSON.parse(res.stdout);
  const out = new Map<string, string>();
  if (typeof parsed === "object" && parsed !== null) {
    for (const [k, v] of Object.entries(parsed)) {
      const value = (v as { value?: unknown }).value;
      if (typeof value === "string") out.set(k, value);
    }
  }
  return out;
}

/** `pulumi config set [--secret] <key>`: a secret's value on stdin, a plain one as an argument. */
export async function setStackConfig(
  target: StackTarget,
  env: NodeJS.ProcessEnv,
  key: string,
  value: { readonly secret: string } | { readonly plain: string },
): Promise<void> {
  const secret = "secret" in value;
  const res = await pulumi(
    [
      "config",
      "set",
      ...(secret ? ["--secret", key] : [key, value.plain]),
      ...stackArgs(target.stack),
    ],
    target.cwd,
    env,
    secret ? value.secret : undefined,
  );
  if (res.code !== 0) {
    throw new Error(`pulumi config set${secret ? " --secret" : ""} ${key} failed:\n${res.stderr}`);
  }
}
