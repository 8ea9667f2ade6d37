// The /api/v1 service (as `tracelab serve`) mounted in a node:http server of your own.
// Usage: PORT=8787 node server.mjs   (then: curl -u my-id:my-secret -F image=@input.png http://127.0.0.1:8787/api/v1/vectorize)
import { createServer } from 'node:http';
import { createHandler, toNodeListener } from 'tracelab/handler';

const handler = createHandler({
  credentials: { apiId: 'my-id', apiSecret: 'my-secret' },
  store: { directory: process.env.IMAGES_DIR ?? './tracelab-images' }, // default: in memory
});
// Any framework speaking Request/Response can call `handler(request)` directly instead.
const server = createServer(toNodeListener(handler));
server.listen(Number(process.env.PORT ?? 8787), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/api/v1`);
});
process.on('SIGTERM', () => server.close(() => handler.close()));
