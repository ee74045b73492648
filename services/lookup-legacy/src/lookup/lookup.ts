import { ValidationError } from '@msg/http';
import type { NumbersClient } from '../numbers/numbers-client.js';
import { callingCodeOf } from './calling-code.js';
import {
  type AdvancedLookup,
  advancedLookup,
  type BasicLookup,
  basicLookup,
  type SwedenLookup,
  swedenLookup,
} from './legacy-fields.js';

const MSISDN_LOC = ['path', 'msisdn'];

/** The three detail levels of the legacy lookup; each asks the numbers service once. */
export interface Lookup {
  sweden(msisdn: string): Promise<SwedenLookup>;
  basic(msisdn: string): Promise<BasicLookup>;
  advanced(msisdn: string): Promise<AdvancedLookup>;
}

/** The document already checked the digits (pattern); the country code must be assigned. */
function callingCode(msisdn: string): string {
  const code = callingCodeOf(msisdn);
  if (code === undefined) {
    throw ValidationError.field(MSISDN_LOC, 'invalid_country', 'the country code is not assigned');
  }
  return code;
}

export function createLookup(numbers: NumbersClient): Lookup {
  return {
    async sweden(msisdn) {
      const code = callingCode(msisdn);
      if (code !== '46') {
        throw ValidationError.field(
          MSISDN_LOC,
          'not_swedish',
          'the sweden level takes Swedish numbers (country code 46) only',
        );
      }
      return swedenLookup(code, await numbers.lookup(msisdn, { live: false }));
    },
    async basic(msisdn) {
      const code = callingCode(msisdn);
      return basicLookup(code, await numbers.lookup(msisdn, { live: true }));
    },
    async advanced(msisdn) {
      const code = callingCode(msisdn);
      return advancedLookup(code, await numbers.lookup(msisdn, { live: true }));
    },
  };
}
