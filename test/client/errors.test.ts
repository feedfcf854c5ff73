import { backoffMs } from "../../provider/client/retry";
import { BucketQueue } from "../../provider/client/BucketQueue";
import { flattenErrorTree } from "../../provider/client";

describe("flattenErrorTree", () => {
  test("array indices become [i], keys become .key, _errors hold the leaves", () => {
    expect(
      flattenErrorTree({
        options: {
          "0": {
            name: { _errors: [{ code: "BASE_TYPE_REQUIRED", message: "This field is required" }] },
            options: {
              "12": {
                _errors: [
                  { code: "A", message: "a" },
                  { code: "B", message: "b" },
                ],
              },
            },
          },
        },
        _errors: [{ code: "ROOT", message: "root" }],
        description: "plain string leaf",
      }),
    ).toEqual([
      { path: "options[0].name", code: "BASE_TYPE_REQUIRED", message: "This field is required" },
      { path: "options[0].options[12]", code: "A", message: "a" },
      { path: "options[0].options[12]", code: "B", message: "b" },
      { path: "", code: "ROOT", message: "root" },
      { path: "description", code: "UNKNOWN", message: "plain string leaf" },
    ]);
  });

  test("anything that is not a tree gives no leaves", () => {
    expect(flattenErrorTree(undefined)).toEqual([]);
    expect(flattenErrorTree([1, 2])).toEqual([]);
    expect(flattenErrorTree({ a: { _errors: "not an array" } })).toEqual([]);
  });
});

describe("BucketQueue", () => {
  test("runs tasks one at a time, in call order, past failures", async () => {
    const queue = new BucketQueue("b");
    const log: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = queue.run(async () => {
      log.push("1 start");
      await gate;
      log.push("1 end");
      throw new Error("first fails");
    });
    const second = queue.run(async () => {
      log.push("2 start");
      return 2;
    });
    expect(queue.pending).toBe(2);
    await Promise.resolve();
    expect(log).toEqual(["1 start"]);
    release();
    await expect(first).rejects.toThrow("first fails");
    await expect(second).resolves.toBe(2);
    expect(log).toEqual(["1 start", "1 end", "2 start"]);
    expect(queue.pending).toBe(0);
  });

  test("waits only while Remaining is 0 and the reset is ahead", () => {
    const queue = new BucketQueue("b");
    expect(queue.waitMs(1000)).toBe(0);
    queue.update(0, 500, 1000);
    expect(queue.waitMs(1200)).toBe(300);
    expect(queue.waitMs(1500)).toBe(0);
    queue.update(2, 500, 2000);
    expect(queue.waitMs(2000)).toBe(0);
  });
});

test("backoff is exponential with full jitter, capped", () => {
  expect([1, 2, 3, 4].map((n) => backoffMs(n, () => 0.999))).toEqual([249, 499, 999, 1998]);
  expect(backoffMs(30, () => 0.5)).toBe(5000);
  expect(backoffMs(3, () => 0)).toBe(0);
});
