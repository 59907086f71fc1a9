export * from './load';
export { Secret } from './secret';
