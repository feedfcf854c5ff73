/**
 * Values unknown at preview: `@pulumi/policy` throws when a policy reads one. A rule that
 * meets one judges nothing for that command or resource at preview; the `up` that follows
 * runs the pack again with the values known.
 */
import { UnknownValueError } from "@pulumi/policy";

/** `f()`, or [] when it reads a value unknown at preview. */
export function whenKnown<T>(f: () => T[]): T[] {
  try {
    return f();
  } catch (err) {
    if (err instanceof UnknownValueError) return [];
    throw err;
  }
}
