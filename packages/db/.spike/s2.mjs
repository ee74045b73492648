import { startEmbeddedPostgres, createPool } from '../dist/index.js';
const e = await startEmbeddedPostgres();
const pool = createPool({ url: e.url, ...e.poolOptions });
let fails = 0;
for (let i = 0; i < 50; i++) {
  const c = await pool.connect();
  c.release(true);
  try { await pool.query('select 1'); } catch (err) { fails++; if (fails < 3) console.log('fail', i, err.message); }
}
console.log('destroy+reconnect failures:', fails, '/50');
// idle timeout path
const p2 = createPool({ url: e.url, max: 1, idleTimeoutMillis: 1 });
await pool.end();
fails = 0;
for (let i = 0; i < 30; i++) {
  try { await p2.query('select 1'); } catch (err) { fails++; if (fails < 3) console.log('idle fail', i, err.message); }
  await new Promise(r => setTimeout(r, 3));
}
console.log('idle-close+reconnect failures:', fails, '/30');
await p2.end();
await e.stop();
