import type { PhoneNumber } from 'libphonenumber-js/max';
import { ProviderUnavailableError } from '../errors.js';
import type { HlrAnswer } from '../live/hlr-client.js';
import type { LiveStatuses } from '../live/live-status.js';
import type { Registry, RegistryAnswer, RegistryProvider } from '../registry/registry.js';
import { readNumberInput } from './number-input.js';
import { type RangeFacts, rangeCarrier, rangeFacts } from './number-range.js';
import type {
  BaseView,
  Finding,
  LiveStatusView,
  PortingHistoryView,
  ProviderRef,
  Source,
} from './views.js';

/** Countries whose portability registry this service holds (spec: the registry covers Sweden). */
export const REGISTRY_COUNTRIES: ReadonlySet<string> = new Set(['SE']);

/** Types that do not give the finding not_mobile. */
const MOBILE_TYPES = new Set(['mobile', 'fixed_line_or_mobile']);

export const SNPAC_SPID = 'snpac_spid';
/** id_scheme of a provider known only by the carrier name of its number range. */
export const RANGE_CARRIER = 'range_carrier_name';

export interface ResolvedBase {
  base: BaseView;
  /** E.164 digits when the number was parsed (for Content-Location); absent on invalid_number. */
  digits?: string;
  /** True when the answer is findings only (no network): never cached, no aspect looked up. */
  findingsOnly: boolean;
  /** The registry answer the base came from, when it did. */
  registry?: RegistryAnswer;
}

export interface LiveResult {
  view: LiveStatusView;
  /** The network's details, for the internal endpoint. */
  hlr?: Pick<HlrAnswer, 'imsi' | 'mcc' | 'mnc' | 'network'>;
}

export interface NumberLookup {
  base(input: string, now: Date): Promise<ResolvedBase>;
  portingHistory(resolved: ResolvedBase, now: Date): Promise<PortingHistoryView>;
  liveStatus(resolved: ResolvedBase, now: Date): Promise<LiveResult>;
}

const rangeSource = (now: Date): Source => ({
  basis: 'number_range',
  as_of: now.toISOString(),
  valid_until: null,
});

function registrySource(answer: RegistryAnswer): Source {
  return {
    basis: 'portability_registry',
    as_of: `${answer.snapshot.snapshotDate}T00:00:00.000Z`,
    valid_until: answer.snapshot.validUntil.toISOString(),
  };
}

function providerRef(provider: RegistryProvider): ProviderRef {
  return { id: provider.spid, id_scheme: SNPAC_SPID, name: provider.name };
}

function numberOf(digits: string, facts: RangeFacts): BaseView['number'] {
  return {
    e164: digits,
    ...(facts.country && { country: facts.country }),
    type: facts.type,
    ...(facts.serviceCode && { service_code: facts.serviceCode }),
  };
}

function typeFindings(facts: RangeFacts): Finding[] {
  return MOBILE_TYPES.has(facts.type) ? [] : ['not_mobile'];
}

function fromRegistry(
  digits: string,
  facts: RangeFacts,
  answer: RegistryAnswer,
  provider: RegistryProvider,
): ResolvedBase {
  const base: BaseView = {
    number: numberOf(digits, facts),
    network: {
      service_provider: {
        ...providerRef(provider),
        ...(provider.brands.length > 0 && { brands: provider.brands }),
      },
      ...(provider.host && { host_network: provider.host }),
    },
    portability: {
      ported: answer.ported,
      ...(answer.rangeHolder && { range_holder: providerRef(answer.rangeHolder) }),
    },
    findings: typeFindings(facts),
    source: registrySource(answer),
  };
  return { base, digits, findingsOnly: false, registry: answer };
}

function findingsOnly(
  number: BaseView['number'],
  findings: Finding[],
  now: Date,
  digits?: string,
): ResolvedBase {
  return {
    base: { number, findings, source: rangeSource(now) },
    ...(digits && { digits }),
    findingsOnly: true,
  };
}

