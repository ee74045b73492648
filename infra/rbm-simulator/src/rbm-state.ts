import { type DeviceProfile, defaultProfile } from './devices.js';

export type MessageStatus = 'PENDING' | 'DELIVERED' | 'READ' | 'REVOKED' | 'EXPIRED';

export interface ReceivedMessage {
  agentId: string;
  phone: string;
  messageId: string;
  body: Record<string, unknown>;
  status: MessageStatus;
  receivedAt: string;
  timers: NodeJS.Timeout[];
}

export interface TesterRecord {
  agentId: string;
  phone: string;
  inviteStatus: 'PENDING' | 'ACCEPTED' | 'DECLINED';
}

export interface Counters {
  tokensIssued: number;
  tokensRefused: number;
  unauthenticated: number;
  capabilityChecks: number;
  messagesAccepted: number;
  messagesRefused: number;
  revoked: number;
  testersInvited: number;
}

const key = (...parts: string[]) => parts.join(' ');

/** Everything the simulator remembers, in memory; reset clears all but issued tokens. */
export function createRbmState() {
  const tokens = new Map<string, number>();
  const devices = new Map<string, DeviceProfile>();
  const messages = new Map<string, ReceivedMessage>();
  const testers = new Map<string, TesterRecord>();
  const counters: Counters = {
    tokensIssued: 0,
    tokensRefused: 0,
    unauthenticated: 0,
    capabilityChecks: 0,
    messagesAccepted: 0,
    messagesRefused: 0,
    revoked: 0,
    testersInvited: 0,
  };

  return {
    counters,
    issueToken(token: string, expiresAtMs: number) {
      tokens.set(token, expiresAtMs);
    },
    tokenValid(token: string, nowMs: number): boolean {
      const expiresAt = tokens.get(token);
      return expiresAt !== undefined && expiresAt > nowMs;
    },
    profile: (phone: string): DeviceProfile => devices.get(phone) ?? defaultProfile(phone),
    setProfile: (phone: string, profile: DeviceProfile) => devices.set(phone, profile),
    clearProfile: (phone: string) => devices.delete(phone),
    message: (agentId: string, phone: string, messageId: string) =>
      messages.get(key(agentId, phone, messageId)),
    findMessage: (messageId: string) =>
      [...messages.values()].find((m) => m.messageId === messageId),
    addMessage(message: ReceivedMessage) {
      messages.set(key(message.agentId, message.phone, message.messageId), message);
    },
    listMessages: (phone?: string) =>
      [...messages.values()].filter((m) => phone === undefined || m.phone === phone),
    tester: (agentId: string, phone: string) => testers.get(key(agentId, phone)),
    addTester(record: TesterRecord) {
      testers.set(key(record.agentId, record.phone), record);
    },
    listTesters: () => [...testers.values()],
    reset() {
      for (const m of messages.values()) for (const t of m.timers) clearTimeout(t);
      devices.clear();
      messages.clear();
      testers.clear();
      for (const k of Object.keys(counters) as (keyof Counters)[]) counters[k] = 0;
    },
  };
}

export type RbmState = ReturnType<typeof createRbmState>;
