/**
 * SMPP relative time (§7.1.1) for a validity of `minutes`: "YYMMDDhhmmss000R", the years..seconds
 * being a duration rather than a date. Days beyond 99 (and months) are not needed: the platform
 * caps validity well below that, and longer values are clamped to 99 days.
 */
export function relativeValidity(minutes: number): string {
  const total = Math.max(1, Math.min(Math.round(minutes), 99 * 24 * 60));
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const mins = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return `0000${two(days)}${two(hours)}${two(mins)}00000R`;
}
