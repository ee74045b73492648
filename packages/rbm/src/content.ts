/**
 * The agent message body of RBM's `phones.agentMessages.create`, field for field as Google's
 * REST reference and its generated Node.js client (rbm-api-examples) name them. Only what we send
 * is typed; RBM ignores nothing, so an unknown field here would be a 400 there.
 */

/** A file the RBM platform fetches (and caches) from a public URL. */
export interface ContentInfo {
  fileUrl: string;
  thumbnailUrl?: string;
  /** Fetch again even when the platform has a cached copy. */
  forceRefresh?: boolean;
}

export interface SuggestedReply {
  /** At most 25 characters. */
  text: string;
  /** Returned in the user's suggestionResponse; at most 2,048 characters. */
  postbackData: string;
}

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Exactly one of the action kinds is set. */
export type ActionKind =
  | { dialAction: { phoneNumber: string } }
  | { openUrlAction: { url: string } }
  | {
      viewLocationAction:
        | { latLong: LatLng; label?: string; query?: never }
        | { query: string; latLong?: never; label?: never };
    }
  | {
      createCalendarEventAction: {
        startTime: string;
        endTime: string;
        title: string;
        description?: string;
      };
    }
  | { shareLocationAction: Record<string, never> };

export type SuggestedAction = {
  text: string;
  postbackData: string;
  fallbackUrl?: string;
} & ActionKind;

export type Suggestion = { reply: SuggestedReply } | { action: SuggestedAction };

export type MediaHeight = 'SHORT' | 'MEDIUM' | 'TALL';

export interface CardMedia {
  height: MediaHeight;
  contentInfo: ContentInfo;
}

export interface CardContent {
  title?: string;
  description?: string;
  media?: CardMedia;
  /** At most 4 per card. */
  suggestions?: Suggestion[];
}

export interface StandaloneCard {
  cardOrientation: 'VERTICAL' | 'HORIZONTAL';
  /** Only for HORIZONTAL cards. */
  thumbnailImageAlignment?: 'LEFT' | 'RIGHT';
  cardContent: CardContent;
}

export interface CarouselCard {
  cardWidth: 'SMALL' | 'MEDIUM';
  /** 2 to 10 cards. */
  cardContents: CardContent[];
}

export type RichCard = { standaloneCard: StandaloneCard } | { carouselCard: CarouselCard };

/** Exactly one content kind; suggestions (at most 11 chips) go with any of them. */
export type ContentMessage = (
  | { text: string }
  | { richCard: RichCard }
  | { contentInfo: ContentInfo }
  | { fileName: string }
) & { suggestions?: Suggestion[] };

export type MessageTrafficType =
  | 'AUTHENTICATION'
  | 'TRANSACTION'
  | 'PROMOTION'
  | 'SERVICEREQUEST'
  | 'ACKNOWLEDGEMENT';

export interface AgentMessageRequest {
  contentMessage: ContentMessage;
  messageTrafficType?: MessageTrafficType;
  /** Time to live as a protobuf Duration, e.g. "3600s"; mutually exclusive with expireTime. */
  ttl?: string;
  /** RFC 3339 timestamp after which RBM revokes the message; mutually exclusive with ttl. */
  expireTime?: string;
}

/** What `agentMessages.create` answers: the message with its resource name and send time. */
export interface AgentMessage {
  name: string;
  sendTime?: string;
  contentMessage?: ContentMessage;
}
