/**
 * The global pace (RateLimiter): no more requests than the service's global limit can
 * share one of its windows, counted from each request's answer (it reached the service
 * before that), on an injected clock.
 */
import {
  GLOBAL_REQUESTS_PER_SECOND,
  PaceReservation,
  RateLimiter,
} from "../../provider/client/RateLimiter";

function limiter(perSecond = GLOBAL_REQUESTS_PER_SECOND): {
  rl: RateLimiter;
  at: (t: number) => void;
} {
  let now = 0;
  const rl = new RateLimiter(
    () => now,
    async () => undefined,
    perSecond,
  );
  return { rl, at: (t) => (now = t) };
}

test.each([
  // [sent, answered at t=0, now, expected wait]
  [49, 49, 0, 0], // room for one more
  [50, 0, 0, 10], // all in flight: look again soon
  [50, 50, 0, 1020], // all answered now: the oldest leaves the window in 1,020 ms
  [50, 50, 500, 520],
  [50, 50, 1020, 0],
  [50, 25, 1020, 10], // 25 answered long ago, 25 still in flight: room for 25 more
])("%i sent, %i answered at 0, at %i ms: waits %i ms", (sent, answered, now, wait) => {
  const { rl, at } = limiter();
  for (let i = 0; i < sent; i++) rl.sent();
  for (let i = 0; i < answered; i++) rl.answered();
  at(now);
  if (sent === 50 && answered === 25 && now === 1020) {
    // Room for 25 more before the in-flight 25 hold the pace.
    for (let i = 0; i < 25; i++) {
      expect(rl.globalWaitMs()).toBe(0);
      rl.sent();
    }
  }
  expect(rl.globalWaitMs()).toBe(wait);
});

test("a limit of 0 keeps no pace", () => {
  const { rl } = limiter(0);
  for (let i = 0; i < 500; i++) rl.sent();
  expect(rl.globalWaitMs()).toBe(0);
});

test("room for a list GET and its PUT is room for both in the global pace", () => {
  const { rl, at } = limiter();
  for (let i = 0; i < 49; i++) rl.sent();
  for (let i = 0; i < 49; i++) rl.answered();
  at(100);
  const listThenPut = [
    { spec: 7, method: "GET" as const, template: "/x", bucket: "list" },
    { spec: 12, method: "PUT" as const, template: "/x", bucket: "put" },
  ];
  expect(rl.globalWaitMs()).toBe(0); // one request fits
  expect(rl.roomWait(listThenPut, {})).toMatchObject({ global: true, waitMs: 920 });
  at(1020);
  expect(rl.roomWait(listThenPut, {})).toBeUndefined();
});

test("room held for a list GET and its PUT: other requests count it taken, the write spends it", () => {
  const { rl, at } = limiter();
  for (let i = 0; i < 48; i++) rl.sent();
  for (let i = 0; i < 48; i++) rl.answered();
  at(100);
  const pace = new PaceReservation();
  rl.hold(pace, 2); // room for exactly the write's two requests
  // Another scope's request would take the PUT's room: it waits for the window.
  expect(rl.globalWaitMs()).toBe(920);
  // The write's list GET goes; its PUT still finds its room while others wait.
  expect(rl.globalWaitMs(pace)).toBe(0);
  rl.sent(pace);
  rl.answered();
  expect(rl.globalWaitMs()).toBe(920);
  expect(rl.globalWaitMs(pace)).toBe(0);
  rl.sent(pace);
  expect(pace.held).toBe(0);
  // Spent: the write's next request keeps the pace like any other.
  expect(rl.globalWaitMs(pace)).toBe(920);
});

test("room held and not spent is let go (a write that finds nothing to PUT)", () => {
  const { rl, at } = limiter();
  for (let i = 0; i < 48; i++) rl.sent();
  for (let i = 0; i < 48; i++) rl.answered();
  at(100);
  const pace = new PaceReservation();
  rl.hold(pace, 2);
  rl.sent(pace);
  rl.answered();
  expect(rl.globalWaitMs()).toBe(920); // 49 answered + the PUT's held room
  rl.hold(pace, 0);
  expect(pace.held).toBe(0);
  expect(rl.globalWaitMs()).toBe(0); // the held room is free again
});

test("a limit of 0 holds nothing", () => {
  const { rl } = limiter(0);
  const pace = new PaceReservation();
  rl.hold(pace, 2);
  expect(pace.held).toBe(0);
  expect(rl.globalWaitMs()).toBe(0);
});
