import { expect, it } from 'vitest';
import { ServiceBudgets } from '../../src/main/connection/service-connection';
import { ManualClock } from '../../src/shared/clock';

it('gives every call to one configured service the same request budget', () => {
  const budgets = new ServiceBudgets(new ManualClock());
  const service = { baseUrl: 'https://api.example.com/v2', apiKey: 'key-a' };
  const budget = budgets.for(service);
  expect(budget).not.toBeNull();
  expect(budgets.for({ ...service, baseUrl: 'https://api.example.com/v2/' })).toBe(budget);
  expect(budgets.for({ ...service, apiKey: 'key-b' })).not.toBe(budget);
  expect(budgets.for({ ...service, baseUrl: 'https://other.example.com/v2' })).not.toBe(budget);
});

it('does not limit loopback services (the embedded one)', () => {
  const budgets = new ServiceBudgets(new ManualClock());
  expect(budgets.for({ baseUrl: 'http://127.0.0.1:4100/v2', apiKey: 'k' })).toBeNull();
});

it('shares one bucket: the eleventh request in the same instant has to wait', async () => {
  const clock = new ManualClock();
  const budgets = new ServiceBudgets(clock);
  const service = { baseUrl: 'https://api.example.com/v2', apiKey: 'key-a' };
  for (let i = 0; i < 10; i++) await budgets.for(service)!.take();
  let granted = false;
  const eleventh = budgets
    .for({ ...service })!
    .take()
    .then(() => (granted = true));
  await new Promise((resolve) => setImmediate(resolve)); // let it reach its wait
  expect(granted).toBe(false);
  clock.advance(60_000);
  await eleventh;
  expect(granted).toBe(true);
});
