import { describe, expect, it } from 'vitest';
import { ByteLru } from '../../src/service/byte-lru';

describe('ByteLru', () => {
  it('keeps entries within its byte budget, dropping the least recently used', () => {
    const lru = new ByteLru<string, string>(100);
    lru.set('a', 'x', 20);
    lru.set('b', 'x', 20);
    lru.set('c', 'x', 20);
    lru.get('a'); // used again: now the most recent
    lru.set('d', 'x', 25);
    lru.set('e', 'x', 25); // 110 bytes: the least recently used ('b') goes
    expect(lru.has('b')).toBe(false);
    expect(['a', 'c', 'd', 'e'].every((k) => lru.has(k))).toBe(true);
    expect(lru.bytes).toBe(90);
  });

  it('counts growth in place, and drops an entry grown too big to share the budget', () => {
    const lru = new ByteLru<string, number[]>(100);
    lru.set('a', [1], 25);
    lru.set('b', [1], 25);
    const grows = [1];
    lru.set('grows', grows, 10);
    grows.push(2, 3);
    lru.resize('grows', 25);
    expect(lru.bytes).toBe(75);
    lru.set('c', [1], 25);
    lru.set('d', [1], 25); // over budget: 'a', the least recently used, goes
    expect(lru.has('a')).toBe(false);
    expect(lru.get('grows')).toBe(grows);
    lru.resize('grows', 26); // more than a quarter of the budget: not kept
    expect(lru.has('grows')).toBe(false);
    lru.set('huge', [0], 26);
    expect(lru.has('huge')).toBe(false);
    expect(lru.bytes).toBe(75);
  });
});
