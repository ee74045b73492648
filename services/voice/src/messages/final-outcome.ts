/**
 * The message's end (3.4): completed, failed 1 (not delivered) or failed 5 (internal error).
 * A property of the message, not of a call: the calls decide it and the report tells it, so it
 * lives here, which both may import without importing each other.
 */
export interface FinalOutcome {
  status: 'completed' | 'failed';
  failureCode: 1 | 5 | null;
  durationSeconds: number | null;
  listenedSeconds: number;
}
