import express from 'express';

const app = express();
const ALLOWED_HOSTS = new Set(['example.com', 'www.example.com', 'blog.example.com']);

app.get('/preview', async (req, res) => {
  let target: URL;
  try {
    target = new URL(String(req.query.url ?? ''));
  } catch {
    return res.status(400).json({ error: 'bad url' });
  }
  if (target.protocol !== 'https:' || !ALLOWED_HOSTS.has(target.hostname)) {
    return res.status(400).json({ error: 'host not allowed' });
  }
  try {
    const upstream = await fetch(target, { redirect: 'error' });
    const html = await upstream.text();
    const title = /<title>([^<]*)<\/title>/i.exec(html)?.[1] ?? '';
    return res.json({ url: target.href, title });
  } catch {
    return res.status(502).json({ error: 'could not fetch' });
  }
});

app.listen(3000);
