/** How far ahead a batch may be scheduled (specification 8.1: 7 days). */
export const SCHEDULE_HORIZON_MS = 7 * 24 * 3_600_000;

// YYYY-MM-DDTHH:MM[:SS[.fraction]] with an optional zone: Z, ±HH:MM, ±HHMM or ±HH.
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/**
 * schedule_at: an ISO 8601 date-time; without a zone it is UTC. Returns undefined when the text
 * is not one or names a moment that does not exist (2026-02-30, 24:00, offset +25:00).
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
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return undefined;
  const millis = Math.floor(Number(`0.${fraction || '0'}`) * 1000);
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return new Date(local - (sign ? offset : 0));
}
