/** How the callee treats a dialled number (README "Behaviours"). */
export const BEHAVIOURS = [
  'human',
  'machine',
  'busy',
  'ring',
  'reject',
  'unavailable',
  'busy-then-human',
] as const;

export type Behaviour = (typeof BEHAVIOURS)[number];

export function isBehaviour(value: unknown): value is Behaviour {
  return typeof value === 'string' && (BEHAVIOURS as readonly string[]).includes(value);
}

/**
 * Default rules by the dialled number's last digits, so demos work without the control API.
 * Longest suffix first: `...4860` must not be read as `...860`.
 */
export const SUFFIX_RULES: readonly (readonly [suffix: string, behaviour: Behaviour])[] = [
  ['4860', 'busy-then-human'],
  ['486', 'busy'],
  ['603', 'reject'],
  ['480', 'unavailable'],
  ['000', 'ring'],
  ['777', 'machine'],
];

/**
 * The key a number is known by: the user part of the Request-URI with a leading `+` and visual
 * separators dropped when it is a phone number, so `+46 70-123 4486` and `46701234486` match.
 */
export function numberKey(raw: string): string {
  const trimmed = raw.trim();
  return /^\+?[\d\s().-]+$/.test(trimmed) ? trimmed.replace(/\D/g, '') : trimmed.toLowerCase();
}

export function suffixBehaviour(number: string): Behaviour | undefined {
  const key = numberKey(number);
  return SUFFIX_RULES.find(([suffix]) => key.endsWith(suffix))?.[1];
}
