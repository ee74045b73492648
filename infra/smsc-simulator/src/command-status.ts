/** SMPP 3.4 command_status values (§5.1.3) the simulator answers with. */
export const CommandStatus = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RBINDFAIL: 0x0d,
  ESME_RMSGQFUL: 0x14,
  ESME_RTHROTTLED: 0x58,
} as const;
