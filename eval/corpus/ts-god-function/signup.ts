import { writeFileSync, readFileSync } from 'node:fs';
import { createTransport } from 'nodemailer';

export async function handleSignup(body: { email: string; name: string; plan: string }): Promise<string> {
  if (!/^[^@\s]+@[^@\s]+$/.test(body.email)) return 'invalid email';
  if (body.name.trim().length === 0) return 'invalid name';
  const db = JSON.parse(readFileSync('/var/app/users.json', 'utf8')) as { email: string }[];
  if (db.some((u) => u.email === body.email)) return 'exists';
  const price = body.plan === 'pro' ? 20 : body.plan === 'team' ? 50 : 0;
  db.push({ email: body.email });
  writeFileSync('/var/app/users.json', JSON.stringify(db));
  const mail = createTransport({ host: 'smtp.internal', port: 25 });
  await mail.sendMail({ to: body.email, subject: 'Welcome', text: `Hi ${body.name}, your plan costs $${price}/month.` });
  const log = `${new Date().toISOString()} signup ${body.email} ${body.plan}\n`;
  writeFileSync('/var/app/signup.log', log, { flag: 'a' });
  return 'ok';
}
