export { detectEncoding, type SmsEncoding } from './encoding.js';
export {
  checkLength,
  countSegments,
  type LengthCheck,
  MAX_PARTS,
  SEGMENT_LIMITS,
  type SegmentCount,
} from './segments.js';
export {
  type SenderIdCheck,
  type SenderIdProblem,
  type SenderIdType,
  validateSenderId,
} from './sender-id.js';
export {
  type RenderResult,
  renderTemplate,
  type TemplateFields,
  type TemplateValue,
  templateFields,
} from './template.js';
