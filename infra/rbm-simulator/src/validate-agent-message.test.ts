import { describe, expect, it } from 'vitest';
import { validateAgentMessage } from './validate-agent-message.js';

const reply = (text = 'Yes', postbackData = 'yes') => ({ reply: { text, postbackData } });
const card = {
  title: 'T',
  media: { height: 'SHORT', contentInfo: { fileUrl: 'https://x/a.png' } },
};

describe('validateAgentMessage', () => {
  it.each([
    [
      'text with suggestions',
      { contentMessage: { text: 'hi', suggestions: [reply()] }, ttl: '60s' },
    ],
    [
      'a file',
      { contentMessage: { contentInfo: { fileUrl: 'https://x/a.pdf', forceRefresh: true } } },
    ],
    [
      'a standalone card',
      {
        contentMessage: {
          richCard: { standaloneCard: { cardOrientation: 'VERTICAL', cardContent: card } },
        },
      },
    ],
    [
      'a carousel of 2',
      {
        contentMessage: {
          richCard: { carouselCard: { cardWidth: 'SMALL', cardContents: [card, card] } },
        },
      },
    ],
    [
      'a dial action',
      {
        contentMessage: {
          text: 'x',
          suggestions: [
            {
              action: {
                text: 'Call',
                postbackData: 'c',
                dialAction: { phoneNumber: '+15551234567' },
              },
            },
          ],
        },
        messageTrafficType: 'PROMOTION',
      },
    ],
  ])('accepts %s', (_name, body) => {
    expect(validateAgentMessage(body)).toBeUndefined();
  });

  it.each([
    ['no content', { contentMessage: {} }, 'exactly one of text'],
    ['two contents', { contentMessage: { text: 'a', fileName: 'files/1' } }, 'exactly one of text'],
    [
      'text over 3072',
      { contentMessage: { text: 'é'.repeat(3073) } },
      'contentMessage.text: at most 3072',
    ],
    [
      '12 suggestions',
      { contentMessage: { text: 'a', suggestions: Array.from({ length: 12 }, () => reply()) } },
      'at most 11',
    ],
    [
      'suggestion text over 25',
      { contentMessage: { text: 'a', suggestions: [reply('x'.repeat(26))] } },
      'reply.text: at most 25',
    ],
    [
      'postback over 2048',
      { contentMessage: { text: 'a', suggestions: [reply('a', 'p'.repeat(2049))] } },
      'postbackData: at most 2048',
    ],
    [
      'an action without kind',
      {
        contentMessage: { text: 'a', suggestions: [{ action: { text: 'a', postbackData: 'b' } }] },
      },
      'exactly one action kind',
    ],
    [
      'a carousel of 1',
      {
        contentMessage: {
          richCard: { carouselCard: { cardWidth: 'SMALL', cardContents: [card] } },
        },
      },
      '2 to 10',
    ],
    [
      'a card with 5 suggestions',
      {
        contentMessage: {
          richCard: {
            standaloneCard: {
              cardOrientation: 'VERTICAL',
              cardContent: { ...card, suggestions: Array.from({ length: 5 }, () => reply()) },
            },
          },
        },
      },
      'at most 4',
    ],
    [
      'an unknown field',
      { contentMessage: { text: 'a' }, priority: 'HIGH' },
      'Unknown name "priority"',
    ],
    ['a misspelt content field', { contentMessage: { txt: 'a' } }, 'Unknown name "txt"'],
    [
      'a bad traffic type',
      { contentMessage: { text: 'a' }, messageTrafficType: 'SPAM' },
      'messageTrafficType',
    ],
    [
      'ttl and expireTime',
      { contentMessage: { text: 'a' }, ttl: '1s', expireTime: '2030-01-01T00:00:00Z' },
      'only one',
    ],
    ['a bad ttl', { contentMessage: { text: 'a' }, ttl: '1h' }, 'ttl'],
  ])('refuses %s', (_name, body, problem) => {
    expect(validateAgentMessage(body)).toContain(problem);
  });
});
