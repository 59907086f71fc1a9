export * from './common';
export * from './resources';
export * from './documents';
