export * from './budget';
export * from './conversation';
export * from './converse';
export * from './grounding';
export * from './prices';
export * from './prompts';
export * from './report-section';
export * from './submit-report';
