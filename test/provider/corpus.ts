/**
 * A deterministic generator of varied, valid commands in the SDK shape (what a Pulumi
 * program declares): every command type, subcommand groups, choices of each value type,
 * localizations (some equal to the default), channel types, min/max, nsfw, contexts,
 * integration types and default member permissions. Seeded, so every run is the same.
 */
import type { CommandField, CommandFieldSpec } from "../../provider/schema";
import { camelCase, CHANNEL_TYPES, COMMAND_FIELDS, LOCALES } from "../../provider/schema";
import { fieldSample } from "../helpers/fieldSamples";
import type { Bag } from "../../provider/resources/propertyBags";
import { prng } from "../../emulator/faults";

/** The emulator's seeded PRNG (mulberry32): every run is the same. */
export const seeded = prng;

export class Gen {
  constructor(readonly rnd: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.rnd() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.rnd() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }
  subset<T>(items: readonly T[], max: number, min = 0): T[] {
    const n = this.int(min, Math.min(max, items.length));
    const pool = [...items];
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(pool.splice(this.int(0, pool.length - 1), 1)[0] as T);
    return out;
  }
  text(max: number): string {
    const words = ["deploy", "the", "service", "é", "日本", "fast", "now", "🚀", "x", "data"];
    let s = this.pick(words);
    const n = this.int(0, 6);
    for (let i = 0; i < n; i++) s += ` ${this.pick(words)}`;
    return s.slice(0, max);
  }
}

/** Localizations of a name: each a valid name, some equal to the default (dropped by the service). */
function nameLocs(g: Gen, name: string, lower: boolean): Bag | undefined {
  if (!g.chance(0.4)) return undefined;
  const out: Bag = {};
  for (const l of g.subset(LOCALES, 3, 1)) {
    const tag = l.replace("-", "").toLowerCase();
    out[l] = g.chance(0.25) ? name : lower ? `${name}-${tag}` : `${name} ${tag}`;
  }
  return out;
}

function descLocs(g: Gen, description: string): Bag | undefined {
  if (!g.chance(0.4)) return undefined;
  const out: Bag = {};
  for (const l of g.subset(LOCALES, 3, 1))
    out[l] = g.chance(0.25) ? description : `${description} (${l})`.slice(0, 100);
  return out;
}

function withLocs(g: Gen, o: Bag, lower = true): Bag {
  const nl = nameLocs(g, String(o["name"]), lower);
  if (nl) o["nameLocalizations"] = nl;
  if (typeof o["description"] === "string") {
    const dl = descLocs(g, o["description"]);
    if (dl) o["descriptionLocalizations"] = dl;
  }
  return o;
}

function plainOption(g: Gen, name: string): Bag {
  const type = g.pick([3, 3, 4, 4, 10, 10, 5, 6, 7, 7, 8, 9, 11]);
  const o: Bag = withLocs(g, { type, name, description: g.text(40) });
  if (g.chance(0.4)) o["required"] = true;
  const variant = g.int(0, 2);
  if ([3, 4, 10].includes(type)) {
    if (variant === 0) {
      const base = g.int(-1000, 1000);
      o["choices"] = Array.from({ length: g.int(1, 5) }, (_, j) => {
        const value =
          type === 3 ? `v${j}-${g.text(10)}` : type === 4 ? base + j : (base + j) / 4 + 0.125;
        const c: Bag = { name: `choice ${j} ${g.text(20)}`, value };
        if (g.chance(0.3))
          c["nameLocalizations"] = { [g.pick(LOCALES)]: g.chance(0.3) ? c["name"] : `c${j}` };
        return c;
      });
    } else if (variant === 1) o["autocomplete"] = true;
    else if (type === 3) {
      const a = g.int(0, 50);
      if (g.chance(0.7)) o["minLength"] = a;
      o["maxLength"] = a + g.int(1, 100);
    } else {
      const a = type === 4 ? g.int(-500, 500) : g.int(-500, 500) + 0.5;
      o["minValue"] = a;
      if (g.chance(0.7)) o["maxValue"] = a + g.int(0, 1000);
    }
  }
  if (type === 7 && g.chance(0.7)) o["channelTypes"] = g.subset(CHANNEL_TYPES, 4, 1);
  return o;
}

function plainOptions(g: Gen, max: number): Bag[] {
  const opts = Array.from({ length: g.int(1, max) }, (_, i) => plainOption(g, `opt${i}`));
  return [
    ...opts.filter((o) => o["required"] === true),
    ...opts.filter((o) => o["required"] !== true),
  ];
}

