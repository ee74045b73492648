import { describe, expect, it } from 'vitest';
import { parseSipTrunk } from './sip-trunk.js';

describe('parseSipTrunk', () => {
  it.each([
    ['sip:127.0.0.1:5070', { host: '127.0.0.1', port: 5070 }],
    ['sip:trunk.example.com', { host: 'trunk.example.com', port: 5060 }],
    ['sip:acme@10.0.0.1:5060', { host: '10.0.0.1', port: 5060, username: 'acme' }],
    [
      'sip:acme:p%40ss@10.0.0.1:5080',
      { host: '10.0.0.1', port: 5080, username: 'acme', password: 'p@ss' },
    ],
  ])('when %s, then %j', (uri, trunk) => {
    expect(parseSipTrunk(uri)).toEqual(trunk);
  });

  it.each([
    'http://x:5060',
    'sips:x:5061',
    'sip:',
    'sip:x:0',
    'sip:x:70000',
    'sip:a:%zz@x',
    'x:5060',
  ])('when %s, then refused', (uri) => {
    expect(parseSipTrunk(uri)).toBeUndefined();
  });
});
