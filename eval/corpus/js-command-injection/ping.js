const { exec } = require('child_process');
const http = require('http');
const { URL } = require('url');

http
  .createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const host = url.searchParams.get('host') || 'localhost';
    exec(`ping -c 1 ${host}`, (err, stdout) => {
      res.writeHead(err ? 500 : 200, { 'Content-Type': 'text/plain' });
      res.end(err ? 'ping failed' : stdout);
    });
  })
  .listen(8080);
