/**
 * Fault injection for tests: 5xx responses, 429s, service errors (`{code, message}`
 * with a 4xx status), malformed answers, a proxy's page echoing the request, dropped
 * connections and slow responses, chosen by fraction (from a seeded PRNG, so runs are reproducible) or by
 * a scripted sequence, optionally only for some routes or methods.
 *
 * A rule with `phase: "after"` lets the request take effect and then replaces its
 * response (the "the write happened but the client never heard" case).
 */
import { z } from "zod";
import { Routes } from "../provider/routes";
import type { RouteName } from "../provider/routes";
import { ServiceErrorCode } from "./schema";

const routeNames = Object.keys(Routes) as [RouteName, ...RouteName[]];

export const FaultAction = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("status"), status: z.number().int().min(500).max(599) }),
  z.strictObject({
    type: z.literal("rate_limit"),
    retryAfterMs: z.number().min(0).max(600_000).default(1000),
    global: z.boolean().default(false),
    scope: z.enum(["user", "global", "shared"]).default("user"),
  }),
  z.strictObject({ type: z.literal("drop") }),
  z.strictObject({ type: z.literal("delay"), ms: z.number().int().min(0).max(120_000) }),
  z.strictObject({ type: z.literal("pass") }),
  /** A service error answer `{code, message}` with a 4xx status (401, 403, 404, 400...). */
  z.strictObject({
    type: z.literal("error"),
    status: z.number().int().min(400).max(499),
    /** One of the service's codes (the one table, provider/schema/serviceErrors.ts). */
    code: z.custom<ServiceErrorCode>(
      (v) => (Object.values(ServiceErrorCode) as unknown[]).includes(v),
      "not a service error code",
    ),
    message: z.string(),
  }),
  /** A 200 whose body is JSON in no shape the API describes (a proxy's or a stub's answer). */
  z.strictObject({ type: z.literal("malformed") }),
  /**
   * A proxy's HTML error page with this status that quotes the request's body (some
   * proxies and debugging servers echo what they refused): what a client prints of a
   * non-JSON answer may hold what its request carried.
   */
  z.strictObject({ type: z.literal("echo"), status: z.number().int().min(400).max(599) }),
]);
export type FaultAction = z.infer<typeof FaultAction>;

const FaultRule = z
  .strictObject({
    /** Only these routes (names from provider/routes.ts). */
    route: z.union([z.enum(routeNames), z.array(z.enum(routeNames))]).optional(),
    /** Only this HTTP method. */
    method: z.enum(["GET", "POST", "PATCH", "PUT", "DELETE"]).optional(),
    /** One action, applied to a `fraction` of matching requests (default all). */
    action: FaultAction.optional(),
    fraction: z.number().min(0).max(1).default(1),
    /** Or successive matching requests take these actions in order ("pass" = no fault). */
    sequence: z.array(FaultAction).optional(),
    /** Stop after the rule fired this many times (sequences stop at their end). */
    times: z.number().int().min(1).optional(),
    /** "before" (default): the request has no effect; "after": it takes effect first. */
    phase: z.enum(["before", "after"]).default("before"),
  })
  .refine((r) => (r.action === undefined) !== (r.sequence === undefined), {
    message: "a fault rule needs exactly one of action or sequence",
  });
export type FaultRuleInput = z.input<typeof FaultRule>;
type FaultRuleParsed = z.infer<typeof FaultRule>;

const FaultPlan = z.strictObject({
  seed: z.number().int().default(1),
  rules: z.array(FaultRule).max(100),
});
export type FaultPlanInput = z.input<typeof FaultPlan>;

export interface ChosenFault {
  readonly action: Exclude<FaultAction, { type: "pass" }>;
  readonly phase: "before" | "after";
}

interface ActiveRule {
  readonly rule: FaultRuleParsed;
  position: number;
  fired: number;
}

/** mulberry32: a small, fast, seedable PRNG (reproducible fault choices, and tests' data). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private rules: ActiveRule[] = [];
  private random: () => number = prng(1);
  private injected = 0;

  /** Replaces the plan; throws a zod error on an invalid one. */
  set(plan: FaultPlanInput): void {
    const parsed = FaultPlan.parse(plan);
    this.random = prng(parsed.seed);
    this.rules = parsed.rules.map((rule) => ({ rule, position: 0, fired: 0 }));
  }

  clear(): void {
    this.rules = [];
  }

  describe(): { rules: FaultRuleParsed[]; injected: number } {
    return { rules: this.rules.map((r) => r.rule), injected: this.injected };
  }

  /** The fault for this request, if any (the first matching rule that fires). */
  choose(route: RouteName, method: string): ChosenFault | undefined {
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.method !== undefined && rule.method !== method) continue;
      if (rule.route !== undefined) {
        const routes = Array.isArray(rule.route) ? rule.route : [rule.route];
        if (!routes.includes(route)) continue;
      }
      if (rule.times !== undefined && active.fired >= rule.times) continue;
      let action: FaultAction | undefined;
      if (rule.sequence !== undefined) {
        action = rule.sequence[active.position];
        if (action === undefined) continue;
        active.position++;
      } else if (rule.action !== undefined && this.random() < rule.fraction) {
        action = rule.action;
      }
      if (action === undefined || action.type === "pass") {
        if (rule.sequence !== undefined) return undefined;
        continue;
      }
      active.fired++;
      this.injected++;
      return { action, phase: rule.phase };
    }
    return undefined;
  }
}
