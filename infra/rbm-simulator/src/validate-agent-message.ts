/**
 * RBM's own checks on `phones.agentMessages.create`, as its reference documents them; the first
 * problem found is returned as an INVALID_ARGUMENT message. Google's JSON parser also refuses
 * unknown field names, which catches a client's misspelt field.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const TRAFFIC_TYPES = new Set([
  'AUTHENTICATION',
  'TRANSACTION',
  'PROMOTION',
  'SERVICEREQUEST',
  'ACKNOWLEDGEMENT',
]);
const ACTION_KINDS = [
  'dialAction',
  'openUrlAction',
  'viewLocationAction',
  'createCalendarEventAction',
  'shareLocationAction',
];

function unknownField(value: Json, allowed: readonly string[], where: string): string | undefined {
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  return extra === undefined
    ? undefined
    : `Invalid JSON payload received. Unknown name "${extra}" at '${where}': Cannot find field.`;
}

function checkText(value: unknown, max: number, where: string): string | undefined {
  if (typeof value !== 'string' || value === '') return `${where}: required string`;
  return [...value].length > max ? `${where}: at most ${max} characters` : undefined;
}

function checkSuggestion(s: unknown, where: string): string | undefined {
  if (!isObject(s)) return `${where}: expected an object`;
  const kinds = ['reply', 'action'].filter((k) => k in s);
  if (kinds.length !== 1) return `${where}: exactly one of reply, action`;
  const kind = kinds[0] as string;
  const body = s[kind];
  if (!isObject(body)) return `${where}.${kind}: expected an object`;
  const problem =
    checkText(body.text, 25, `${where}.${kind}.text`) ??
    checkText(body.postbackData, 2048, `${where}.${kind}.postbackData`);
  if (problem || kind === 'reply') return problem;
  const actions = ACTION_KINDS.filter((k) => k in body);
  return actions.length === 1 ? undefined : `${where}.action: exactly one action kind`;
}

function checkSuggestions(list: unknown, max: number, where: string): string | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return `${where}: expected a list`;
  if (list.length > max) return `${where}: at most ${max} suggestions`;
  for (const [i, s] of list.entries()) {
    const problem = checkSuggestion(s, `${where}[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}

function checkContentInfo(info: unknown, where: string): string | undefined {
  if (!isObject(info)) return `${where}: expected an object`;
  return (
    unknownField(info, ['fileUrl', 'thumbnailUrl', 'forceRefresh'], where) ??
    (typeof info.fileUrl === 'string' && /^https?:\/\//.test(info.fileUrl)
      ? undefined
      : `${where}.fileUrl: required http(s) URL`)
  );
}

function checkCard(card: unknown, where: string): string | undefined {
  if (!isObject(card)) return `${where}: expected an object`;
  if (typeof card.title === 'string' && card.title.length > 200)
    return `${where}.title: at most 200 characters`;
  if (typeof card.description === 'string' && card.description.length > 2000) {
    return `${where}.description: at most 2000 characters`;
  }
  if (card.media !== undefined) {
    if (!isObject(card.media)) return `${where}.media: expected an object`;
    const problem = checkContentInfo(card.media.contentInfo, `${where}.media.contentInfo`);
    if (problem) return problem;
  }
  return checkSuggestions(card.suggestions, 4, `${where}.suggestions`);
}

function checkRichCard(rich: unknown): string | undefined {
  if (!isObject(rich)) return 'contentMessage.richCard: expected an object';
  if (isObject(rich.standaloneCard)) {
    const card = rich.standaloneCard;
    if (card.cardOrientation !== 'VERTICAL' && card.cardOrientation !== 'HORIZONTAL') {
      return 'richCard.standaloneCard.cardOrientation: VERTICAL or HORIZONTAL';
    }
    return checkCard(card.cardContent, 'richCard.standaloneCard.cardContent');
  }
  if (isObject(rich.carouselCard)) {
    const cards = rich.carouselCard.cardContents;
    if (!Array.isArray(cards) || cards.length < 2 || cards.length > 10) {
      return 'richCard.carouselCard.cardContents: 2 to 10 cards';
    }
    for (const [i, card] of cards.entries()) {
      const problem = checkCard(card, `richCard.carouselCard.cardContents[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  return 'contentMessage.richCard: one of standaloneCard, carouselCard';
}

export function validateAgentMessage(body: unknown): string | undefined {
  if (!isObject(body)) return 'body: expected a JSON object';
  const top = unknownField(
    body,
    ['contentMessage', 'messageTrafficType', 'ttl', 'expireTime', 'name', 'sendTime'],
    'agent_message',
  );
  if (top) return top;
  if (
    body.messageTrafficType !== undefined &&
    !TRAFFIC_TYPES.has(String(body.messageTrafficType))
  ) {
    return 'messageTrafficType: unknown value';
  }
  if (body.ttl !== undefined && body.expireTime !== undefined)
    return 'ttl and expireTime: only one';
  if (body.ttl !== undefined && !/^\d+(\.\d{1,9})?s$/.test(String(body.ttl))) {
    return 'ttl: a duration such as "3600s"';
  }
  if (body.expireTime !== undefined && Number.isNaN(Date.parse(String(body.expireTime)))) {
    return 'expireTime: an RFC 3339 timestamp';
  }
  const content = body.contentMessage;
  if (!isObject(content)) return 'contentMessage: required';
  const unknown = unknownField(
    content,
    ['text', 'richCard', 'contentInfo', 'fileName', 'uploadedRbmFile', 'suggestions'],
    'agent_message.content_message',
  );
  if (unknown) return unknown;
  const kinds = ['text', 'richCard', 'contentInfo', 'fileName', 'uploadedRbmFile'].filter(
    (k) => k in content,
  );
  if (kinds.length !== 1)
    return 'contentMessage: exactly one of text, richCard, contentInfo, fileName';
  const problem =
    kinds[0] === 'text'
      ? checkText(content.text, 3072, 'contentMessage.text')
      : kinds[0] === 'richCard'
        ? checkRichCard(content.richCard)
        : kinds[0] === 'contentInfo'
          ? checkContentInfo(content.contentInfo, 'contentMessage.contentInfo')
          : undefined;
  return problem ?? checkSuggestions(content.suggestions, 11, 'contentMessage.suggestions');
}
