import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
const t0 = Date.now();
const db = await PGlite.create();
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
await server.start();
console.log('started', server.getServerConn(), Date.now() - t0, 'ms');
const url = `postgres://postgres@${server.getServerConn()}/postgres`;
const pool = new pg.Pool({ connectionString: url, max: 1 });
console.log((await pool.query('select version(), current_database(), current_user, gen_random_uuid() as u')).rows);
console.log((await pool.query('select pg_try_advisory_lock(72707369) a, pg_try_advisory_lock(72707369) b')).rows);
console.log((await pool.query('select pg_advisory_unlock(72707369), pg_advisory_unlock(72707369)')).rows);
await pool.query('create table j(id int primary key, v text); insert into j values (1,$$a$$),(2,$$b$$)').catch(e=>console.log('multi err', e.message));
await pool.query('create table if not exists j(id int primary key, v text)');
await pool.query('insert into j values (1,$1),(2,$2) on conflict do nothing', ['a','b']);
const c = await pool.connect();
await c.query('BEGIN');
console.log((await c.query('select * from j order by id limit 1 for update skip locked')).rows);
await c.query('COMMIT');
// LISTEN/NOTIFY
let got = [];
c.on('notification', (n) => got.push(n));
await c.query('LISTEN ch');
await c.query("NOTIFY ch, 'hello'");
await c.query("select pg_notify('ch','two')");
await new Promise(r=>setTimeout(r,300));
console.log('notifications', got.map(n=>[n.channel,n.payload]));
c.release();
// second connection
const other = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
try { await other.connect(); console.log('second conn OK?', (await other.query('select 1')).rows); await other.end(); } catch (e) { console.log('second conn error:', e.message); }
await pool.end();
await server.stop(); await db.close();
console.log('done', Date.now()-t0);
