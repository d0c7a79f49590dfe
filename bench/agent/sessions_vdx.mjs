export const VDX_SESSIONS = {};
