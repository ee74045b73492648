import type { components as internal } from '@msg/contracts/internal/numbers';
import type { components } from '@msg/contracts/numbers';

/**
 * Response shapes of spec 2.7, generated from packages/contracts/openapi/numbers.yaml (the single
 * source of truth). Optional fields are absent, never null.
 */
type Schemas = components['schemas'];

export type Finding = Schemas['Finding'];
export type Source = Schemas['Source'];
export type ProviderRef = Schemas['ProviderRef'];
export type BaseView = Schemas['BaseView'];
export type PortingHistoryView = Schemas['PortingHistory'];
export type LiveStatusView = Schemas['LiveStatus'];
export type LiveState = LiveStatusView['state'];
export type NumberKind = Schemas['NumberType'];
/** What the internal lookup answers the legacy lookup service (openapi/internal/numbers.yaml). */
export type InternalNumberResponse = internal['schemas']['InternalNumberResponse'];
