import { HttpError } from '@msg/http';

/**
 * A send to a user who unsubscribed from the agent (shared RCS decision): 400, its own code, the
 * recipient named as a validation problem would be.
 */
export class RecipientUnsubscribedError extends HttpError {
  constructor() {
    super(400, 'RECIPIENT_UNSUBSCRIBED', 'The recipient has unsubscribed from this agent', [
      {
        loc: ['body', 'recipient'],
        msg: 'unsubscribed from this agent; sends are refused until the user subscribes again',
        type: 'unsubscribed',
      },
    ]);
  }
}
