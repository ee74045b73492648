/** What a simulated handset does with RCS. */
export interface DeviceProfile {
  /** false: capability checks and sends answer 404 NOT_FOUND (not RCS-reachable). */
  capable: boolean;
  /** RBM feature names the capability check lists. */
  features: string[];
  /** false: messages stay undelivered (for revoke and TTL tests). */
  deliver: boolean;
  /** false: delivered messages are never read. */
  read: boolean;
}

/** Every RBM capability feature, as `phones.getCapabilities` names them. */
export const ALL_FEATURES = [
  'RICHCARD_STANDALONE',
  'RICHCARD_CAROUSEL',
  'ACTION_CREATE_CALENDAR_EVENT',
  'ACTION_DIAL',
  'ACTION_OPEN_URL',
  'ACTION_SHARE_LOCATION',
  'ACTION_VIEW_LOCATION',
] as const;

export const CAPABLE: DeviceProfile = {
  capable: true,
  features: [...ALL_FEATURES],
  deliver: true,
  read: true,
};
export const NOT_CAPABLE: DeviceProfile = {
  capable: false,
  features: [],
  deliver: false,
  read: false,
};

/**
 * A number without a set profile: capable with every feature, except numbers ending in 999
 * (not capable), so the demo has a non-RCS number without configuration.
 */
export function defaultProfile(phone: string): DeviceProfile {
  return phone.endsWith('999') ? NOT_CAPABLE : CAPABLE;
}

/** Reads a control API profile body; returns the profile or what is wrong with it. */
export function parseProfile(body: unknown): DeviceProfile | string {
  if (typeof body !== 'object' || body === null) return 'body: expected a JSON object';
  const b = body as Record<string, unknown>;
  if (typeof b.capable !== 'boolean') return 'capable: required boolean';
  for (const key of ['deliver', 'read'] as const) {
    if (b[key] !== undefined && typeof b[key] !== 'boolean') return `${key}: expected a boolean`;
  }
  if (
    b.features !== undefined &&
    (!Array.isArray(b.features) || b.features.some((f) => typeof f !== 'string'))
  ) {
    return 'features: expected a list of strings';
  }
  const base = b.capable ? CAPABLE : NOT_CAPABLE;
  return {
    capable: b.capable,
    features: b.capable ? ((b.features as string[] | undefined) ?? base.features) : [],
    deliver: b.capable && ((b.deliver as boolean | undefined) ?? true),
    read: b.capable && ((b.read as boolean | undefined) ?? true),
  };
}
