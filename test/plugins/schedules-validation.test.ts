import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSchedulesService, taskBody, type SchedulesService } from '../providers/scheduler/harness.js';

let svc: SchedulesService;
let taskId: string;
const api = (method: string, url: string, body?: unknown) => svc.request(method, url, { body });

before(async () => {
  svc = await startSchedulesService();
  taskId = (await api('POST', '/api/tasks', taskBody())).body.id;
});
after(() => svc.close());

/** Every refusal: the body, and what `details` must say. */
const INVALID: Array<[string, Record<string, unknown>, RegExp]> = [
  ['no frequency and no cron', {}, /frequency \(interval, hourly, daily, weekly or monthly\) or cron is required/],
  ['a blank cron and no frequency', { cron: '   ' }, /frequency .* or cron is required/],
  ['interval without intervalMinutes', { frequency: 'interval' }, /intervalMinutes is required when frequency is interval/],
  ['intervalMinutes 0', { frequency: 'interval', intervalMinutes: 0 }, /intervalMinutes must be a whole number from 1 to 1440, got 0/],
  ['intervalMinutes 1441', { frequency: 'interval', intervalMinutes: 1441 }, /intervalMinutes must be a whole number from 1 to 1440, got 1441/],
  ['hour 24', { frequency: 'daily', hour: 24 }, /hour must be a whole number from 0 to 23, got 24/],
  ['hour -1', { frequency: 'weekly', daysOfWeek: [1], hour: -1 }, /hour must be a whole number from 0 to 23, got -1/],
  ['minute 60', { frequency: 'daily', minute: 60 }, /minute must be a whole number from 0 to 59, got 60/],
  ['hourly minute 75', { frequency: 'hourly', minute: 75 }, /minute must be a whole number from 0 to 59, got 75/],
  ['weekly without daysOfWeek', { frequency: 'weekly', hour: 9 }, /daysOfWeek is required when frequency is weekly/],
  ['weekly with empty daysOfWeek', { frequency: 'weekly', daysOfWeek: [] }, /daysOfWeek must name at least one day/],
  ['a day of week 7', { frequency: 'weekly', daysOfWeek: [1, 7] }, /each of daysOfWeek must be a whole number from 0 to 6, got 7/],
  ['monthly without dayOfMonth', { frequency: 'monthly', hour: 9 }, /dayOfMonth \(1 to 31\) is required when frequency is monthly/],
  ['dayOfMonth 0', { frequency: 'monthly', dayOfMonth: 0 }, /dayOfMonth must be a whole number from 1 to 31, got 0/],
  ['dayOfMonth 32', { frequency: 'monthly', dayOfMonth: 32 }, /dayOfMonth must be a whole number from 1 to 31, got 32/],
  // A cron wins over the frequency fields, but what is stored must still be a valid Schedule record.
  ['a cron with a day of week 79', { cron: '*/5 * * * *', frequency: 'hourly', daysOfWeek: [79, 89] }, /each of daysOfWeek must be a whole number from 0 to 6, got 79/],
  ['a cron with hour 30', { cron: '*/5 * * * *', hour: 30 }, /hour must be a whole number from 0 to 23, got 30/],
  ['a cron with dayOfMonth 0', { cron: '*/5 * * * *', dayOfMonth: 0 }, /dayOfMonth must be a whole number from 1 to 31, got 0/],
  ['a cron with intervalMinutes 0', { cron: '*/5 * * * *', intervalMinutes: 0 }, /intervalMinutes must be a whole number from 1 to 1440, got 0/],
  ['a cron of one word', { cron: 'daily' }, /cron "daily" has 1 field\(s\); it needs five/],
  ['a cron of four fields', { cron: '0 9 * *' }, /has 4 field\(s\)/],
  ['a cron with seconds', { cron: '0 0 9 * * *' }, /has 6 field\(s\)/],
  ['a cron nickname', { cron: '@daily' }, /has 1 field\(s\)/],
  ['a cron minute 61', { cron: '61 9 * * *' }, /cron "61 9 \* \* \*" is invalid: .*minute/],
  ['a cron day-of-week 8', { cron: '0 9 * * 8' }, /cron "0 9 \* \* 8" is invalid/],
  ['a cron that never fires', { cron: '0 0 30 2 *' }, /never fires/],
  ['an unknown timezone', { cron: '0 9 * * *', timezone: 'Mars/Olympus' }, /timezone "Mars\/Olympus" is not a known IANA time zone/],
  ['an unknown timezone on a frequency', { frequency: 'daily', timezone: 'Europe/Atlantis' }, /Europe\/Atlantis/],
  ['hour as a string', { frequency: 'daily', hour: '9' }, /body\.hour must be integer/],
  ['a fractional minute', { frequency: 'daily', minute: 1.5 }, /body\.minute must be integer/],
  ['enabled as a string', { enabled: 'yes', cron: '0 9 * * *' }, /body\.enabled must be boolean/],
  ['an unknown frequency', { frequency: 'yearly' }, /body\.frequency must be one of interval, hourly, daily, weekly, monthly/],
  ['an unknown field', { cron: '0 9 * * *', color: 'red' }, /body\.color is not an accepted field/],
];

