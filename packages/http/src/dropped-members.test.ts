import { describe, expect, it } from 'vitest';
import { droppedMembers, memberTree } from './dropped-members.js';

describe('droppedMembers', () => {
  it('when members were removed at any depth, then each is named by its dotted path', () => {
    const before = {
      a: 1,
      extra: true,
      message: { text: 'x', colour: 'red', suggestions: [{ reply: { text: 'y', z: 1 } }] },
    };
    const after = { a: 1, message: { text: 'x', suggestions: [{ reply: { text: 'y' } }] } };
    expect(droppedMembers(memberTree(before), after)).toEqual([
      'extra',
      'message.colour',
      'message.suggestions.0.reply.z',
    ]);
  });

  it('when nothing was removed (defaults may have been added), then none', () => {
    expect(droppedMembers({ a: { b: [1] } }, { a: { b: [1], c: false }, d: 1 })).toEqual([]);
  });

  it('when a body nests thousands of levels, then its tree stops at a bounded depth', () => {
    const root: Record<string, unknown> = {};
    let node = root;
    for (let i = 0; i < 20_000; i += 1) {
      node.a = {};
      node = node.a as Record<string, unknown>;
    }
    const tree = memberTree(root);
    expect(droppedMembers(tree, root)).toEqual([]);
    expect(droppedMembers(tree, {})).toEqual(['a']);
  });
});
