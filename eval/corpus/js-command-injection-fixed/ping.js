const { execFile } = require('child_process');
const http = require('http');
const { URL } = require('url');

const HOST = /^[A-Za-z0-9.-]{1,253}$/;

http
  .createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const host = url.searchParams.get('host') || 'localhost';
    if (!HOST.test(host)) {
      res.writeHead(400, { 'Content-Type': 'text/plain' });
      res.end('bad host');
      return;
    }
    execFile('ping', ['-c', '1', host], (err, stdout) => {
      res.writeHead(err ? 500 : 200, { 'Content-Type': 'text/plain' });
      res.end(err ? 'ping failed' : stdout);
    });
  })
  .listen(8080);
