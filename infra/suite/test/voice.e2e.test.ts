import { type CallbackReceiver, eventually, startCallbackReceiver } from '@msg/testing';
import got, { type Got } from 'got';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGatewayAccount,
  type GatewayAccount,
  type VoicePlatform,
  voicePlatforms,
} from './platform.js';

/**
 * Text-to-voice end to end, on the embedded defaults (`pnpm start`'s shape) and as deployed (one
 * process per service, Kafka, Postgres): through the gateway into the voice service, eSpeak NG
 * speech in its worker process, a real SIP call with RTP audio to the SIP callee, translation
 * through the simulator, the status query, and the delivery report through the notifier.
 */
interface CallRecord {
  to: string;
  from: string;
  outcome: string;
  finalStatus?: number;
  answeredAt?: string;
  rtpPackets: number;
  audioMs: number;
}
interface VoiceStatus {
  status: 'accepted' | 'completed' | 'failed';
  duration_seconds?: number;
  failure_code?: number;
}

/** Registered with admin as the account's voice caller ID and default sender. */
const CALLER_ID = '+442079460100';

describe.each(voicePlatforms)('text-to-voice end to end (%s)', (_name, start) => {
  let platform: VoicePlatform;
  let account: GatewayAccount;
  let gateway: Got;
  let callee: Got;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    platform = await start();
    receiver = await startCallbackReceiver();
    callee = got.extend({ prefixUrl: platform.sipCalleeControlUrl, responseType: 'json' });
    account = await createGatewayAccount(platform, 'voicee2e', ['text_to_voice'], {
      voiceCallerIds: [CALLER_ID],
      voiceDefaultSender: CALLER_ID,
      callbacks: { voiceReportUrl: `${receiver.url}/voice-report` },
    });
    gateway = account.gateway;
    // The account reaches the voice service over the bus: an unknown message is then 404, not 401.
    await eventually(
      async () => {
        const res = await gateway.get('txt2voice/v1/messages/00000000-0000-4000-8000-000000000000');
        return res.statusCode === 404 ? true : undefined;
      },
      'the account at the voice service',
      30_000,
      100,
    );
  }, 240_000);

  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  }, 60_000);

  async function send(body: Record<string, unknown>): Promise<string> {
    const res = await gateway.post<{ transaction_id: string; status: string }>(
      'txt2voice/v1/messages',
      { json: { text: 'Your code is 1 2 3 4', play_count: 1, ...body } },
    );
    expect(res.statusCode, JSON.stringify(res.body)).toBe(202);
    expect(res.body.status).toBe('accepted');
    return res.body.transaction_id;
  }

  const finished = (id: string) =>
    eventually(
      async () => {
        const res = await gateway.get<VoiceStatus>(`txt2voice/v1/messages/${id}`);
        expect(res.statusCode).toBe(200);
        return res.body.status !== 'accepted' ? res.body : undefined;
      },
      `message ${id} finished`,
      90_000,
      250,
    );

  const callsTo = async (to: string) =>
    (await callee.get<CallRecord[]>('calls')).body.filter((c) => c.to.endsWith(to.slice(1)));

  it('when a message is sent, then the callee answers, hears RTP audio, and the message is completed with a duration', async () => {
    const to = '+447700900123';
    const id = await send({ to });
    const status = await finished(id);
    expect(status).toMatchObject({ status: 'completed' });
    expect(status.duration_seconds).toBeGreaterThan(0);
    const [call, ...more] = await callsTo(to);
    expect(more).toHaveLength(0);
    expect(call).toMatchObject({ outcome: 'completed', finalStatus: 200 });
    expect(call?.from).toContain(CALLER_ID.slice(1));
    expect(call?.answeredAt).toBeDefined();
    expect(call?.rtpPackets).toBeGreaterThan(0);
    expect(call?.audioMs).toBeGreaterThan(0);
  });

  it('when the callee rejects (a number ending 603), then failed 1 after exactly one attempt', async () => {
    const to = '+447700900603';
    const status = await finished(await send({ to }));
    expect(status).toMatchObject({ status: 'failed', failure_code: 1 });
    expect(await callsTo(to)).toMatchObject([{ outcome: 'rejected', finalStatus: 603 }]);
  });

  it('when the text is English but the language Swedish, then it goes through the translation API before the call', async () => {
    const to = '+447700900124';
    const text = 'Your parcel arrives tomorrow morning, please be at home';
    const status = await finished(await send({ to, text, language: 'sv' }));
    expect(status).toMatchObject({ status: 'completed' });
    const { requests } = await got(`${platform.translateSimulatorUrl}/control/requests`).json<{
      requests: { q?: unknown; source?: unknown; target?: unknown; status: number }[];
    }>();
    expect(requests).toContainEqual(
      expect.objectContaining({ q: text, source: 'en', target: 'sv', status: 200 }),
    );
  });

  it('when sent through the legacy sendtts, then 202 request=true and one delivery report GET with Result=1, StatusCode=1, Sequence=end', async () => {
    const res = await got('txt2voice/v1/sendtts', {
      prefixUrl: platform.gatewayUrl,
      searchParams: {
        User: account.name,
        Pass: account.password,
        To: '00447911123456',
        Msg: 'Your code is <break time="300ms"/>1 2 3',
        Lang: 'EN',
        ExternalReferenceId: 'order-7',
      },
      throwHttpErrors: false,
      retry: { limit: 0 },
    });
    expect(res.statusCode, res.body).toBe(202);
    const transactionId = new URLSearchParams(res.body).get('TransactionId');
    expect(res.body).toBe(`request=true&TransactionId=${transactionId}`);
    const report = await eventually(
      async () =>
        receiver.received.find((r) => r.url.searchParams.get('TransactionId') === transactionId),
      'the delivery report',
      90_000,
      100,
    );
    expect(report.method).toBe('GET');
    expect(report.url.pathname).toBe('/voice-report');
    expect(Object.fromEntries(report.url.searchParams)).toMatchObject({
      Result: '1',
      StatusCode: '1',
      Sequence: 'end',
      ExternalReferenceId: 'order-7',
    });
    expect(Number(report.url.searchParams.get('ProgressTime'))).toBeGreaterThanOrEqual(0);
    expect(await callsTo('+447911123456')).toMatchObject([{ outcome: 'completed' }]);
  });
});
