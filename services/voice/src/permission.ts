/**
 * The account permission of text-to-voice (spec 5 rule 1). Admin's vocabulary already names it
 * `text_to_voice` (@msg/contracts PERMISSIONS); REST and the legacy interface share it.
 */
export const TEXT_TO_VOICE = 'text_to_voice';
