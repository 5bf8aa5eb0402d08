/**
 * Calling windows in the callee's local time (docs/campaigns.md, "Calling windows"). A window is a daily
 * span (`09:00`–`20:00`) on some weekdays, read in each of the callee's time zones. A number tells us its
 * country (libphonenumber-js), not its zone: a country spanning several zones (the US has 29 in the IANA
 * database) is open only while the window is open in *every* one of them, so nobody is rung at 7:00 their
 * time because most of their country is awake. An explicit time zone (the campaign's or the contact's
 * `timeZone` field) narrows it to one zone. Pure: Intl only, no I/O.
 */

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface CallingWindow {
  /** `HH:MM`, local time, inclusive. */
  readonly start: string;
  /** `HH:MM`, local time, exclusive; after `start`. */
  readonly end: string;
  readonly days: readonly Weekday[];
}

/** Weekdays, 9:00 to 20:00: inside what US (TCPA: 8:00–21:00) and most EU rules allow, with margin. */
export const DEFAULT_WINDOW: CallingWindow = { start: '09:00', end: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] };

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The time zones of an ISO 3166-1 alpha-2 region (from the runtime's CLDR data), or none. */
export function zonesOfRegion(region: string): string[] {
  try {
    const locale = new Intl.Locale(`und-${region.toUpperCase()}`) as Intl.Locale & { timeZones?: string[] };
    return [...(locale.timeZones ?? [])];
  } catch {
    return [];
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** One formatter per zone: building one costs far more than formatting with it. */
function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', weekday: 'short', hour: '2-digit', minute: '2-digit' });
    formatters.set(zone, f);
  }
  return f;
}

/** The weekday and minute of the day at `atMs` in `zone`. */
export function localTime(zone: string, atMs: number): { day: Weekday; minute: number } {
  let day: Weekday = 'sun';
  let hour = 0;
  let minute = 0;
  for (const part of formatterOf(zone).formatToParts(atMs)) {
    if (part.type === 'weekday') day = part.value.slice(0, 3).toLowerCase() as Weekday;
    else if (part.type === 'hour') hour = Number(part.value) % 24;
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return { day, minute: hour * 60 + minute };
}

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the window is open at `atMs` in every one of `zones`. */
export function isOpen(window: CallingWindow, zones: readonly string[], atMs: number): boolean {
  const from = minuteOf(window.start);
  const to = minuteOf(window.end);
  return zones.every((zone) => {
    const t = localTime(zone, atMs);
    return window.days.includes(t.day) && t.minute >= from && t.minute < to;
  });
}

/** Coarse step of the search: zone offsets are whole quarter hours, and so are the windows people set. */
const STEP_MS = 15 * 60_000;
/** A week and a day: any window with at least one day opens within it. */
const HORIZON_MS = 8 * 24 * 60 * 60_000;

/**
 * The first moment at or after `fromMs` when the window is open in every zone, to the minute; undefined
 * when it never is within eight days (zones too far apart for the window to overlap).
 */
export function nextOpen(window: CallingWindow, zones: readonly string[], fromMs: number): number | undefined {
  if (isOpen(window, zones, fromMs)) return fromMs;
  const start = Math.ceil(fromMs / 60_000) * 60_000;
  for (let t = start; t <= fromMs + HORIZON_MS; t += STEP_MS) {
    if (!isOpen(window, zones, t)) continue;
    // Opened within the last step: find the minute.
    let low = Math.max(start, t - STEP_MS);
    let high = t;
    while (high - low > 60_000) {
      const mid = low + Math.floor((high - low) / 120_000) * 60_000;
      if (isOpen(window, zones, mid)) high = mid;
      else low = mid;
    }
    return isOpen(window, zones, low) ? low : high;
  }
  return undefined;
}
