/**
 * Quota days are calendar days in Europe/Berlin (generator/gate/state.py: quota_day,
 * next_reset, seconds_until). A day has 23, 24 or 25 hours; midnight always exists there
 * (the clocks change at 02:00/03:00).
 */

const parts = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Berlin",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

function wallClock(ms: number): { date: string; hour: number; minute: number } {
  const p = Object.fromEntries(parts.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour), minute: Number(p.minute) };
}

/** The Berlin calendar day of an instant, `YYYY-MM-DD`. */
export function quotaDay(ms: number): string {
  return wallClock(ms).date;
}

export interface Reset {
  /** The next Berlin midnight, in ms since the epoch. */
  ms: number;
  /** The same instant as Python's `datetime.isoformat()` in Berlin time. */
  iso: string;
}

/** The next midnight in Europe/Berlin after `ms`. */
export function nextReset(ms: number): Reset {
  const [y, m, d] = quotaDay(ms).split("-").map(Number);
  const tomorrow = new Date(Date.UTC(y, m - 1, d + 1));
  const date = tomorrow.toISOString().slice(0, 10);
  // Berlin is UTC+1 in winter and UTC+2 in summer: take the offset whose wall clock reads 00:00.
  for (const offset of [1, 2]) {
    const candidate = tomorrow.getTime() - offset * 3_600_000;
    const wall = wallClock(candidate);
    if (wall.date === date && wall.hour === 0 && wall.minute === 0) {
      return { ms: candidate, iso: `${date}T00:00:00+0${offset}:00` };
    }
  }
  throw new Error(`no midnight found in Europe/Berlin on ${date}`);
}

/** Whole seconds from `now` to `then`, rounded up (as `seconds_until`). */
export function secondsUntil(nowMs: number, thenMs: number): number {
  return Math.ceil((thenMs - nowMs) / 1000);
}
