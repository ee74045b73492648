import { describe, expect, it } from 'vitest';
import { type NumbersAnswer, numbersAnswerSchema } from '../numbers/numbers-answer.js';
import { advancedLookup, basicLookup, swedenLookup } from './legacy-fields.js';

function answer(raw: unknown): NumbersAnswer {
  return numbersAnswerSchema.parse(raw);
}

const tre = {
  number: { e164: '46761234567', country: 'SE', type: 'mobile' },
  network: {
    service_provider: {
      id: '050',
      id_scheme: 'snpac_spid',
      name: 'Hi3G Access AB',
      brands: ['Tre'],
    },
    host_network: { mcc: '240', mnc: '02', name: 'Tre' },
  },
  findings: [],
};

describe('legacy fields', () => {
  it('when a brand of the operator names the host network, then it is not virtual and MNC stays', () => {
    expect(swedenLookup('46', answer({ base: tre }))).toMatchObject({ MCC: '240', MNC: '02' });
  });

  it('when the operator has no brand or name matching the host network, then MNC is empty', () => {
    const virtual = {
      ...tre,
      network: {
        ...tre.network,
        service_provider: { id: '9', id_scheme: 'snpac_spid', name: 'Vimla' },
      },
    };
    expect(swedenLookup('46', answer({ base: virtual }))).toMatchObject({ MCC: '240', MNC: '' });
  });

  it('when several findings are given, then the strongest decides R', () => {
    const raw = { base: { ...tre, findings: ['not_mobile', 'invalid_number'] } };
    expect(swedenLookup('46', answer(raw)).R).toBe(1);
  });

  it('when findings are objects with a name, then they are read too', () => {
    const raw = { base: { ...tre, findings: [{ name: 'unallocated_range' }] } };
    expect(basicLookup('46', answer(raw)).R).toBe(2);
  });

  it.each([
    ['not_mobile', 4],
    ['unsupported_country', 3],
    ['unallocated_range', 2],
    ['invalid_number', 1],
  ])(
    'when the finding is %s and a live status came with it anyway, then R %i and HLR ""',
    (finding, r) => {
      for (const state of ['not_provisioned', 'reachable', 'unavailable']) {
        const raw = { base: { ...tre, findings: [finding] }, live_status: { state } };
        expect(basicLookup('46', answer(raw))).toMatchObject({ HLR: '', R: r });
        expect(advancedLookup('46', answer(raw))).toMatchObject({ HLR: '', R: r });
      }
    },
  );

  it('when a live level gets no live status and no finding, then HLR is UNAVAILABLE and R 5', () => {
    expect(basicLookup('46', answer({ base: tre }))).toMatchObject({ HLR: 'UNAVAILABLE', R: 5 });
  });

  it('when the live answer carries an HLR network, then MCC and MNC come from it', () => {
    const raw = {
      base: tre,
      live_status: { state: 'reachable' },
      hlr: { imsi: '240071234567890', mcc: '240', mnc: '07', network: 'Tele2' },
    };
    expect(advancedLookup('46', answer(raw))).toMatchObject({ MNC: '07', IMSI: '240071234567890' });
  });

  it('when the operator id is not an SNPAC SPID, then advanced has no SPID and sweden an empty one', () => {
    const raw = {
      base: {
        ...tre,
        network: { service_provider: { id: 'x', id_scheme: 'number_range', name: 'Tre' } },
      },
      live_status: { state: 'absent' },
    };
    expect(advancedLookup('46', answer(raw))).not.toHaveProperty('SPID');
    expect(swedenLookup('46', answer(raw)).SPID).toBe('');
  });

  it('when fields are null in the answer, then they are empty strings', () => {
    const raw = {
      base: { number: { e164: '46761234567', country: null, type: 'mobile' }, findings: [] },
      live_status: { state: 'unknown_subscriber' },
      hlr: { imsi: null, mcc: '240', mnc: '02', network: 'Tre' },
    };
    expect(advancedLookup('46', answer(raw))).toEqual({
      CC: '46',
      Country: '',
      IMSI: '',
      MCC: '240',
      MNC: '02',
      Operator: '',
      HLR: 'UNKNOWN',
      R: 0,
    });
  });
});
