/** The feature names of spec 2.5's capability response. */
export const RCS_FEATURES = [
  'RICHCARD',
  'ACTION_CREATE_CALENDAR_EVENT',
  'ACTION_DIAL',
  'ACTION_OPEN_URL',
  'ACTION_SHARE_LOCATION',
  'ACTION_VIEW_LOCATION',
] as const;
export type RcsFeature = (typeof RCS_FEATURES)[number];

/** RBM's names for what the specification calls RICHCARD (either card kind means rich cards). */
const RICHCARD_FEATURES = new Set(['RICHCARD_STANDALONE', 'RICHCARD_CAROUSEL']);
const KNOWN: ReadonlySet<string> = new Set(RCS_FEATURES);

/**
 * RBM's capability features in the specification's vocabulary, in its order, each once: both
 * rich-card kinds become RICHCARD, the ACTION_* names are the same on both sides, and anything
 * else (REVOCATION and whatever RBM adds) is dropped: a client matches on a closed list.
 */
export function specFeatures(rbmFeatures: readonly string[]): RcsFeature[] {
  const present = new Set(
    rbmFeatures.map((feature) => (RICHCARD_FEATURES.has(feature) ? 'RICHCARD' : feature)),
  );
  return RCS_FEATURES.filter((feature) => present.has(feature) && KNOWN.has(feature));
}
