/** The investigation domain's public surface: import from here rather than from the files. */

export * from '../core/vocabulary';
export * from './engine';
export * from './report/persona-endings';
export * from './report/persona-names';
export * from './report/personas';
export * from './report/report';
export * from './scoring';
export { classifyIp, type IpRange } from './tools/ip-ranges';
export * from './tools/tool-catalogue';
export { DOMAIN_SCORES, DOMAIN_THRESHOLDS, NAME_EVIDENCE_SOURCE } from './tools/tool-domain-analysis';
export { ACCOUNT_RULES, HOST_RULES } from './tools/tool-identity';
export * from './tools/tools';
export * from './verdict';
