export type { Sql } from './sql.js';
