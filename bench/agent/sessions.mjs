// bench/agent/sessions.mjs: the apps and each server's sessions, by name.
import { PW_SESSIONS } from './sessions_pw.mjs';
import { VDX_SESSIONS } from './sessions_vdx.mjs';

export const APPS = ['todo', 'widgets', 'docs', 'shadow'];
export const SESSIONS = { 'playwright-mcp': PW_SESSIONS, 'vdxlua-mcp': VDX_SESSIONS };
