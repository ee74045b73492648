import { describe, expect, it } from 'vitest';
import { specFeatures } from './features.js';

describe('specFeatures', () => {
  it("maps RBM's features to the specification's names, once each, in its order", () => {
    expect(
      specFeatures([
        'ACTION_VIEW_LOCATION',
        'RICHCARD_CAROUSEL',
        'REVOCATION',
        'RICHCARD_STANDALONE',
        'ACTION_DIAL',
        'ACTION_SOMETHING_NEW',
      ]),
    ).toEqual(['RICHCARD', 'ACTION_DIAL', 'ACTION_VIEW_LOCATION']);
  });

  it('gives RICHCARD for either card kind alone, and nothing for nothing', () => {
    expect(specFeatures(['RICHCARD_STANDALONE'])).toEqual(['RICHCARD']);
    expect(specFeatures(['RICHCARD_CAROUSEL'])).toEqual(['RICHCARD']);
    expect(specFeatures([])).toEqual([]);
  });
});
