import { describe, expect, it } from 'vitest';
import { baseLanguage, detectLanguage } from './language-detection.js';

describe('detectLanguage', () => {
  it.each([
    ['sv', 'Din tid hos tandläkaren är i morgon klockan tre.'],
    ['de', 'Ihr Termin beim Zahnarzt ist morgen um drei Uhr.'],
    ['en-GB', 'Thank you for your order, it will be delivered soon.'],
    ['fr', 'Votre rendez-vous chez le dentiste est demain à trois heures.'],
    ['es', 'Gracias por su pedido, será entregado pronto.'],
    ['zh', '感谢您的订购，我们会尽快发货。'],
    ['ru', 'Спасибо за ваш заказ, он скоро будет доставлен.'],
    ['uk', 'Дякуємо за ваше замовлення, його скоро буде доставлено.'],
    ['ar', 'موعدك مع الطبيب غدا في الساعة الثالثة.'],
    ['fi', 'Kiitos tilauksestasi, se toimitetaan pian.'],
    ['pl', 'Dziękujemy za zamówienie, wkrótce zostanie dostarczone.'],
    ['ja', 'ご注文ありがとうございます。まもなくお届けします。'],
    ['pt-PT', 'Obrigado pela sua encomenda, será entregue em breve.'],
    ['no', 'Takk for bestillingen din, den blir levert snart.'],
    ['el', 'Ευχαριστούμε για την παραγγελία σας, θα παραδοθεί σύντομα.'],
  ])('when the text is in %s, then that tag is detected with confidence', (language, text) => {
    const detection = detectLanguage(text);
    expect(detection?.language).toBe(language);
    expect(detection?.confidence).toBeGreaterThan(0.5);
    expect(detection?.confidence).toBeLessThanOrEqual(1);
  });

  it.each([
    ['digits only', '1234 5678'],
    ['a date and time', '2026-11-24 13:00'],
    ['fewer than 4 letters', 'OK 1234'],
    ['a greeting of 3 letters', 'Hej'],
    ['empty text', ''],
  ])('when the text is %s, then the language is not detected', (_case, text) => {
    expect(detectLanguage(text)).toBeUndefined();
  });

  it.each([
    // One-liners the detector gives to a close relative; the declared language scores within 10%.
    ['sv', 'Hej, ring mig.', 'da'],
    ['fi', 'Koodisi on 1234', 'et'],
    ['ru', 'Ваш приём у стоматолога завтра в три часа.', 'bg'],
    ['pt-BR', 'Ligue-me de volta', 'it'],
  ])(
    'when %s is expected for "%s" (alone: %s), then the expected tag is returned',
    (expected, text, alone) => {
      expect(detectLanguage(text)?.language).toBe(alone);
      expect(detectLanguage(text, { expected })?.language).toBe(expected);
    },
  );

  it.each([
    ['sv', 'Thank you for your order, it will be delivered soon.', 'en-GB'],
    ['de', 'Din tid hos tandläkaren är i morgon klockan tre.', 'sv'],
    ['en-US', 'Vielen Dank für Ihre Bestellung, sie wird bald geliefert.', 'de'],
    ['zh', 'Votre rendez-vous chez le dentiste est demain à trois heures.', 'fr'],
  ])(
    'when %s is expected but the text is clearly another language, then that language is returned',
    (expected, text, language) => {
      expect(detectLanguage(text, { expected })?.language).toBe(language);
    },
  );

  it('when en-US is expected for English text, then the region of the request is kept', () => {
    expect(
      detectLanguage('Your appointment with the dentist is tomorrow at three.', {
        expected: 'en-US',
      }),
    ).toEqual({
      language: 'en-US',
      confidence: expect.any(Number),
    });
  });
});

describe('baseLanguage', () => {
  it('when a tag has a region, then only the language remains', () => {
    expect(['en-GB', 'en-US', 'pt-BR', 'pt-PT', 'sv', 'zh'].map(baseLanguage)).toEqual([
      'en',
      'en',
      'pt',
      'pt',
      'sv',
      'zh',
    ]);
  });
});
