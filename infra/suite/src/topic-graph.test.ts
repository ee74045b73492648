import { readFileSync } from 'node:fs';
import { asyncapiDocumentPath } from '@msg/contracts';
import { describe, expect, it } from 'vitest';
import { platformAsyncapiYaml, platformTopics } from './topic-graph.js';

describe('the topic graph of the platform', () => {
  it("when every service's declarations are read, then every topic has a producer and a typed consumer", () => {
    expect(platformTopics().problems).toEqual([]);
  });

  it('when events.yaml is compared with what the schemas and declarations generate, then it is the same (run gen:asyncapi of @msg/suite otherwise)', () => {
    expect(readFileSync(asyncapiDocumentPath(), 'utf8')).toBe(platformAsyncapiYaml());
  });
});
