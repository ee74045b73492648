import { describe, expect, it } from 'vitest';
import { toAgentMessageRequest } from './rbm-request.js';

describe('toAgentMessageRequest', () => {
  it('maps every member name to camelCase and keeps values (enums, URLs) as they are', () => {
    expect(
      toAgentMessageRequest({
        messageTrafficType: 'PROMOTION',
        content: {
          rich_card: {
            carousel_card: {
              card_width: 'MEDIUM',
              card_contents: [
                {
                  title: 'a_b',
                  suggestions: [
                    {
                      action: {
                        text: 'Map',
                        postback_data: 'map',
                        view_location_action: {
                          lat_long: { latitude: 1.5, longitude: -2 },
                          label: 'here',
                        },
                      },
                    },
                    {
                      action: {
                        text: 'Open',
                        postback_data: 'open',
                        open_url_action: {
                          url: 'https://example.com/x_y',
                          application: 'WEBVIEW',
                          webview_view_mode: 'HALF',
                        },
                      },
                    },
                  ],
                },
                {
                  description: 'd',
                  suggestions: [
                    {
                      action: {
                        text: 'Cal',
                        postback_data: 'cal',
                        create_calendar_event_action: {
                          title: 't',
                          description: 'd',
                          start_time: '2026-01-01T00:00:00Z',
                          end_time: '2026-01-01T01:00:00Z',
                        },
                      },
                    },
                  ],
                },
              ],
            },
          },
        },
      }),
    ).toEqual({
      messageTrafficType: 'PROMOTION',
      contentMessage: {
        richCard: {
          carouselCard: {
            cardWidth: 'MEDIUM',
            cardContents: [
              {
                title: 'a_b',
                suggestions: [
                  {
                    action: {
                      text: 'Map',
                      postbackData: 'map',
                      viewLocationAction: {
                        latLong: { latitude: 1.5, longitude: -2 },
                        label: 'here',
                      },
                    },
                  },
                  {
                    action: {
                      text: 'Open',
                      postbackData: 'open',
                      openUrlAction: {
                        url: 'https://example.com/x_y',
                        application: 'WEBVIEW',
                        webviewViewMode: 'HALF',
                      },
                    },
                  },
                ],
              },
              {
                description: 'd',
                suggestions: [
                  {
                    action: {
                      text: 'Cal',
                      postbackData: 'cal',
                      createCalendarEventAction: {
                        title: 't',
                        description: 'd',
                        startTime: '2026-01-01T00:00:00Z',
                        endTime: '2026-01-01T01:00:00Z',
                      },
                    },
                  },
                ],
              },
            ],
          },
        },
      },
    });
  });

  it('leaves out MESSAGE_TRAFFIC_TYPE_UNSPECIFIED and gives ttl as a Duration', () => {
    expect(
      toAgentMessageRequest({
        content: { text: 'x' },
        messageTrafficType: 'MESSAGE_TRAFFIC_TYPE_UNSPECIFIED',
        ttlSeconds: 3600,
      }),
    ).toEqual({ contentMessage: { text: 'x' }, ttl: '3600s' });
    expect(
      toAgentMessageRequest({
        content: { text: 'x' },
        messageTrafficType: 'TRANSACTION',
        ttlSeconds: null,
      }),
    ).toEqual({ contentMessage: { text: 'x' }, messageTrafficType: 'TRANSACTION' });
  });
});
