import { ValidationError } from '@msg/http';

/** One recipient as it is stored: the columns of batch.message the intake fills. */
export interface RecipientEntry {
  phoneNumber: string;
  externalMessageId: string | null;
  /** field_message as JSON text, or null. */
  fields: string | null;
}

// No NUL or lone surrogate reaches here: the body parser applies @msg/http's input rules to
// every string of the body (jsonb and text could not hold U+0000).
const MEMBERS = new Set(['phone_number', 'external_message_id', 'field_message']);

/**
 * The structural rules of a recipient entry (Recipient in the batch OpenAPI document). Whether
 * the phone number is a valid number is decided per message when the batch is processed, so a
 * bad number fails that recipient only. Throws a ValidationError naming the entry by index.
 */
export function checkRecipient(value: unknown, index: number): RecipientEntry {
  // Built only when something is wrong: this runs once per recipient (up to a million times).
  const at = (...path: string[]) => ['body', 'batch', 'recipients', String(index), ...path];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw ValidationError.field(at(), 'type', 'must be an object with phone_number');
  }
  const entry = value as Record<string, unknown>;
  for (const key in entry) {
    if (!MEMBERS.has(key)) {
      throw ValidationError.field(at(key), 'additionalProperties', 'is not a known field');
    }
  }
  const { phone_number, external_message_id, field_message } = entry;
  if (phone_number === undefined) {
    throw ValidationError.field(at('phone_number'), 'missing', 'is required');
  }
  if (typeof phone_number !== 'string') {
    throw ValidationError.field(at('phone_number'), 'type', 'must be a string');
  }
  if (phone_number.length < 1 || phone_number.length > 32) {
    throw ValidationError.field(
      at('phone_number'),
      phone_number.length < 1 ? 'minLength' : 'maxLength',
      'must be 1 to 32 characters',
    );
  }
  if (external_message_id !== undefined) {
    if (typeof external_message_id !== 'string') {
      throw ValidationError.field(at('external_message_id'), 'type', 'must be a string');
    }
    if (external_message_id.length > 128) {
      throw ValidationError.field(
        at('external_message_id'),
        'maxLength',
        'must be at most 128 characters',
      );
    }
  }
  let fields: string | null = null;
  if (field_message !== undefined) {
    if (
      typeof field_message !== 'object' ||
      field_message === null ||
      Array.isArray(field_message)
    ) {
      throw ValidationError.field(at('field_message'), 'type', 'must be an object');
    }
    for (const [name, fieldValue] of Object.entries(field_message)) {
      const kind = typeof fieldValue;
      if (kind !== 'string' && kind !== 'number' && kind !== 'boolean') {
        throw ValidationError.field(
          at('field_message', name),
          'type',
          'must be a string, number or boolean',
        );
      }
    }
    fields = JSON.stringify(field_message);
  }
  return {
    phoneNumber: phone_number,
    externalMessageId: (external_message_id as string | undefined) ?? null,
    fields,
  };
}
