import type { components } from '@msg/contracts/lookup-legacy';
import { findingNames, type NumbersAnswer } from '../numbers/numbers-answer.js';

export type SwedenLookup = components['schemas']['SwedenLookup'];
export type BasicLookup = components['schemas']['BasicLookup'];
export type AdvancedLookup = components['schemas']['AdvancedLookup'];
export type HlrValue = components['schemas']['HLR'];
export type Outcome = components['schemas']['R'];

/** R values (documented in lookup-legacy.yaml and the README). */
export const R = {
  ok: 0,
  invalidNumber: 1,
  unallocatedRange: 2,
  unsupportedCountry: 3,
  notMobile: 4,
  liveUnavailable: 5,
} as const satisfies Record<string, Outcome>;

/** Findings of the numbers service, strongest first, and the R each gives. */
const FINDING_OUTCOMES: ReadonlyArray<readonly [string, Outcome]> = [
  ['invalid_number', R.invalidNumber],
  ['unallocated_range', R.unallocatedRange],
  ['unsupported_country', R.unsupportedCountry],
  ['not_mobile', R.notMobile],
];

/** live_status.state (spec 2.7) → HLR. */
const HLR_VALUES: Readonly<Record<string, HlrValue>> = {
  reachable: 'OK',
  absent: 'ABSENT',
  barred: 'BARRED',
  unknown_subscriber: 'UNKNOWN',
  not_provisioned: 'NOT_PROVISIONED',
  unavailable: 'UNAVAILABLE',
};

const SNPAC_SPID = 'snpac_spid';
const SWEDEN_CC = '46';

const firstWord = (name: string) => name.trim().split(/\s+/)[0]?.toLowerCase() ?? '';

/**
 * A virtual operator runs on another operator's radio network: the numbers service names that
 * network in host_network, and neither the operator's name nor a brand of it starts with the
 * same word as the network's name ("Telia Sverige AB" on "Telia" is not virtual; "Lycamobile"
 * on "Telia" is).
 */
function isVirtualOperator(answer: NumbersAnswer): boolean {
  const host = answer.base.network?.host_network?.name;
  const provider = answer.base.network?.service_provider;
  if (!host || !provider?.name) return false;
  const hostWord = firstWord(host);
  return ![provider.name, ...(provider.brands ?? [])].some((name) => firstWord(name) === hostWord);
}

/** What every level has: CC, Country, IMSI, MCC, MNC (absent data as ""). */
function common(callingCode: string, answer: NumbersAnswer) {
  const { hlr } = answer;
  const host = answer.base.network?.host_network;
  const mcc = hlr?.mcc || host?.mcc || '';
  const mnc = isVirtualOperator(answer) ? '' : hlr?.mnc || host?.mnc || '';
  return {
    CC: callingCode,
    Country: answer.base.number?.country ?? '',
    IMSI: hlr?.imsi ?? '',
    MCC: mcc,
    MNC: mnc,
  };
}

function operatorOf(answer: NumbersAnswer): string {
  return answer.base.network?.service_provider?.name ?? '';
}

/** The SNPAC service provider id of the number's operator, or "". */
function spidOf(answer: NumbersAnswer): string {
  const provider = answer.base.network?.service_provider;
  return provider?.id_scheme === SNPAC_SPID ? (provider.id ?? '') : '';
}

function findingOutcome(answer: NumbersAnswer): Outcome | undefined {
  const names = new Set(findingNames(answer));
  return FINDING_OUTCOMES.find(([name]) => names.has(name))?.[1];
}

/**
 * HLR and R of a level that asked for the live status. A finding decides R and HLR is "" (R 1-4:
 * the mobile network is not asked, lookup-legacy.yaml), even when the numbers service sent a live
 * status with it (a landline's `not_provisioned`); otherwise a missing live status counts as
 * `unavailable`.
 */
function liveOutcome(answer: NumbersAnswer): { HLR: HlrValue; R: Outcome } {
  const finding = findingOutcome(answer);
  if (finding !== undefined) return { HLR: '', R: finding };
  const hlr = HLR_VALUES[answer.live_status?.state ?? 'unavailable'] ?? 'UNAVAILABLE';
  return { HLR: hlr, R: hlr === 'UNAVAILABLE' ? R.liveUnavailable : R.ok };
}

export function swedenLookup(callingCode: string, answer: NumbersAnswer): SwedenLookup {
  return {
    ...common(callingCode, answer),
    Operator: operatorOf(answer),
    SPID: spidOf(answer),
    R: findingOutcome(answer) ?? R.ok,
  };
}

export function basicLookup(callingCode: string, answer: NumbersAnswer): BasicLookup {
  return { ...common(callingCode, answer), ...liveOutcome(answer) };
}

/** SPID only for Swedish numbers whose operator has one ("advanced for some numbers", spec 2.8). */
export function advancedLookup(callingCode: string, answer: NumbersAnswer): AdvancedLookup {
  const spid = callingCode === SWEDEN_CC ? spidOf(answer) : '';
  const { HLR, R: outcome } = liveOutcome(answer);
  return {
    ...common(callingCode, answer),
    Operator: operatorOf(answer),
    ...(spid !== '' && { SPID: spid }),
    HLR,
    R: outcome,
  };
}
