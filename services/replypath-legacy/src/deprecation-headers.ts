import { deprecationHeaders, REPLYPATH_LEGACY_DEPRECATION } from '@msg/contracts';

/** On every answer of the interface: successes set them, the error format adds them to errors. */
export const DEPRECATION_HEADERS = deprecationHeaders(REPLYPATH_LEGACY_DEPRECATION);
