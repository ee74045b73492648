import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * The country calling code that `digits` (E.164 without `+`) starts with, or undefined when no
 * assigned calling code does. Only the code is read; whether the rest is a valid number of that
 * country is the numbers service's question (finding `invalid_number`, R 1).
 */
export function callingCodeOf(digits: string): string | undefined {
  return parsePhoneNumberFromString(`+${digits}`)?.countryCallingCode;
}
