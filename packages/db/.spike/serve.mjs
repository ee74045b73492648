import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
const db = await PGlite.create();
await db.exec('create schema fx; create table fx.widget(id uuid not null, name text not null, constraint widget_pkey primary key (id));');
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 55432, maxConnections: 1 });
await server.start();
console.log('up');
setTimeout(async()=>{await server.stop(); await db.close(); process.exit(0)}, 90000);
