import express from 'express';

const app = express();

const products = ['lamp', 'desk', 'chair', 'shelf'];

app.get('/search', (req, res) => {
  const q = String(req.query.q ?? '');
  const hits = products.filter((p) => p.includes(q.toLowerCase()));
  res.send(`<h1>Results for ${q}</h1><ul>${hits.map((h) => `<li>${h}</li>`).join('')}</ul>`);
});

app.listen(3000);
