import { exitOnConfigError, portInUseMessage } from '@msg/config';
import { createLogger } from '@msg/logger';
import { loadSuiteConfig } from './config.js';
import { startSuite } from './suite.js';

const config = exitOnConfigError(() => loadSuiteConfig());
const logger = createLogger({ service: 'suite', level: config.LOG_LEVEL });
const suite = await startSuite(config, logger, {
  progress: (step) => process.stdout.write(`start: ${step}\n`),
}).catch((error: unknown) => {
  // A taken port is the operator's to fix, not a crash: the setting to change, no stack.
  const message = portInUseMessage(error, config);
  if (!message) throw error;
  process.stderr.write(`start: ${message}\n`);
  process.exit(1);
});

// Its last line, "ready: <gateway URL>", is printed once the demo account works through the
// gateway (as /readyz there then says): scripts wait for either (README).
const banner = `
Messaging platform is running${suite.embeddedDatabase ? ' on embedded PostgreSQL 18' : ' on Postgres'} and ${
  suite.inProcessBus ? 'the in-process bus' : 'Kafka'
}.

  Gateway (public API)   ${suite.gatewayUrl}
  API documentation      ${suite.gatewayUrl}/docs   (internal operations: ${suite.adminUrl}/docs/)
  Admin API (internal)   ${suite.adminUrl}   token: ${suite.adminToken}
  SMSC simulator control ${suite.smscControlUrl ?? '(real SMS centres configured)'}
  RBM simulator (RCS)    ${suite.rbmSimulatorUrl}   control: ${suite.rbmSimulatorUrl}/control
  SIP callee (voice)     control: ${suite.sipCalleeControlUrl}   (GET /calls; numbers ending 486 busy, 603 reject, 777 machine)
  Translation simulator  ${suite.translateSimulatorUrl}
  Services (direct)      ${Object.entries(suite.serviceUrls)
    .map(([name, url]) => `${name} ${url}`)
    .join('   ')}

Reply-path pool (PTS fiction range)
  ${suite.replypathPool}

Demo account (every permission and scope):
  username   ${suite.demo.username}
  password   ${suite.demo.password}
  API key    ${suite.demo.apiKey}
  RCS agent  ${suite.demoRcsAgentId}
  Voice caller ID ${suite.demo.voiceCallerId}

Try:
  curl -s ${suite.gatewayUrl}/v1/oauth/token -H 'content-type: application/json' \\
    -d '{"client_id":"${suite.demo.username}","client_secret":"${suite.demo.apiKey}","grant_type":"client_credentials"}'
  ADMIN_URL=${suite.adminUrl} ADMIN_TOKEN=${suite.adminToken} pnpm admin list
  curl -s ${suite.gatewayUrl}/replypath/v1/sendsms -u '${suite.demo.username}:${suite.demo.password}' \\
    -H 'content-type: application/json' -d '{"To":"0701234567","Msg":"Reply YES"}'
  curl -s ${suite.gatewayUrl}/rcs/v1/messages -H 'x-client-id: ${suite.demo.username}' -H 'x-api-key: ${suite.demo.apiKey}' \\
    -H 'content-type: application/json' -d '{"recipient":"+46701740605","agent_id":"${suite.demoRcsAgentId}","message":{"text":"Hello"},"dry_run":true}'
  curl -s -X POST ${suite.rbmSimulatorUrl}/control/users/%2B46701740605/text -H 'content-type: application/json' \\
    -d '{"agentId":"${suite.demoRcsAgentId}","text":"Hi from a phone"}'
  curl -s ${suite.gatewayUrl}/txt2voice/v1/messages -u '${suite.demo.username}:${suite.demo.password}' \\
    -H 'content-type: application/json' -d '{"to":"+46701740605","text":"Your code is 1 2 3 4","play_count":1}'
  curl -s ${suite.sipCalleeControlUrl}/calls
  curl -s ${suite.gatewayUrl}/v1/callbacks/signing-secret -u '${suite.demo.username}:${suite.demo.password}'   # verifies every callback
  RCS_URL=${suite.serviceUrls.rcs} RCS_ADMIN_TOKEN=${suite.adminToken} pnpm rcs agents list
  REPLYPATH_URL=${suite.serviceUrls.replypath} REPLYPATH_ADMIN_TOKEN=${suite.adminToken} pnpm replypath list

Ctrl-C stops everything.

ready: ${suite.gatewayUrl}
`;
process.stdout.write(banner);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void suite.stop().then(() => process.exit(0));
  });
}
