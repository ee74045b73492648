import { describe, expect, it } from 'vitest';
import { deprecationHeaders, REPLYPATH_LEGACY_DEPRECATION } from './deprecation.js';

describe('deprecationHeaders', () => {
  it('when the legacy reply-path deprecation is rendered, then Deprecation is @ and Unix seconds and Link names the successor', () => {
    expect(deprecationHeaders(REPLYPATH_LEGACY_DEPRECATION)).toEqual({
      Deprecation: '@1795478400',
      Link: '</replypath/v1/sendsms>; rel="successor-version"',
    });
  });
});