function subcommand(g: Gen, name: string): Bag {
  const s = withLocs(g, { type: 1, name, description: g.text(30) });
  if (g.chance(0.7)) s["options"] = plainOptions(g, 3);
  return s;
}

function chatInputOptions(g: Gen): Bag[] | undefined {
  switch (g.int(0, 3)) {
    case 0:
      return undefined;
    case 1:
      return plainOptions(g, 6);
    case 2:
      return Array.from({ length: g.int(1, 4) }, (_, i) => subcommand(g, `sub${i}`));
    default: {
      const groups = Array.from({ length: g.int(1, 3) }, (_, i) =>
        withLocs(g, {
          type: 2,
          name: `group${i}`,
          description: g.text(30),
          options: Array.from({ length: g.int(1, 3) }, (_, j) => subcommand(g, `sub${j}`)),
        }),
      );
      return g.chance(0.5) ? [...groups, subcommand(g, "solo")] : groups;
    }
  }
}

/**
 * The command fields the generators here write by hand; every other field of the table
 * (provider/schema/fields.ts) that the scope keeps gets its sample value
 * (test/helpers/fieldSamples.ts) in some commands, so a new field is in the corpus at once.
 */
const WRITTEN_BY_HAND: ReadonlySet<string> = new Set([
  "id",
  "type",
  "name",
  "name_localizations",
  "description",
  "description_localizations",
  "options",
  "default_member_permissions",
  "dm_permission",
  "default_permission",
  "nsfw",
  "integration_types",
  "contexts",
  "handler",
]);

function otherFields(g: Gen, c: Bag, scope: "global" | "guild"): void {
  for (const [field, spec] of Object.entries(COMMAND_FIELDS) as [
    CommandField,
    CommandFieldSpec,
  ][]) {
    if (WRITTEN_BY_HAND.has(field) || spec.onlyFor !== undefined) continue;
    if (!spec.acceptedIn.includes(`${scope}:create`)) continue;
    if (g.chance(0.3)) c[camelCase(field)] = fieldSample(field);
  }
}

function common(g: Gen, c: Bag, scope: "global" | "guild"): Bag {
  otherFields(g, c, scope);
  if (g.chance(0.3)) c["nsfw"] = g.chance(0.7);
  if (g.chance(0.4)) c["defaultMemberPermissions"] = g.pick(["0", "8", "32", "268435488", "2048"]);
  if (scope === "global") {
    if (g.chance(0.3)) c["contexts"] = g.subset([0, 1, 2], 3, 1);
    if (g.chance(0.3)) c["integrationTypes"] = g.subset([0, 1], 2, 1);
    if (g.chance(0.2)) c["dmPermission"] = g.chance(0.5);
  }
  return c;
}

export function chatInput(g: Gen, i: number, scope: "global" | "guild"): Bag {
  const name = `cmd${i}${g.pick(["", "-x", "_y", "z"])}`;
  const c = withLocs(g, { name, description: g.text(100) });
  if (g.chance(0.3)) c["type"] = 1;
  const options = chatInputOptions(g);
  if (options) c["options"] = options;
  return common(g, c, scope);
}

export function contextMenu(g: Gen, i: number, type: 2 | 3, scope: "global" | "guild"): Bag {
  const c = withLocs(g, { type, name: `${type === 2 ? "User" : "Message"} Action ${i}` }, false);
  if (g.chance(0.3)) c["description"] = "";
  return common(g, c, scope);
}

export function entryPoint(g: Gen): Bag {
  const c = withLocs(g, { type: 4, name: "Launch", description: "Launch the activity" }, false);
  c["handler"] = g.pick([1, 2]);
  return common(g, c, "global");
}

/** One scope's commands, within the per-scope limits. */
export function scopeCorpus(
  seed: number,
  scope: "global" | "guild",
  counts: { chatInput: number; user: number; message: number },
): Bag[] {
  const g = new Gen(seeded(seed));
  const out: Bag[] = [];
  for (let i = 0; i < counts.chatInput; i++) out.push(chatInput(g, i, scope));
  for (let i = 0; i < counts.user; i++) out.push(contextMenu(g, i, 2, scope));
  for (let i = 0; i < counts.message; i++) out.push(contextMenu(g, i, 3, scope));
  if (scope === "global") out.push(entryPoint(g));
  return out;
}
