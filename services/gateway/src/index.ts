export { createApp, type GatewayDeps } from './app.js';
export { type GatewayConfig, gatewayConfigSchema, loadGatewayConfig } from './config.js';
export { type PublicRoute, ROUTES, UPSTREAM_SERVICES, type UpstreamService } from './routes.js';
export { type RunningGateway, type StartGatewayOptions, startGateway } from './start-gateway.js';