describe('schedules: every validation rule answers 400 INVALID_SCHEDULE with its reason', () => {
  for (const [name, body, reason] of INVALID) {
    it(`refuses ${name}, and describe calls it invalid for the same reason`, async () => {
      const res = await api('POST', `/api/schedules/${taskId}`, body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error, 'INVALID_SCHEDULE');
      assert.match(res.body.details, reason);
      const described = await api('POST', `/api/schedules/${taskId}/describe`, body);
      assert.deepEqual(described.body, {
        valid: false, description: `Invalid schedule: ${res.body.details}`, cron: null, nextRun: null, error: res.body.details,
      });
    });
  }

  it('refuses a missing body too', async () => {
    const res = await svc.request('POST', `/api/schedules/${taskId}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'INVALID_SCHEDULE');
  });

  it('stored nothing while refusing', async () => {
    assert.equal((await api('GET', `/api/tasks/${taskId}`)).body.schedule, undefined);
  });
});

/** Every frequency: the cron it resolves to and its description. */
const VALID: Array<[Record<string, unknown>, string | null, string]> = [
  [{ frequency: 'interval', intervalMinutes: 1 }, '* * * * *', 'Every minute'],
  [{ frequency: 'interval', intervalMinutes: 5 }, '*/5 * * * *', 'Every 5 minutes'],
  [{ frequency: 'interval', intervalMinutes: 60 }, '0 * * * *', 'Every hour'],
  [{ frequency: 'interval', intervalMinutes: 120 }, '0 */2 * * *', 'On the hour, every 2 hours'],
  [{ frequency: 'interval', intervalMinutes: 1440 }, '0 0 * * *', 'At 00:00'],
  [{ frequency: 'interval', intervalMinutes: 7 }, null, 'Every 7 minutes (counted from 00:00 UTC)'],
  [{ frequency: 'interval', intervalMinutes: 90 }, null, 'Every 90 minutes (counted from 00:00 UTC)'],
  [{ frequency: 'hourly', minute: 15 }, '15 * * * *', 'At 15 minutes past the hour'],
  [{ frequency: 'daily', hour: 9, minute: 30 }, '30 9 * * *', 'At 09:30'],
  [{ frequency: 'daily' }, '0 0 * * *', 'At 00:00'],
  [{ frequency: 'weekly', daysOfWeek: [1], hour: 9, minute: 0 }, '0 9 * * 1', 'At 09:00, only on Monday'],
  [{ frequency: 'weekly', daysOfWeek: [5, 1, 3, 1], hour: 9 }, '0 9 * * 1,3,5', 'At 09:00, only on Monday, Wednesday, and Friday'],
  [{ frequency: 'monthly', dayOfMonth: 15, hour: 8 }, '0 8 15 * *', 'At 08:00, on day 15 of the month'],
  [{ frequency: 'monthly', dayOfMonth: 31, hour: 9 }, '0 9 31 * *', 'At 09:00, on day 31 of the month (skipped in months without day 31)'],
  [{ cron: ' 0  9 * * 1-5 ', timezone: 'Europe/Berlin' }, '0 9 * * 1-5', 'At 09:00, Monday through Friday (Europe/Berlin)'],
  [{ frequency: 'daily', hour: 2, minute: 30, timezone: 'Europe/Berlin' }, '30 2 * * *', 'At 02:30 (Europe/Berlin)'],
];

describe('schedules: frequencies resolve to a cron (or an interval) and a plain-English description', () => {
  for (const [body, cron, description] of VALID) {
    it(`${JSON.stringify(body)} -> ${cron ?? 'no cron'}: "${description}"`, async () => {
      const set = await api('POST', `/api/schedules/${taskId}`, body);
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.equal(set.body.description, description);
      assert.ok(set.body.nextRun > Date.now());
      const status = await api('GET', `/api/schedules/${taskId}/status`);
      assert.equal(status.body.cron, cron);
      assert.equal(status.body.isValid, true);
      assert.equal(status.body.nextRun, set.body.nextRun);
      const described = await api('POST', `/api/schedules/${taskId}/describe`, body);
      assert.deepEqual(described.body, { valid: true, description, cron, nextRun: set.body.nextRun });
    });
  }
});
