import type { Role } from '../../api/types';

/** The roles, as the selects offer them. */
export const ROLE_OPTIONS: Array<[Role, string]> = [['viewer', 'Viewer: reads'], ['editor', 'Editor: tasks, runs, schedules'], ['admin', 'Admin: everything']];
