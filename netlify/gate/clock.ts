/**
 * Quota days are calendar days in the contract's time zone (routes.json `settings.timezone`,
 * Europe/Berlin; generator/gate/model.py: quota_day, next_reset, seconds_until). A day there
 * has 23, 24 or 25 hours.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function wallClock(ms: number, timeZone: string): { date: string; hour: number; minute: number } {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour), minute: Number(p.minute) };
}

/** The calendar day of an instant in `timeZone`, `YYYY-MM-DD`. */
export function quotaDay(ms: number, timeZone: string): string {
  return wallClock(ms, timeZone).date;
}

export interface Reset {
  /** The next midnight, in ms since the epoch. */
  ms: number;
  /** The same instant as Python's `datetime.isoformat()` in that zone's time. */
  iso: string;
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

// One search per zone and day: every keyed request of the day asks for the same midnight.
const resets = new Map<string, Reset>();

/** The next midnight in `timeZone` after `ms`. */
export function nextReset(ms: number, timeZone: string): Reset {
  const [y, m, d] = quotaDay(ms, timeZone).split("-").map(Number);
  const tomorrow = new Date(Date.UTC(y, m - 1, d + 1));
  const date = tomorrow.toISOString().slice(0, 10);
  const known = resets.get(`${timeZone} ${date}`);
  if (known) return known;
  // The zone's offset that day is whole quarter hours between -12 and +14; the earliest
  // instant whose wall clock reads 00:00 is the midnight (the largest offset comes first).
  for (let offset = 14 * 60; offset >= -12 * 60; offset -= 15) {
    const candidate = tomorrow.getTime() - offset * 60_000;
    const wall = wallClock(candidate, timeZone);
    if (wall.date === date && wall.hour === 0 && wall.minute === 0) {
      const reset = { ms: candidate, iso: `${date}T00:00:00${offsetText(offset)}` };
      if (resets.size > 16) resets.clear();
      resets.set(`${timeZone} ${date}`, reset);
      return reset;
    }
  }
  throw new Error(`no midnight found in ${timeZone} on ${date}`);
}

/** Whole seconds from `now` to `then`, rounded up (as `seconds_until`). */
export function secondsUntil(nowMs: number, thenMs: number): number {
  return Math.ceil((thenMs - nowMs) / 1000);
}
