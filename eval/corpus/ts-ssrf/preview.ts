import express from 'express';

const app = express();

app.get('/preview', async (req, res) => {
  const target = String(req.query.url ?? '');
  try {
    const upstream = await fetch(target);
    const html = await upstream.text();
    const title = /<title>([^<]*)<\/title>/i.exec(html)?.[1] ?? '';
    res.json({ url: target, title });
  } catch {
    res.status(502).json({ error: 'could not fetch' });
  }
});

app.listen(3000);
