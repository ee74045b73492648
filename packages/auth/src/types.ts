import type { AccountState } from '@msg/contracts';

/*
 * Express request augmentation. Importing anything from @msg/auth brings it into scope.
 * The only principal on this platform is an account, so passport's `user` is one too; `account`
 * is the name handlers use, set by `authenticate()`.
 */
declare global {
  namespace Express {
    interface User extends AccountState {}

    interface Request {
      /** The authenticated account; set by `authenticate()`, present in every guarded handler. */
      account?: AccountState;
    }
  }
}

/** What `authenticate()` hands to `onFailure`: why the request was not authenticated. */
export interface AuthFailure {
  /** Name the strategy was registered under. */
  strategy: string;
  /** Safe to show the client: never says whether the name or the secret was wrong. */
  message: string;
  /** WWW-Authenticate value, when the scheme defines one. */
  challenge?: string;
}
