import { z } from '@msg/config';

// The numbers service's internal answer (spec 2.7 base plus aspects). Parsed leniently: only
// what the legacy fields need is read, unknown keys are ignored, and anything optional may be
// missing (an `invalid_number` answer carries little besides its finding).
const text = z.string().nullish();

const provider = z.object({
  id: text,
  id_scheme: text,
  name: text,
  brands: z.array(z.string()).nullish(),
});

export const numbersAnswerSchema = z.object({
  base: z.object({
    number: z.object({ e164: text, country: text, type: text }).nullish(),
    network: z
      .object({
        service_provider: provider.nullish(),
        host_network: z.object({ mcc: text, mnc: text, name: text }).nullish(),
      })
      .nullish(),
    // The shape of a finding is "not shown" (spec 2.7): a name, or an object naming it.
    findings: z
      .array(z.union([z.string(), z.object({ name: z.string() }), z.object({ code: z.string() })]))
      .default([]),
  }),
  live_status: z.object({ state: z.string() }).nullish(),
  hlr: z.object({ imsi: text, mcc: text, mnc: text, network: text }).nullish(),
});

export type NumbersAnswer = z.output<typeof numbersAnswerSchema>;

/** The finding names of an answer. */
export function findingNames(answer: NumbersAnswer): string[] {
  return answer.base.findings.map((finding) => {
    if (typeof finding === 'string') return finding;
    return 'name' in finding ? finding.name : finding.code;
  });
}
