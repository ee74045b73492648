export { detectEncoding, type SmsEncoding } from './encoding.js';
export { decodeGsm7, encodeGsm7, NotGsm7Error } from './gsm7-codec.js';
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
  checkSenderPermission,
  lookalikeKey,
  NO_PROTECTED_NAMES,
  type ProtectedNames,
  protectedNames,
  type SenderPermission,
  type SenderRefusal,
  type SenderRequest,
  type SenderRules,
} from './sender-permission.js';
export {
  type ConcatInfo,
  type DecodedSmppPayload,
  decodeSmppPayload,
  ESM_CLASS_UDHI,
  MalformedUdhError,
  UnsupportedDataCodingError,
} from './smpp-decode.js';
export {
  type SmppDataCoding,
  type SmppPart,
  type SmppSplit,
  SmppSplitError,
  type SmppSplitProblem,
  splitForSmpp,
} from './smpp-split.js';
export {
  type RenderResult,
  renderTemplate,
  type TemplateFields,
  type TemplateValue,
  templateFields,
} from './template.js';
export { decodeUcs2, encodeUcs2 } from './ucs2-codec.js';