async function fromRange(
  digits: string,
  phone: PhoneNumber,
  facts: RangeFacts,
  now: Date,
): Promise<ResolvedBase> {
  const number = numberOf(digits, facts);
  // A global service number (+800, +882...) belongs to no country's data.
  if (!facts.country) return findingsOnly(number, ['unsupported_country'], now, digits);
  const carrier = await rangeCarrier(phone);
  if (!carrier) {
    // The registry covers every allocated Swedish number; elsewhere we have no provider data.
    const missing: Finding = REGISTRY_COUNTRIES.has(facts.country)
      ? 'unallocated_range'
      : 'unsupported_country';
    return findingsOnly(number, [...typeFindings(facts), missing], now, digits);
  }
  return {
    base: {
      number,
      network: { service_provider: { id: carrier, id_scheme: RANGE_CARRIER, name: carrier } },
      portability: { ported: false },
      findings: typeFindings(facts),
      source: rangeSource(now),
    },
    digits,
    findingsOnly: false,
  };
}

export interface NumberLookupDeps {
  registry: Registry;
  live: LiveStatuses;
}

/** Resolves the views of spec 2.7 from the registry, the range data and the live network. */
export function createNumberLookup({ registry, live }: NumberLookupDeps): NumberLookup {
  return {
    async base(input, now) {
      const read = readNumberInput(input);
      if (read.kind === 'invalid') {
        return findingsOnly({ e164: read.input }, ['invalid_number'], now);
      }
      const { digits, phone } = read;
      if (read.kind === 'unallocated') {
        return findingsOnly(
          { e164: digits, ...(phone.country && { country: phone.country }) },
          ['unallocated_range'],
          now,
          digits,
        );
      }
      const facts = rangeFacts(phone);
      if (facts.country && REGISTRY_COUNTRIES.has(facts.country)) {
        const answer = await registry.lookup(digits);
        if (!answer) {
          throw new ProviderUnavailableError(
            `The portability registry of ${facts.country} has no snapshot loaded yet`,
          );
        }
        if (answer.provider) return fromRegistry(digits, facts, answer, answer.provider);
      }
      return fromRange(digits, phone, facts, now);
    },

    async portingHistory(resolved, now) {
      const answer = resolved.registry;
      if (!answer || !resolved.digits) return { source: rangeSource(now) };
      const ports = await registry.history(resolved.digits);
      const ref = (party: { spid: string; name: string }): ProviderRef => ({
        id: party.spid,
        id_scheme: SNPAC_SPID,
        name: party.name,
      });
      return {
        ports: ports.map((port) => ({
          ported_at: port.portedAt,
          donor: ref(port.donor),
          recipient: ref(port.recipient),
        })),
        history_since: answer.snapshot.historySince,
        source: registrySource(answer),
      };
    },

    async liveStatus(resolved, now) {
      const found = resolved.digits
        ? await live.get(resolved.digits, now)
        : ({ state: 'unavailable', attemptedAt: now } as const);
      if (found.state === 'unavailable') {
        return {
          view: {
            state: 'unavailable',
            checked_at: found.attemptedAt.toISOString(),
            source: {
              basis: 'live_network',
              as_of: found.attemptedAt.toISOString(),
              valid_until: null,
            },
          },
        };
      }
      const hlr: LiveResult['hlr'] = {};
      if (found.imsi) hlr.imsi = found.imsi;
      if (found.mcc) hlr.mcc = found.mcc;
      if (found.mnc) hlr.mnc = found.mnc;
      if (found.network) hlr.network = found.network;
      return {
        view: {
          state: found.state,
          checked_at: found.checkedAt.toISOString(),
          source: {
            basis: 'live_network',
            as_of: found.asOf.toISOString(),
            valid_until: found.validUntil.toISOString(),
          },
        },
        hlr,
      };
    },
  };
}
