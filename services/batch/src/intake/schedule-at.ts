/** How far ahead a batch may be scheduled (specification 8.1: 7 days). */
export const SCHEDULE_HORIZON_MS = 7 * 24 * 3_600_000;

// YYYY-MM-DDTHH:MM[:SS[.fraction]] with an optional zone: Z, ±HH:MM, ±HHMM or ±HH.
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/**
 * Date.UTC with the year taken as written: Date.UTC (and new Date) read years 0-99 as 1900-1999,
 * so `0050-01-01` would become 1950. setUTCFullYear has no such mapping.
 */
function utcMillis(year: number, monthIndex: number, day: number, ...time: number[]): number {
  const [hour = 0, minute = 0, second = 0, millis = 0] = time;
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime();
}

// ISO year 0000 is 1 BC: PostgreSQL stores it, but node-postgres does not read it back as written.
const FIRST_STORABLE_MOMENT = utcMillis(1, 0, 1);

/**
 * schedule_at: an ISO 8601 date-time; without a zone it is UTC. Returns undefined when the text
 * is not one, names a moment that does not exist (2026-02-30, 24:00, offset +25:00), or one
 * before year 1. Years 0001-0099 are kept as written (in the past, so the batch starts at once).
 */
export function parseScheduleAt(text: string): Date | undefined {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '0', fraction = '', , sign, oh = '0', om = '0'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const daysInMonth = new Date(utcMillis(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return undefined;
  const millis = Math.floor(Number(`0.${fraction || '0'}`) * 1000);
  const local = utcMillis(year, month - 1, day, hour, minute, second, millis);
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const at = local - (sign ? offset : 0);
  return at < FIRST_STORABLE_MOMENT ? undefined : new Date(at);
}
