/** The investigation domain's public surface: import from here rather than from the files. */
export * from './engine';
export * from './personas/persona-endings';
export * from './personas/persona-names';
export * from './personas/personas';
export * from './report';
export * from './scoring';
export { classifyIp, type IpRange } from './tools/ip-ranges';
export * from './tools/tool-catalogue';
export { brandMatches, DOMAIN_THRESHOLDS, SUSPICIOUS_TLDS } from './tools/tool-domain-analysis';
export { ACCOUNT_RULES, HOST_RULES } from './tools/tool-identity';
export { reversePointer } from './tools/tool-ip-classification';
export * from './tools/tools';
export * from './types';
export * from './verdict';
