import { createHash } from 'node:crypto';

/** What the simulated network answers for a number. `unavailable` is answered 503. */
export const HLR_STATUSES = [
  'reachable',
  'absent',
  'barred',
  'unknown_subscriber',
  'not_provisioned',
  'unavailable',
] as const;
export type HlrStatus = (typeof HLR_STATUSES)[number];

export function isHlrStatus(value: unknown): value is HlrStatus {
  return typeof value === 'string' && (HLR_STATUSES as readonly string[]).includes(value);
}

/** Digits with country code, no plus: a leading non-zero digit and 7 to 15 digits in all. */
export const MSISDN_PATTERN = /^[1-9][0-9]{6,14}$/;

/** The body of a 200 answer; every field is a string (`imsi` is empty when there is no subscriber). */
export interface HlrAnswer {
  msisdn: string;
  status: Exclude<HlrStatus, 'unavailable'>;
  imsi: string;
  mcc: string;
  mnc: string;
  network: string;
  checked_at: string;
}

interface Network {
  mcc: string;
  mnc: string;
  name: string;
}

const TELIA: Network = { mcc: '240', mnc: '01', name: 'Telia' };
const TRE: Network = { mcc: '240', mnc: '02', name: 'Tre' };
const TELE2: Network = { mcc: '240', mnc: '07', name: 'Tele2' };
const TELENOR: Network = { mcc: '240', mnc: '08', name: 'Telenor' };

/**
 * Mobile number ranges the simulated HLR knows, longest prefix first wins. Swedish 07x ranges
 * are split between the four radio networks by a simple, documented rule (real ranges are
 * mixed and ported); a few foreign mobile ranges answer from their home network.
 */
const RANGES: ReadonlyArray<readonly [prefix: string, network: Network]> = [
  ['46700', TELIA],
  ['46701', TELIA],
  ['46702', TELIA],
  ['46703', TELIA],
  ['46704', TELIA],
  ['46705', TELE2],
  ['46706', TELE2],
  ['46707', TELE2],
  ['46708', TELENOR],
  ['46709', TELENOR],
  ['4672', TELIA],
  ['4673', TELENOR],
  ['4676', TRE],
  ['4679', TELE2],
  ['474', { mcc: '242', mnc: '01', name: 'Telenor Norge' }],
  ['479', { mcc: '242', mnc: '02', name: 'Telia Norge' }],
  ['452', { mcc: '238', mnc: '01', name: 'TDC' }],
  ['3584', { mcc: '244', mnc: '05', name: 'Elisa' }],
  ['447', { mcc: '234', mnc: '15', name: 'Vodafone UK' }],
];

/** Test patterns on the last three digits of a known mobile number. */
const SUFFIX_STATUS: Readonly<Record<string, HlrStatus>> = {
  '991': 'absent',
  '992': 'barred',
  '993': 'unknown_subscriber',
  '994': 'not_provisioned',
  '995': 'unavailable',
};

function networkOf(msisdn: string): Network | undefined {
  let best: readonly [string, Network] | undefined;
  for (const range of RANGES) {
    if (msisdn.startsWith(range[0]) && (!best || range[0].length > best[0].length)) best = range;
  }
  return best?.[1];
}

/** The default status of a number when no override is set. */
export function defaultStatus(msisdn: string): HlrStatus {
  if (!networkOf(msisdn)) return 'not_provisioned';
  return SUFFIX_STATUS[msisdn.slice(-3)] ?? 'reachable';
}

/** A stable IMSI per number: MCC + MNC + a 10-digit MSIN derived from the number (15 digits). */
function imsiOf(msisdn: string, network: Network): string {
  const digest = createHash('sha256').update(msisdn).digest();
  const msin = (digest.readBigUInt64BE(0) % 10_000_000_000n).toString().padStart(10, '0');
  return `${network.mcc}${network.mnc}${msin}`;
}

/**
 * The answer for `msisdn` with `status`. Numbers outside the known ranges have no network:
 * mcc, mnc, network and imsi are empty strings. A subscriber unknown to the network or not
 * provisioned has no IMSI; the answering network is still given.
 */
export function answerFor(
  msisdn: string,
  status: Exclude<HlrStatus, 'unavailable'>,
  now: Date,
): HlrAnswer {
  const network = networkOf(msisdn);
  const hasSubscriber = status !== 'unknown_subscriber' && status !== 'not_provisioned';
  return {
    msisdn,
    status,
    imsi: network && hasSubscriber ? imsiOf(msisdn, network) : '',
    mcc: network?.mcc ?? '',
    mnc: network?.mnc ?? '',
    network: network?.name ?? '',
    checked_at: now.toISOString(),
  };
}
