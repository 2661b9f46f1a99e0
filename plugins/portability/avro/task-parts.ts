import type { AvroRecord } from './schema-types.js';

// Named types shared by every Task schema version. A change to one of them is a new schema version: copy it
// into that version's file first, so that the older versions stay exactly as they were written.

/** kernel/contracts/records.ts Action. */
export const actionV1: AvroRecord = {
  type: 'record',
  name: 'Action',
  fields: [
    { name: 'id', type: ['null', 'string'], default: null },
    { name: 'type', type: 'string', doc: 'navigate | click | type | ... (README, Actions)' },
    { name: 'selector', type: ['null', 'string'], default: null },
    { name: 'value', type: ['null', 'string'], default: null },
    { name: 'key', type: ['null', 'string'], default: null },
    { name: 'varName', type: ['null', 'string'], default: null },
    { name: 'timeoutMs', type: ['null', 'long'], default: null },
    { name: 'disabled', type: ['null', 'boolean'], default: null },
  ],
};

/** kernel/contracts/records.ts Schedule, without the live `nextRun` (the scheduler works it out again). */
export const scheduleV1: AvroRecord = {
  type: 'record',
  name: 'Schedule',
  fields: [
    { name: 'enabled', type: 'boolean' },
    { name: 'frequency', type: ['null', 'string'], default: null, doc: 'interval | hourly | daily | weekly | monthly' },
    { name: 'intervalMinutes', type: ['null', 'int'], default: null },
    { name: 'hour', type: ['null', 'int'], default: null },
    { name: 'minute', type: ['null', 'int'], default: null },
    { name: 'daysOfWeek', type: ['null', { type: 'array', items: 'int' }], default: null, doc: '0 is Sunday' },
    { name: 'dayOfMonth', type: ['null', 'int'], default: null },
    { name: 'cron', type: ['null', 'string'], default: null, doc: 'five fields' },
    { name: 'timezone', type: ['null', 'string'], default: null, doc: 'IANA name' },
    { name: 'lastRun', type: ['null', 'string'], default: null, doc: 'ISO 8601' },
    { name: 'lastRunStatus', type: ['null', 'string'], default: null },
    { name: 'lastRunDurationMs', type: ['null', 'double'], default: null },
  ],
};
